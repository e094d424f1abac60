// Batched traversals (batch_programs.hpp): betweenness centrality, harmonic closeness and BFS
// from many sources, a batch of sources per pass over the edges. A batch's forward run (and bc's
// backward run) are ordinary runs over the transfer engines, with arrays of their own that the
// engine allocates where the backend reads them, so they are out of core for free; the batch is as
// wide as those arrays fit in memory. Both runs go bulk-synchronous (priority off), so an
// iteration is one whole level. docs/programs.md, "Batched traversals".
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <unordered_set>

#include "engine_impl.hpp"
#include "ooc/core/error.hpp"
#include "ooc/core/units.hpp"
#include "ooc/engine/batch_programs.hpp"

namespace ooc {
namespace {

constexpr std::uint32_t kMaxBatch = 1024;  // a wider batch's rows outgrow a relax's reads

// What a batched run keeps per (vertex, source), beside the three bit sets.
struct BatchNeeds {
  bool levels = false;    // each source's levels (bfs from several sources, bc)
  bool paths = false;     // sigma and T, and a fourth bit set (bc)
  bool harmonic = false;  // the sums of 1 / level (closeness)
  // GPU ranks: the exchange gathers every rank's `next` rows (RankExchange::share_slots).
  std::uint32_t gathered_rows = 0;

  std::uint64_t bytes_per_vertex(std::uint32_t width) const {
    const std::uint64_t words = (width + 31) / 32;
    return (paths ? 4 : 3) * words * 4 + std::uint64_t{gathered_rows} * words * 4 +
           std::uint64_t{width} * ((levels ? 4 : 0) + (paths ? 8 : 0)) + (harmonic ? 8 : 0);
  }
};

// The sources in internal ids; refused when one is listed twice.
std::vector<vid_t> distinct_internal(const OocEngine& engine, std::span<const vid_t> sources,
                                     const char* algorithm) {
  std::vector<vid_t> internal;
  for (const vid_t s : sources)
    internal.push_back(engine.internal_id(s));
  std::vector<vid_t> sorted = internal;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    throw InvalidInput(std::string(algorithm) +
                       "'s sources must be distinct (a vertex is listed twice)");
  return internal;
}

std::uint64_t host_available_bytes() {
  return static_cast<std::uint64_t>(::sysconf(_SC_AVPHYS_PAGES)) *
         static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
}

// The batch: `asked` sources (0: the widest whose arrays fit in 70% of `available`, whole words of
// 32 from 32 on, at most kMaxBatch), never more than there are sources.
std::uint32_t choose_batch(std::uint32_t asked, std::size_t sources, vid_t n, BatchNeeds needs,
                           std::uint64_t available, const char* where) {
  const std::uint64_t room = available / 10 * 7;
  const auto fits = [&](std::uint32_t width) { return n * needs.bytes_per_vertex(width) <= room; };
  const auto most = static_cast<std::uint32_t>(std::min<std::size_t>(sources, kMaxBatch));
  if (asked > 0) {
    const std::uint32_t width = std::min<std::uint32_t>(asked, most);
    if (!fits(width)) {
      throw OutOfMemory("a batch of " + std::to_string(width) + " sources needs " +
                        format_bytes(n * needs.bytes_per_vertex(width)) + " of " + where +
                        " memory, more than 70% of the " + format_bytes(available) +
                        " available: ask for a smaller --batch, or 0 to choose");
    }
    return width;
  }
  std::uint32_t width = most;
  while (width > 0 && !fits(width))
    width = width > 32 ? (width - 1) / 32 * 32 : width - 1;
  if (width == 0) {
    throw OutOfMemory("one source's arrays need " + format_bytes(n * needs.bytes_per_vertex(1)) +
                      " of " + where + " memory, more than 70% of the " + format_bytes(available) +
                      " available");
  }
  return width;
}

// A batch's arrays, where the backend reads them: device memory on the GPU, host memory on the
// CPU. The per-vertex harmonic sums add up over every batch.
class BatchArrays {
 public:
  BatchArrays(const detail::DeviceGraph* device, vid_t n, std::uint32_t width, BatchNeeds needs)
      : device_(device), n_(n) {
    state_.width = width;
    state_.words = (width + 31) / 32;
    const std::uint64_t row = std::uint64_t{n} * state_.words;
    const std::uint64_t per_source = std::uint64_t{n} * width;
    state_.seen = allocate<std::uint32_t>(row, "the batch's reached sources");
    state_.frontier = allocate<std::uint32_t>(row, "the batch's frontier");
    state_.next = allocate<std::uint32_t>(row, "the batch's next frontier");
    if (needs.levels) state_.level = allocate<std::uint32_t>(per_source, "the batch's levels");
    if (needs.paths) {
      state_.upper = allocate<std::uint32_t>(row, "the batch's predecessor marks");
      state_.sigma = allocate<float>(per_source, "the batch's path counts");
      state_.t = allocate<float>(per_source, "the batch's dependencies");
    }
    if (needs.harmonic) {
      state_.harmonic = allocate<double>(n, "the harmonic sums");
      fill(state_.harmonic, 0, std::uint64_t{n} * sizeof(double));
    }
  }

