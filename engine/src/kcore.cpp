// The k-core decomposition (OocEngine::kcore): the driver of kcore_program.hpp's peeling. Each
// shell is a run of the engine, over whatever backend, transfer policy, compressed lists and ranks
// the engine has: the shell c is the least remaining degree of the vertices not yet peeled (a core
// number no vertex has is skipped), the vertices at c open it, and the run peels the rest of it.
// The shells' runs are one executor's, started again shell after shell from the vertices the shell
// opened, with one program: the shell is a word beside the arrays. The peeling's arrays are in
// device memory on the CUDA backend, where the step between two shells runs too, over a list of
// the vertices not yet peeled, and where the frontier loop takes the step itself when its queues
// run dry, so that one run may peel many shells; the step's time counts in the run's.
// docs/programs.md, "k-core".
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
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

eid_t longest_list(const Graph& g) {
  return tbb::parallel_reduce(
      tbb::blocked_range<vid_t>(0, g.num_vertices()), eid_t{0},
      [&](const tbb::blocked_range<vid_t>& r, eid_t most) {
        for (vid_t v = r.begin(); v != r.end(); ++v)
          most = std::max(most, g.degree(v));
        return most;
      },
      [](eid_t a, eid_t b) { return std::max(a, b); });
}

}  // namespace

namespace detail {

// The peeling's arrays (KCoreState), in host memory or, on the CUDA backend, in device memory,
// and its step between two shells.
class Peeling {
 public:
  Peeling(const Graph& g, const DeviceGraph* device, bool ranked)
      : device_(device), n_(g.num_vertices()), remaining_(n_) {
    tbb::parallel_for(vid_t{0}, n_,
                      [&](vid_t v) { remaining_[v] = static_cast<std::uint32_t>(g.degree(v)); });
    if (device_ == nullptr) {
      core_.assign(n_, KCoreState::kUnpeeled);
      state_.remaining = remaining_.data();
      state_.core = core_.data();
      state_.shell = &shell_;
      if (ranked) {
        marks_.assign(n_, 0);
        taken_.assign(n_, 0.0f);
        state_.marks = marks_.data();
        state_.taken = taken_.data();
      }
      // The vertices not yet peeled: most of a skewed graph's are peeled in its first shells,
      // so the later ones look at few.
      left_.resize(n_);
      std::iota(left_.begin(), left_.end(), vid_t{0});
      return;
    }
    const std::size_t bytes = std::size_t{n_} * sizeof(std::uint32_t);
    state_.steps.left[0] =
        allocate<vid_t>(std::size_t{n_} * sizeof(vid_t), "k-core's vertices left");
    state_.steps.left[1] =
        allocate<vid_t>(std::size_t{n_} * sizeof(vid_t), "k-core's vertices left");
    state_.steps.words = allocate<unsigned long long>(
        KCoreSteps::kWords * sizeof(unsigned long long), "k-core's counts");
    state_.shell = allocate<std::uint32_t>(sizeof(std::uint32_t), "k-core's shell");
    lists_.opened = allocate<vid_t>(std::size_t{n_} * sizeof(vid_t), "k-core's opened vertices");
    state_.remaining = allocate<std::uint32_t>(bytes, "k-core's remaining degrees");
    copy_to_device(*device_, state_.remaining, remaining_.data(), bytes);
    remaining_ = {};
    state_.core = allocate<std::uint32_t>(bytes, "k-core's core numbers");
    device_fill(*device_, state_.core, 0xff, bytes);  // kUnpeeled
    if (ranked) {
      state_.marks = allocate<std::uint32_t>(bytes, "k-core's marks");
      state_.taken = allocate<float>(bytes, "k-core's edges taken away");
      device_fill(*device_, state_.marks, 0, bytes);
      device_fill(*device_, state_.taken, 0, bytes);  // 0.0f
    }
  }

  const KCoreState& state() const { return state_; }

  // Opens the next shell: the least remaining degree c of the vertices not peeled, and those at c
  // get core number c; c is the shell word's. Returns c, or KCoreState::kUnpeeled when every
  // vertex is peeled.
  std::uint32_t open_next() {
    if (device_ != nullptr) return kcore_open_next_shell(*device_, state_, n_, lists_);
    std::erase_if(left_, [&](vid_t v) { return core_[v] != KCoreState::kUnpeeled; });
    const std::uint32_t shell = least_remaining(state_, left_);
    opened_.clear();
    for (const vid_t v : left_) {
      if (remaining_[v] > shell) continue;
      core_[v] = shell;
      opened_.push_back(v);
    }
    if (shell != KCoreState::kUnpeeled) shell_ = shell;
    return shell;
  }

  // The shells the GPU's frontier loop opened inside the runs, in all, and the last shell opened
  // anywhere.
  std::uint64_t loop_shells() const {
    if (device_ == nullptr) return 0;
    unsigned long long shells = 0;
    copy_to_host(*device_, &shells, state_.steps.words + KCoreSteps::kLoopShells, sizeof shells);
    return shells;
  }
  std::uint32_t last_shell() const {
    if (device_ == nullptr) return shell_;
    std::uint32_t shell = 0;
    copy_to_host(*device_, &shell, state_.shell, sizeof shell);
    return shell;
  }

