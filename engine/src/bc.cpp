// Betweenness centrality: Brandes' algorithm (J. Math. Sociol. 25(2), 2001), unweighted, as two
// built-in programs per source (programs.hpp): a forward run that takes the BFS levels, path
// counts sigma and successor counts, then a backward run that accumulates T(v) in Kahn's order.
// The trick: both are ordinary runs over the transfer engines, with arrays of their own that the
// engine allocates where the backend reads them, so bc is out of core for free. The forward runs
// go bulk-synchronous (priority off), so an iteration is one whole level. docs/programs.md.
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <random>
#include <string>
#include <unordered_set>

#include "engine_impl.hpp"
#include "ooc/core/error.hpp"

namespace ooc {
namespace {

// The sources in internal ids; refused when one is listed twice.
std::vector<vid_t> distinct_internal(const OocEngine& engine, std::span<const vid_t> sources) {
  std::vector<vid_t> internal;
  for (const vid_t s : sources)
    internal.push_back(engine.internal_id(s));
  std::vector<vid_t> sorted = internal;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    throw InvalidInput("bc's sources must be distinct (a vertex is listed twice)");
  return internal;
}

// The programs' own arrays: path counts, successor counts and, for the backward runs, a copy of
// the levels. On the CUDA backend they are in device memory; on the CPU backend the programs read
// the host arrays and the forward runs' levels in place.
class BcArrays {
 public:
  BcArrays(const detail::DeviceGraph* device, vid_t n)
      : device_(device), n_(n), host_sigma_(Buffer<float>::allocate(n)) {
    sigma_ = host_sigma_.data();
    if (device_ == nullptr) {
      host_successors_ = Buffer<std::uint32_t>::allocate(n);
      successors_ = host_successors_.data();
      return;
    }
    device_sigma_ = detail::device_allocate(*device_, n * sizeof(float), "bc's path counts");
    device_successors_ =
        detail::device_allocate(*device_, n * sizeof(std::uint32_t), "bc's successor counts");
    device_levels_ = detail::device_allocate(*device_, n * sizeof(std::uint32_t), "bc's levels");
    sigma_ = static_cast<float*>(device_sigma_.get());
    successors_ = static_cast<std::uint32_t*>(device_successors_.get());
  }

  BcForward forward(vid_t source) const { return {source, sigma_, successors_}; }
  // The backward run of the forward run whose levels are `levels` (host memory).
  BcBackward backward(const std::uint32_t* levels) const {
    if (device_ != nullptr) {
      detail::copy_to_device(*device_, device_levels_.get(), levels, n_ * sizeof(std::uint32_t));
      levels = static_cast<const std::uint32_t*>(device_levels_.get());
    }
    return {levels, sigma_, successors_};
  }
  // The path counts, in host memory.
  const float* host_sigma() {
    if (device_ != nullptr)
      detail::copy_to_host(*device_, host_sigma_.data(), sigma_, n_ * sizeof(float));
    return host_sigma_.data();
  }

