// The k-core decomposition (OocEngine::kcore): the driver of kcore_program.hpp's peeling. Each
// shell is a run of the engine, over whatever transfer policy, compressed lists and ranks the
// engine has: the shell c is the least remaining degree of the vertices not yet peeled (a core
// number no vertex has is skipped), the vertices at c open it, and the run peels the rest of it.
// docs/programs.md, "k-core".
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <numeric>
#include <span>
#include <string>
#include <vector>

#include "engine_impl.hpp"
#include "ooc/core/error.hpp"
#include "ooc/engine/detail/cpu_executor.hpp"
#include "ooc/engine/kcore_program.hpp"

namespace ooc {
namespace {

// Across ranks the edges a vertex loses in an iteration are added up as floats (exact below this).
constexpr eid_t kLongestRankedList = eid_t{1} << 24;

// The least remaining degree among `left`, the vertices not peeled; kUnpeeled when none is left.
std::uint32_t least_remaining(const KCoreState& s, std::span<const vid_t> left) {
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, left.size()), KCoreState::kUnpeeled,
      [&](const tbb::blocked_range<std::size_t>& r, std::uint32_t least) {
        for (std::size_t i = r.begin(); i != r.end(); ++i)
          least = std::min(least, s.remaining[left[i]]);
        return least;
      },
      [](std::uint32_t a, std::uint32_t b) { return std::min(a, b); });
}

// Peels the vertices of `left` whose remaining degree is `shell` (none is below it): the run's
// first frontier, in `opened`.
void open_shell(const KCoreState& s, std::span<const vid_t> left, std::uint32_t shell,
                std::vector<vid_t>& opened) {
  opened.clear();
  for (const vid_t v : left) {
    if (s.remaining[v] > shell) continue;
    s.core[v] = shell;
    opened.push_back(v);
  }
}

}  // namespace

// The shells, one run each, on one executor: the first run builds it, and each later one starts it
// again from its shell's frontier, the vertices it opened.
template <class P>
KCoreResult OocEngine::peel(KCoreState state, std::vector<vid_t> left,
                            const detail::RunSetup& setup) {
  using Clock = std::chrono::steady_clock;
  KCoreResult result;
  std::unique_ptr<detail::CpuExecutor<P>> executor;
  std::vector<vid_t> opened;
  for (std::uint32_t shell = least_remaining(state, left); shell != KCoreState::kUnpeeled;
       shell = least_remaining(state, left)) {
    open_shell(state, left, shell, opened);
    const P program{{state, shell}};
    detail::RunSetup shell_setup = setup;
    const auto start = Clock::now();
    if (executor == nullptr) {
      executor = std::make_unique<detail::CpuExecutor<P>>(graph(), partitions(), pull_lists(),
                                                          program, options(), setup.memory,
                                                          rank_view(), host_tier());
      executor->report_setup(shell_setup.stats);
    } else {
      executor->restart(program, opened);
    }
    shell_setup.stats.setup_seconds = std::chrono::duration<double>(Clock::now() - start).count();
    detail::RawRun<P> run = drive_executor<P>(*executor, std::move(shell_setup));
    if (result.shells == 0) {
      result.stats = std::move(run.stats);
    } else {
      result.stats.add(run.stats);
    }
    result.converged = result.converged && run.converged;
    ++result.shells;
    result.degeneracy = shell;
    if (!run.converged) break;  // --max-iterations: the vertices left keep kUnpeeled
    std::erase_if(left, [&](vid_t v) { return state.core[v] != KCoreState::kUnpeeled; });
  }
  return result;
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

  // The vertices not yet peeled: most of a skewed graph's are peeled in its first shells, so the
  // later ones look at few.
  std::vector<vid_t> left(n);
  std::iota(left.begin(), left.end(), vid_t{0});
  KCoreResult result = ranked ? peel<KCoreRankedPeel>(state, std::move(left), setup)
                              : peel<KCorePeel>(state, std::move(left), setup);
  result.stats.method = std::to_string(result.shells) +
                        (result.shells == 1 ? " shell" : " shells") + ", degeneracy " +
                        std::to_string(result.degeneracy);
  result.values = to_user_ids(core.data());
  return result;
}

}  // namespace ooc
