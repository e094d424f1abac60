// The k-core decomposition (OocEngine::kcore): the driver of kcore_program.hpp's peeling. Each
// shell is a run of the engine, over whatever transfer policy, compressed lists and ranks the
// engine has: the shell c is the least remaining degree of the vertices not yet peeled (a core
// number no vertex has is skipped), the vertices at c open it, and the run peels the rest of it.
// docs/programs.md, "k-core".
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "engine_impl.hpp"
#include "ooc/core/error.hpp"
#include "ooc/engine/detail/cpu_executor.hpp"
#include "ooc/engine/kcore_program.hpp"

namespace ooc {
namespace {

// Across ranks the edges a vertex loses in an iteration are added up as floats (exact below this).
constexpr eid_t kLongestRankedList = eid_t{1} << 24;

// The least remaining degree among the vertices not peeled; kUnpeeled when every one is.
std::uint32_t least_remaining(const KCoreState& s, vid_t n) {
  return tbb::parallel_reduce(
      tbb::blocked_range<vid_t>(0, n), KCoreState::kUnpeeled,
      [&](const tbb::blocked_range<vid_t>& r, std::uint32_t least) {
        for (vid_t v = r.begin(); v != r.end(); ++v) {
          if (s.core[v] == KCoreState::kUnpeeled) least = std::min(least, s.remaining[v]);
        }
        return least;
      },
      [](std::uint32_t a, std::uint32_t b) { return std::min(a, b); });
}

// Peels the vertices whose remaining degree is `shell` (none is below it): the run's first
// frontier.
void open_shell(const KCoreState& s, vid_t n, std::uint32_t shell) {
  tbb::parallel_for(vid_t{0}, n, [&](vid_t v) {
    if (s.core[v] == KCoreState::kUnpeeled && s.remaining[v] <= shell) s.core[v] = shell;
  });
}

}  // namespace

// One shell's run on the CPU backend: its stats, and whether it converged.
template <class P>
std::pair<RunStats, bool> OocEngine::peel(const P& program, const detail::RunSetup& setup) {
  using Executor = std::unique_ptr<detail::ValuesExecutor<typename P::Value>>;
  detail::RawRun<P> run = execute<P>(
      [&](const MemoryPlan& plan) -> Executor {
        return std::make_unique<detail::CpuExecutor<P>>(graph(), partitions(), pull_lists(),
                                                        program, options(), plan, rank_view());
      },
      setup);
  return {std::move(run.stats), run.converged};
}

KCoreResult OocEngine::kcore(const RunOptions& run) {
  if (impl_->backend == Backend::cuda) {
    throw Unsupported(
        "kcore runs on the CPU backend for now (--backend cpu); its GPU version is to come");
  }
  const bool ranked = impl_->communicator != nullptr;
  detail::ProgramInfo info =
      ranked ? detail::info_of<KCoreRankedPeel>("kcore") : detail::info_of<KCorePeel>("kcore");
  info.own_vertex_bytes = ranked ? 16 : 8;
  // On ranks the values (all 0) still go through the exchange: the slots go with them
  // (values_unused would skip both).
  detail::RunSetup setup = begin_run(info, run);
  setup.read_values = false;

  const Graph& g = graph();
  const vid_t n = g.num_vertices();
  std::vector<std::uint32_t> remaining(n), core(n, KCoreState::kUnpeeled), marks;
  std::vector<float> taken;
  tbb::parallel_for(vid_t{0}, n,
                    [&](vid_t v) { remaining[v] = static_cast<std::uint32_t>(g.degree(v)); });
  KCoreState state{remaining.data(), core.data(), nullptr, nullptr};
  if (ranked) {
    const eid_t longest = tbb::parallel_reduce(
        tbb::blocked_range<vid_t>(0, n), eid_t{0},
        [&](const tbb::blocked_range<vid_t>& r, eid_t most) {
          for (vid_t v = r.begin(); v != r.end(); ++v)
            most = std::max(most, g.degree(v));
          return most;
        },
        [](eid_t a, eid_t b) { return std::max(a, b); });
    if (longest >= kLongestRankedList) {
      throw Unsupported(
          "kcore across ranks adds up lost edges as floats, exact below 2^24 a "
          "vertex, and this graph has a list of " +
          std::to_string(longest) + " edges: run it on one rank");
    }
    marks.assign(n, 0);
    taken.assign(n, 0.0f);
    state.marks = marks.data();
    state.taken = taken.data();
  }

  KCoreResult result;
  for (std::uint32_t shell = least_remaining(state, n); shell != KCoreState::kUnpeeled;
       shell = least_remaining(state, n)) {
    open_shell(state, n, shell);
    const auto [stats, converged] = ranked ? peel(KCoreRankedPeel{{state, shell}}, setup)
                                           : peel(KCorePeel{{state, shell}}, setup);
    if (result.shells == 0) {
      result.stats = stats;
    } else {
      result.stats.add(stats);
    }
    result.converged = result.converged && converged;
    ++result.shells;
    result.degeneracy = shell;
    if (!converged) break;  // --max-iterations: the vertices left keep kUnpeeled
  }
  result.stats.method = std::to_string(result.shells) +
                        (result.shells == 1 ? " shell" : " shells") + ", degeneracy " +
                        std::to_string(result.degeneracy);
  result.values = to_user_ids(core.data());
  return result;
}

}  // namespace ooc
