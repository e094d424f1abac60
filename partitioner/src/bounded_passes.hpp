#pragma once
// What the passes of a bounded build share (bounded_build.cpp: count and spill;
// bounded_lists.cpp: build; bounded_write.cpp: order and write).
#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ooc/core/buffer.hpp"
#include "ooc/core/types.hpp"
#include "ooc/partitioner/bounded_build.hpp"
#include "ooc/partitioner/builder.hpp"
#include "oocg_stream.hpp"
#include "parallel.hpp"
#include "temp_file.hpp"

namespace ooc::detail::bounded {

// Reports a pass, when it is done, with the time since it began.
class Pass {
 public:
  Pass(const BoundedOptions& options, std::string name)
      : options_(options), name_(std::move(name)) {}
  // `named`, when given, names the pass by what it found.
  void done(std::uint64_t count, std::string_view unit, std::string named = {}) {
    if (!named.empty()) name_ = std::move(named);
    if (!options_.report) return;
    options_.report(
        {name_, count, unit,
         std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count()});
  }

 private:
  const BoundedOptions& options_;
  std::string name_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// Room for n elements at least in `buffer`, its contents dropped when it grows. Passes reuse their
// buffers from range to range and window to window: fresh memory costs a page fault per page the
// first time it is touched, and a std::vector fills it with zeros on one thread besides.
template <class T>
T* room(Buffer<T>& buffer, std::size_t n) {
  if (buffer.size() < n) {
    buffer = {};
    buffer = Buffer<T>::allocate(n);
  }
  return buffer.data();
}

// Records of spilled edges: source, target and, when the input's weights are kept, the weight.
struct Records {
  std::size_t words;  // 32-bit words a record
  std::uint64_t bytes() const noexcept { return words * sizeof(std::uint32_t); }
};

// Copies the records of `items` things into `sorted`, grouped by group_of(source) (groups 0 to
// groups - 1 in order, each group in the things' order): visit(begin, end, emit) calls
// emit(source, target, weight) for the records of things [begin, end), the same ones each time.
// A counting sort over pieces of the things, each piece writing its own slots. Returns where
// each group begins in `sorted`, in records, and their total last.
template <class Visit, class GroupOf>
std::vector<std::uint64_t> sort_records(std::uint64_t items, Visit&& visit, std::size_t groups,
                                        GroupOf&& group_of, const Records& records,
                                        Buffer<std::uint32_t>& sorted) {
  constexpr std::uint64_t kPieceItems = std::uint64_t{1} << 16;
  const auto pieces = static_cast<std::size_t>((items + kPieceItems - 1) / kPieceItems);
  std::vector<std::uint64_t> at(groups * pieces + 1, 0);  // group-major: [group][piece]
  const auto each = [&](std::size_t p, auto&& emit) {
    visit(p * kPieceItems, std::min(items, (p + 1) * kPieceItems), emit);
  };
  tbb::parallel_for(std::size_t{0}, pieces, [&](std::size_t p) {
    each(p, [&](vid_t u, vid_t, std::uint32_t) { ++at[group_of(u) * pieces + p]; });
  });
  const std::uint64_t total = exclusive_scan(at.data(), at.size());
  std::vector<std::uint64_t> starts(groups + 1, total);
  for (std::size_t g = 0; g < groups; ++g)
    starts[g] = at[g * pieces];
  std::uint32_t* const out = room(sorted, total * records.words);
  tbb::parallel_for(std::size_t{0}, pieces, [&](std::size_t p) {
    each(p, [&](vid_t u, vid_t v, std::uint32_t w) {
      std::uint32_t* record = out + at[group_of(u) * pieces + p]++ * records.words;
      record[0] = u;
      record[1] = v;
      if (records.words == 3) record[2] = w;
    });
  });
  return starts;
}

// sort_records()' visit over records stored one after another (a block read back).
inline auto stored_records(const std::uint32_t* block, std::size_t words) {
  return [block, words](std::uint64_t begin, std::uint64_t end, auto&& emit) {
    for (std::uint64_t i = begin; i < end; ++i) {
      const std::uint32_t* record = block + i * words;
      emit(record[0], record[1], words == 3 ? record[2] : 0u);
    }
  };
}

// What pass 1 finds: each vertex's edges (before de-duplication), the weights' type.
struct Census {
  std::vector<eid_t> degree;  // V + 1 entries, the last 0
  WeightType weight_type = WeightType::none;
  bool symmetric_input = false;
  std::uint64_t input_edges = 0;
  vid_t vertices() const noexcept { return static_cast<vid_t>(degree.size() - 1); }
};

// The built lists, in the input's ids and order, one after another; the least and greatest
// weight (of u32 weights: the range that compression packs).
struct ListFiles {
  TempFile targets, weights;
  std::uint32_t weight_min = UINT32_MAX, weight_max = 0;
};

// The ranges of source vertices whose lists are built at once: bounds[r] .. bounds[r + 1].
struct Ranges {
  std::vector<vid_t> bounds;
  std::size_t count() const noexcept { return bounds.size() - 1; }
  std::size_t of(vid_t v) const noexcept {
    return static_cast<std::size_t>(std::upper_bound(bounds.begin(), bounds.end(), v) -
                                    bounds.begin()) -
           1;
  }
};

// How pass 3 builds the lists of a range.
struct ListPlan {
  const BuildOptions& options;
  Records records;
  bool is_float;               // the records' weights are f32
  std::uint64_t edge_bytes;    // a range holds this per spilled edge while it is built
  std::uint64_t capacity;      // and at most this in all
  std::uint64_t block_bytes;   // records read at once
  std::uint64_t window_edges;  // built lists written at once
  std::uint64_t memory;        // --memory, for messages
  std::filesystem::path tmp_dir;
};

// Vertices [lo, hi) cut greedily into ranges whose lists (plan.edge_bytes a spilled edge, a
// cursor a vertex) fit plan.capacity. Throws InvalidInput for a vertex whose list alone does not
// fit, or for more ranges than files may be open.
Ranges cut_ranges(const Census& census, vid_t lo, vid_t hi, const ListPlan& plan);

// The records of `file`, whose sources all lie in `ranges`, into a new file per range.
std::vector<TempFile> split_records(const TempFile& file, const Ranges& ranges,
                                    const ListPlan& plan);

// Pass 3: each range's lists gathered, sorted, de-duplicated and weighted as build_graph does,
// appended to the list files (a range whose lists turn out too large for plan.capacity is split
// first). census.degree then holds the built degrees, and in_degree, when not empty, the built
// in-degrees.
ListFiles build_lists(std::vector<TempFile>& spilled, const Ranges& ranges, const ListPlan& plan,
                      Census& census, Buffer<eid_t>& in_degree, const BoundedOptions& bounded);

// Hub sort's order: new -> old ids, empty for the input's order.
struct Order {
  Buffer<vid_t> order;
  vid_t hubs = 0;
};

// Pass 4: hub sort's order from the built degrees and the in-degrees (counted when the graph is
// directed; this fills them when it is symmetric), or none when hub_fraction makes no hubs.
// Turns census.degree into offsets either way.
Order order_vertices(Census& census, Buffer<eid_t>& in_degree, bool symmetric, double hub_fraction,
                     const BoundedOptions& bounded);

// The lists of new vertices [first, last), `edges` edges, as pass 5 reads them back: a pread per
// run of consecutive old ids.
struct Window {
  struct Run {
    eid_t from, count, to;
  };
  vid_t first = 0, last = 0;
  eid_t edges = 0;
  std::vector<Run> runs;
  // The window's lists from a list file (4 bytes an edge) into out[0 .. edges), in parallel.
  void read(const TempFile& file, std::uint32_t* out) const;
};

// Calls visit(window) for consecutive windows over the new vertices, each of about
// `window_edges` edges (a longer list alone): new vertex i's list is list order[i] of the list
// files (list i without an order), whose lists `offsets` places.
void for_each_window(std::span<const eid_t> offsets, const Buffer<vid_t>& order,
                     std::uint64_t window_edges, const std::function<void(const Window&)>& visit);

// How compress() packs the weights: u32 weights whose range (the list files' least and greatest
// weight) takes fewer than 32 bits, at that width, less the least.
struct WeightPacking {
  bool packs = false;
  std::uint32_t width = 0, base = 0;
};
WeightPacking packing_of(const ListFiles& lists, WeightType weight_type, eid_t edges);

// Where compress_lists() writes the lists in the new ids and order: the raw lists sorted by target
// (null: the file leaves them out), and their encodings.
struct ListSections {
  OocgStream::Section* targets;
  OocgStream::Section* weights;
  OocgStream::Section& encoded;
};

// What compress_lists() leaves for the sections after the lists.
struct CompressedLists {
  std::vector<eid_t> offsets;  // where each vertex's encoding begins, and their total
  TempFile packed;             // the packed weights without padding; empty when not packed
};

// Pass 5's lists when the file holds compressed lists (bounded_compress.cpp): the lists read back
// plan.window_edges at a time in the new order, renamed by new_id when given, sorted, encoded and
// written to their sections.
CompressedLists compress_lists(const ListFiles& lists, std::span<const eid_t> offsets,
                               const Buffer<vid_t>& order, const Buffer<vid_t>& new_id,
                               WeightType weight_type, const WeightPacking& packing,
                               const ListSections& out, const ListPlan& plan,
                               const BoundedOptions& bounded);

// Pass 5: the file, laid out as write_oocg lays out the graph that the in-memory build makes,
// the lists read back a window at a time (plan.window_edges when compressing, 8 times as many
// when only copying).
void write_file(const std::filesystem::path& path, const Census& census, const ListFiles& lists,
                const Order& hub_sorted, WeightType weight_type, bool symmetric,
                const ListPlan& plan, const BoundedOptions& bounded);

}  // namespace ooc::detail::bounded
