#pragma once
// What a user can ask of the engine. Defaults are HyTGraph's (ICDE'23) unless a comment says
// otherwise; the cost constants are documented in cost_model.hpp.
#include <cstdint>
#include <string_view>
#include <vector>

namespace ooc {

enum class Backend { automatic, cpu, cuda };

// How active edges reach the processor each iteration.
//   hybrid      the cost model picks per partition per iteration (HyTGraph §V)
//   filter      copy every partition that has an active vertex, whole (ExpTM-filter)
//   compaction  gather only the active vertices' edges on the CPU, copy those (ExpTM-compaction)
//   zerocopy    kernels read host memory directly, merged and aligned (EMOGI, ImpTM-zero-copy)
//   unified     managed memory, read-mostly: a baseline only (needs the edges to fit the GPU)
enum class TransferPolicy { hybrid, filter, compaction, zerocopy, unified };

// How the CUDA advance kernel spreads active vertices' edges over threads (the CPU backend has
// one mapping and ignores it). All split lists of 4096+ edges over the whole grid.
//   tiled         SAGE's tiled partitioning (SIGMOD'21 §5.1): block, then warp tiles for long
//                 lists, short lists gathered by the warp with a prefix sum
//   warp          a warp per active vertex (EMOGI's mapping): simpler; idles lanes on short lists
//   ordered       tiled, but for accumulative programs (PageRank) each warp walks its short
//                 lists one after another in vertex order, taking each delta only when it gets
//                 there, as warp does (far fewer iterations on high-diameter graphs)
//   decompose     Raval et al.'s workload decomposition (HiPC'17 §III-A): a block's lists
//                 concatenated by a prefix sum, their edges dealt out evenly over its threads
//   hierarchical  Raval et al.'s hierarchical processing (§III-C), in the block: a thread walks
//                 up to the mean degree of its own list, the rest is decomposed
// Pushing only: pulling, the last three gather with the tiled mapping
// (kernels/cuda/advance_raval.cuh).
enum class LoadBalance { tiled, warp, ordered, decompose, hierarchical };

// How the ranks of a distributed run on GPUs agree after each iteration (docs/distributed.md,
// section 2). The CPU backend's ranks always exchange dense arrays over MPI.
//   dense   NCCL all-reduce of the whole values (or deltas' changes) array: 4 bytes per vertex
//   sparse  NCCL all-gather of the (vertex, value) pairs each rank changed, 8 bytes per pair
//   auto    per exchange, the form that costs less time, priced from the collectives and kernels
//           the ranks timed when they joined (exchange_cost.hpp, prefer_sparse)
enum class Exchange { dense, sparse, automatic };

// Which way an iteration moves values along the edges (docs/cost-model.md#direction).
//   push  every active vertex sends along its out-edges (the frontier's lists cross the link)
//   pull  every vertex that may still change gathers from its in-neighbours in the frontier:
//         Beamer's bottom-up step for BFS (a vertex stops at its first frontier neighbour), a
//         gather without atomics per edge for the others (GraphCage §3's pull direction)
//   auto  per iteration, the direction that reads fewer edges (in GPU memory) or moves fewer
//         bytes over the link (out of core); push where a run cannot pull, where a directed
//         graph's in-lists would take it out of GPU memory that its out-lists fit, and for an
//         accumulative program (PageRank), which pushing measured faster. The default.
// Pull reads in-edges: it needs a symmetric graph, whose out-lists are its in-lists, or a directed
// one whose file holds its in-lists (partition-tool --in-edges), and a program that declares
// offer() (programs.hpp). Across ranks each rank gathers into its own vertices
// (docs/distributed.md, "Pulling across ranks").
enum class Direction { push, pull, automatic };

// Priority scheduling (priority.hpp): urgency-ordered tasks, deferral of the least urgent
// vertices of ordered programs, and loaded partitions processed once more.
//   on    for every program that can take it (a settling one, level-synchronous, never does)
//   off   tasks in partition order, every active vertex each iteration
//   auto  on, but off for accumulative programs (PageRank) out of core, which reached the same
//         L1 error faster without it on kron-26, urand-26 and an 8192x8192 grid with their
//         edges in host memory and no edge cache (H200, docs/performance-log.md, 2026-11-28,
//         "PageRank pushing per edge", calls 4 and 5), and on kron-26 with the edge cache (H100,
//         2026-12-06, ninth session); in GPU memory on where hubs hold many edges (as PageRank's
//         automatic push rule judges: kron-26, where on was the faster), off on graphs of even
//         degrees (urand-24 1.22x and a 4096x4096 grid 1.17x the faster with it off, a road-like
//         graph level; one H100, 2026-12-07). The default.
enum class Priority { on, off, automatic };

// How OocEngine::cc finds the components (docs/programs.md, "Connected components").
//   afforest  Afforest (Sutton et al., IPDPS 2018): a union-find forest on the processor, linked
//             from the first two neighbours of every list, then one pass over the lists of the
//             vertices outside the largest tree; most lists are never read. Ranks each link
//             their own vertices' lists and merge their forests after the sampling and the pass
//   labels    min-label propagation (the Cc program): every list, each iteration that it is
//             active
enum class CcAlgorithm { afforest, labels };

// Which vertices of a PageRank run push their pending delta (docs/programs.md, "PageRank").
//   auto        per-edge on a graph whose hubs hold many of the edges (the lists of at least
//               4 times the mean out-degree hold a third of them or more), else per-vertex
//   per-edge    those whose delta per out-edge is at least tolerance * V / (E + V) (Andersen,
//               Chung and Lang): a hub waits until its delta pays for its list
//   per-vertex  those whose delta is at least the tolerance (HyTGraph, Maiter): a hub pushes its
//               whole list whenever that much has arrived
enum class PushRule { automatic, per_edge, per_vertex };

// HyTGraph §V-A: Tef = ceil(E_i*d1/m/MR)*RTT, Tec = ceil((E_act*d1 + A*d2)/m/MR)*RTT,
// Tiz = ceil(sum_v(lines(v))/MR)*RTT_zc, RTT_zc = (gamma + (1-gamma)*E_act/E_i)*RTT.
// Compaction if Tec < alpha*Tef and Tec < beta*Tiz; else zero-copy if Tiz < Tef; else filter.
//
// Two terms are added, both measured on the lent H200 (PCIe Gen5 x16; see docs/cost-model.md):
//   * a full zero-copy request takes zerocopy_round_trip times as long as its share of a
//     cudaMemcpy (merged, aligned zero-copy reads run a little below the copy's bandwidth);
//   * compaction pays its CPU gather, compacted bytes / compaction_bandwidth, in round trips of
//     m*MR bytes at link_bandwidth. HyTGraph leaves this out "in practice"; on a Gen5 link the
//     CPU gather of a dense partition is slower than copying the whole partition.
// hytgraph() gives the paper's constants (PCIe 3.0, no added terms).
struct CostConstants {
  double alpha = 0.8;                  // HyTGraph §V-A, after Subway's 80% observation
  double beta = 0.4;                   // HyTGraph §V-A
  double gamma = 0.62;                 // fixed share of a request's time (docs/cost-model.md)
  std::uint32_t request_bytes = 128;   // m: the largest PCIe read request a warp makes (EMOGI)
  std::uint32_t max_requests = 256;    // MR: outstanding requests per round trip (PCIe 3.0)
  double round_trip = 1.0;             // RTT: cancels in every comparison
  double zerocopy_round_trip = 1.08;   // copy over zero-copy bandwidth (docs/cost-model.md)
  double link_bandwidth = 55.5e9;      // bytes/s, pinned cudaMemcpy H2D on the H200
  double compaction_bandwidth = 20e9;  // bytes/s the CPU gathers into pinned staging (16 cores)
  // The storage under a graph beyond host memory (the host tier): its read bandwidth (bytes/s)
  // and the latency of one read (s). 0: measured when the graph loads with a tier
  // (measure_storage_reads on its file).
  double storage_bandwidth = 0;
  double storage_latency = 0;

