#include "outputs.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <bit>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <functional>
#include <iostream>

#include "ooc/core/error.hpp"
#include "ooc/core/units.hpp"

namespace ooc::tools {

std::FILE* report_stream(const Args& a) {
  const bool taken =
      a.output == kStandardOutput || a.json == kStandardOutput || a.trace == kStandardOutput;
  return taken ? stderr : stdout;
}

std::string check_outputs(const Args& a) {
  const int taking =
      (a.output == kStandardOutput) + (a.json == kStandardOutput) + (a.trace == kStandardOutput);
  if (taking <= 1) return {};
  return "only one of --output, --json and --trace can write to standard output ('-')";
}

OutputStream::OutputStream(const std::string& path) : path_(path), out_(&std::cout) {
  if (path == kStandardOutput) return;
  file_.open(path);
  if (!file_) throw IoError("cannot write '" + path + "'");
  out_ = &file_;
}

void OutputStream::finish() {
  out_->flush();
  if (!*out_) throw IoError("cannot write '" + path_ + "'");
}

void write_values(const std::string& path, const Algorithm& algorithm,
                  const std::vector<double>& values, std::size_t columns) {
  const bool standard = path == kStandardOutput;
  std::FILE* out = standard ? stdout : std::fopen(path.c_str(), "w");
  if (out == nullptr) throw IoError("cannot write '" + path + "': " + std::strerror(errno));
  for (std::size_t v = 0; v * columns < values.size(); ++v)
    algorithm.write_value(out, v, std::span(values).subspan(v * columns, columns));
  if ((standard ? std::fflush(out) : std::fclose(out)) != 0)
    throw IoError("cannot write '" + path + "': " + std::strerror(errno));
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
