#pragma once
// OocEngine's state, shared by the files that implement it (engine.cpp, run_setup.cpp,
// afforest.cpp, batch.cpp), and the built-in programs' run.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ooc/engine/detail/cuda_backend.hpp"
#include "ooc/engine/detail/host_tier.hpp"
#include "ooc/engine/engine.hpp"

namespace ooc {

struct OocEngine::Impl {
  Graph graph;
  EngineOptions options;
  Backend backend = Backend::cpu;
  std::vector<Partition> partitions;
  // A directed graph with in-edges (on one rank): its in-lists as a graph, and the partitions'
  // ranges of them, which the pull direction reads.
  Graph in_lists;
  std::vector<Partition> in_partitions;
  Buffer<vid_t> internal_of_user;  // empty when ids are not permuted
  // Afforest on the GPU: the first neighbours of every list (afforest.cpp), gathered by the
  // first cc run and kept pinned for the later ones; empty until then.
  Buffer<vid_t> list_heads;
  std::uint64_t list_head_count = 0;  // of them, those that are targets (not kNoVertex)
  // Whether the lists of at least 4 times the mean out-degree (of the vertices with edges) hold a
  // third of the edges or more (engine.cpp), which PageRank's automatic push rule and automatic
  // priority in GPU memory follow; taken once, from every rank's degrees, so ranks agree.
  bool hubs_hold_many_edges();
  std::optional<bool> hub_heavy;
  // Distributed runs: the ranks' link, the owner of each partition, this rank's vertices, and
  // every rank's laid out rank by rank (an accumulative program's exchange).
  std::shared_ptr<Communicator> communicator;
  std::vector<std::uint32_t> owners;
  Bitmap owned;
  OwnedLayout layout;
  std::shared_ptr<detail::DeviceGraph> device;  // the CUDA backend's (null on the CPU)
  // Several GPUs from this process (EngineOptions::devices): a rank each; the fields above are
  // then unused.
  std::vector<OocEngine> group;
  // A graph beyond host memory (OocEngine::load): its host tier, the budget, and the list bytes
  // and partitions held in memory; null when every list is.
  std::unique_ptr<detail::HostTier> tier;
  std::uint64_t host_memory = 0, host_resident_bytes = 0;
  std::uint32_t host_resident_partitions = 0;

  // The steps of making a rank or a lone engine, once graph, options and partitions are set.
  void take_in_lists();
  void join_ranks(std::shared_ptr<Communicator> link);
  void make_device_graph();
  // SSSP's automatic delta: twice the mean edge weight, sampled once (collective on ranks).
  double distance_delta();
  // The automatic delta of the frontier loop's near-far piles: Davidson et al.'s (IPDPS 2014)
  // warp width times the mean weight over the mean degree, at least the mean weight.
  double loop_delta();
  double sampled_delta = 0;  // 0: not sampled yet
  // The steps of planning a run (OocEngine::begin_run) on a lone engine or a rank.
  EngineOptions run_options(const detail::ProgramInfo& info) const;
  MemoryPlan plan(const detail::ProgramInfo& info, const EngineOptions& o, std::uint64_t budget,
                  std::uint64_t l2_bytes) const;
  detail::DriveOptions drive_options(const detail::ProgramInfo& info, const EngineOptions& o,
                                     const MemoryPlan& memory, const RunOptions& run) const;
  RunStats describe(const detail::ProgramInfo& info, const EngineOptions& o,
                    const detail::RunSetup& setup, std::string device_name,
                    std::uint64_t own_bytes) const;
  std::vector<std::string> choices(const detail::ProgramInfo& info, const EngineOptions& o,
                                   const MemoryPlan& memory) const;
};

namespace detail {
// "CPU (N threads)": the CPU backend's device in a run's stats.
std::string cpu_device_name();
}  // namespace detail

namespace detail {
// A rank on the GPU holds only its own edges (its ranges pinned in place): the unified baseline,
// which would copy the whole graph, is refused (engine.cpp).
void check_rank_transfer(const EngineOptions& options);
// A graph beyond host memory on the GPU holds only part of its lists: the unified baseline, which
// copies them all into managed memory, is refused.
void check_tier_transfer(const EngineOptions& options);
}  // namespace detail

// Runs a built-in program on the engine's backend; values stay in internal ids.
template <class P>
detail::RawRun<P> OocEngine::run_builtin(const P& program, detail::RunSetup setup) {
  using Executor = std::unique_ptr<detail::ValuesExecutor<typename P::Value>>;
  return execute<P>(
      [&](const MemoryPlan& plan) -> Executor {
        if (impl_->device) return detail::make_cuda_executor(program, cuda_run(plan));
        return std::make_unique<detail::CpuExecutor<P>>(graph(), partitions(), pull_lists(),
                                                        program, options(), plan, rank_view(),
                                                        host_tier());
      },
      std::move(setup));
}

}  // namespace ooc
