#pragma once
// Triangle counting's pieces that both backends share (triangles.cpp counts on the CPU,
// triangles_gpu.cpp on the GPU): the oriented graph, and the GPU's blocks of it.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "ooc/core/buffer.hpp"
#include "ooc/engine/detail/cuda_backend.hpp"
#include "ooc/engine/stats.hpp"
#include "ooc/kernels/bitmap.hpp"
#include "ooc/partitioner/graph.hpp"

namespace ooc::detail {

// Each edge {u, v} of a symmetric graph kept once, from the lower degree rank to the higher
// (degree, then id), each list sorted by id; a repeated edge is kept once and a loop left out.
struct Oriented {
  Buffer<eid_t> offsets;  // n + 1
  Buffer<vid_t> targets;  // offsets[n] of them

  vid_t num_vertices() const { return static_cast<vid_t>(offsets.size() - 1); }
  eid_t num_edges() const { return offsets[offsets.size() - 1]; }
  std::span<const vid_t> list(vid_t v) const {
    return {targets.data() + offsets[v], static_cast<std::size_t>(offsets[v + 1] - offsets[v])};
  }
};

// The oriented graph of `g`, its arrays from `memory` (pinned for the GPU, which copies them). With
// `listed`, only those vertices' lists (a rank's own; the others are left empty), which need only
// the degrees of the rest.
Oriented orient(const Graph& g, HostMemory& memory, const Bitmap* listed = nullptr);

// The device memory a block of the oriented lists takes, vertices [first, last): its offsets (one
// more than its vertices) and its lists.
std::uint64_t oriented_bytes(std::span<const eid_t> offsets, vid_t first, vid_t last);

// How the GPU takes the oriented lists: the blocks of vertices [cuts[b], cuts[b + 1]), one block
// in GPU memory. Out of core, two blocks are on the GPU at once (a source block and a target
// block), each in a slot of `slot_bytes`; in GPU memory that is the whole graph's.
struct TriangleBlocks {
  bool in_memory = false;
  std::vector<vid_t> cuts;
  std::uint64_t slot_bytes = 0;

  std::size_t count() const { return cuts.size() - 1; }
};

// The blocks for a device memory `budget`, of which the counts take 8 bytes per vertex (and the
// total 8): one block when the lists fit beside them and `in_memory` allows it, else blocks that
// fit half of what the counts leave each. Throws OutOfMemory when one vertex's list does not.
TriangleBlocks plan_triangle_blocks(std::span<const eid_t> offsets, std::uint64_t budget,
                                    bool in_memory);

// Each vertex's triangles (internal ids) and the graph's.
struct TriangleCounts {
  std::vector<std::uint64_t> per_vertex;
  std::uint64_t total = 0;
  // The GPU's blocks and how many times the lists crossed the link, as the run's summary ends
  // with them (", in 4 blocks: ..."); empty on the CPU.
  std::string blocks;
};

// Counts on the GPU (triangles_gpu.cpp) the edges u -> v of `sources` against v's list in
// `targets` (the same graph, or another rank's lists: a vertex with no list there closes
// nothing): frees what earlier runs held there, plans the blocks for the budget (`asked`: the
// user's, 0 for most of the free memory), and fills the run's stats: an iteration per source
// block, the block copies as the filter engine's bytes. Two graphs are in GPU memory when both fit
// beside the counts, else each in blocks of half of what the counts leave.
TriangleCounts count_on_gpu(DeviceGraph& device, const Oriented& sources, const Oriented& targets,
                            std::uint64_t asked, bool in_memory, RunStats& stats);

}  // namespace ooc::detail
