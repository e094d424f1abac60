#pragma once
// What the passes of a bounded build share (bounded_build.cpp: count, spill, build;
// bounded_write.cpp: order, write).
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
#include "temp_file.hpp"

namespace ooc::detail::bounded {

// Reports a pass, when it is done, with the time since it began.
class Pass {
 public:
  Pass(const BoundedOptions& options, std::string name)
      : options_(options), name_(std::move(name)) {}
  void done(std::uint64_t count, std::string_view unit) const {
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
