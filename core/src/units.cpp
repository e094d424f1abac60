#include "ooc/core/units.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>

#include "ooc/core/error.hpp"

namespace ooc {
namespace {

struct Unit {
  std::string_view name;
  double factor;
};

constexpr std::array<Unit, 14> kUnits{{{"", 1.0},
                                       {"b", 1.0},
                                       {"k", 1024.0},
                                       {"kib", 1024.0},
                                       {"kb", 1e3},
                                       {"m", 1048576.0},
                                       {"mib", 1048576.0},
                                       {"mb", 1e6},
                                       {"g", 1073741824.0},
                                       {"gib", 1073741824.0},
                                       {"gb", 1e9},
                                       {"t", 1099511627776.0},
                                       {"tib", 1099511627776.0},
                                       {"tb", 1e12}}};

[[noreturn]] void bad_size(std::string_view text, std::string_view why) {
  throw InvalidInput("invalid size '" + std::string(text) + "': " + std::string(why) +
                     " (expected a number with an optional unit, e.g. 32MiB, 8GB, 4096)");
}

}  // namespace

std::uint64_t parse_size(std::string_view text) {
  const char* first = text.data();
  const char* last = text.data() + text.size();
  while (first < last && std::isspace(static_cast<unsigned char>(*first)))
    ++first;
  double value = 0;
  auto [ptr, ec] = std::from_chars(first, last, value);
  if (ec != std::errc{} || ptr == first) bad_size(text, "no number");
  if (value < 0 || !std::isfinite(value)) bad_size(text, "must be a non-negative number");
  std::string unit(ptr, last);
  unit.erase(std::remove_if(unit.begin(), unit.end(),
                            [](unsigned char c) { return std::isspace(c) != 0; }),
             unit.end());
  std::transform(unit.begin(), unit.end(), unit.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const Unit& u : kUnits) {
    if (unit == u.name) {
      const double bytes = std::round(value * u.factor);
      if (bytes >= 1.8e19) bad_size(text, "too large");
      return static_cast<std::uint64_t>(bytes);
    }
  }
  bad_size(text, "unknown unit '" + unit + "'");
}

std::string format_bytes(std::uint64_t bytes) {
  static constexpr std::array<const char*, 5> kNames{"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  std::size_t i = 0;
  while (value >= 1024.0 && i + 1 < kNames.size()) {
    value /= 1024.0;
    ++i;
  }
  char out[32];
  if (i == 0) {
    std::snprintf(out, sizeof out, "%llu B", static_cast<unsigned long long>(bytes));
  } else {
    std::snprintf(out, sizeof out, value < 10 ? "%.2f %s" : "%.1f %s", value, kNames[i]);
  }
  return out;
}

std::string with_commas(std::uint64_t n) {
  std::string digits = std::to_string(n);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3)
    digits.insert(static_cast<std::size_t>(i), ",");
  return digits;
}

}  // namespace ooc
