#include "outputs.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <array>
#include <bit>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <utility>

#include "ooc/core/error.hpp"
#include "ooc/core/units.hpp"

namespace ooc::tools {

namespace {

// The files of the command line, by option.
std::array<std::pair<const char*, const std::string*>, 3> output_files(const Args& a) {
  return {{{"--output", &a.output}, {"--json", &a.json}, {"--trace", &a.trace}}};
}

int taking_standard_output(const Args& a) {
  int taking = 0;
  for (const auto& file : output_files(a))
    taking += *file.second == kStandardOutput;
  return taking;
}

}  // namespace

std::FILE* report_stream(const Args& a) {
  return taking_standard_output(a) > 0 ? stderr : stdout;
}

std::string check_outputs(const Args& a) {
  if (taking_standard_output(a) <= 1) return {};
  return "only one of --output, --json and --trace can write to standard output ('-')";
}

void check_output_paths(const Args& a) {
  for (const auto& [option, path] : output_files(a)) {
    if (!path->empty() && *path != kStandardOutput) check_writable(*path, option);
  }
}

OutputStream::OutputStream(const std::string& path) : path_(path), out_(stdout) {
  if (path == kStandardOutput) return;
  file_.emplace(path);
  out_ = file_->get();
}

void OutputStream::write(std::string_view text) {
  if (std::fwrite(text.data(), 1, text.size(), out_) != text.size())
    throw IoError("cannot write '" + path_ + "': " + std::strerror(errno));
}

void OutputStream::finish() {
  if (file_) {
    file_->commit();
  } else if (std::fflush(out_) != 0 || std::ferror(out_) != 0) {
    throw IoError("cannot write '" + path_ + "': " + std::strerror(errno));
  }
}

void write_values(const std::string& path, const Algorithm& algorithm,
                  const std::vector<double>& values, std::size_t columns) {
  OutputStream out(path);
  for (std::size_t v = 0; v * columns < values.size(); ++v)
    algorithm.write_value(out.get(), v, std::span(values).subspan(v * columns, columns));
  out.finish();
}

std::vector<double> read_ranks(const std::string& path, std::size_t vertices) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw IoError("cannot open '" + path + "': " + std::strerror(errno));
  std::string text(static_cast<std::size_t>(in.tellg()), '\0');
  in.seekg(0);
  if (!in.read(text.data(), static_cast<std::streamsize>(text.size())))
    throw IoError("cannot read '" + path + "'");
  std::vector<double> ranks;
  ranks.reserve(vertices);
  const char* p = text.data();
  const char* const end = p + text.size();
  while (p < end) {
    const auto bad = [&] {
      return InvalidInput(path + ": line " + with_commas(ranks.size() + 1) +
                          " is not 'vertex<TAB>rank' for vertex " + with_commas(ranks.size()) +
                          " (write the file with ooc-run pagerank --output)");
    };
    std::uint64_t v = 0;
    const std::from_chars_result id = std::from_chars(p, end, v);
    if (id.ec != std::errc{} || v != ranks.size() || id.ptr == end || *id.ptr != '\t') throw bad();
    double rank = 0;
    const std::from_chars_result value = std::from_chars(id.ptr + 1, end, rank);
    if (value.ec != std::errc{} || (value.ptr != end && *value.ptr != '\n')) throw bad();
    ranks.push_back(rank);
    p = value.ptr == end ? end : value.ptr + 1;
  }
  if (ranks.size() != vertices) {
    throw InvalidInput(path + " holds " + with_commas(ranks.size()) + " ranks, and the graph has " +
                       with_commas(vertices) + " vertices");
  }
  return ranks;
}

double l1_distance(const std::vector<double>& a, const std::vector<double>& b) {
  double sum = 0;
  for (std::size_t v = 0; v < a.size(); ++v)
    sum += std::abs(a[v] - b[v]);
  return sum;
}

std::uint64_t digest(const std::vector<double>& values) {
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, values.size()), std::uint64_t{0},
      [&](const tbb::blocked_range<std::size_t>& r, std::uint64_t h) {
        for (std::size_t v = r.begin(); v < r.end(); ++v) {
          std::uint64_t x = std::bit_cast<std::uint64_t>(values[v]) ^ (v * 0x9e3779b97f4a7c15ull);
          x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
          x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
          h += x ^ (x >> 31);
        }
        return h;
      },
      std::plus<>());
}

}  // namespace ooc::tools
