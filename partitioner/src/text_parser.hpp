#pragma once
// The parallel line parser behind every text reader. The body of a file (what follows any
// header) is cut into chunks at line boundaries; oneTBB parses the chunks at once into per-chunk
// arrays, which are then concatenated at offsets from a prefix sum. Each chunk counts its lines,
// so an error names its exact line whichever chunk finds it, and the first error of the file
// is the one reported.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ooc/core/types.hpp"
#include "ooc/partitioner/edge_list.hpp"
#include "ooc/partitioner/readers.hpp"

namespace ooc::detail {

// How every line of a body is read. It is fixed before parsing starts (by the format, the first
// edge line or a Matrix Market header), so that all chunks apply the same rule.
struct LineRule {
  bool weighted = false;      // a third column is required, and nothing may follow it
  bool real_weights = false;  // weights are f32 even where they look like integers
  // Ids as written lie in [min_id, max_id]; they are stored as id - min_id.
  std::uint64_t min_id = 0;
  std::uint64_t max_id = kMaxVertexId;
  std::string above_max = "the largest allowed";  // "vertex id N is above <this> (max_id)"
  std::string below_min;                          // "vertex id N is below min_id (<this>)"
  std::string missing_weight;     // the whole message for a weighted line with two columns
  std::string extra_column_note;  // "unexpected third column 'x' (<this>)"
  // Weights are integers from 0 to 2^32-1 whatever the options force (DIMACS; forced f32 makes
  // them floats of that value); any other is refused: "weight 'x' <integer_weight_error>".
  bool integer_weights = false;
  std::string integer_weight_error;
  // Line types by their first word (DIMACS): an edge line begins with the word `edge_word`, a
  // line that begins with the word `comment_word` is a comment, and any other line is refused
  // with other_line(its first word). '\0': no words, every line that is not a comment is an edge.
  char edge_word = '\0';
  char comment_word = '\0';
  std::function<std::string(std::string_view word)> other_line;
};

struct TextBody {
  std::string_view text;         // whole lines
  std::uint64_t first_line = 1;  // the line number of text[0] in the file
  std::string_view name;         // the file, for messages
};

// The rule of an edge list (el: from the first edge line of `text`, which starts at the file's
// start or at that line) or of a .wel file.
LineRule line_rule(Format format, std::string_view text);

// Edges in file order; num_vertices is the largest stored id + 1 (0 without edges). Throws
// FormatError "name:line: why".
EdgeList parse_lines(const TextBody& body, const LineRule& rule, const ReadOptions& options);

// For the serial parts of a reader (headers, finding the first edge line): whole lines without
// their line ending, numbered from 1.
class LineReader {
 public:
  explicit LineReader(std::string_view text) : text_(text) {}
  std::optional<std::string_view> next();
  std::uint64_t line_number() const noexcept { return line_; }  // of the last line returned
  std::size_t offset() const noexcept { return pos_; }          // just after that line

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  std::uint64_t line_ = 0;
};

// Blank, or a comment ('#' or '%' as the first character that is not a space or tab).
bool is_blank_or_comment(std::string_view line) noexcept;
// The whitespace-separated columns of a line.
std::vector<std::string_view> split_columns(std::string_view line);
// 'text' for a message: long tokens are shortened, unprintable bytes written as \xNN.
std::string quote(std::string_view token);
[[noreturn]] void throw_at_line(std::string_view name, std::uint64_t line, std::string_view why);

}  // namespace ooc::detail
