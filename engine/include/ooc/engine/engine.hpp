#pragma once
// OocEngine: load a graph once, run graph programs on it (on a GPU, or on the CPU), get values
// back in the user's vertex ids together with what the run did.
//
//   ooc::EngineOptions options;             // defaults: hybrid transfer, 32 MiB partitions
//   auto engine = ooc::OocEngine::load("graph.oocg", options);
//   auto bfs = engine.bfs(source);          // bfs.values[v]: level of v, kUnreachedLevel if none
//   std::puts(bfs.stats.summary().c_str());
//
// User programs follow the contract in programs.hpp and run with engine.run(program): on the CPU
// backend from any compiler, and on the GPU where the file that calls run() is compiled with
// nvcc against ooc::engine_cuda (oocgraph_gpu_sources() in CMake; docs/programs.md).
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "ooc/core/buffer.hpp"
#include "ooc/core/error.hpp"
#include "ooc/engine/communicator.hpp"
#include "ooc/engine/detail/cpu_executor.hpp"
#include "ooc/engine/detail/cuda_backend.hpp"
#include "ooc/engine/exchange_cost.hpp"
#include "ooc/engine/memory_plan.hpp"
#include "ooc/engine/options.hpp"
#include "ooc/engine/programs.hpp"
#include "ooc/engine/stats.hpp"
#include "ooc/partitioner/graph.hpp"
#include "ooc/partitioner/oocg.hpp"
#include "ooc/partitioner/partition.hpp"

// ooc::engine_cuda defines OOC_CUDA_PROGRAMS: the CUDA executor, instantiated per program.
// OOC_PROGRAMS_ON_GPU is 1 where the user programs this file runs can run on the GPU.
#if defined(__CUDACC__) && defined(OOC_CUDA_PROGRAMS)
#include "ooc/engine/cuda/cuda_executor.cuh"
#define OOC_PROGRAMS_ON_GPU 1
#else
#define OOC_PROGRAMS_ON_GPU 0
#endif