  static CostConstants hytgraph() {
    CostConstants c;
    c.gamma = 0.625;
    c.zerocopy_round_trip = 1.0;
    c.compaction_bandwidth = 0;  // 0: no CPU term
    return c;
  }
};

// EngineOptions::exchange_rounds allows 1 to this (0: the backend's own).
inline constexpr std::uint32_t kMaxExchangeRounds = 64;
// The backends' own exchange rounds (EngineOptions::exchange_rounds 0). On GPUs one exchange per
// iteration was the fastest for PageRank, SSSP and BFS on two H100s; on the CPU's ranks four
// cut label propagation's rereads and PageRank's edges (docs/distributed.md, section 2).
inline constexpr std::uint32_t kGpuExchangeRounds = 1;
inline constexpr std::uint32_t kCpuExchangeRounds = 4;
// EngineOptions::pull_blocks allows 1 to this (0: automatic).
inline constexpr std::uint32_t kMaxPullBlocks = 64;
inline constexpr std::uint32_t kMaxResidentSlices = 256;
// EngineOptions::priority_delta's default: chosen per program.
inline constexpr double kAutomaticDelta = -1;
// EngineOptions::frontier_loop_edges' default (frontier_loop.hpp; docs/cost-model.md, "The frontier
// loop"): where a level of the loop costs what a host iteration's own work does on an H100.
inline constexpr std::uint64_t kFrontierLoopEdges = std::uint64_t{1} << 16;
// EngineOptions::frontier_loop_hops' largest, and its default: chosen per run (docs/cost-model.md,
// "Hops").
inline constexpr std::uint32_t kMaxFrontierLoopHops = 4;
inline constexpr std::uint32_t kAutomaticLoopHops = ~std::uint32_t{0};

struct EngineOptions {
  Backend backend = Backend::automatic;
  TransferPolicy transfer = TransferPolicy::hybrid;
  LoadBalance load_balance = LoadBalance::tiled;
  Exchange exchange = Exchange::automatic;
  Direction direction = Direction::automatic;
  CcAlgorithm cc = CcAlgorithm::afforest;
  // Distributed runs: in an iteration whose active edges (all ranks together) are at least a
  // quarter of the graph's, each rank runs its tasks in this many runs, run r of R ending at
  // (r / R)^2 of its active edges (the first exchange early, once the hubs' values are out), and
  // the ranks exchange after each, so a rank's later tasks start from what the others found in
  // its earlier ones (the single-GPU pipeline gets this for free). 1: one exchange per
  // iteration; 0: the backend's own (kGpuExchangeRounds, kCpuExchangeRounds).
  // docs/distributed.md, section 2.
  std::uint32_t exchange_rounds = 0;
  // GraphCage's cache blocking of the pull direction (TOCAB, §3.1; docs/cost-model.md#direction):
  // in GPU memory, the lists are grouped once by which of `pull_blocks` equal ranges of vertex
  // ids their neighbours fall in, and an iteration that pulls gathers range by range, so that
  // the values it reads fit the GPU's L2. 1: no blocking, the default, because on Kronecker
  // graphs blocking measured slower at every count (docs/cost-model.md); 0: ranges of half the
  // L2's bytes of values, none when the values fit that. Out of core, on the CPU backend and
  // across ranks, the gathers are not blocked.
  std::uint32_t pull_blocks = 1;
  std::uint64_t partition_bytes = std::uint64_t{32} << 20;  // HyTGraph §V-B
  unsigned filter_merge = 4;  // k: neighbouring filter partitions per task (HyTGraph §V-B)
  // CUDA, with priority on, accumulative programs and monotone ones without a priority order
  // (PageRank, CC; not BFS or SSSP, which measured slower): the partitions in GPU memory or in
  // the edge cache run as this many tasks of about equal active edges, one after another in
  // partition order, each processed once more over the vertices it activated, as filter tasks
  // are. A later slice then starts from what the earlier ones pushed in the same iteration
  // (Gauss-Seidel), so PageRank and CC converge in fewer edges (docs/cost-model.md#resident-
  // slices). 1: one task, in which every vertex reads its value before most of the iteration's
  // pushes land (Jacobi). 4, the default, was PageRank's fastest of 1, 4, 8 and 16 on kron-26
  // (H200), in GPU memory and cached.
  std::uint32_t resident_slices = 4;
  // The fewest active edges a slice takes: an iteration whose resident partitions hold fewer
  // than resident_slices times this many runs fewer slices, and one task (as resident_slices = 1)
  // below twice this many. Each slice adds launches of its own, whose cost a slice of kron-22's
  // size (4 M vertices, 64 M edges) does not win back (docs/cost-model.md#resident-slices).
  // 0: no minimum.
  std::uint64_t min_slice_edges = std::uint64_t{1} << 26;
  int device = 0;  // CUDA device
  // Several GPUs from this process, a rank per GPU on its own thread, agreeing over NCCL as the
  // ranks of `mpirun` do (docs/distributed.md). One entry is that GPU alone; empty: `device`.
  std::vector<int> devices;
  // Device memory the engine may use (vertex data, frontiers, staging, and the edges when they
  // all fit; else the edge cache). 0: CUDA uses 90% of the free memory; the CPU backend keeps
  // edges out of core.
  std::uint64_t device_budget = 0;
  // Host memory the edges of a graph loaded from a file may hold (OocEngine::load; the host
  // tier, docs/architecture.md#graphs-beyond-host-memory). A graph whose lists do not fit keeps
  // the partitions that do in memory and reads the others from the file when an iteration needs
  // them, on either backend. Ranks split it: each of the ranks on one host (threads: devices, or
  // OocEngine::load with a communicator; MPI ranks that share a host) takes an equal share for
  // its own partitions. 0: 80% of the memory available when the graph is loaded (MemAvailable,
  // spare_memory).
  std::uint64_t host_memory = 0;
  // Keep all edges on the device when they fit the budget (in-memory mode). Off: edges stay in
  // host memory whatever the budget, cache included, as when comparing transfer policies on a
  // graph that fits.
  bool in_memory = true;
  // The GPU edge cache (edge_cache.hpp): when the edges do not all fit the budget, what the
  // budget leaves after vertex data and staging keeps whole partitions on the device across
  // iterations and runs, chosen by expected reuse. The CPU backend has no cache.
  bool cache = true;
  // Compressed lists (partition-tool --compress), when the graph has them: filter tasks move
  // a partition's compressed targets and decode them where they land (the GPU, or the CPU
  // backend's staging), compaction tasks gather them compressed and decode them likewise,
  // zero-copy tasks decode them read in place, and the edge cache keeps them compressed.
  // In-memory mode reads the raw targets.
  bool compressed = true;
  // Priority scheduling (Priority above).
  Priority priority = Priority::automatic;
  // Share of the work each iteration takes, most urgent first: of the active edges (monotone
  // programs) or of the pending delta (accumulative ones). 0: the kind's default, measured on
  // Kronecker graphs (docs/performance-log.md): 0.1 for monotone, 0.8 for accumulative.
  double priority_fraction = 0;
  std::uint64_t priority_min_edges = 1u << 20;  // never fewer per iteration (keeps a GPU busy)
  // Monotone programs: when positive, each iteration takes the active vertices whose value is
  // within this much of the smallest active one (delta-stepping's bucket, Meyer and Sanders),
  // rounded up to a whole urgency bucket and never fewer than priority_min_edges edges, in place
  // of priority_fraction. 0: the fraction. kAutomaticDelta (the default): SSSP takes twice the
  // mean edge weight (sampled; on kron-26, deltas of 2 to 8 mean weights took 0.16-0.19 s out of
  // core against 0.31 s with the fraction: docs/cost-model.md, "Priority windows and
  // delta-stepping"), the others the fraction; the frontier loop's near-far piles then take 32
  // mean weights over the mean degree (OocEngine::Impl::loop_delta). A delta given is used by both.
  double priority_delta = kAutomaticDelta;
  // The frontier loop (frontier_loop.hpp): while an iteration's active edges are at most this
  // many, the GPU (or the CPU backend) runs the iterations itself, with no host round trip per
  // level, and hands back when they pass it. 0: every iteration from the host.
  std::uint64_t frontier_loop_edges = kFrontierLoopEdges;
  // CUDA: in the frontier loop, a target of a short list that a thread lowers has its list relaxed
  // by its warp in the same level, and so on up to this many lists in a row, rather than queued
  // for the next level (frontier_loop.cuh, "Hops"). 0 to kMaxFrontierLoopHops; kAutomaticLoopHops
  // (the default): 4, but 2 with SSSP's piles in GPU memory (measured on a grid and a road-like
  // graph, docs/cost-model.md).
  std::uint32_t frontier_loop_hops = kAutomaticLoopHops;
  CostConstants cost;
  // CUDA: after each iteration, move the cost model's link bandwidth and zero-copy round trip
  // toward what that iteration's filter copies and zero-copy kernels took (calibration.hpp,
  // adapted), so the choice follows this machine and these encodings. The CPU backend, which is
  // no model of the link, keeps `cost`.
  bool adapt_costs = false;
};

// The options that may change between runs of a loaded graph (OocEngine::configure): the
// EngineOptions fields of the same names, with the same defaults.
struct RunSettings {
  TransferPolicy transfer = TransferPolicy::hybrid;
  Priority priority = Priority::automatic;
  LoadBalance load_balance = LoadBalance::tiled;
  Direction direction = Direction::automatic;
  Exchange exchange = Exchange::automatic;
  std::uint32_t exchange_rounds = 0;
  std::uint32_t pull_blocks = 1;
  std::uint32_t resident_slices = 4;
  CcAlgorithm cc = CcAlgorithm::afforest;
  std::uint64_t frontier_loop_edges = kFrontierLoopEdges;
  std::uint32_t frontier_loop_hops = kAutomaticLoopHops;

  bool operator==(const RunSettings&) const = default;
};

// The run settings `options` holds, and `options` with `settings` in their place.
RunSettings run_settings(const EngineOptions& options);
void apply(const RunSettings& settings, EngineOptions& options);
// Throws InvalidInput for a count out of its range (kMaxResidentSlices, kMaxExchangeRounds,
// kMaxPullBlocks).
void check(const RunSettings& settings);

std::string_view to_string(Backend b);
std::string_view to_string(TransferPolicy p);
std::string_view to_string(LoadBalance b);
std::string_view to_string(Exchange e);
std::string_view to_string(Direction d);
std::string_view to_string(Priority p);
std::string_view to_string(CcAlgorithm a);
std::string_view to_string(PushRule r);
// Throw InvalidInput listing the accepted names.
Backend parse_backend(std::string_view name);
TransferPolicy parse_transfer_policy(std::string_view name);
LoadBalance parse_load_balance(std::string_view name);
Exchange parse_exchange(std::string_view name);
Direction parse_direction(std::string_view name);
Priority parse_priority(std::string_view name);
CcAlgorithm parse_cc_algorithm(std::string_view name);
PushRule parse_push_rule(std::string_view name);

}  // namespace ooc
