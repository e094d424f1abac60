// Triangle counting on the CUDA backend (OocEngine::triangles; docs/programs.md, "Triangles"):
// the host orients the graph into pinned memory (triangles.cpp), the GPU intersects the oriented
// lists (count_triangles, kernels/cuda/triangles.cuh). When the lists fit the budget beside the
// counts they are copied once. Otherwise the vertices are cut into blocks whose lists fit half of
// what the counts leave: for each source block, resident, the blocks its edges point into come in
// turn, and each pair counts the edges u -> v of the source block whose v the other holds (list(u)
// and list(v) both on the GPU; w, the third vertex, needs only its count). The blocks a source
// block needs are ordered so that the one already in the target slot goes first and the next
// source block last, where the next pass finds it and takes it as its source without a copy.
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_reduce.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ooc/core/error.hpp"
#include "ooc/core/units.hpp"
#include "ooc/engine/detail/triangles.hpp"

namespace ooc::detail {
namespace {

constexpr std::uint64_t kCountBytes = sizeof(unsigned long long);
constexpr std::uint32_t kNoBlock = ~std::uint32_t{0};
// The pairs of blocks grow with the square of their count, and the bytes moved up to the lists'
// times the count: past this many, a budget is too small to be worth running with.
constexpr std::size_t kMostBlocks = 1024;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// A block of the oriented lists on the GPU: its offsets, then its lists, in one allocation.
struct Slot {
  std::shared_ptr<void> memory;
  TriangleBlock block;
  std::uint32_t holds = kNoBlock;
};

// The bytes and copies of the blocks brought to the GPU, and the time they took.
struct Moved {
  std::uint64_t bytes = 0;
  std::uint32_t copies = 0;
  double seconds = 0;
};

class BlockCopier {
 public:
  BlockCopier(const DeviceGraph& device, const Oriented& o, const TriangleBlocks& blocks)
      : device_(device), o_(o), blocks_(blocks) {}

  // Brings block b into `slot` unless it holds it already.
  void load(Slot& slot, std::uint32_t b, Moved& moved) const {
    if (slot.holds == b) return;
    const auto start = std::chrono::steady_clock::now();
    const vid_t first = blocks_.cuts[b], last = blocks_.cuts[b + 1];
    auto* offsets = static_cast<eid_t*>(slot.memory.get());
    auto* targets = reinterpret_cast<vid_t*>(offsets + (last - first) + 1);
    const std::uint64_t offset_bytes = (std::uint64_t{last - first} + 1) * sizeof(eid_t);
    const eid_t edges = o_.offsets[last] - o_.offsets[first];
    copy_to_device(device_, offsets, o_.offsets.data() + first, offset_bytes);
    if (edges > 0)
      copy_to_device(device_, targets, o_.targets.data() + o_.offsets[first],
                     edges * sizeof(vid_t));
    slot.block = {first, last, offsets, targets, edges};
    slot.holds = b;
    moved.bytes += offset_bytes + edges * sizeof(vid_t);
    moved.copies += 1;
    moved.seconds += seconds_since(start);
  }

  const Oriented& lists() const { return o_; }
  const TriangleBlocks& blocks() const { return blocks_; }

