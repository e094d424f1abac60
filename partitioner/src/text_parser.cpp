// The chunked parallel parser of the text readers (see text_parser.hpp). The inner loop is
// written by hand because text parsing bounds how fast a graph loads. Every chunk ends with a
// '\n' (an unterminated last line is copied and given one), so that the scans inside a line
// stop at that newline and never test for the end of the buffer; ids are bounded by counting
// their digits, not by a test per digit; weights try an integer fast path before from_chars.
#include "text_parser.hpp"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>

#include "ooc/core/error.hpp"
#include "ooc/core/progress.hpp"

namespace ooc::detail {
namespace {

constexpr std::size_t kMinChunkBytes = std::size_t{64} << 10;
constexpr std::size_t kMaxChunkBytes = std::size_t{16} << 20;
constexpr std::size_t kChunksPerThread = 8;  // slack, so that uneven chunks still balance
// Above every valid id and u32 weight; from here value * 10 + 9 cannot overflow.
constexpr std::uint64_t kSaturated = std::uint64_t{1} << 40;
// kMaxVertexId has 10 digits, and 10 digits cannot overflow 64 bits.
constexpr std::ptrdiff_t kMaxIdDigits = 10;
constexpr std::size_t kMaxShown = 40;

bool is_blank(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\r';
}
bool is_digit(char c) noexcept {
  return c >= '0' && c <= '9';
}
std::uint64_t digit(char c) noexcept {
  return static_cast<std::uint64_t>(c - '0');
}

bool all_digits(std::string_view s) noexcept {
  return !s.empty() && std::all_of(s.begin(), s.end(), is_digit);
}

// Printable ASCII as is, other bytes as \xNN, at most kMaxShown characters of the input.
std::string printable(std::string_view token) {
  std::string shown;
  for (const char c : token.substr(0, kMaxShown)) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f) {
      shown += c;
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", byte);
      shown += hex;
    }
  }
  if (token.size() > kMaxShown) shown += "...";
  return shown;
}

std::optional<std::uint32_t> as_u32(std::string_view token) noexcept {
  if (!all_digits(token)) return std::nullopt;
  std::uint64_t value = 0;
  for (const char c : token)
    value = std::min(value * 10 + digit(c), kSaturated);
  if (value > std::numeric_limits<std::uint32_t>::max()) return std::nullopt;
  return static_cast<std::uint32_t>(value);
}

// Thrown inside a chunk and caught at its edge, where the line number is known.
struct LineError {
  std::string why;
};

float as_float(std::string_view token) {
  float value = 0;
  const char* end = token.data() + token.size();
  const auto [stop, ec] = std::from_chars(token.data(), end, value);
  if (ec == std::errc::invalid_argument || stop != end)
    throw LineError{"expected a weight, found " + quote(token)};
  if (ec == std::errc::result_out_of_range)
    throw LineError{"weight " + quote(token) + " does not fit in a 32-bit float"};
  if (!std::isfinite(value)) throw LineError{"weight " + quote(token) + " is not a finite number"};
  return value;
}

// What one chunk yields. The arrays are sized for the most edges its bytes can hold (a line is
// at least "a b\n"), so that the inner loop stores without checking capacity.
struct ChunkResult {
  Buffer<vid_t> sources;
  Buffer<vid_t> targets;
  Buffer<std::uint32_t> weights;
  std::size_t edges = 0;
  std::uint64_t lines = 0;  // lines begun, the failing one included
  vid_t max_id = 0;
  bool float_weights = false;        // weights are f32 bits (else u32)
  std::optional<std::string> error;  // why the chunk's last line begun is wrong
};

// Parses one chunk, which must end with a '\n'; stops at the first bad line.
class ChunkParser {
 public:
  ChunkParser(std::string_view text, const LineRule& rule, const ReadOptions& options,
              ChunkResult& out)
      : p_(text.data()),
        end_(text.data() + text.size()),
        rule_(rule),
        out_(out),
        keep_weights_(rule.weighted && options.read_weights),
        forced_u32_(options.force_weight_type == WeightType::u32) {
    const std::size_t capacity = text.size() / 4 + 1;
    out_.sources = Buffer<vid_t>::allocate(capacity);
    out_.targets = Buffer<vid_t>::allocate(capacity);
    if (keep_weights_) out_.weights = Buffer<std::uint32_t>::allocate(capacity);
    out_.float_weights =
        !forced_u32_ && (rule.real_weights || options.force_weight_type == WeightType::f32);
  }