  // The vertices the last open_next opened (in device memory on the CUDA backend).
  std::span<const vid_t> opened() const {
    if (device_ != nullptr) return {lists_.opened, static_cast<std::size_t>(lists_.opened_count)};
    return opened_;
  }

  // Every vertex's core number (kUnpeeled: not peeled), in internal ids.
  const std::uint32_t* cores() {
    if (device_ == nullptr) return core_.data();
    core_.resize(n_);
    copy_to_host(*device_, core_.data(), state_.core, std::size_t{n_} * sizeof(std::uint32_t));
    return core_.data();
  }

 private:
  template <class T>
  T* allocate(std::size_t bytes, const char* what) {
    owned_.push_back(device_allocate(*device_, bytes, what));
    return static_cast<T*>(owned_.back().get());
  }

  const DeviceGraph* device_;
  vid_t n_;
  KCoreState state_;
  std::vector<std::uint32_t> remaining_, core_, marks_;  // host memory (core_: read back too)
  std::uint32_t shell_ = 0;                              // the CPU's shell word
  std::vector<float> taken_;
  std::vector<vid_t> left_, opened_;
  std::vector<std::shared_ptr<void>> owned_;  // device memory
  KCoreLists lists_;                          // the CUDA backend's
};

}  // namespace detail

// The shells, one run each, on one executor: the first run makes it, and each later one starts it
// again from its shell's vertices.
template <class P>
KCoreResult OocEngine::peel(detail::Peeling& peeling, const detail::RunSetup& setup) {
  using Clock = std::chrono::steady_clock;
  const auto seconds_since = [](Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
  };
  KCoreResult result;
  std::unique_ptr<detail::ValuesExecutor<typename P::Value>> executor;
  const P program{{peeling.state()}};  // every shell's: the shell is the state's word
  for (;;) {
    auto start = Clock::now();
    const std::uint32_t shell = peeling.open_next();
    const double opening = seconds_since(start);
    if (shell == KCoreState::kUnpeeled) {
      result.stats.seconds += opening;  // the last step, which found every vertex peeled
      break;
    }
    detail::RunSetup shell_setup = setup;
    start = Clock::now();
    if (executor == nullptr) {
      if (impl_->device) {
        executor = detail::make_cuda_executor(program, cuda_run(setup.memory));
      } else {
        executor = std::make_unique<detail::CpuExecutor<P>>(graph(), partitions(), pull_lists(),
                                                            program, options(), setup.memory,
                                                            rank_view(), host_tier());
      }
      executor->report_setup(shell_setup.stats);
    } else if (impl_->device) {
      detail::restart_cuda_executor(*executor, program, peeling.opened().data(),
                                    peeling.opened().size());
    } else {
      static_cast<detail::CpuExecutor<P>&>(*executor).restart(program, peeling.opened());
    }
    shell_setup.stats.setup_seconds = seconds_since(start);
    detail::RawRun<P> run = drive_executor<P>(*executor, std::move(shell_setup));
    run.stats.seconds += opening;
    if (result.shells == 0) {
      result.stats = std::move(run.stats);
    } else {
      result.stats.add(run.stats);
    }
    result.converged = result.converged && run.converged;
    ++result.shells;
    if (!run.converged) break;  // --max-iterations: the vertices left keep kUnpeeled
  }
  result.shells += static_cast<std::uint32_t>(peeling.loop_shells());
  if (result.shells > 0) result.degeneracy = peeling.last_shell();
  return result;
}

KCoreResult OocEngine::kcore(const RunOptions& run) {
  if (grouped()) {  // a request checked once, before the ranks run it (engine.cpp says why)
    lead().begin_run(detail::info_of<KCoreRankedPeel>("kcore"), run);
    return on_group([&](OocEngine& e) { return e.kcore(run); });
  }
  const bool ranked = impl_->communicator != nullptr;
  detail::ProgramInfo info =
      ranked ? detail::info_of<KCoreRankedPeel>("kcore") : detail::info_of<KCorePeel>("kcore");
  // The arrays, and on the GPU the two lists of the vertices left and the list of those opened.
  info.own_vertex_bytes = (ranked ? 16 : 8) + (impl_->device ? 3 * sizeof(vid_t) : 0);
  if (ranked) {
    const eid_t longest = longest_list(graph());
    if (longest >= kLongestRankedList) {
      throw Unsupported(
          "kcore across ranks adds up lost edges as floats, exact below 2^24 a "
          "vertex, and this graph has a list of " +
          std::to_string(longest) + " edges: run it on one rank");
    }
  }
  // The arrays come off the device budget: allocated before the runs are planned, they are no
  // longer in the free memory an automatic budget is taken from.
  detail::Peeling peeling(graph(), impl_->device.get(), ranked);
  // On ranks the values (all 0) still go through the exchange: the slots go with them
  // (values_unused would skip both).
  detail::RunSetup setup = begin_run(info, run);
  setup.read_values = false;
  KCoreResult result =
      ranked ? peel<KCoreRankedPeel>(peeling, setup) : peel<KCorePeel>(peeling, setup);
  result.stats.method = std::to_string(result.shells) +
                        (result.shells == 1 ? " shell" : " shells") + ", degeneracy " +
                        std::to_string(result.degeneracy);
  result.values = to_user_ids(peeling.cores());
  return result;
}

}  // namespace ooc
