#pragma once
// The CPU backend's frontier: bitmaps of the active vertices, and the takes that hand a task the
// vertices it processes.
#include <tbb/parallel_for.h>

#include <atomic>
#include <bit>
#include <cstdint>
#include <span>
#include <vector>

#include "ooc/kernels/bitmap.hpp"
#include "ooc/partitioner/graph.hpp"
#include "ooc/partitioner/partition.hpp"

namespace ooc::detail {

// The frontier of one run. `current` holds every active vertex; a task takes the ones it
// processes out of it (vertices a priority window defers stay), and relaxations mark `next`,
// which joins `current` when the iteration ends.
class CpuFrontier {
 public:
  CpuFrontier(const Graph& g, std::span<const Partition> parts)
      : g_(g), parts_(parts), current_(g.num_vertices()), next_(g.num_vertices()) {}

  // Takes the admitted active vertices of the given partitions, in ascending order (parallel
  // over partitions).
  template <class Admit>
  std::span<const vid_t> take_current(std::span<const std::uint32_t> partitions, Admit&& admit) {
    return take_set(current_, partitions, admit);
  }
  // Takes the admitted vertices of [first, last) activated since the iteration began.
  template <class Admit>
  std::span<const vid_t> take_next(vid_t first, vid_t last, Admit&& admit);
  // current |= next (only the owned vertices' bits, when `owned` is given); next = {}
  void advance(const Bitmap* owned = nullptr);
  Bitmap& current() { return current_; }
  Bitmap& next() { return next_; }

 protected:
  // Appends the admitted set bits of [first, last) to out and clears them (atomically per word:
  // partitions may share a word).
  template <class Admit>
  static void take(Bitmap& bits, vid_t first, vid_t last, Admit&& admit, std::vector<vid_t>& out);
  // The same over the given partitions of `bits`, in parallel; the result is valid until the
  // next take.
  template <class Admit>
  std::span<const vid_t> take_set(Bitmap& bits, std::span<const std::uint32_t> partitions,
                                  Admit&& admit);

  const Graph& g_;
  std::span<const Partition> parts_;
  Bitmap current_, next_;
  std::vector<vid_t> active_;
  std::vector<std::vector<vid_t>> per_partition_;
};

template <class Admit>
void CpuFrontier::take(Bitmap& bits, vid_t first, vid_t last, Admit&& admit,
                       std::vector<vid_t>& out) {
  if (first >= last) return;
  for (std::size_t w = first >> 6; w <= (std::size_t{last} - 1) >> 6; ++w) {
    std::uint64_t word = bits.words()[w];
    if (w == first >> 6) word &= ~std::uint64_t{0} << (first & 63);
    if (w == (std::size_t{last} - 1) >> 6 && (last & 63) != 0)
      word &= (std::uint64_t{1} << (last & 63)) - 1;
    std::uint64_t taken = 0;
    for (; word != 0; word &= word - 1) {
      const auto bit = static_cast<std::size_t>(std::countr_zero(word));
      const auto v = static_cast<vid_t>((w << 6) + bit);
      if (!admit(v)) continue;
      out.push_back(v);
      taken |= std::uint64_t{1} << bit;
    }
    if (taken != 0)
      std::atomic_ref<std::uint64_t>(bits.words()[w]).fetch_and(~taken, std::memory_order_relaxed);
  }
}

template <class Admit>
std::span<const vid_t> CpuFrontier::take_set(Bitmap& bits,
                                             std::span<const std::uint32_t> partitions,
                                             Admit&& admit) {
  per_partition_.resize(partitions.size());
  tbb::parallel_for(std::size_t{0}, partitions.size(), [&](std::size_t i) {
    per_partition_[i].clear();
    take(bits, parts_[partitions[i]].first_vertex, parts_[partitions[i]].last_vertex, admit,
         per_partition_[i]);
  });
  active_.clear();
  for (const auto& list : per_partition_)
    active_.insert(active_.end(), list.begin(), list.end());
  return active_;
}

template <class Admit>
std::span<const vid_t> CpuFrontier::take_next(vid_t first, vid_t last, Admit&& admit) {
  active_.clear();
  take(next_, first, last, admit, active_);
  return active_;
}

}  // namespace ooc::detail