  void run() {
    try {
      while (p_ != end_) {
        ++out_.lines;
        parse_line();
      }
    } catch (const LineError& e) {
      out_.error = e.why;
    }
  }

 private:
  void parse_line() {
    skip_blanks();
    if (*p_ == '#' || *p_ == '%') {
      skip_to_line_end();
    } else if (!at_line_end() && (rule_.edge_word == '\0' || at_edge_word())) {
      parse_edge();
    }
    ++p_;  // the '\n'
  }

  // A line of a format whose lines begin with their type's word: true at an edge line, with the
  // word skipped; a comment is skipped whole, any other line refused.
  bool at_edge_word() {
    const bool word = is_blank(p_[1]) || p_[1] == '\n';  // p_[1] exists: *p_ is not the '\n'
    if (word && *p_ == rule_.edge_word) {
      ++p_;
      skip_blanks();
      return true;
    }
    if (word && *p_ == rule_.comment_word) {
      skip_to_line_end();
      return false;
    }
    throw LineError{rule_.other_line(token_at(p_))};
  }

  void parse_edge() {
    const vid_t source = read_id();
    skip_blanks();
    const vid_t target = read_id();
    skip_blanks();
    std::uint32_t weight = 0;
    if (rule_.weighted) {
      if (at_line_end()) throw LineError{rule_.missing_weight};
      weight = read_weight();
      skip_blanks();
    }
    if (!at_line_end()) extra_column();
    store(source, target, weight);
  }

  vid_t read_id() {
    const char* start = p_;
    while (*p_ == '0')  // leading zeros, so that the digit count bounds the value
      ++p_;
    const char* digits = p_;
    std::uint64_t value = 0;
    while (is_digit(*p_)) {
      value = value * 10 + digit(*p_);  // wraps only past 19 digits, caught below
      ++p_;
    }
    if (p_ == start || !at_separator()) bad_id(token_at(start));
    if (p_ - digits > kMaxIdDigits) value = kSaturated;
    if (value > rule_.max_id || value < rule_.min_id) id_out_of_range(token_at(start), value);
    return static_cast<vid_t>(value - rule_.min_id);
  }

  // Integers stay u32 until a weight that u32 cannot hold turns the chunk to f32.
  std::uint32_t read_weight() {
    const std::string_view token = token_at(p_);
    p_ += token.size();
    if (rule_.integer_weights) return integer_weight(token);
    if (!out_.float_weights) {
      if (const auto integer = as_u32(token)) return *integer;
    }
    const float value = as_float(token);
    if (forced_u32_) {
      throw LineError{"weight " + quote(token) +
                      " is not an unsigned 32-bit integer (the weight type is forced to u32)"};
    }
    if (!out_.float_weights) switch_to_float();
    return std::bit_cast<std::uint32_t>(value);
  }

  std::uint32_t integer_weight(std::string_view token) const {
    const auto integer = as_u32(token);
    if (!integer) throw LineError{"weight " + quote(token) + " " + rule_.integer_weight_error};
    if (out_.float_weights) return std::bit_cast<std::uint32_t>(static_cast<float>(*integer));
    return *integer;
  }

  void switch_to_float() {
    out_.float_weights = true;
    if (!keep_weights_) return;
    for (std::size_t i = 0; i < out_.edges; ++i)
      out_.weights[i] = std::bit_cast<std::uint32_t>(static_cast<float>(out_.weights[i]));
  }

  void store(vid_t source, vid_t target, std::uint32_t weight) {
    const std::size_t i = out_.edges++;
    out_.sources[i] = source;
    out_.targets[i] = target;
    if (keep_weights_) out_.weights[i] = weight;
    out_.max_id = std::max({out_.max_id, source, target});
  }

  [[noreturn]] static void bad_id(std::string_view token) {
    if (token.size() > 1 && token[0] == '-' && all_digits(token.substr(1)))
      throw LineError{"negative vertex id " + quote(token)};
    throw LineError{"expected a vertex id, found " +
                    (token.empty() ? std::string("the end of the line") : quote(token))};
  }