namespace ooc {

template <class T>
struct Result {
  std::vector<T> values;  // indexed by the user's vertex ids
  RunStats stats;
  bool converged = true;  // false when max_iterations stopped the run first
};

struct RunOptions {
  std::uint32_t max_iterations = 0;  // 0: until no vertex is active
  // Asked before every iteration, on the thread that runs it (each rank's, with several GPUs in
  // one process); when it returns true on any rank, every rank stops and the run throws
  // Cancelled. Empty: never.
  std::function<bool()> cancelled;
};

struct PageRankOptions {
  float damping = 0.85f;
  // In unnormalised rank units (a typical rank is about 1): each rule leaves less than
  // tolerance * V pending in all (per_vertex: less than `tolerance` at each vertex), i.e. a
  // `tolerance` of the normalised total's 1 / V per vertex on average, and the same L1 bound.
  float tolerance = 1e-6f;
  // The accuracy asked for instead (0: none): the ranks within this L1 distance of the converged
  // ones, 0 < l1 < 2. The run takes the tolerance that makes sure of it (pagerank_bound.hpp),
  // in place of `tolerance`, and on one rank ends sooner, once little enough pends; its stats say
  // which tolerance, whether it ended so, and the bound reached.
  double l1 = 0;
  PushRule push = PushRule::automatic;  // the rule taken is the run's stats.method
  RunOptions run;
};

// A batched traversal's result (bc, closeness): Result::stats adds up every run (iterations one
// after another, times and bytes summed); each batch's runs are apart too.
struct BatchResult : Result<double> {
  std::uint32_t batch = 0;         // sources per pass over the edges
  std::vector<RunStats> forward;   // per batch: levels (and bc's shortest-path counts)
  std::vector<RunStats> backward;  // per batch: bc's dependencies
};
using BcResult = BatchResult;

// BFS from several sources: levels[i][v] is vertex v's level from sources[i] (user ids;
// kUnreachedLevel where it is not reached).
struct LevelsResult {
  std::vector<std::vector<std::uint32_t>> levels;
  RunStats stats;  // every batch's run, added up
  bool converged = true;
  std::uint32_t batch = 0;  // sources per pass over the edges
};

inline constexpr std::uint32_t kUnreachedLevel = Bfs::kUnreached;

// Triangle counting: each vertex's triangles (indexed by user ids) and the graph's.
struct TriangleResult : Result<std::uint64_t> {
  std::uint64_t total = 0;
};

struct KCoreState;  // kcore_program.hpp
namespace detail {
class Peeling;  // kcore.cpp
}  // namespace detail

// The k-core decomposition: each vertex's core number (indexed by user ids), and the largest.
struct KCoreResult : Result<std::uint32_t> {
  std::uint32_t degeneracy = 0;  // the largest core number
  std::uint32_t shells = 0;      // the runs: one per core number some vertex has
};

// Strongly connected components: each vertex's label, the smallest user id in its component
// (indexed by user ids, as cc's), how many components there are and the largest one's size.
struct SccResult : Result<vid_t> {
  vid_t components = 0;
  vid_t largest = 0;
};

namespace detail {
struct ProgramInfo {
  const char* name;
  ProgramKind kind;
  bool needs_weights;
  bool needs_symmetric;
  bool ordered;
  bool pulls;  // PullProgram: it can run in the pull direction
  std::uint32_t value_bytes;
  std::uint64_t own_vertex_bytes;  // arrays the program keeps itself (bc), per vertex
  // Runs pushing whatever direction the options ask, and is not refused for it: Afforest's pass,
  // which cc runs in place of label propagation (the options' direction is cc's, not its).
  bool pushes_only = false;
  // Its values are unused (Afforest's pass, whose answer is its forest, merged apart): ranks run
  // it without exchanging them.
  bool values_unused = false;
  // Values are weighted path lengths (SSSP): the automatic priority_delta is a multiple of the
  // mean weight (OocEngine::Impl::distance_delta).
  bool weighted_distances = false;
  // Level-synchronous (SettlingProgram): bulk-synchronous runs, one exchange per iteration.
  bool settles = false;
  // Its slots (SharingProgram) are combined across ranks; a settling program without them runs on
  // one rank only.
  bool shares = false;
};
template <class P>
ProgramInfo info_of(const char* name) {
  // Designated, so that a field added to ProgramInfo cannot shift the others' values.
  return {.name = name,
          .kind = P::kind,
          .needs_weights = P::needs_weights,
          .needs_symmetric = P::needs_symmetric,
          .ordered = is_ordered<P>(),
          .pulls = PullProgram<P>,
          .value_bytes = sizeof(typename P::Value),
          .own_vertex_bytes = 0,
          .settles = SettlingProgram<P>,
          .shares = SharingProgram<P>};
}
// What a run of one program needs from the engine, checked and planned.
struct RunSetup {
  MemoryPlan memory;
  DriveOptions drive;
  RunStats stats;
  // Whether the run reads its values back; not for programs whose answer is in arrays of their
  // own (Afforest's forest, a batch's arrays), whose values would cost a copy of V of them.
  bool read_values = true;
};
// A run's vertex arrays as the executor left them (internal ids), and what it did.
template <class P>
struct RawRun {
  Buffer<typename P::Value> values, deltas;  // deltas: accumulative programs only
  RunStats stats;
  bool converged = true;
};
inline constexpr const char* kHostCompiledProgram =
    "this user program was compiled without its GPU code, so it runs on the CPU backend only: "
    "compile the file that calls OocEngine::run with nvcc and link ooc::engine_cuda "
    "(oocgraph_gpu_sources() in CMake, see docs/programs.md), or choose Backend::cpu";
}  // namespace detail

class OocEngine {
 public:
  // With options.devices naming several GPUs, the engine runs a rank on each, a thread per GPU,
  // and every run returns the first rank's result (its values are every rank's; its stats are
  // its own). From a Graph the ranks share its edges, pinned once; load() has each rank read
  // only its own partitions' edges, and graph() then holds the first rank's edges only.
  explicit OocEngine(Graph graph, EngineOptions options = {});
  // Reads a .oocg file straight into the memory the backend wants (pinned for CUDA).
  static OocEngine load(const std::filesystem::path& path, EngineOptions options = {});

