#pragma once
// What a run did: per iteration, how much was active, which transfer engine each partition
// used, the bytes each engine moved (or, on the CPU backend, would have moved) over PCIe, and
// where the time went.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ooc/engine/exchange_cost.hpp"

namespace ooc {

// How one partition's active edges were brought to the processor in one iteration.
enum class TransferEngine : std::uint8_t { filter, compaction, zerocopy, unified, resident };
inline constexpr std::size_t kEngines = 5;
std::string_view to_string(TransferEngine e);

struct IterationStats {
  std::uint32_t iteration = 0;
  // Whether the iteration pulled (EngineOptions::direction): its tasks then read the lists of the
  // vertices that gathered, which active_vertices and active_edges count, instead of the
  // frontier's (frontier_vertices and frontier_edges, sent either way).
  bool pull = false;
  // Whether the frontier loop ran it (frontier_loop.hpp): the processor's own level, with no
  // survey and no tasks. Its active vertices and edges are the level's queue (the near pile),
  // its bytes what it read by zero-copy, its partitions per engine none, and its seconds the
  // level's own, timed on the processor.
  bool frontier_loop = false;
  std::uint64_t active_vertices = 0;  // at the start of the iteration
  std::uint64_t active_edges = 0;
  std::uint64_t frontier_vertices = 0;
  std::uint64_t frontier_edges = 0;
  std::uint64_t edges_processed = 0;  // including loaded partitions processed once more
  std::array<std::uint32_t, kEngines> partitions{};  // active partitions per engine
  std::array<std::uint64_t, kEngines> bytes{};       // bytes over PCIe per engine
  std::uint64_t cached_bytes = 0;  // edge bytes the active lists read from the edge cache
  // A graph beyond host memory (EngineOptions::host_memory): the list bytes read from its file,
  // for the partitions host memory does not hold, and the time the reads took; of them, the bytes
  // a filter task's read took in while the filter task before it ran (host_tier.hpp,
  // fetch_ahead), and the time the tasks waited for their reads.
  std::uint64_t storage_bytes = 0;
  double storage_seconds = 0;
  std::uint64_t storage_ahead_bytes = 0;
  double storage_wait_seconds = 0;
  std::uint32_t tasks = 0;
  double seconds = 0;            // wall time of the iteration
  double survey_seconds = 0;     // activity and cost model, of which:
  double window_seconds = 0;     //   the priority window's passes (priority.hpp)
  double direction_seconds = 0;  //   the pull survey and the choice of direction (direction.hpp)
  double transfer_seconds = 0;   // copies and compaction (CPU: staging copies)
  double compute_seconds = 0;    // kernels / loops
  // Distributed runs: what the ranks combined (dense: the array each rank hands to the
  // all-reduce, or to an accumulative program's reduce-scatter, which moves half as much; sparse:
  // the changed pairs of every rank, as gathered), the time it took from the end of this rank's
  // tasks (waiting for slower ranks included), whether any exchange took the sparse form, and how
  // many exchanges there were (EngineOptions::exchange_rounds in a dense iteration, else 1; 0 for
  // one rank).
  std::uint64_t exchange_bytes = 0;
  double exchange_seconds = 0;
  double nccl_seconds = 0;  // of which inside NCCL's collective (GPU ranks)
  // GPU ranks: of which waiting, once this rank's changes were counted, for the slowest rank to
  // count its own (the host's all-reduce of the busiest count, which no rank leaves before all
  // have finished their tasks). The rest of exchange_seconds is the rank's own kernels around
  // the collective and its waits for them.
  double wait_seconds = 0;
  bool sparse_exchange = false;
  std::uint32_t exchange_rounds = 0;
  // GPU ranks exchanging sparse or auto: the most vertices any rank had changed at an exchange
  // (the largest of the iteration's exchanges), which with RunStats::exchange_calibration prices
  // the two forms (exchange_cost.hpp); 0 otherwise.
  std::uint64_t busiest_changes = 0;
  // The cost model's constants this iteration chose with (EngineOptions::adapt_costs moves them).
  double link_bandwidth = 0;  // bytes/s
  double zerocopy_round_trip = 0;