  const BatchState& state() const { return state_; }
  // Empties the arrays (the harmonic sums apart) and places the batch's sources (internal ids).
  void reset(std::span<const vid_t> sources) {
    if (device_ != nullptr) {
      detail::batch_reset(*device_, state_, n_, sources);
      return;
    }
    const std::uint64_t row = std::uint64_t{n_} * state_.words * sizeof(std::uint32_t);
    const std::uint64_t per_source = std::uint64_t{n_} * state_.width * sizeof(std::uint32_t);
    fill(state_.seen, 0, row);
    fill(state_.frontier, 0, row);
    fill(state_.next, 0, row);
    if (state_.level != nullptr) fill(state_.level, 0xff, per_source);
    if (state_.sigma != nullptr) fill(state_.sigma, 0, per_source);
    if (state_.t != nullptr) fill(state_.t, 0, per_source);
    for (std::uint32_t i = 0; i < sources.size(); ++i)
      state_.place_source(i, sources[i]);
  }
  // Adds the batch's dependencies of every vertex to its total (dependencies()).
  void add_dependencies() {
    if (total_ == nullptr) {
      total_ = allocate<double>(n_, "bc's totals");
      fill(total_, 0, n_ * sizeof(double));
    }
    if (device_ != nullptr) {
      detail::batch_add_dependencies(*device_, state_, n_, total_);
      return;
    }
    tbb::parallel_for(vid_t{0}, n_, [&](vid_t v) {
      double sum = 0;
      for (std::uint32_t i = 0; i < state_.width; ++i)
        sum += state_.dependency(v, i);
      total_[v] += sum;
    });
  }
  // Every batch's dependencies so far, per vertex (internal ids).
  std::vector<double> dependencies() const { return host_copy(total_); }
  // Source i's levels (internal ids) into `out`, n entries.
  void read_levels(std::uint32_t i, std::uint32_t* out) {
    if (host_levels_.empty())
      host_levels_ = Buffer<std::uint32_t>::allocate(std::uint64_t{n_} * state_.width);
    if (i == 0 && device_ != nullptr) {
      detail::copy_to_host(*device_, host_levels_.data(), state_.level, host_levels_.size_bytes());
    }
    const std::uint32_t* levels = device_ != nullptr ? host_levels_.data() : state_.level;
    tbb::parallel_for(vid_t{0}, n_, [&](vid_t v) { out[v] = levels[state_.at(v, i)]; });
  }
  std::vector<double> harmonic() const { return host_copy(state_.harmonic); }

 private:
  template <class T>
  T* allocate(std::uint64_t count, const char* what) {
    const std::uint64_t bytes = std::max<std::uint64_t>(count, 1) * sizeof(T);
    if (device_ != nullptr) {
      owned_.push_back(detail::device_allocate(*device_, bytes, what));
      return static_cast<T*>(owned_.back().get());
    }
    host_owned_.push_back(Buffer<std::byte>::allocate(bytes));
    return reinterpret_cast<T*>(host_owned_.back().data());
  }
  std::vector<double> host_copy(const double* per_vertex) const {
    std::vector<double> out(n_);
    if (device_ != nullptr) {
      detail::copy_to_host(*device_, out.data(), per_vertex, n_ * sizeof(double));
    } else {
      std::memcpy(out.data(), per_vertex, n_ * sizeof(double));
    }
    return out;
  }
  void fill(void* to, int byte, std::uint64_t bytes) {
    if (device_ != nullptr) {
      detail::device_fill(*device_, to, byte, bytes);
    } else {
      std::memset(to, byte, bytes);
    }
  }

