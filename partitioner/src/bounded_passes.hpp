#pragma once
// What the passes of a bounded build share (bounded_build.cpp: count and spill;
// bounded_lists.cpp: build; bounded_write.cpp: order and write).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ooc/core/buffer.hpp"
#include "ooc/core/types.hpp"
#include "ooc/partitioner/bounded_build.hpp"
#include "ooc/partitioner/builder.hpp"
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

// What pass 1 finds: each vertex's edges (before de-duplication), the weights' type.
struct Census {
  std::vector<eid_t> degree;  // V + 1 entries, the last 0
  WeightType weight_type = WeightType::none;
  bool symmetric_input = false;
  std::uint64_t input_edges = 0;
  vid_t vertices() const noexcept { return static_cast<vid_t>(degree.size() - 1); }
};

// The built lists, in the input's ids and order, one after another.
struct ListFiles {
  TempFile targets, weights;
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

// Records of spilled edges: source, target and, when the input's weights are kept, the weight.
struct Records {
  std::size_t words;  // 32-bit words a record
  std::uint64_t bytes() const noexcept { return words * sizeof(std::uint32_t); }
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

// Pass 5: the file, laid out as write_oocg lays out the graph that the in-memory build makes,
// the lists read back `window_edges` at a time.
void write_file(const std::filesystem::path& path, const Census& census, const ListFiles& lists,
                const Order& hub_sorted, WeightType weight_type, bool symmetric,
                std::uint64_t window_edges, const BoundedOptions& bounded);

}  // namespace ooc::detail::bounded