  // One rank of a distributed run (communicator.hpp; mpi.hpp for `mpirun`). The rank owns a
  // share of the partitions (ownership.hpp) and processes only those; after every iteration the
  // ranks combine their vertex values through `communicator`, so every rank must make the same
  // runs in the same order. Results hold every vertex's value on every rank. On the GPU
  // (options.device: this rank's GPU) the ranks agree over NCCL, bootstrapped through
  // `communicator`; the rank pins only its own edges, and keeps on its GPU as many of them as the
  // budget holds in the edge cache (all when they fit; none with in_memory off). The unified
  // policy is refused. A null communicator is one rank alone.
  OocEngine(Graph graph, EngineOptions options, std::shared_ptr<Communicator> communicator);
  // The same, reading only this rank's partitions' edges from the file (the offsets and ids
  // whole): a rank's host memory holds about 1/ranks of the edges. Where they exceed the rank's
  // share of EngineOptions::host_memory, it keeps those that fit and a host tier reads the rest.
  static OocEngine load(const std::filesystem::path& path, EngineOptions options,
                        std::shared_ptr<Communicator> communicator);
  OocEngine(OocEngine&&) noexcept;
  OocEngine& operator=(OocEngine&&) noexcept;
  ~OocEngine();

  // A graph beyond host memory (EngineOptions::host_memory) holds only some partitions' lists;
  // the others are read from its file as runs need them, so that graph() lacks them.
  const Graph& graph() const;
  bool lists_in_memory() const;
  const EngineOptions& options() const;
  // The options that may change between runs (options.hpp), and later runs with others: the
  // graph stays loaded. configure() throws InvalidInput for a count out of its range, and changes
  // nothing then.
  RunSettings settings() const;
  void configure(const RunSettings& settings);
  Backend backend() const;  // the one chosen (never automatic)
  std::span<const Partition> partitions() const;
  // The user's id <-> the engine's internal id (hub sort permutes them). Throws InvalidInput for
  // an id that is not a vertex.
  vid_t internal_id(vid_t user_id) const;
  vid_t user_id(vid_t internal) const { return graph().original_id(internal); }
  // The vertex with the most out-edges (the default source of ooc-run), in user ids; of several,
  // the smallest user id, whatever order the graph is in.
  vid_t highest_degree_vertex() const;
  // This rank and the number of ranks (0 and 1 without a communicator), and which rank owns
  // each partition.
  int rank() const;
  int ranks() const;
  std::span<const std::uint32_t> owners() const;
  // A rank on a GPU: NCCL's set-up when the engine was made (joined, warmed up with the
  // collectives a run makes, timed) and the times that price the exchange's two forms
  // (exchange_cost.hpp); a group gives its first rank's. None without NCCL (one GPU, the CPU).
  std::optional<ExchangeCalibration> exchange_calibration() const;