  std::uint64_t total_bytes() const;
};

struct RunStats {
  std::string algorithm;
  std::string backend;
  std::string device;  // GPU name, or the CPU thread count
  std::string transfer;
  bool priority = true;
  std::string load_balance;  // the CUDA advance mapping
  std::string direction;     // push, pull or auto, as asked (iterations say which ran)
  // Where the run differs from what its options asked, and why, a phrase each (e.g. "push: this
  // directed graph has no in-edges to pull over (partition-tool --in-edges)"); the summary ends
  // with them.
  std::vector<std::string> choices;
  // cc: "afforest" (its first iteration links sampled neighbours; the GPU's bytes are theirs) or
  // "labels"; pagerank: its push rule, "per-edge" or "per-vertex"; empty for the other programs.
  std::string method;
  // PageRank: the tolerance it ran at (as asked, or as PageRankOptions::l1 chose it), and the bound
  // on the L1 distance of its ranks to the converged ones (pagerank_bound.hpp); 0 for the others.
  double tolerance = 0;
  double l1_bound = 0;
  // Batched traversals (bc, closeness, bfs from several sources): the sources per pass; 0 else.
  std::uint32_t batch = 0;
  // Monotone programs windowed by value (EngineOptions::priority_delta): the delta each window
  // spanned; 0 when the window took a fraction of the work, or none.
  double priority_delta = 0;
  std::string exchange;               // distributed runs: dense, sparse or auto (empty: one rank)
  std::uint32_t exchange_rounds = 0;  // distributed runs: EngineOptions::exchange_rounds
  // GPU ranks: what the ranks measured when they joined over NCCL (at load), by which auto
  // chose its form in each iteration; not measured() otherwise.
  ExchangeCalibration exchange_calibration;
  bool in_memory = false;             // all edges were resident on the device
  std::uint32_t pull_blocks = 1;      // the ranges an iteration that pulled gathered by, in turn
  std::uint32_t resident_slices = 1;  // the most tasks resident partitions ran as (1: one)
  bool compressed = false;            // the run read compressed lists (filter, zero-copy, cache)
  bool adapt_costs = false;           // the cost constants followed the run's timings
  std::uint32_t partitions = 0;
  // The frontier loop's threshold in active edges (EngineOptions::frontier_loop_edges), its piles'
  // delta (0: one pile) and its hops (EngineOptions::frontier_loop_hops; the CPU backend takes
  // none); all 0 where the loop does not serve the run.
  std::uint64_t frontier_loop_edges = 0;
  double frontier_loop_delta = 0;
  std::uint32_t frontier_loop_hops = 0;
  std::vector<IterationStats> iterations;
  // Processing time: from the first survey to convergence (what HyTGraph and EMOGI report).
  // Setting up the run (allocation, initial values) and reading the values back are apart.
  double seconds = 0;
  double setup_seconds = 0;       // allocations, initial values, edges copied in in-memory mode
  double readback_seconds = 0;    // values back to the host
  std::uint64_t setup_bytes = 0;  // edges copied to the device once (in-memory mode, cache)
  // The device memory plan (memory_plan.hpp; CUDA): the budget, what vertex data and staging
  // take of it, and the edge bytes the program reads (4 per edge, 8 with weights).
  std::uint64_t budget = 0, vertex_bytes = 0, staging_bytes = 0, edge_bytes = 0;
  // Host memory pinned for the graph this rank holds (CUDA): the sections it read, or its share
  // of them; 0 on the CPU backend, which pins nothing. A compressed-only file pins no raw lists.
  std::uint64_t host_pinned_bytes = 0;
  // The edge cache (out of core): the edge bytes it kept resident and in how many partitions.
  std::uint64_t cache_bytes = 0;
  std::uint32_t cache_partitions = 0;
  // A graph beyond host memory (EngineOptions::host_memory): the host memory its edges were
  // given, and the list bytes and partitions held there; the rest come from the file (0: every
  // list is in memory).
  std::uint64_t host_memory = 0, host_resident_bytes = 0;
  std::uint32_t host_resident_partitions = 0;
  // What the run read from the file before its first iteration, and how long that took: the
  // lists of the partitions in the file that its edge cache took in (CUDA; setup_seconds counts
  // the time too). Not among the iterations' storage bytes.
  std::uint64_t setup_storage_bytes = 0;
  double setup_storage_seconds = 0;
  // Whether the file was read past the page cache (O_DIRECT), so that storage_bytes are the
  // storage's; else its file system refused that, and a list read again may come from the cache.
  bool storage_direct = false;
  // What the hybrid policy priced a partition in the file by (CostConstants): the storage's read
  // bandwidth (bytes/s) and a read's latency (s), measured at load or given; 0 without a tier.
  double storage_bandwidth = 0, storage_latency = 0;

  // Appends a later run of the same settings (bc's runs, summed): its iterations after these,
  // renumbered, and its times and setup bytes added; the settings and memory plan stay.
  void add(const RunStats& run);
  // A group's run (EngineOptions::devices) returns its first rank's stats: adds another rank's
  // host tier to them, so that they tell the whole group's (host memory, resident lists and
  // partitions, and each iteration's storage bytes summed; its storage seconds the slowest
  // rank's, as the ranks read at once).
  void add_rank_tier(const RunStats& rank);

  std::uint64_t edges_processed() const;
  std::uint64_t bytes(TransferEngine e) const;
  std::uint64_t total_bytes() const;
  std::uint64_t cached_bytes() const;
  std::uint64_t storage_bytes() const;  // read from the file (a graph beyond host memory)
  std::size_t pull_iterations() const;
  std::size_t loop_iterations() const;  // run by the frontier loop
  // One line: time, iterations, edges processed, bytes by engine.
  std::string summary() const;
};

}  // namespace ooc
