// The readers' entry points: format names and detection, then a file's bytes (mapped, or
// inflated when gzipped) handed to the parser of its format. Edge lists and .wel share the line
// parser and differ only in how the weight column is decided; Matrix Market and DIMACS read their
// header first (matrix_market.cpp, dimacs.cpp); binary edge lists have their own reader
// (binary_edge_list.cpp).
#include "ooc/partitioner/readers.hpp"

#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <limits>

#include "binary_edge_list.hpp"
#include "dimacs.hpp"
#include "file_bytes.hpp"
#include "gzip.hpp"
#include "matrix_market.hpp"
#include "ooc/core/error.hpp"
#include "text_parser.hpp"

namespace ooc {
namespace {

struct FormatName {
  std::string_view name;
  Format format;
};

constexpr std::array<FormatName, 13> kFormatNames{{{"el", Format::edge_list},
                                                   {"edgelist", Format::edge_list},
                                                   {"txt", Format::edge_list},
                                                   {"snap", Format::edge_list},
                                                   {"wel", Format::wel},
                                                   {"mtx", Format::mtx},
                                                   {"gr", Format::gr},
                                                   {"dimacs", Format::gr},
                                                   {"oocg", Format::oocg},
                                                   {"bin32", Format::bin32},
                                                   {"bin64", Format::bin64},
                                                   {"wbin32", Format::wbin32},
                                                   {"wbin64", Format::wbin64}}};

constexpr std::array<FormatName, 12> kExtensions{{{".el", Format::edge_list},
                                                  {".txt", Format::edge_list},
                                                  {".edges", Format::edge_list},
                                                  {".snap", Format::edge_list},
                                                  {".wel", Format::wel},
                                                  {".mtx", Format::mtx},
                                                  {".gr", Format::gr},
                                                  {".oocg", Format::oocg},
                                                  {".bin32", Format::bin32},
                                                  {".bin64", Format::bin64},
                                                  {".wbin32", Format::wbin32},
                                                  {".wbin64", Format::wbin64}}};

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string accepted_names() {
  std::string names;
  for (const FormatName& entry : kFormatNames)
    names += (names.empty() ? "" : ", ") + std::string(entry.name);
  return names;
}

// SNAP and GAP files say nothing about their columns: the first edge line decides.
detail::LineRule edge_list_rule(std::string_view text) {
  detail::LineReader lines(text);
  detail::LineRule rule;
  while (const auto line = lines.next()) {
    if (detail::is_blank_or_comment(*line)) continue;
    rule.weighted = detail::split_columns(*line).size() >= 3;
    break;
  }
  rule.missing_weight =
      "missing weight (the first edge line had a weight column, this one does not)";
  rule.extra_column_note = rule.weighted ? "a line has at most three: source, target, weight"
                                         : "the first edge line had two columns";
  return rule;
}

detail::LineRule wel_rule() {
  detail::LineRule rule;
  rule.weighted = true;
  rule.missing_weight = "missing weight (every line of a .wel file has three columns)";
  rule.extra_column_note = "a .wel line has three columns: source, target, weight";
  return rule;
}

void reject_binary(Format format, std::string_view name) {
  if (format == Format::oocg) {
    throw InvalidInput(std::string(name) +
                       ": .oocg is a binary format; load it with read_oocg, not as text");
  }
  if (is_binary_edge_list(format)) {
    throw InvalidInput(std::string(name) + ": " + std::string(to_string(format)) +
                       " is a binary edge list; read it with read_binary, not as text");
  }
}

template <class Parse>
EdgeList with_threads(unsigned threads, Parse&& parse) {
  if (threads == 0) return parse();
  tbb::task_arena arena(
      static_cast<int>(std::min<unsigned>(threads, std::numeric_limits<int>::max())));
  return arena.execute(parse);
}

}  // namespace

std::string_view to_string(Format f) {
  // A format's first name in the table is its own.
  for (const FormatName& entry : kFormatNames) {
    if (entry.format == f) return entry.name;
  }
  return "?";
}

Format parse_format(std::string_view name) {
  const std::string key = lower(name);
  for (const FormatName& entry : kFormatNames) {
    if (entry.name == key) return entry.format;
  }
  throw InvalidInput("unknown format '" + std::string(name) + "' (accepted: " + accepted_names() +
                     ")");
}

Format detect_format(const std::filesystem::path& path) {
  std::filesystem::path file = path.filename();
  if (lower(file.extension().string()) == ".gz") file = file.stem();
  const std::string extension = lower(file.extension().string());
  for (const FormatName& entry : kExtensions) {
    if (entry.name == extension) return entry.format;
  }
  throw InvalidInput("cannot tell the format of '" + path.string() + "'; use --format");
}

bool is_binary_edge_list(Format format) noexcept {
  return format == Format::bin32 || format == Format::bin64 || format == Format::wbin32 ||
         format == Format::wbin64;
}

EdgeList read_text(const std::filesystem::path& path, Format format, const ReadOptions& options) {
  const std::string name = path.string();
  reject_binary(format, name);
  Buffer<char> bytes = detail::read_file_bytes(path);
  if (detail::is_gzip(path, bytes.span())) bytes = detail::gunzip(bytes.span(), name);
  return parse_text({bytes.data(), bytes.size()}, format, options, name);
}

EdgeList parse_text(std::string_view bytes, Format format, const ReadOptions& options,
                    std::string_view name) {
  reject_binary(format, name);
  return with_threads(options.threads, [&] {
    if (format == Format::mtx) return detail::parse_matrix_market(bytes, options, name);
    if (format == Format::gr) return detail::parse_dimacs(bytes, options, name);
    return detail::parse_lines({bytes, 1, name}, detail::line_rule(format, bytes), options);
  });
}

detail::LineRule detail::line_rule(Format format, std::string_view text) {
  return format == Format::wel ? wel_rule() : edge_list_rule(text);
}

EdgeList read_binary(const std::filesystem::path& path, Format format, const ReadOptions& options) {
  if (!is_binary_edge_list(format)) {
    throw InvalidInput(path.string() + ": " + std::string(to_string(format)) +
                       " is not a binary edge list (bin32, bin64, wbin32, wbin64)");
  }
  return with_threads(options.threads,
                      [&] { return detail::read_binary_edge_list(path, format, options); });
}

EdgeList read_edges(const std::filesystem::path& path, Format format, const ReadOptions& options) {
  return is_binary_edge_list(format) ? read_binary(path, format, options)
                                     : read_text(path, format, options);
}

}  // namespace ooc