 private:
  const DeviceGraph& device_;
  const Oriented& o_;
  const TriangleBlocks& blocks_;
};

// Which of `targets`' blocks hold a target of source block i's lists (each list is sorted, so its
// targets' blocks ascend with them).
std::vector<char> needed_by(const BlockCopier& sources, std::uint32_t i,
                            const TriangleBlocks& targets) {
  const std::size_t k = targets.count();
  if (k == 1) return {1};
  const std::vector<vid_t>& cuts = targets.cuts;
  const Oriented& o = sources.lists();
  return tbb::parallel_reduce(
      tbb::blocked_range<vid_t>(sources.blocks().cuts[i], sources.blocks().cuts[i + 1]),
      std::vector<char>(k, 0),
      [&](const tbb::blocked_range<vid_t>& r, std::vector<char> needed) {
        for (vid_t u = r.begin(); u != r.end(); ++u) {
          std::size_t b = 0;
          for (const vid_t v : o.list(u)) {
            if (v >= cuts[b + 1])
              b = static_cast<std::size_t>(std::upper_bound(cuts.begin() + b + 1, cuts.end(), v) -
                                           cuts.begin()) -
                  1;
            needed[b] = 1;
          }
        }
        return needed;
      },
      [](std::vector<char> a, const std::vector<char>& b) {
        for (std::size_t j = 0; j < a.size(); ++j)
          a[j] = static_cast<char>(a[j] | b[j]);
        return a;
      });
}

// The target blocks source block i needs, in the order to bring them: the one the target slot
// holds first; over one graph, i (in the source slot) before it and i + 1 (the next source) last.
std::vector<std::uint32_t> targets_of(const BlockCopier& sources, std::uint32_t i,
                                      const BlockCopier& targets, std::uint32_t held) {
  const bool same = &sources == &targets;
  const auto k = static_cast<std::uint32_t>(targets.blocks().count());
  const std::vector<char> needed = needed_by(sources, i, targets.blocks());
  std::vector<std::uint32_t> order;
  const auto take = [&](std::uint32_t j) {
    if (j < k && needed[j] && std::find(order.begin(), order.end(), j) == order.end())
      order.push_back(j);
  };
  if (same) take(i);
  if (!same || held != i + 1) take(held);
  for (std::uint32_t j = 0; j < k; ++j)
    if (!same || j != i + 1) take(j);
  if (same) take(i + 1);
  return order;
}

// Counts the pairs of source block i into `counts` and `total` (device memory): returns its
// iteration's stats. `targets` is `sources` over one graph, whose blocks share the two slots.
IterationStats count_block(const DeviceGraph& device, const BlockCopier& sources,
                           const BlockCopier& targets, std::array<Slot, 2>& slots, std::uint32_t i,
                           unsigned long long* counts, unsigned long long* total) {
  const auto start = std::chrono::steady_clock::now();
  const bool same = &sources == &targets;
  Moved moved;
  IterationStats it;
  it.iteration = i;
  if (same && slots[1].holds == i) std::swap(slots[0], slots[1]);
  sources.load(slots[0], i, moved);
  const TriangleBlock& block = slots[0].block;
  double compute = 0;
  for (const std::uint32_t j : targets_of(sources, i, targets, slots[1].holds)) {
    if (!same || j != i) targets.load(slots[1], j, moved);
    const auto kernel = std::chrono::steady_clock::now();
    count_triangles(device, block, same && j == i ? block : slots[1].block, counts, total);
    compute += seconds_since(kernel);
    it.tasks += 1;
  }
  it.active_vertices = it.frontier_vertices = block.last - block.first;
  it.active_edges = it.frontier_edges = it.edges_processed = block.edges;
  it.partitions[static_cast<std::size_t>(TransferEngine::filter)] = moved.copies;
  it.bytes[static_cast<std::size_t>(TransferEngine::filter)] = moved.bytes;
  it.transfer_seconds = moved.seconds;
  it.compute_seconds = compute;
  it.seconds = seconds_since(start);
  return it;
}

}  // namespace

std::uint64_t oriented_bytes(std::span<const eid_t> offsets, vid_t first, vid_t last) {
  return (std::uint64_t{last - first} + 1) * sizeof(eid_t) +
         (offsets[last] - offsets[first]) * sizeof(vid_t);
}

TriangleBlocks plan_triangle_blocks(std::span<const eid_t> offsets, std::uint64_t budget,
                                    bool in_memory) {
  const auto n = static_cast<vid_t>(offsets.size() - 1);
  const std::uint64_t counts = (std::uint64_t{n} + 1) * kCountBytes;  // the total last
  const std::uint64_t whole = oriented_bytes(offsets, 0, n);
  TriangleBlocks plan;
  if (in_memory && counts + whole <= budget) {
    plan.in_memory = true;
    plan.cuts = {0, n};
    plan.slot_bytes = whole;
    return plan;
  }
  if (budget <= counts) {
    throw OutOfMemory("tc's counts take " + format_bytes(counts) +
                      " of device memory, and the budget is " + format_bytes(budget) +
                      ": give it more (--budget)");
  }
  const std::uint64_t slot = (budget - counts) / 2;
  plan.cuts = {0};
  vid_t first = 0;
  while (first < n) {
    if (oriented_bytes(offsets, first, first + 1) > slot) {
      throw OutOfMemory(
          "tc's oriented list of " + std::to_string(offsets[first + 1] - offsets[first]) +
          " vertices takes " + format_bytes(oriented_bytes(offsets, first, first + 1)) +
          " with its offsets, more than half of what the counts leave of the budget (" +
          format_bytes(slot) + "): give it more (--budget)");
    }
    vid_t last = first + 1;
    while (last < n && oriented_bytes(offsets, first, last + 1) <= slot)
      ++last;
    plan.slot_bytes = std::max(plan.slot_bytes, oriented_bytes(offsets, first, last));
    plan.cuts.push_back(last);
    first = last;
    if (plan.count() > kMostBlocks && first < n) {
      throw OutOfMemory("tc's oriented lists (" + format_bytes(whole) + ") would take more than " +
                        std::to_string(kMostBlocks) + " blocks of " + format_bytes(slot) +
                        ", half of what the counts leave of the budget: give it more (--budget)");
    }
  }
  if (n == 0) plan.cuts.push_back(0);
  return plan;
}

TriangleCounts count_on_gpu(DeviceGraph& device, const Oriented& sources, const Oriented& targets,
                            std::uint64_t asked, bool in_memory, RunStats& stats) {
  const auto start = std::chrono::steady_clock::now();
  release_held(device);
  const std::uint64_t budget = device_budget(device, asked);
  const bool same = &sources == &targets;
  const vid_t n = sources.num_vertices();
  const std::uint64_t source_bytes = oriented_bytes(sources.offsets.span(), 0, n);
  const std::uint64_t target_bytes = same ? 0 : oriented_bytes(targets.offsets.span(), 0, n);
  // Two graphs are in GPU memory when both fit beside the counts; else each is cut into blocks
  // of half of what the counts leave.
  const bool both =
      in_memory && (std::uint64_t{n} + 1) * kCountBytes + source_bytes + target_bytes <= budget;
  const TriangleBlocks source_blocks = plan_triangle_blocks(
      sources.offsets.span(), budget - (both ? target_bytes : 0), same ? in_memory : both);
  const TriangleBlocks target_blocks =
      same ? source_blocks
           : plan_triangle_blocks(targets.offsets.span(), budget - (both ? source_bytes : 0), both);
  const bool whole = source_blocks.in_memory;
  const std::uint64_t count_bytes = (std::uint64_t{n} + 1) * kCountBytes;
  std::shared_ptr<void> count_memory = device_allocate(device, count_bytes, "tc's counts");
  auto* counts = static_cast<unsigned long long*>(count_memory.get());
  device_fill(device, counts, 0, count_bytes);
  // One block is its own target: the target slot is for a second, or for the other graph's.
  const std::size_t slot_count = same && source_blocks.count() == 1 ? 1 : 2;
  const std::uint64_t slot_bytes = std::max(source_blocks.slot_bytes, target_blocks.slot_bytes);
  std::array<Slot, 2> slots;
  for (std::size_t s = 0; s < slot_count; ++s)
    slots[s].memory = device_allocate(device, slot_bytes, "tc's oriented lists");
  const BlockCopier source_copier(device, sources, source_blocks);
  const BlockCopier target_copier(device, targets, target_blocks);
  const BlockCopier& target_lists = same ? source_copier : target_copier;
  stats.load_balance = "a warp per 32 edges";  // kernels/cuda/triangles.cuh
  stats.in_memory = whole;
  stats.budget = budget;
  stats.vertex_bytes = count_bytes;
  stats.staging_bytes = whole ? 0 : slot_count * slot_bytes;
  stats.edge_bytes = source_bytes + target_bytes;
  stats.host_pinned_bytes =
      pinned_host_bytes(device) + sources.offsets.size_bytes() + sources.targets.size_bytes() +
      (same ? 0 : targets.offsets.size_bytes() + targets.targets.size_bytes());
  if (whole) {
    Moved once;
    source_copier.load(slots[0], 0, once);
    if (!same) target_copier.load(slots[1], 0, once);
    stats.setup_bytes = once.bytes;
  }
  stats.setup_seconds = seconds_since(start);
  const auto counting = std::chrono::steady_clock::now();
  for (std::uint32_t i = 0; i < source_blocks.count(); ++i) {
    stats.iterations.push_back(
        count_block(device, source_copier, target_lists, slots, i, counts, counts + n));
    if (whole) {
      IterationStats& it = stats.iterations.back();
      it.partitions[static_cast<std::size_t>(TransferEngine::resident)] = 1;
    }
  }
  stats.seconds = seconds_since(counting);
  const auto reading = std::chrono::steady_clock::now();
  TriangleCounts out;
  out.per_vertex.resize(std::size_t{n} + 1);
  copy_to_host(device, out.per_vertex.data(), counts, count_bytes);
  out.total = out.per_vertex[n];
  out.per_vertex.pop_back();
  stats.readback_seconds = seconds_since(reading);
  if (!whole) {
    char line[160];
    std::snprintf(
        line, sizeof line, ", %zu block%s of oriented lists: %s moved, %.2f times their %s",
        source_blocks.count(), source_blocks.count() == 1 ? "" : "s",
        format_bytes(stats.total_bytes()).c_str(),
        static_cast<double>(stats.total_bytes()) / static_cast<double>(source_bytes + target_bytes),
        format_bytes(source_bytes + target_bytes).c_str());
    out.blocks = line;
  }
  return out;
}

}  // namespace ooc::detail