 private:
  const detail::DeviceGraph* device_;
  vid_t n_;
  Buffer<float> host_sigma_;
  Buffer<std::uint32_t> host_successors_;
  std::shared_ptr<void> device_sigma_, device_successors_, device_levels_;
  float* sigma_ = nullptr;
  std::uint32_t* successors_ = nullptr;
};

// delta_s(v) = sigma(v) T(v) - 1 for the vertices reached from s, s itself apart.
void add_dependencies(std::vector<double>& total, vid_t s, const detail::RawRun<BcForward>& levels,
                      const detail::RawRun<BcBackward>& dependencies, const float* sigma) {
  tbb::parallel_for(vid_t{0}, static_cast<vid_t>(total.size()), [&](vid_t v) {
    if (v == s || levels.values[v] == BcForward::kUnreached) return;
    const double t = static_cast<double>(dependencies.values[v]) + dependencies.deltas[v];
    total[v] += std::max(0.0, static_cast<double>(sigma[v]) * t - 1.0);
  });
}

// One source's two runs, apart and added to the total.
void add_runs(BcResult& result, RunStats forward, RunStats backward) {
  forward.algorithm = "bc forward";
  backward.algorithm = "bc backward";
  if (result.forward.empty()) {
    result.stats = forward;
  } else {
    result.stats.add(forward);
  }
  result.stats.add(backward);
  result.forward.push_back(std::move(forward));
  result.backward.push_back(std::move(backward));
}

}  // namespace

BcResult OocEngine::bc(std::span<const vid_t> sources, const RunOptions& run) {
  if (sources.empty()) throw InvalidInput("bc needs at least one source");
  if (grouped() || impl_->communicator) {
    throw Unsupported("bc runs on one GPU or on the CPU, not across ranks yet");
  }
  const std::vector<vid_t> internal = distinct_internal(*this, sources);
  const vid_t n = graph().num_vertices();
  // The arrays are 4 bytes each per vertex, off the device budget: allocated before the runs are
  // planned, they are no longer in the free memory an automatic budget is taken from.
  detail::ProgramInfo forward_info = detail::info_of<BcForward>("bc");
  detail::ProgramInfo backward_info = detail::info_of<BcBackward>("bc");
  forward_info.own_vertex_bytes = backward_info.own_vertex_bytes = 12;
  BcArrays arrays(impl_->device.get(), n);
  // Planned once for every source; the forward runs without priority scheduling.
  detail::RunSetup forward_setup = begin_run(forward_info, run);
  forward_setup.drive.tasks.priority = false;
  forward_setup.stats.priority = false;
  const detail::RunSetup backward_setup = begin_run(backward_info, run);
  BcResult result;
  std::vector<double> total(n, 0.0);
  for (const vid_t s : internal) {
    auto levels = run_builtin(arrays.forward(s), forward_setup);
    auto dependencies = run_builtin(arrays.backward(levels.values.data()), backward_setup);
    result.converged = result.converged && levels.converged && dependencies.converged;
    add_dependencies(total, s, levels, dependencies, arrays.host_sigma());
    add_runs(result, std::move(levels.stats), std::move(dependencies.stats));
  }
  result.stats.algorithm = "bc";
  result.stats.priority = options().priority;  // the backward runs'; the forward ones go without
  result.values = to_user_ids(total.data());
  return result;
}

std::vector<vid_t> OocEngine::sample_sources(std::uint32_t count, std::uint64_t seed) const {
  const Graph& g = lead().graph();
  const vid_t n = g.num_vertices();
  const auto with_edges = tbb::parallel_reduce(
      tbb::blocked_range<vid_t>(0, n), vid_t{0},
      [&](const tbb::blocked_range<vid_t>& r, vid_t c) {
        for (vid_t v = r.begin(); v < r.end(); ++v)
          c += g.degree(v) > 0 ? 1 : 0;
        return c;
      },
      std::plus<>());
  if (count == 0) throw InvalidInput("bc needs at least one source (got 0 sources to sample)");
  if (count > with_edges) {
    throw InvalidInput("cannot sample " + std::to_string(count) + " sources: the graph has " +
                       std::to_string(with_edges) + " vertices with out-edges");
  }
  std::mt19937_64 random(seed);
  std::vector<vid_t> chosen;
  if (std::uint64_t{count} * 2 <= with_edges) {  // draws until enough distinct ones
    std::uniform_int_distribution<vid_t> any(0, n - 1);
    std::unordered_set<vid_t> seen;
    while (chosen.size() < count) {
      const vid_t v = any(random);
      if (g.degree(v) > 0 && seen.insert(v).second) chosen.push_back(v);
    }
  } else {  // most of them: a partial shuffle of all
    std::vector<vid_t> all;
    all.reserve(with_edges);
    for (vid_t v = 0; v < n; ++v)
      if (g.degree(v) > 0) all.push_back(v);
    for (std::uint32_t i = 0; i < count; ++i) {
      std::uniform_int_distribution<std::size_t> rest(i, all.size() - 1);
      std::swap(all[i], all[rest(random)]);
    }
    chosen.assign(all.begin(), all.begin() + count);
  }
  for (vid_t& v : chosen)
    v = g.original_id(v);
  return chosen;
}

}  // namespace ooc