  Result<std::uint32_t> bfs(vid_t source, const RunOptions& run = {});  // levels
  Result<double> sssp(vid_t source, const RunOptions& run = {});        // +inf: unreached
  // The smallest user id in each vertex's component, by EngineOptions::cc: Afforest on one GPU
  // or the CPU and across ranks (their forests merged), label propagation when asked.
  Result<vid_t> cc(const RunOptions& run = {});
  Result<float> pagerank(const PageRankOptions& options = {});  // sums to 1
  // The batched traversals (batch_programs.hpp) run `batch` sources per pass over the edges (0:
  // the most whose arrays fit in 70% of the GPU's free memory, or the host's on the CPU, at most
  // 1024; across ranks, the narrowest any rank can hold). Sources without out-edges take no slot
  // in bc and closeness (they add nothing). docs/programs.md, "Batched traversals".
  //
  // Betweenness centrality (Brandes, unweighted) from `sources` (user ids, distinct): for each
  // vertex v, the sum over the sources s of its dependency delta_s(v), the share of shortest
  // paths from s that pass through v. Every vertex as a source gives exact BC (twice the
  // pair-based value on an undirected graph, which networkx halves); k sources sampled among the
  // V_e vertices with out-edges (sample_sources) give an estimate once scaled by V_e / k (the
  // others add nothing). Needs a symmetric graph. Path counts and dependencies are
  // single precision per source (docs/programs.md).
  BatchResult bc(std::span<const vid_t> sources, const RunOptions& run = {},
                 std::uint32_t batch = 0);
  // Harmonic closeness from `sources` (user ids, distinct): for each vertex v, the sum over the
  // sources s other than v that reach it of 1 / d(s, v). Every vertex as a source gives the exact
  // harmonic centrality (on a symmetric graph); k sampled ones an estimate once scaled by
  // V_e / k, as bc's.
  BatchResult closeness(std::span<const vid_t> sources, const RunOptions& run = {},
                        std::uint32_t batch = 0);
  // BFS levels from each of `sources` (user ids, distinct).
  LevelsResult bfs(std::span<const vid_t> sources, const RunOptions& run = {},
                   std::uint32_t batch = 0);
  // Triangle counting (triangles.cpp; docs/programs.md, "Triangles"): how many triangles each
  // vertex is in, and the graph's total. Needs a symmetric graph. Each edge is oriented from the
  // lower degree rank to the higher (ties by id) so that each triangle is found once, from its
  // lowest vertex, by intersecting two sorted oriented lists. Either backend: the GPU takes the
  // oriented lists whole when they fit its budget, else in blocks, a source block against each
  // block its edges point into (triangles_gpu.cpp). Across ranks each rank counts its own
  // vertices' edges, the ranks handing their lists to each other in turn.
  TriangleResult triangles(const RunOptions& run = {});
  // The k-core decomposition (kcore.cpp, kcore_program.hpp; docs/programs.md, "k-core"): each
  // vertex's core number, by peeling in the engine's iterations, a run per shell. Needs a symmetric
  // graph; either backend, on one rank or across ranks.
  KCoreResult kcore(const RunOptions& run = {});
  // Strongly connected components (scc.cpp; docs/programs.md, "Strongly connected components"):
  // trimming, a forward-backward search from a high-degree pivot for the giant component, then
  // Tarjan's algorithm on what is left (Hong et al., SC'13). Needs a directed graph's in-edges
  // (partition-tool --in-edges); a symmetric graph's lists are their own, and its SCCs are its
  // connected components. The forward and backward searches are runs of the engine (the backward
  // one on an engine made on the in-lists), the trims and Tarjan host passes. Either backend, on
  // one rank for now: ranks refuse it.
  SccResult scc(const RunOptions& run = {});
  // `count` distinct vertices with out-edges, drawn uniformly with `seed` (user ids): bc's
  // sampled sources.
  std::vector<vid_t> sample_sources(std::uint32_t count, std::uint64_t seed) const;

  // Runs a user program (see program_contract.hpp) and returns its values in user ids. Any other
  // type fails to compile at the call, naming what it lacks (ProgramCheck).
  template <GraphProgram P>
  Result<typename P::Value> run(const P& program, const RunOptions& run = {});
  template <class P>
  requires(!GraphProgram<P>) Result<typename ProgramCheck<P>::Value> run(
      const P& program, const RunOptions& run = {});

