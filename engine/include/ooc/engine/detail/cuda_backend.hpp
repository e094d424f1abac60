#pragma once
// The CUDA backend as the rest of the engine sees it: plain C++ declarations (no CUDA header),
// defined in src/cuda/ when the build has CUDA, and in src/cuda_none.cpp (each throws
// Unsupported) when it has not; the engine calls them only on the CUDA backend.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "ooc/engine/batch_programs.hpp"
#include "ooc/engine/communicator.hpp"
#include "ooc/engine/detail/executor.hpp"
#include "ooc/engine/exchange_cost.hpp"
#include "ooc/engine/kcore_program.hpp"
#include "ooc/engine/memory_plan.hpp"
#include "ooc/engine/options.hpp"
#include "ooc/engine/ownership.hpp"
#include "ooc/engine/programs.hpp"
#include "ooc/engine/scc_program.hpp"
#include "ooc/kernels/bitmap.hpp"
#include "ooc/partitioner/graph.hpp"
#include "ooc/partitioner/partition.hpp"

namespace ooc::detail {

// What stays on the GPU between runs: offsets, partition bounds, and the edges themselves when
// a run keeps them resident (in-memory mode) or in managed memory (unified policy).
struct DeviceGraph;
class HostTier;  // host_tier.hpp

// Which of a graph's lists pin_edges pins besides the out-edges (those it has): the in-edges,
// the compressed lists and their packed weights.
struct PinLists {
  bool in_edges = false;
  bool compressed = false;
};

// Moves the graph's edges (and the lists asked for) to pinned (portable, mapped) memory if they
// are not there yet.
void pin_edges(Graph& graph, int device, PinLists lists);

// A rank of a distributed run, as its DeviceGraph needs it.
struct RankSetup {
  Communicator& communicator;
  const Bitmap& owned;                                     // the rank's vertices
  std::span<const std::pair<vid_t, vid_t>> vertex_ranges;  // the same, as its partitions' ranges
  std::span<const std::uint32_t> owners;                   // each partition's rank
  const OwnedLayout& layout;                               // every rank's vertices, rank by rank
};

// A graph beyond host memory (HostTier), as its DeviceGraph needs it: the vertex ranges of the
// partitions whose lists host memory holds, and which partitions those are. Only they are pinned,
// in place, and only they may enter the edge cache; the others' lists are read from the file for
// each task that needs them.
struct TierSetup {
  std::span<const std::pair<vid_t, vid_t>> kept_ranges;
  const std::vector<bool>& kept;
};

// Moves the graph's edges (and its compressed lists, when the options read them) to pinned memory
// if they are not there yet, and uploads the offsets. A rank (`rank` not null) of a graph read in
// part pins only its own vertices' lists, in place, uploads which vertices it owns and joins the
// other ranks over NCCL (collective). A graph beyond host memory (`tier` not null) pins only the
// lists host memory holds, in place (a rank's share of them).
std::shared_ptr<DeviceGraph> make_device_graph(Graph& graph, std::span<const Partition> partitions,
                                               const EngineOptions& options,
                                               const RankSetup* rank = nullptr,
                                               const TierSetup* tier = nullptr);
// Adds the device state of a directed graph's in-lists (in_edge_view of the graph), which the
// pull direction reads, with their partitions (the graph's vertex ranges): pinned, or for a rank
// of a graph read in part, its own vertices' in-lists pinned in place.
void add_in_lists(DeviceGraph& device, Graph& in_lists, std::span<const Partition> partitions,
                  const RankSetup* rank = nullptr);
// The graph's list arrays (targets, weights, compressed lists, packed weights) that the device
// graph moved whole into pinned memory, rather than pinning ranges of them in place.
std::vector<const void*> lists_pinned_whole(const DeviceGraph& device);
// The host memory pinned for the graph's arrays that the device reads or that were read into
// pinned memory: whole arrays, and the pages a rank pinned in place for its share. Ranks of one
// process share one pinned graph, which each counts.
std::uint64_t pinned_host_bytes(const DeviceGraph& device);
std::string device_name(const DeviceGraph& device);
// The GPU's L2 cache, which sizes the pull blocks (MemoryPlan::pull_blocks).
std::uint64_t device_l2_bytes(const DeviceGraph& device);
// A rank's NCCL set-up and the times of the exchange's collectives and kernels, measured when it
// joined the others (empty on one GPU).
ExchangeCalibration exchange_calibration(const DeviceGraph& device);
// The budget a run may plan with: the user's, or 90% of the free memory now.
std::uint64_t device_budget(const DeviceGraph& device, std::uint64_t asked);

struct CudaRun {
  const Graph& graph;
  std::span<const Partition> partitions;
  const EngineOptions& options;
  const MemoryPlan& plan;
  DeviceGraph& device;
  // The partitions of the lists the pull direction reads (device.in_lists', when it has them).
  std::span<const Partition> pull_partitions;
  // A rank of a distributed run: the ranks' host link (device.nccl carries the vertex arrays);
  // null: one GPU.
  Communicator* link = nullptr;
  // A graph beyond host memory: the tier that reads the lists host memory does not hold.
  HostTier* tier = nullptr;
};

std::unique_ptr<ValuesExecutor<Bfs::Value>> make_cuda_executor(const Bfs& program,
                                                               const CudaRun& run);
std::unique_ptr<ValuesExecutor<SsspU32::Value>> make_cuda_executor(const SsspU32& program,
                                                                   const CudaRun& run);
std::unique_ptr<ValuesExecutor<SsspF32::Value>> make_cuda_executor(const SsspF32& program,
                                                                   const CudaRun& run);
std::unique_ptr<ValuesExecutor<Cc::Value>> make_cuda_executor(const Cc& program,
                                                              const CudaRun& run);
std::unique_ptr<ValuesExecutor<PageRank::Value>> make_cuda_executor(const PageRank& program,
                                                                    const CudaRun& run);
std::unique_ptr<ValuesExecutor<BatchForward::Value>> make_cuda_executor(const BatchForward& program,
                                                                        const CudaRun& run);
std::unique_ptr<ValuesExecutor<BatchBackward::Value>> make_cuda_executor(
    const BatchBackward& program, const CudaRun& run);

std::unique_ptr<ValuesExecutor<AfforestLink::Value>> make_cuda_executor(const AfforestLink& program,
                                                                        const CudaRun& run);

std::unique_ptr<ValuesExecutor<KCorePeel::Value>> make_cuda_executor(const KCorePeel& program,
                                                                     const CudaRun& run);
std::unique_ptr<ValuesExecutor<KCoreRankedPeel::Value>> make_cuda_executor(
    const KCoreRankedPeel& program, const CudaRun& run);
// k-core's next shell (kcore.cpp) on an executor that make_cuda_executor made for the same
// program type: the run starts again with `program`, from the `count` vertices of `frontier`
// (device memory).
void restart_cuda_executor(ValuesExecutor<KCorePeel::Value>& executor, const KCorePeel& program,
                           const vid_t* frontier, std::uint64_t count);
void restart_cuda_executor(ValuesExecutor<KCoreRankedPeel::Value>& executor,
                           const KCoreRankedPeel& program, const vid_t* frontier,
                           std::uint64_t count);
std::unique_ptr<ValuesExecutor<SccReach::Value>> make_cuda_executor(const SccReach& program,
                                                                    const CudaRun& run);
// k-core's step between two runs (kcore.cpp) on the GPU, over the device lists of `state.steps`
// (cuda/kcore_step.cuh), n vertices: the first step lists every vertex; each finds the least
// remaining degree c of the vertices not peeled, gives those at c core number c, lists them in
// `opened` (n entries, device memory) and sets the shell word. Returns c, or KCoreState::kUnpeeled
// when every vertex is peeled. One read back a step: the counts below.
struct KCoreLists {
  vid_t* opened = nullptr;
  bool listed = false;
  std::uint64_t left = 0;  // not peeled at the last step (the frontier loop's steps peel more)
  std::uint64_t opened_count = 0;
};
std::uint32_t kcore_open_next_shell(const DeviceGraph& device, const KCoreState& state, vid_t n,
                                    KCoreLists& lists);

// Afforest's steps outside its run (afforest.cpp), on device arrays: `parent` of n entries.
// afforest_sample makes every vertex a root, then for each round links each vertex of `ranges` to
// that round's neighbour and points every vertex at its root: `heads` holds rounds * n entries
// (round r's neighbour of v at r * n + v, kNoVertex where the list is shorter) in pinned host
// memory, which the kernels read in place. afforest_compress does the last; afforest_gather copies
// parent[at[i]] to out[i] (host arrays).
void afforest_sample(const DeviceGraph& device, vid_t* parent, const vid_t* heads, vid_t n,
                     std::uint32_t rounds, std::span<const std::pair<vid_t, vid_t>> ranges);
void afforest_compress(const DeviceGraph& device, vid_t* parent, vid_t n);
void afforest_gather(const DeviceGraph& device, const vid_t* parent, std::span<const vid_t> at,
                     vid_t* out);
// A GPU rank's merge of the ranks' forests: detail::merge_forests (forest_merge.hpp) on device
// memory, each chunk's parents gathered over NCCL into `gathered` (ranks * chunk entries).
void afforest_merge(const DeviceGraph& device, vid_t* parent, vid_t n, vid_t chunk,
                    vid_t* gathered);

// Triangle counting on the GPU (triangles_gpu.cpp): a block of the oriented lists in device
// memory, the vertices [first, last): offsets[u - first] is u's as the whole graph's offsets give
// it (last - first + 1 entries), and the block's lists start at targets, offsets[0] being their
// first; `edges` of them in all.
struct TriangleBlock {
  vid_t first = 0, last = 0;
  const eid_t* offsets = nullptr;
  const vid_t* targets = nullptr;
  eid_t edges = 0;
};
// For each oriented edge u -> v of `sources` whose v is one of `targets`' vertices (the same block
// or another), each w in both lists closes a triangle: adds 1 to counts[u], counts[v] and
// counts[w] (n entries, device memory) and to *total (device memory). Returns once it is done.
void count_triangles(const DeviceGraph& device, const TriangleBlock& sources,
                     const TriangleBlock& targets, unsigned long long* counts,
                     unsigned long long* total);
// Frees what earlier runs left on the device (workspace, resident edges, cache), which
// device_budget counts as the next run's: a host algorithm's own arrays take that memory.
void release_held(DeviceGraph& device);

// Device memory that a built-in program reads and writes through pointers of its own (the
// batched traversals' arrays), freed with the last copy of the pointer; filling it, copies to and
// from it, and the GPU's free memory now.
std::shared_ptr<void> device_allocate(const DeviceGraph& device, std::size_t bytes,
                                      const char* what);
void device_fill(const DeviceGraph& device, void* to, int byte, std::size_t bytes);
void copy_to_device(const DeviceGraph& device, void* to, const void* from, std::size_t bytes);
void copy_to_host(const DeviceGraph& device, void* to, const void* from, std::size_t bytes);
std::uint64_t device_free_bytes(const DeviceGraph& device);

// A batch's steps outside its runs (batch.cpp), on its arrays in device memory (n vertices):
// batch_reset empties them (the harmonic sums apart) and places the sources (internal ids, host
// memory); batch_add_dependencies adds each vertex's dependencies over the batch to total[v]
// (device memory).
void batch_reset(const DeviceGraph& device, const BatchState& state, vid_t n,
                 std::span<const vid_t> sources);
void batch_add_dependencies(const DeviceGraph& device, const BatchState& state, vid_t n,
                            double* total);

}  // namespace ooc::detail