  [[noreturn]] void id_out_of_range(std::string_view token, std::uint64_t value) const {
    if (value < rule_.min_id) {
      throw LineError{"vertex id " + printable(token) + " is below " +
                      std::to_string(rule_.min_id) + " (" + rule_.below_min + ")"};
    }
    throw LineError{"vertex id " + printable(token) + " is above " + rule_.above_max + " (" +
                    std::to_string(rule_.max_id) + ")"};
  }

  [[noreturn]] void extra_column() const {
    // Counted from the line's first word: its type's word, where it has one, is a column too.
    constexpr std::string_view kOrdinals[] = {"third", "fourth", "fifth"};
    const std::string_view ordinal =
        kOrdinals[(rule_.weighted ? 1 : 0) + (rule_.edge_word != '\0' ? 1 : 0)];
    throw LineError{"unexpected " + std::string(ordinal) + " column " + quote(token_at(p_)) + " (" +
                    rule_.extra_column_note + ")"};
  }

  static std::string_view token_at(const char* start) noexcept {
    const char* stop = start;
    while (!is_blank(*stop) && *stop != '\n')
      ++stop;
    return {start, static_cast<std::size_t>(stop - start)};
  }

  void skip_blanks() noexcept {
    while (is_blank(*p_))
      ++p_;
  }
  void skip_to_line_end() noexcept {
    while (*p_ != '\n')
      ++p_;
  }
  bool at_line_end() const noexcept { return *p_ == '\n'; }
  bool at_separator() const noexcept { return at_line_end() || is_blank(*p_); }

  const char* p_;
  const char* end_;
  const LineRule& rule_;
  ChunkResult& out_;
  bool keep_weights_;
  bool forced_u32_;
};

// Chunks of about equal size, each ending with a '\n'. An unterminated last line is copied to
// `tail`, a '\n' added, and becomes the last chunk.
std::vector<std::string_view> cut_into_chunks(std::string_view text, std::string& tail) {
  if (!text.empty() && text.back() != '\n') {
    const std::size_t last_newline = text.rfind('\n');
    const std::size_t start = last_newline == std::string_view::npos ? 0 : last_newline + 1;
    tail.assign(text.substr(start));
    tail += '\n';
    text = text.substr(0, start);
  }
  const auto threads = static_cast<std::size_t>(tbb::this_task_arena::max_concurrency());
  const std::size_t target =
      std::clamp(text.size() / (kChunksPerThread * threads), kMinChunkBytes, kMaxChunkBytes);
  std::vector<std::string_view> chunks;
  while (!text.empty()) {
    std::size_t cut = text.size();
    if (cut > target) {
      const std::size_t newline = text.find('\n', target - 1);
      if (newline != std::string_view::npos) cut = newline + 1;
    }
    chunks.push_back(text.substr(0, cut));
    text.remove_prefix(cut);
  }
  if (!tail.empty()) chunks.push_back(tail);
  return chunks;
}

// Chunks after a failed one need not be parsed: only the first error of the file is reported.
class FirstFailure {
 public:
  bool before(std::size_t chunk) const noexcept {
    return first_.load(std::memory_order_relaxed) < chunk;
  }
  void record(std::size_t chunk) noexcept {
    std::size_t seen = first_.load(std::memory_order_relaxed);
    while (chunk < seen && !first_.compare_exchange_weak(seen, chunk)) {
    }
  }

 private:
  std::atomic<std::size_t> first_{std::numeric_limits<std::size_t>::max()};
};

// Every chunk before the first failed one was parsed to its end, so its line count is exact.
void throw_first_error(const std::vector<ChunkResult>& results, const TextBody& body) {
  std::uint64_t line = body.first_line;
  for (const ChunkResult& r : results) {
    if (r.error) throw_at_line(body.name, line + r.lines - 1, *r.error);
    line += r.lines;
  }
}

