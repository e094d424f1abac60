// The DIMACS shortest-path reader: the lines before the problem line and the problem line itself
// are read serially, then the arcs go through the shared parallel line parser, whose rule knows
// the lines by their first word, with 1-based ids bounded by the problem line's vertex count and
// integer weights. As Matrix Market's size line does, the problem line fixes the vertex count
// and the number of arcs, which is checked.
#include "dimacs.hpp"

#include <array>
#include <charconv>
#include <string>
#include <vector>

#include "ooc/core/error.hpp"
#include "text_parser.hpp"

namespace ooc::detail {
namespace {

constexpr std::uint64_t kMaxVertices = std::uint64_t{kMaxVertexId} + 1;
constexpr std::string_view kProblemLine = "'p sp <vertices> <arcs>'";

struct Problem {
  std::uint64_t vertices = 0;
  std::uint64_t arcs = 0;
  std::uint64_t line = 0;  // its line number
  TextBody body;           // the lines after it
};

std::string unknown_line(std::string_view word) {
  return "unknown line type " + quote(word) + " (DIMACS lines start with c, p or a)";
}

void read_problem(const std::vector<std::string_view>& words, std::string_view line,
                  std::string_view name, Problem& problem) {
  if (words.size() >= 2 && words[1] != "sp") {
    throw_at_line(name, problem.line,
                  "problem " + quote(words[1]) + " is not supported (a graph is " +
                      std::string(kProblemLine) + ", a shortest-path problem)");
  }
  std::array<std::uint64_t, 2> values{};
  const auto is_number = [&](std::size_t i) {
    const std::string_view word = words[i + 2];
    const auto [stop, ec] = std::from_chars(word.data(), word.data() + word.size(), values[i]);
    return ec == std::errc{} && stop == word.data() + word.size();
  };
  if (words.size() != 4 || !is_number(0) || !is_number(1)) {
    throw_at_line(
        name, problem.line,
        "expected the problem line " + std::string(kProblemLine) + ", found " + quote(line));
  }
  problem.vertices = values[0];
  problem.arcs = values[1];
  if (problem.vertices > kMaxVertices) {
    throw_at_line(name, problem.line,
                  "vertex count " + std::to_string(problem.vertices) +
                      " is above the largest allowed (" + std::to_string(kMaxVertices) + ")");
  }
}

// Comments and blank lines may precede the problem line; nothing else may.
Problem find_problem(std::string_view bytes, std::string_view name) {
  Problem problem;
  LineReader lines(bytes);
  while (const auto line = lines.next()) {
    if (is_blank_or_comment(*line)) continue;
    const std::vector<std::string_view> words = split_columns(*line);
    if (words[0] == "c") continue;
    problem.line = lines.line_number();
    if (words[0] == "a") {
      throw_at_line(name, problem.line, "arc before the problem line " + std::string(kProblemLine));
    }
    if (words[0] != "p") throw_at_line(name, problem.line, unknown_line(words[0]));
    read_problem(words, *line, name, problem);
    problem.body = {bytes.substr(lines.offset()), problem.line + 1, name};
    return problem;
  }
  throw FormatError(std::string(name) + ": missing the problem line " + std::string(kProblemLine));
}

LineRule arc_rule(const Problem& problem) {
  LineRule rule;
  rule.weighted = true;
  rule.integer_weights = true;
  rule.integer_weight_error =
      "is not an integer from 0 to 4294967295 (DIMACS arc weights are non-negative integers)";
  rule.min_id = 1;
  rule.max_id = problem.vertices;
  rule.above_max = "the problem line's vertex count";
  rule.below_min = "DIMACS vertex ids start at 1";
  rule.missing_weight = "missing weight (an arc line is 'a <from> <to> <weight>')";
  rule.extra_column_note = "an arc line has four: a, from, to, weight";
  rule.edge_word = 'a';
  rule.comment_word = 'c';
  rule.other_line = [first = problem.line](std::string_view word) {
    if (word != "p") return unknown_line(word);
    return "a second problem line (the first is line " + std::to_string(first) + ")";
  };
  return rule;
}

void check_arc_count(const Problem& problem, std::uint64_t found, std::string_view name) {
  if (found == problem.arcs) return;
  throw FormatError(
      std::string(name) + ": the problem line declares " + std::to_string(problem.arcs) +
      " arcs, but the file has " + std::to_string(found) +
      (found < problem.arcs ? " (fewer: file truncated?)" : " (more: is the problem line wrong?)"));
}

}  // namespace

EdgeList parse_dimacs(std::string_view bytes, const ReadOptions& options, std::string_view name) {
  if (bytes.find_first_not_of(" \t\r\n") == std::string_view::npos) return {};
  const Problem problem = find_problem(bytes, name);
  EdgeList edges = parse_lines(problem.body, arc_rule(problem), options);
  check_arc_count(problem, edges.size(), name);
  edges.num_vertices = static_cast<vid_t>(problem.vertices);
  return edges;
}

}  // namespace ooc::detail