 private:
  detail::RunSetup begin_run(const detail::ProgramInfo& info, const RunOptions& run) const;
  // The algorithms driven from the host (triangles, scc): refuses, in one line naming `algorithm`,
  // a graph beyond host memory, ranks (unless HostRanks::allowed) and a cancelled run; the run's
  // stats with what is fixed filled in.
  enum class HostRanks { refused, allowed };
  RunStats begin_host_run(const std::string& algorithm, const RunOptions& run,
                          HostRanks ranks = HostRanks::refused) const;
  detail::RankView rank_view() const;  // empty without a communicator
  // A file whose lists exceed the host memory they may hold (EngineOptions::host_memory), loaded
  // with a host tier (beyond_memory.cpp); nullopt when they fit.
  static std::optional<OocEngine> load_beyond_memory(const std::filesystem::path& path,
                                                     const EngineOptions& options,
                                                     OocgReadOptions read, Backend backend);
  // The same for a rank, whose own partitions' lists are priced against its share of the host
  // memory (collective: if one rank's exceed it, every rank loads with a host tier).
  static std::optional<OocEngine> load_rank_beyond_memory(
      const std::filesystem::path& path, const EngineOptions& options, Backend backend,
      const std::shared_ptr<Communicator>& communicator);
  // Either's engine on `backend`: the lists of the partitions `plan` keeps read with `read` into
  // address space that holds only them (on the GPU pinned there), a host tier for the others.
  static OocEngine load_tiered(const std::filesystem::path& path, const EngineOptions& options,
                               OocgReadOptions read, HostMemoryPlan plan, std::size_t partitions,
                               std::uint64_t budget, Backend backend,
                               std::shared_ptr<Communicator> communicator);
  // A graph beyond host memory's host tier (host_tier.hpp); null when every list is in memory.
  detail::HostTier* host_tier() const;
  // The batched traversals (batch.cpp): the batch's width for what their arrays hold, the same
  // on every rank.
  std::uint32_t batch_width(std::uint32_t asked, std::size_t sources, bool levels, bool paths,
                            bool harmonic) const;
  // Several GPUs from this process (options.devices): the ranks, and running on all of them.
  OocEngine(std::vector<OocEngine> group, EngineOptions options);
  bool grouped() const;
  const OocEngine& lead() const;  // the first rank of a group, else this engine
  void run_on_group(const std::function<void(OocEngine&, int)>& body);
  // f on every rank: the first rank's result, its stats given the others' host tiers
  // (RunStats::add_rank_tier).
  template <class F>
  auto on_group(F&& f);
  template <class P>
  detail::RawRun<P> run_builtin(const P& program, detail::RunSetup setup);
  // cc's two ways (afforest.cpp): the forest's roots or the propagated labels, in internal ids.
  detail::RawRun<Cc> cc_afforest(const RunOptions& run);
  detail::RawRun<Cc> cc_labels(const RunOptions& run);
  // The k-core shells' runs (kcore.cpp), with program P, over the peeling's arrays.
  template <class P>
  KCoreResult peel(detail::Peeling& peeling, const detail::RunSetup& setup);
  // Runs the executor make(plan) returns: the iterations, their timings, the read-back.
  template <class P, class Make>
  detail::RawRun<P> execute(Make&& make, detail::RunSetup setup);
  // The same with an executor made already (kcore's shells run on one): no set-up counted.
  template <class P>
  detail::RawRun<P> drive_executor(detail::ValuesExecutor<typename P::Value>& executor,
                                   detail::RunSetup setup);
  // What the CUDA executor needs from this engine (the CUDA backend only).
  detail::CudaRun cuda_run(const MemoryPlan& plan) const;
  // The lists the pull direction reads: the graph's own, or its in-lists when it has them.
  detail::Lists pull_lists() const;
  template <class T>
  std::vector<T> to_user_ids(const T* internal) const;

