// The Matrix Market reader: the banner and the size line are read serially, then the entries
// go through the shared parallel line parser with 1-based ids bounded by the declared size.
#include "matrix_market.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <string>
#include <vector>

#include "ooc/core/error.hpp"
#include "text_parser.hpp"

namespace ooc::detail {
namespace {

constexpr std::uint64_t kMaxVertices = std::uint64_t{kMaxVertexId} + 1;

struct Header {
  std::string field;  // pattern | integer | real
  bool symmetric = false;
  std::uint64_t vertices = 0;  // max(rows, columns)
  std::uint64_t entries = 0;
  TextBody body;
};

std::string lower(std::string_view word) {
  std::string out(word);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

[[noreturn]] void bad_banner(std::string_view name, const std::string& why) {
  throw_at_line(name, 1, why);
}

void read_banner(std::string_view line, std::string_view name, Header& header) {
  const std::vector<std::string_view> words = split_columns(line);
  if (words.empty() || lower(words[0]) != "%%matrixmarket")
    bad_banner(name, "not a Matrix Market file (expected '%%MatrixMarket matrix coordinate ...')");
  if (words.size() != 5 || lower(words[1]) != "matrix") {
    bad_banner(name,
               "expected '%%MatrixMarket matrix coordinate <field> <symmetry>' on the first line");
  }
  const std::string storage = lower(words[2]);
  const std::string field = lower(words[3]);
  const std::string symmetry = lower(words[4]);
  if (storage != "coordinate") {
    bad_banner(name,
               "storage " + quote(words[2]) + " is not supported (a graph needs 'coordinate')");
  }
  if (field != "pattern" && field != "integer" && field != "real") {
    bad_banner(name,
               "field " + quote(words[3]) + " is not supported (use pattern, integer or real)");
  }
  if (symmetry != "general" && symmetry != "symmetric") {
    bad_banner(name,
               "symmetry " + quote(words[4]) + " is not supported (use general or symmetric)");
  }
  header.field = field;
  header.symmetric = symmetry == "symmetric";
}

void read_size(std::string_view line, std::uint64_t line_number, std::string_view name,
               Header& header) {
  const std::vector<std::string_view> words = split_columns(line);
  std::array<std::uint64_t, 3> values{};
  const auto is_number = [&](std::size_t i) {
    const char* end = words[i].data() + words[i].size();
    const auto [stop, ec] = std::from_chars(words[i].data(), end, values[i]);
    return ec == std::errc{} && stop == end;
  };
  if (words.size() != 3 || !is_number(0) || !is_number(1) || !is_number(2)) {
    throw_at_line(name, line_number,
                  "expected the size line 'rows columns entries', found " + quote(line));
  }
  header.vertices = std::max(values[0], values[1]);
  header.entries = values[2];
  if (header.vertices > kMaxVertices) {
    throw_at_line(name, line_number,
                  "matrix size " + std::to_string(header.vertices) +
                      " is above the largest vertex count allowed (" +
                      std::to_string(kMaxVertices) + ")");
  }
}

// The banner must be the first line; comments and blank lines may precede the size line.
Header read_header(std::string_view bytes, std::string_view name) {
  Header header;
  LineReader lines(bytes);
  read_banner(lines.next().value_or(""), name, header);
  while (const auto line = lines.next()) {
    if (is_blank_or_comment(*line)) continue;
    read_size(*line, lines.line_number(), name, header);
    header.body = {bytes.substr(lines.offset()), lines.line_number() + 1, name};
    return header;
  }
  throw FormatError(std::string(name) +
                    ": missing the size line 'rows columns entries' after the header");
}

LineRule entry_rule(const Header& header) {
  LineRule rule;
  rule.weighted = header.field != "pattern";
  rule.real_weights = header.field == "real";
  rule.min_id = 1;
  rule.max_id = header.vertices;
  rule.above_max = "the matrix size";
  rule.below_min = "Matrix Market ids start at 1";
  rule.missing_weight = "missing value (entries of a '" + header.field +
                        "' matrix have three columns: row, column, value)";
  rule.extra_column_note = rule.weighted ? "an entry has three columns: row, column, value"
                                         : "a 'pattern' matrix has no values";
  return rule;
}

void check_entry_count(const Header& header, std::uint64_t found, std::string_view name) {
  if (found == header.entries) return;
  const std::string counts =
      ": expected " + std::to_string(header.entries) + " entries, found " + std::to_string(found);
  throw FormatError(std::string(name) + counts +
                    (found < header.entries ? " (file truncated?)" : " (is the size line wrong?)"));
}

}  // namespace

EdgeList parse_matrix_market(std::string_view bytes, const ReadOptions& options,
                             std::string_view name) {
  if (bytes.find_first_not_of(" \t\r\n") == std::string_view::npos) return {};
  const Header header = read_header(bytes, name);
  EdgeList edges = parse_lines(header.body, entry_rule(header), options);
  check_entry_count(header, edges.size(), name);
  edges.num_vertices = static_cast<vid_t>(header.vertices);
  edges.symmetric_input = header.symmetric;
  return edges;
}

}  // namespace ooc::detail
