#pragma once
// OocEngine: load a graph once, run graph programs on it (on a GPU, or on the CPU), get values
// back in the user's vertex ids together with what the run did.
//
//   ooc::EngineOptions options;             // defaults: hybrid transfer, 32 MiB partitions
//   auto engine = ooc::OocEngine::load("graph.oocg", options);
//   auto bfs = engine.bfs(source);          // bfs.values[v]: level of v, kUnreachedLevel if none
//   std::puts(bfs.stats.summary().c_str());
//
// User programs follow the contract in programs.hpp and run with engine.run(program).
#include <cstdint>
#include <filesystem>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ooc/engine/communicator.hpp"
#include "ooc/engine/detail/cpu_executor.hpp"
#include "ooc/engine/memory_plan.hpp"
#include "ooc/engine/options.hpp"
#include "ooc/engine/programs.hpp"
#include "ooc/engine/stats.hpp"
#include "ooc/partitioner/graph.hpp"
#include "ooc/partitioner/partition.hpp"

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
  // A vertex stays active while its pending delta is at least `tolerance` in unnormalised rank
  // units (a typical rank is about 1), i.e. tolerance / V of the normalised total.
  float tolerance = 1e-6f;
  RunOptions run;
};

inline constexpr std::uint32_t kUnreachedLevel = Bfs::kUnreached;

namespace detail {
struct ProgramInfo {
  const char* name;
  ProgramKind kind;
  bool needs_weights;
  bool needs_symmetric;
  bool ordered;
  std::uint32_t value_bytes;
};
template <class P>
ProgramInfo info_of(const char* name) {
  return {name,
          P::kind,
          P::needs_weights,
          P::needs_symmetric,
          is_ordered<P>(),
          sizeof(typename P::Value)};
}
// What a run of one program needs from the engine, checked and planned.
struct RunSetup {
  MemoryPlan memory;
  DriveOptions drive;
  RunStats stats;
};
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
  // whole): a rank's host memory holds about 1/ranks of the edges.
  static OocEngine load(const std::filesystem::path& path, EngineOptions options,
                        std::shared_ptr<Communicator> communicator);
  OocEngine(OocEngine&&) noexcept;
  OocEngine& operator=(OocEngine&&) noexcept;
  ~OocEngine();

  const Graph& graph() const;
  const EngineOptions& options() const;
  // Later runs use another transfer policy, priority setting or load-balancing mapping (the
  // graph stays loaded).
  void set_transfer(TransferPolicy transfer);
  void set_priority(bool priority);
  void set_load_balance(LoadBalance load_balance);
  void set_exchange(Exchange exchange);
  void set_exchange_rounds(std::uint32_t rounds);
  Backend backend() const;  // the one chosen (never automatic)
  std::span<const Partition> partitions() const;
  // The user's id <-> the engine's internal id (hub sort permutes them). Throws InvalidInput for
  // an id that is not a vertex.
  vid_t internal_id(vid_t user_id) const;
  vid_t user_id(vid_t internal) const { return graph().original_id(internal); }
  // The vertex with the most out-edges (the default source of ooc-run), in user ids.
  vid_t highest_degree_vertex() const;
  // This rank and the number of ranks (0 and 1 without a communicator), and which rank owns
  // each partition.
  int rank() const;
  int ranks() const;
  std::span<const std::uint32_t> owners() const;

  Result<std::uint32_t> bfs(vid_t source, const RunOptions& run = {});  // levels
  Result<double> sssp(vid_t source, const RunOptions& run = {});        // +inf: unreached
  Result<vid_t> cc(const RunOptions& run = {});                 // smallest user id in the component
  Result<float> pagerank(const PageRankOptions& options = {});  // sums to 1

  // Runs a user program (see programs.hpp) and returns its values in user ids.
  template <class P>
  Result<typename P::Value> run(const P& program, const RunOptions& run = {});

 private:
  detail::RunSetup begin_run(const detail::ProgramInfo& info, const RunOptions& run) const;
  const Bitmap* owned_vertices() const;  // null without a communicator
  // Several GPUs from this process (options.devices): the ranks, and running on all of them.
  OocEngine(std::vector<OocEngine> group, EngineOptions options);
  bool grouped() const;
  const OocEngine& lead() const;  // the first rank of a group, else this engine
  void run_on_group(const std::function<void(OocEngine&, int)>& body);
  template <class F>
  auto on_group(F&& f);
  template <class P>
  auto run_builtin(const P& program, detail::RunSetup setup);
  template <class T>
  std::vector<T> to_user_ids(const T* internal) const;
  void require_cpu_backend(const char* program) const;

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
  run_on_group([&](OocEngine& engine, int rank) {
    auto result = f(engine);
    if (rank == 0) first = std::move(result);
  });
  return std::move(*first);
}

template <class P>
Result<typename P::Value> OocEngine::run(const P& program, const RunOptions& run) {
  if (grouped()) return on_group([&](OocEngine& e) { return e.run(program, run); });
  require_cpu_backend("user programs");
  detail::RunSetup setup = begin_run(detail::info_of<P>("user program"), run);
  using Clock = std::chrono::steady_clock;
  auto start = Clock::now();
  detail::CpuExecutor<P> executor(graph(), partitions(), program, options(), setup.memory,
                                  owned_vertices());
  setup.stats.setup_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  start = Clock::now();
  Result<typename P::Value> result;
  result.converged = detail::drive(executor, partitions(), setup.drive, setup.stats);
  setup.stats.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (setup.drive.communicator != nullptr) executor.finish(*setup.drive.communicator);
  result.values = to_user_ids(executor.values().data());
  result.stats = std::move(setup.stats);
  return result;
}

}  // namespace ooc
