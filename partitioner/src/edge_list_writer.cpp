// write_edge_list: a graph back to "src dst [weight]" text in the user's ids, rows in the order of
// the user's source ids. A oneTBB pipeline formats blocks of sources in parallel and writes them
// in order, so memory stays bounded by the blocks in flight; the file appears under its name
// only once it is complete (an AtomicFile: written under a temporary name, flushed, renamed).
#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <string>

#include "ooc/core/atomic_file.hpp"
#include "ooc/partitioner/readers.hpp"

namespace ooc {
namespace {

// A block ends at whichever limit comes first; a vertex's list is never split.
constexpr vid_t kMaxBlockVertices = vid_t{1} << 16;
constexpr eid_t kMaxBlockEdges = eid_t{1} << 18;
// Two 10-digit ids, the longest shortest float ("-1.17549435e-38") plus ".0", separators.
constexpr std::size_t kMaxLineBytes = 48;

struct Block {
  vid_t first = 0;  // user ids [first, last)
  vid_t last = 0;
  eid_t edges = 0;
};

class Formatter {
 public:
  explicit Formatter(const Graph& graph) : graph_(graph), internal_(internal_ids(graph)) {}

  vid_t internal(vid_t user) const noexcept { return internal_.empty() ? user : internal_[user]; }

  std::string format(const Block& block) const {
    std::string text((block.edges + 1) * kMaxLineBytes, '\0');  // +1: to_chars's end bound
    char* out = text.data();
    for (vid_t user = block.first; user < block.last; ++user)
      out = format_vertex(user, out);
    text.resize(static_cast<std::size_t>(out - text.data()));
    return text;
  }

 private:
  char* format_vertex(vid_t user, char* out) const {
    const vid_t v = internal(user);
    for (eid_t e = graph_.offsets[v]; e < graph_.offsets[v + 1]; ++e) {
      out = number(out, user);
      *out++ = ' ';
      out = number(out, graph_.original_id(graph_.targets[e]));
      if (graph_.weighted()) {
        *out++ = ' ';
        out = weight(out, graph_.weights[e]);
      }
      *out++ = '\n';
    }
    return out;
  }

  static char* number(char* out, std::uint32_t value) {
    return std::to_chars(out, out + kMaxLineBytes, value).ptr;
  }

  // The shortest text that reads back to the same float; ".0" is added to integral values so
  // that the reader, which takes integers for u32, keeps the file f32.
  char* weight(char* out, std::uint32_t bits) const {
    if (graph_.weight_type == WeightType::u32) return number(out, bits);
    char* end = std::to_chars(out, out + kMaxLineBytes, std::bit_cast<float>(bits)).ptr;
    const bool integral =
        std::all_of(out, end, [](char c) { return c == '-' || (c >= '0' && c <= '9'); });
    if (!integral) return end;
    *end++ = '.';
    *end++ = '0';
    return end;
  }

  const Graph& graph_;
  Buffer<vid_t> internal_;
};

// Serial: the next run of user ids, cut by the limits above (degree lookups only).
class BlockCutter {
 public:
  BlockCutter(const Graph& graph, const Formatter& formatter)
      : graph_(graph), formatter_(formatter) {}

  bool done() const noexcept { return next_ == graph_.num_vertices(); }

  Block next() {
    Block block{next_, next_, 0};
    while (block.last < graph_.num_vertices() && block.last - block.first < kMaxBlockVertices &&
           block.edges < kMaxBlockEdges) {
      block.edges += graph_.degree(formatter_.internal(block.last));
      ++block.last;
    }
    next_ = block.last;
    return block;
  }

 private:
  const Graph& graph_;
  const Formatter& formatter_;
  vid_t next_ = 0;
};

}  // namespace

void write_edge_list(const Graph& graph, const std::filesystem::path& path) {
  const Formatter formatter(graph);
  BlockCutter cutter(graph, formatter);
  AtomicFile file(path);
  const auto tokens = static_cast<std::size_t>(2 * tbb::this_task_arena::max_concurrency());
  tbb::parallel_pipeline(
      tokens,
      tbb::make_filter<void, Block>(tbb::filter_mode::serial_in_order,
                                    [&](tbb::flow_control& control) {
                                      if (cutter.done()) control.stop();
                                      return cutter.done() ? Block{} : cutter.next();
                                    }) &
          tbb::make_filter<Block, std::string>(
              tbb::filter_mode::parallel,
              [&](const Block& block) { return formatter.format(block); }) &
          tbb::make_filter<std::string, void>(tbb::filter_mode::serial_in_order,
                                              [&](const std::string& text) { file.write(text); }));
  file.commit();
}

}  // namespace ooc