  const detail::DeviceGraph* device_;
  vid_t n_;
  BatchState state_;
  std::vector<std::shared_ptr<void>> owned_;  // device memory
  std::vector<Buffer<std::byte>> host_owned_;
  double* total_ = nullptr;  // bc's dependencies, added up over the batches
  Buffer<std::uint32_t> host_levels_;
};

// One pass's runs, apart and added to the total.
void add_pass(BatchResult& result, RunStats forward, std::optional<RunStats> backward,
              const char* algorithm) {
  forward.algorithm = std::string(algorithm) + " forward";
  if (result.forward.empty()) {
    result.stats = forward;
  } else {
    result.stats.add(forward);
  }
  result.forward.push_back(std::move(forward));
  if (!backward) return;
  backward->algorithm = std::string(algorithm) + " backward";
  result.stats.add(*backward);
  result.backward.push_back(std::move(*backward));
}

// The settings of a batched program's runs, planned once for every batch (bulk-synchronous, as
// every settling program's): the answers are in the batch's arrays, not the values.
detail::RunSetup batch_setup(detail::RunSetup setup) {
  setup.read_values = false;
  return setup;
}

// The sources of bc or closeness worth a slot of a batch: a source without out-edges reaches no
// other vertex, so it adds nothing to either (and `all` on kron-20 lists a third of them).
std::vector<vid_t> reaching(const Graph& g, std::vector<vid_t> internal) {
  std::erase_if(internal, [&](vid_t v) { return g.degree(v) == 0; });
  return internal;
}

// bc or closeness from sources none of which reaches another vertex: 0 everywhere, no run.
BatchResult nothing_reached(vid_t n, const char* algorithm) {
  BatchResult result;
  result.values.assign(n, 0.0);
  result.stats.algorithm = algorithm;
  return result;
}

// The batches of `sources` in order, `width` at a time.
template <class Pass>
void for_each_batch(std::span<const vid_t> sources, std::uint32_t width, Pass&& pass) {
  for (std::size_t first = 0; first < sources.size(); first += width)
    pass(sources.subspan(first, std::min<std::size_t>(width, sources.size() - first)));
}

}  // namespace

// Every rank of a distributed run chooses from its own free memory, then all take the narrowest.
std::uint32_t OocEngine::batch_width(std::uint32_t asked, std::size_t sources, bool levels,
                                     bool paths, bool harmonic) const {
  Communicator* const ranks = impl_->communicator.get();
  const detail::DeviceGraph* device = impl_->device.get();
  const BatchNeeds needs{
      levels, paths, harmonic,
      ranks != nullptr && device != nullptr ? static_cast<std::uint32_t>(ranks->size()) : 0};
  std::uint32_t width = device != nullptr
                            ? choose_batch(asked, sources, graph().num_vertices(), needs,
                                           detail::device_free_bytes(*device), "GPU")
                            : choose_batch(asked, sources, graph().num_vertices(), needs,
                                           host_available_bytes(), "host");
  if (ranks != nullptr) ranks->all_reduce(std::span<std::uint32_t>(&width, 1), Reduction::min);
  return width;
}

BatchResult OocEngine::bc(std::span<const vid_t> sources, const RunOptions& run,
                          std::uint32_t batch) {
  if (sources.empty()) throw InvalidInput("bc needs at least one source");
  if (grouped()) {  // a request checked once, before the ranks run it (engine.cpp says why)
    distinct_internal(lead(), sources, "bc");
    lead().begin_run(detail::info_of<BatchBackward>("bc"), run);
    return on_group([&](OocEngine& e) { return e.bc(sources, run, batch); });
  }
  const std::vector<vid_t> internal = reaching(graph(), distinct_internal(*this, sources, "bc"));
  const vid_t n = graph().num_vertices();
  if (internal.empty()) {  // checked as a run would be
    begin_run(detail::info_of<BatchBackward>("bc"), run);
    return nothing_reached(n, "bc");
  }
  const std::uint32_t width = batch_width(batch, internal.size(), true, true, false);
  const BatchNeeds needs{.levels = true, .paths = true};
  // The arrays come off the device budget: allocated before the runs are planned, they are no
  // longer in the free memory an automatic budget is taken from.
  BatchArrays arrays(impl_->device.get(), n, width, needs);
  detail::ProgramInfo forward_info = detail::info_of<BatchForward>("bc");
  detail::ProgramInfo backward_info = detail::info_of<BatchBackward>("bc");
  forward_info.own_vertex_bytes = backward_info.own_vertex_bytes = needs.bytes_per_vertex(width);
  const detail::RunSetup backward_setup = batch_setup(begin_run(backward_info, run));
  const detail::RunSetup forward_setup = batch_setup(begin_run(forward_info, run));
  // On one rank the backward run marks nothing (`next` is for the ranks' exchange).
  BatchState backward_state = arrays.state();
  if (!impl_->communicator) backward_state.next = nullptr;
  BatchResult result;
  result.batch = width;
  for_each_batch(internal, width, [&](std::span<const vid_t> batch_sources) {
    arrays.reset(batch_sources);
    auto levels = run_builtin(BatchForward{arrays.state()}, forward_setup);
    const auto depth = static_cast<std::uint32_t>(levels.stats.iterations.size()) - 1;
    auto dependencies = run_builtin(BatchBackward{backward_state, depth}, backward_setup);
    result.converged = result.converged && levels.converged && dependencies.converged;
    arrays.add_dependencies();
    add_pass(result, std::move(levels.stats), std::move(dependencies.stats), "bc");
  });
  result.stats.algorithm = "bc";
  result.stats.batch = width;
  result.values = to_user_ids(arrays.dependencies().data());
  return result;
}

BatchResult OocEngine::closeness(std::span<const vid_t> sources, const RunOptions& run,
                                 std::uint32_t batch) {
  if (sources.empty()) throw InvalidInput("closeness needs at least one source");
  if (grouped()) {
    distinct_internal(lead(), sources, "closeness");
    lead().begin_run(detail::info_of<BatchForward>("closeness"), run);
    return on_group([&](OocEngine& e) { return e.closeness(sources, run, batch); });
  }
  const std::vector<vid_t> internal =
      reaching(graph(), distinct_internal(*this, sources, "closeness"));
  if (internal.empty()) {
    begin_run(detail::info_of<BatchForward>("closeness"), run);
    return nothing_reached(graph().num_vertices(), "closeness");
  }
  const std::uint32_t width = batch_width(batch, internal.size(), false, false, true);
  const BatchNeeds needs{.harmonic = true};
  BatchArrays arrays(impl_->device.get(), graph().num_vertices(), width, needs);
  detail::ProgramInfo info = detail::info_of<BatchForward>("closeness");
  info.own_vertex_bytes = needs.bytes_per_vertex(width);
  const detail::RunSetup setup = batch_setup(begin_run(info, run));
  BatchResult result;
  result.batch = width;
  for_each_batch(internal, width, [&](std::span<const vid_t> batch_sources) {
    arrays.reset(batch_sources);
    auto levels = run_builtin(BatchForward{arrays.state()}, setup);
    result.converged = result.converged && levels.converged;
    add_pass(result, std::move(levels.stats), std::nullopt, "closeness");
  });
  result.stats.algorithm = "closeness";
  result.stats.batch = width;
  result.values = to_user_ids(arrays.harmonic().data());
  return result;
}

LevelsResult OocEngine::bfs(std::span<const vid_t> sources, const RunOptions& run,
                            std::uint32_t batch) {
  if (sources.empty()) throw InvalidInput("bfs needs at least one source");
  if (grouped()) {
    distinct_internal(lead(), sources, "bfs");
    lead().begin_run(detail::info_of<BatchForward>("bfs"), run);
    return on_group([&](OocEngine& e) { return e.bfs(sources, run, batch); });
  }
  const std::vector<vid_t> internal = distinct_internal(*this, sources, "bfs");
  const vid_t n = graph().num_vertices();
  const BatchNeeds needs{.levels = true};
  const std::uint32_t width = batch_width(batch, internal.size(), true, false, false);
  BatchArrays arrays(impl_->device.get(), n, width, needs);
  detail::ProgramInfo info = detail::info_of<BatchForward>("bfs");
  info.own_vertex_bytes = needs.bytes_per_vertex(width);
  const detail::RunSetup setup = batch_setup(begin_run(info, run));
  LevelsResult result;
  result.batch = width;
  BatchResult passes;
  Buffer<std::uint32_t> levels = Buffer<std::uint32_t>::allocate(n);
  for_each_batch(internal, width, [&](std::span<const vid_t> batch_sources) {
    arrays.reset(batch_sources);
    auto run_levels = run_builtin(BatchForward{arrays.state()}, setup);
    result.converged = result.converged && run_levels.converged;
    add_pass(passes, std::move(run_levels.stats), std::nullopt, "bfs");
    for (std::uint32_t i = 0; i < batch_sources.size(); ++i) {
      arrays.read_levels(i, levels.data());
      result.levels.push_back(to_user_ids(levels.data()));
    }
  });
  result.stats = std::move(passes.stats);
  result.stats.algorithm = "bfs";
  result.stats.batch = width;
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
  if (count == 0) throw InvalidInput("sampling needs at least one source (asked for 0)");
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