  struct Impl;
  std::unique_ptr<Impl> impl_;
};

template <class T>
std::vector<T> OocEngine::to_user_ids(const T* internal) const {
  const Graph& g = graph();
  std::vector<T> out(g.num_vertices());
  tbb::parallel_for(vid_t{0}, g.num_vertices(),
                    [&](vid_t v) { out[g.original_id(v)] = internal[v]; });
  return out;
}

template <class F>
auto OocEngine::on_group(F&& f) {
  std::optional<decltype(f(*this))> first;
  std::vector<RunStats> others(static_cast<std::size_t>(ranks()) - 1);
  run_on_group([&](OocEngine& engine, int rank) {
    auto result = f(engine);
    if (rank == 0) {
      first = std::move(result);
    } else {
      others[static_cast<std::size_t>(rank) - 1] = std::move(result.stats);
    }
  });
  for (const RunStats& other : others)
    first->stats.add_rank_tier(other);
  return std::move(*first);
}

template <class P, class Make>
detail::RawRun<P> OocEngine::execute(Make&& make, detail::RunSetup setup) {
  const auto start = std::chrono::steady_clock::now();
  std::unique_ptr<detail::ValuesExecutor<typename P::Value>> executor = make(setup.memory);
  executor->report_setup(setup.stats);
  setup.stats.setup_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return drive_executor<P>(*executor, std::move(setup));
}

template <class P>
detail::RawRun<P> OocEngine::drive_executor(detail::ValuesExecutor<typename P::Value>& executor,
                                            detail::RunSetup setup) {
  using Clock = std::chrono::steady_clock;
  const auto seconds_since = [](Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
  };
  // The ranks start their clocks together: one that set up sooner would count its wait for the
  // others in its run's time.
  if (setup.drive.communicator != nullptr) barrier(*setup.drive.communicator);
  auto start = Clock::now();
  detail::RawRun<P> raw;
  raw.converged = detail::drive(executor, partitions(), setup.drive, setup.stats);
  setup.stats.seconds = seconds_since(start);
  if (setup.drive.communicator != nullptr) executor.finish(*setup.drive.communicator);
  start = Clock::now();
  if (setup.read_values) {
    const vid_t n = graph().num_vertices();
    raw.values = Buffer<typename P::Value>::allocate(n);
    raw.deltas = Buffer<typename P::Value>::allocate(P::kind == ProgramKind::accumulative ? n : 0);
    executor.read_values(raw.values.data(), raw.deltas.data());
  }
  setup.stats.readback_seconds = seconds_since(start);
  raw.stats = std::move(setup.stats);
  return raw;
}

// An accumulative program's result is its value plus the delta still pending.
template <GraphProgram P>
Result<typename P::Value> OocEngine::run(const P& program, const RunOptions& run) {
  const detail::ProgramInfo info = detail::info_of<P>("user program");
  if (grouped()) {
    lead().begin_run(info, run);
    return on_group([&](OocEngine& e) { return e.run(program, run); });
  }
  using Executor = std::unique_ptr<detail::ValuesExecutor<typename P::Value>>;
  auto raw = execute<P>(
      [&](const MemoryPlan& plan) -> Executor {
        if (backend() == Backend::cuda) {
#if OOC_PROGRAMS_ON_GPU
          return std::make_unique<detail::CudaExecutor<P>>(program, cuda_run(plan));
#else
          throw Unsupported(detail::kHostCompiledProgram);
#endif
        }
        return std::make_unique<detail::CpuExecutor<P>>(graph(), partitions(), pull_lists(),
                                                        program, options(), plan, rank_view(),
                                                        host_tier());
      },
      begin_run(info, run));
  if constexpr (P::kind == ProgramKind::accumulative) {
    tbb::parallel_for(std::size_t{0}, raw.values.size(),
                      [&](std::size_t v) { raw.values[v] = raw.values[v] + raw.deltas[v]; });
  }
  return {to_user_ids(raw.values.data()), std::move(raw.stats), raw.converged};
}

}  // namespace ooc