WeightType weight_type(const std::vector<ChunkResult>& results, const LineRule& rule,
                       const ReadOptions& options) {
  if (!rule.weighted || !options.read_weights) return WeightType::none;
  if (options.force_weight_type != WeightType::none) return options.force_weight_type;
  const bool any_float = std::any_of(results.begin(), results.end(),
                                     [](const ChunkResult& r) { return r.float_weights; });
  return any_float ? WeightType::f32 : WeightType::u32;
}

void copy_weights(const ChunkResult& r, WeightType type, std::uint32_t* out) {
  if (type == WeightType::f32 && !r.float_weights) {
    std::transform(r.weights.data(), r.weights.data() + r.edges, out, [](std::uint32_t w) {
      return std::bit_cast<std::uint32_t>(static_cast<float>(w));
    });
  } else {
    std::copy_n(r.weights.data(), r.edges, out);
  }
}

EdgeList concatenate(std::vector<ChunkResult>& results, WeightType type) {
  std::vector<std::size_t> offsets(results.size() + 1, 0);
  vid_t max_id = 0;
  for (std::size_t i = 0; i < results.size(); ++i) {
    offsets[i + 1] = offsets[i] + results[i].edges;
    max_id = std::max(max_id, results[i].max_id);
  }
  const std::size_t total = offsets.back();
  if (total == 0) return {};  // no weight type without weights (a weighted Graph needs them)
  EdgeList edges;
  edges.sources = Buffer<vid_t>::allocate(total);
  edges.targets = Buffer<vid_t>::allocate(total);
  if (type != WeightType::none) edges.weights = Buffer<std::uint32_t>::allocate(total);
  edges.weight_type = type;
  edges.num_vertices = max_id + 1;
  tbb::parallel_for(std::size_t{0}, results.size(), [&](std::size_t i) {
    ChunkResult& r = results[i];
    std::copy_n(r.sources.data(), r.edges, edges.sources.data() + offsets[i]);
    std::copy_n(r.targets.data(), r.edges, edges.targets.data() + offsets[i]);
    if (type != WeightType::none) copy_weights(r, type, edges.weights.data() + offsets[i]);
    r = ChunkResult{};  // its memory goes back while the other chunks are still copied
  });
  return edges;
}

}  // namespace

EdgeList parse_lines(const TextBody& body, const LineRule& rule, const ReadOptions& options) {
  std::string tail;
  const std::vector<std::string_view> chunks = cut_into_chunks(body.text, tail);
  std::vector<ChunkResult> results(chunks.size());
  FirstFailure failure;
  ProgressStep progress("parsing " + std::filesystem::path(body.name).filename().string(),
                        body.text.size());
  tbb::parallel_for(std::size_t{0}, chunks.size(), [&](std::size_t i) {
    if (failure.before(i)) return;
    ChunkParser(chunks[i], rule, options, results[i]).run();
    if (results[i].error) failure.record(i);
    progress.advance(chunks[i].size());
  });
  throw_first_error(results, body);
  return concatenate(results, weight_type(results, rule, options));
}

std::optional<std::string_view> LineReader::next() {
  if (pos_ >= text_.size()) return std::nullopt;
  const std::size_t newline = text_.find('\n', pos_);
  const std::size_t stop = newline == std::string_view::npos ? text_.size() : newline;
  std::string_view line = text_.substr(pos_, stop - pos_);
  pos_ = newline == std::string_view::npos ? text_.size() : newline + 1;
  ++line_;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

bool is_blank_or_comment(std::string_view line) noexcept {
  const std::size_t first = line.find_first_not_of(" \t\r");
  return first == std::string_view::npos || line[first] == '#' || line[first] == '%';
}

std::vector<std::string_view> split_columns(std::string_view line) {
  std::vector<std::string_view> columns;
  std::size_t pos = line.find_first_not_of(" \t\r");
  while (pos != std::string_view::npos) {
    const std::size_t stop = std::min(line.find_first_of(" \t\r", pos), line.size());
    columns.push_back(line.substr(pos, stop - pos));
    pos = line.find_first_not_of(" \t\r", stop);
  }
  return columns;
}

std::string quote(std::string_view token) {
  return "'" + printable(token) + "'";
}

void throw_at_line(std::string_view name, std::uint64_t line, std::string_view why) {
  throw FormatError(std::string(name) + ":" + std::to_string(line) + ": " + std::string(why));
}

}  // namespace ooc::detail
