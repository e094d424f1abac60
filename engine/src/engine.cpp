#include "ooc/engine/engine.hpp"

#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <cmath>
#include <exception>
#include <iterator>
#include <limits>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <unordered_set>

#include "ooc/core/error.hpp"
#include "ooc/core/version.hpp"
#include "ooc/engine/ownership.hpp"
#include "ooc/partitioner/oocg.hpp"
#include "ooc/transfer/devices.hpp"
#include "ooc/transfer/pinned_memory.hpp"
#if OOC_ENGINE_CUDA
#include "ooc/engine/detail/cuda_backend.hpp"
#endif

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
  // Distributed runs: the ranks' link, the owner of each partition, this rank's vertices.
  std::shared_ptr<Communicator> communicator;
  std::vector<std::uint32_t> owners;
  Bitmap owned;
#if OOC_ENGINE_CUDA
  std::shared_ptr<detail::DeviceGraph> device;
#endif
  // Several GPUs from this process (EngineOptions::devices): a rank each; the fields above are
  // then unused.
  std::vector<OocEngine> group;
};

namespace {

Backend resolve_backend(Backend asked, int device) {
  if (asked == Backend::cpu) return Backend::cpu;
  if (!kBuiltWithCuda) {
    if (asked == Backend::cuda) {
      throw Unsupported(
          "this build has no CUDA backend (configure with -DOOC_WITH_CUDA=ON), use --backend cpu");
    }
    return Backend::cpu;
  }
  const std::vector<DeviceInfo> devices = list_devices();
  if (devices.empty()) {
    if (asked == Backend::cuda)
      throw Unsupported("the CUDA backend needs a GPU: " + describe_devices());
    return Backend::cpu;
  }
  if (device < 0 || static_cast<std::size_t>(device) >= devices.size()) {
    throw InvalidInput("GPU " + std::to_string(device) + " does not exist (this machine has " +
                       std::to_string(devices.size()) + ")");
  }
  return Backend::cuda;
}

std::string cpu_device_name() {
  const auto threads =
      tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism);
  return "CPU (" + std::to_string(threads) + " threads)";
}

// Whether the pull direction can read the graph's in-edges: a symmetric graph's own lists hold
// them, a directed one's need its in-lists (partition-tool --in-edges).
bool has_in_lists(const Graph& g) {
  return g.symmetric || g.has_in_edges();
}

// The pull direction reads each vertex's in-edges (has_in_lists), with a program that declares
// offer() (programs.hpp), on one GPU or the CPU.
void check_pull(const detail::ProgramInfo& info, const Graph& g, bool ranked) {
  if (!info.pulls) {
    throw InvalidInput(std::string(info.name) +
                       " does not run in the pull direction (its program declares no offer(); "
                       "see docs/programs.md): use --direction push or auto");
  }
  if (!has_in_lists(g)) {
    throw InvalidInput(
        "the pull direction reads each vertex's in-edges, and this directed graph's file holds "
        "none: convert or generate it with partition-tool's --in-edges (or --undirected), or use "
        "--direction push or auto");
  }
  if (ranked) {
    throw Unsupported(
        "the pull direction runs on one GPU or on the CPU, not across ranks yet: use --direction "
        "push or auto");
  }
}

// A rank on the GPU holds only its own edges (its ranges pinned in place): the unified baseline
// would copy the whole graph. (Its in-memory mode is an edge cache of its own partitions.)
void check_rank_transfer(const EngineOptions& options) {
  if (options.transfer == TransferPolicy::unified &&
      resolve_backend(options.backend, options.device) == Backend::cuda) {
    throw Unsupported(
        "the unified policy runs on one GPU only: use another --transfer policy with ranks");
  }
}

// Runs body(rank) on a thread per rank; the first exception (if any) is rethrown after every
// thread has ended. A failing rank calls fail(rank, what) so that the others stop waiting for it.
void on_threads(std::size_t ranks, const std::function<void(std::size_t)>& body,
                const std::function<void(std::size_t, const char*)>& fail) {
  std::mutex mutex;
  std::exception_ptr failure;
  std::vector<std::thread> threads;
  for (std::size_t r = 0; r < ranks; ++r) {
    threads.emplace_back([&, r] {
      try {
        body(r);
      } catch (const Cancelled&) {
        // Every rank agreed to stop at the same iteration (drive()): none waits for this one,
        // and the ranks' links stay usable for the next run.
        const std::lock_guard lock(mutex);
        if (!failure) failure = std::current_exception();
      } catch (const std::exception& e) {
        {
          const std::lock_guard lock(mutex);
          if (!failure) failure = std::current_exception();
        }
        fail(r, e.what());
      }
    });
  }
  for (std::thread& t : threads)
    t.join();
  if (failure) std::rethrow_exception(failure);
}

// One engine per GPU of options.devices, each made on its own thread (they join NCCL together).
std::vector<OocEngine> make_group(
    const EngineOptions& options,
    const std::function<OocEngine(const EngineOptions&, std::shared_ptr<Communicator>)>& make) {
  const std::size_t n = options.devices.size();
  std::vector<std::unique_ptr<Communicator>> links = thread_communicators(static_cast<int>(n));
  std::vector<std::shared_ptr<Communicator>> shared(std::make_move_iterator(links.begin()),
                                                    std::make_move_iterator(links.end()));
  std::vector<std::optional<OocEngine>> made(n);
  on_threads(
      n,
      [&](std::size_t r) {
        EngineOptions o = options;
        o.device = options.devices[r];
        o.devices.clear();
        made[r].emplace(make(o, shared[r]));
      },
      [&](std::size_t r, const char* why) { shared[r]->abort(why); });
  std::vector<OocEngine> group;
  for (std::optional<OocEngine>& e : made)
    group.push_back(std::move(*e));
  return group;
}

// A Graph whose arrays are views of `whole`'s (the ranks of a group share one copy).
Graph share(const std::shared_ptr<Graph>& whole) {
  Graph g;
  g.offsets = Buffer<eid_t>::view(whole->offsets.data(), whole->offsets.size(), whole);
  g.targets = Buffer<vid_t>::view(whole->targets.data(), whole->targets.size(), whole);
  g.weights = Buffer<std::uint32_t>::view(whole->weights.data(), whole->weights.size(), whole);
  g.original_ids =
      Buffer<vid_t>::view(whole->original_ids.data(), whole->original_ids.size(), whole);
  g.weight_type = whole->weight_type;
  g.hub_count = whole->hub_count;
  g.symmetric = whole->symmetric;
  return g;
}

Bitmap vertices_of(std::span<const Partition> parts, std::span<const std::uint32_t> owners,
                   std::uint32_t rank, vid_t n) {
  Bitmap owned(n);
  for (std::size_t p = 0; p < parts.size(); ++p) {
    if (owners[p] != rank) continue;
    for (vid_t v = parts[p].first_vertex; v < parts[p].last_vertex; ++v)
      owned.set(v);
  }
  return owned;
}

}  // namespace

OocEngine::OocEngine(Graph graph, EngineOptions options)
    : OocEngine(std::move(graph), std::move(options), nullptr) {}

OocEngine::OocEngine(Graph graph, EngineOptions options, std::shared_ptr<Communicator> communicator)
    : impl_(std::make_unique<Impl>()) {
  if (options.filter_merge == 0) throw InvalidInput("filter merge (k) must be at least 1");
  check(run_settings(options));
  if (options.devices.size() == 1) options.device = options.devices.front();
  if (options.devices.size() > 1) {
    if (communicator) {
      throw InvalidInput(
          "EngineOptions::devices drives several GPUs from one process; a rank of a distributed "
          "run takes one GPU (EngineOptions::device)");
    }
    auto whole = std::make_shared<Graph>(std::move(graph));
#if OOC_ENGINE_CUDA
    // Pinned once (portable to every GPU): the ranks' views then pin nothing of their own. Ranks
    // push only, so the in-edges stay where they are.
    if (resolve_backend(options.backend, options.devices.front()) == Backend::cuda)
      detail::pin_edges(*whole, options.devices.front(), detail::PinLists::out);
#endif
    impl_->options = options;
    impl_->group =
        make_group(options, [&](const EngineOptions& o, std::shared_ptr<Communicator> c) {
          return OocEngine(share(whole), o, std::move(c));
        });
    return;
  }
  if (communicator) check_rank_transfer(options);
  impl_->backend = resolve_backend(options.backend, options.device);
  impl_->graph = std::move(graph);
  impl_->options = options;
  impl_->partitions =
      partition_by_edges(impl_->graph, options.partition_bytes, impl_->graph.bytes_per_edge());
  if (impl_->graph.has_in_edges() && !communicator) {
#if OOC_ENGINE_CUDA
    // In pinned memory before the view of them is taken (a file loaded for the GPU has them
    // there already).
    if (impl_->backend == Backend::cuda)
      detail::pin_edges(impl_->graph, options.device, detail::PinLists::out_and_in);
#endif
    impl_->in_lists = in_edge_view(impl_->graph);
    const Buffer<eid_t>& in_offsets = impl_->graph.in_edges.offsets;
    for (const Partition& p : impl_->partitions) {
      impl_->in_partitions.push_back(
          {p.first_vertex, p.last_vertex, in_offsets[p.first_vertex], in_offsets[p.last_vertex]});
    }
  }
  impl_->internal_of_user = internal_ids(impl_->graph);
  if (communicator) {
    const auto rank = static_cast<std::uint32_t>(communicator->rank());
    impl_->owners = assign_partitions(impl_->partitions, impl_->graph.hub_count,
                                      static_cast<std::uint32_t>(communicator->size()));
    impl_->owned = vertices_of(impl_->partitions, impl_->owners, rank, impl_->graph.num_vertices());
    impl_->communicator = std::move(communicator);
  }
#if OOC_ENGINE_CUDA
  if (impl_->backend == Backend::cuda) {
    if (impl_->communicator) {
      const auto ranges =
          owned_edge_ranges(impl_->partitions, impl_->owners,
                            static_cast<std::uint32_t>(impl_->communicator->rank()));
      const detail::RankSetup rank{*impl_->communicator, impl_->owned, ranges, impl_->owners};
      impl_->device = detail::make_device_graph(impl_->graph, impl_->partitions, options, &rank);
    } else {
      impl_->device = detail::make_device_graph(impl_->graph, impl_->partitions, options);
      if (impl_->graph.has_in_edges())
        detail::add_in_lists(*impl_->device, impl_->in_lists, impl_->in_partitions);
    }
  }
#endif
}

OocEngine OocEngine::load(const std::filesystem::path& path, EngineOptions options,
                          std::shared_ptr<Communicator> communicator) {
  check_rank_transfer(options);
  // The offsets and ids first, to place the partitions; then this rank's edges alone.
  OocgReadOptions layout;
  layout.edge_ranges = {{0, 0}};
  const Graph skeleton = read_oocg(path, layout);
  const std::vector<Partition> parts =
      partition_by_edges(skeleton, options.partition_bytes, skeleton.bytes_per_edge());
  const std::vector<std::uint32_t> owners = assign_partitions(
      parts, skeleton.hub_count, static_cast<std::uint32_t>(communicator->size()));
  OocgReadOptions read;
  read.edge_ranges =
      owned_edge_ranges(parts, owners, static_cast<std::uint32_t>(communicator->rank()));
  if (read.edge_ranges.empty()) read.edge_ranges = {{0, 0}};  // a rank may own nothing
  return OocEngine(read_oocg(path, read), options, std::move(communicator));
}

OocEngine::OocEngine(std::vector<OocEngine> group, EngineOptions options)
    : impl_(std::make_unique<Impl>()) {
  impl_->options = std::move(options);
  impl_->group = std::move(group);
}

OocEngine OocEngine::load(const std::filesystem::path& path, EngineOptions options) {
  if (options.devices.size() > 1) {
    // Each rank reads only its own partitions' edges.
    auto group = make_group(options, [&](const EngineOptions& o, std::shared_ptr<Communicator> c) {
      return OocEngine::load(path, o, std::move(c));
    });
    return OocEngine(std::move(group), std::move(options));
  }
  if (options.devices.size() == 1) options.device = options.devices.front();
  // For the GPU the edges go straight into pinned memory, checksummed on the way.
  OocgReadOptions read;
  read.read_compressed = options.compressed;
  if (resolve_backend(options.backend, options.device) == Backend::cuda) {
    read.memory = &pinned_memory(options.device);
  }
  return OocEngine(read_oocg(path, read), options);
}

OocEngine::OocEngine(OocEngine&&) noexcept = default;
OocEngine& OocEngine::operator=(OocEngine&&) noexcept = default;
OocEngine::~OocEngine() = default;

bool OocEngine::grouped() const {
  return !impl_->group.empty();
}
const OocEngine& OocEngine::lead() const {
  return grouped() ? impl_->group.front() : *this;
}
void OocEngine::run_on_group(const std::function<void(OocEngine&, int)>& body) {
  std::vector<OocEngine>& group = impl_->group;
  on_threads(
      group.size(), [&](std::size_t r) { body(group[r], static_cast<int>(r)); },
      [&](std::size_t r, const char* why) { group[r].impl_->communicator->abort(why); });
}

const Graph& OocEngine::graph() const {
  return lead().impl_->graph;
}
const EngineOptions& OocEngine::options() const {
  return impl_->options;
}
RunSettings OocEngine::settings() const {
  return run_settings(options());
}
void OocEngine::configure(const RunSettings& settings) {
  check(settings);
  apply(settings, impl_->options);
  for (OocEngine& rank : impl_->group)
    apply(settings, rank.impl_->options);
}
Backend OocEngine::backend() const {
  return lead().impl_->backend;
}
std::span<const Partition> OocEngine::partitions() const {
  return lead().impl_->partitions;
}

vid_t OocEngine::internal_id(vid_t user_id) const {
  const vid_t n = graph().num_vertices();
  if (user_id >= n) {
    throw InvalidInput("vertex " + std::to_string(user_id) + " is out of range: the graph has " +
                       std::to_string(n) + " vertices" +
                       (n == 0 ? "" : " (ids 0-" + std::to_string(n - 1) + ")"));
  }
  const Buffer<vid_t>& internal_of_user = lead().impl_->internal_of_user;
  return internal_of_user.empty() ? user_id : internal_of_user[user_id];
}

int OocEngine::rank() const {
  return impl_->communicator ? impl_->communicator->rank() : 0;
}
int OocEngine::ranks() const {
  if (grouped()) return static_cast<int>(impl_->group.size());
  return impl_->communicator ? impl_->communicator->size() : 1;
}
std::span<const std::uint32_t> OocEngine::owners() const {
  return lead().impl_->owners;
}
const Bitmap* OocEngine::owned_vertices() const {
  return impl_->communicator ? &impl_->owned : nullptr;
}

vid_t OocEngine::highest_degree_vertex() const {
  const Graph& g = graph();
  if (g.num_vertices() == 0) throw InvalidInput("the graph has no vertices");
  // Ties go to the smallest user id, so that the vertex is the same in every order the file
  // may be in (hub sort, SAGE's, none).
  const auto better = [&](vid_t a, vid_t b) {
    return g.degree(a) > g.degree(b) ||
           (g.degree(a) == g.degree(b) && g.original_id(a) < g.original_id(b));
  };
  const vid_t best = tbb::parallel_reduce(
      tbb::blocked_range<vid_t>(0, g.num_vertices(), 1 << 14), vid_t{0},
      [&](const tbb::blocked_range<vid_t>& r, vid_t b) {
        for (vid_t v = r.begin(); v < r.end(); ++v) {
          if (better(v, b)) b = v;
        }
        return b;
      },
      [&](vid_t a, vid_t b) { return better(b, a) ? b : a; });
  return user_id(best);
}

detail::Lists OocEngine::pull_lists() const {
  if (impl_->in_partitions.empty()) return {graph(), partitions()};
  return {impl_->in_lists, impl_->in_partitions};
}

detail::CudaRun OocEngine::cuda_run([[maybe_unused]] const MemoryPlan& plan) const {
#if OOC_ENGINE_CUDA
  if (impl_->device)
    return {graph(), partitions(), options(), plan, *impl_->device, pull_lists().partitions};
#endif
  throw Unsupported("a CUDA executor on an engine whose backend is " +
                    std::string(to_string(backend())));
}

detail::RunSetup OocEngine::begin_run(const detail::ProgramInfo& info,
                                      const RunOptions& run) const {
  const Graph& g = graph();
  if (info.needs_weights && !g.weighted()) {
    throw InvalidInput(std::string(info.name) +
                       " needs edge weights, and this graph has none (convert or generate it with "
                       "--weights file or --weights random:1-64)");
  }
  if (info.needs_symmetric && !g.symmetric) {
    throw InvalidInput(
        std::string(info.name) +
        " needs a symmetric graph, and this one is directed (convert or generate it with "
        "--undirected)");
  }
  if (impl_->communicator) check_rank_transfer(options());  // configure() may have changed it
  // The direction this run may take: push where the program, the graph or the ranks rule pulling
  // out (refused when pull was asked for by name).
  EngineOptions o = options();
  if (o.direction == Direction::pull) check_pull(info, g, impl_->communicator != nullptr);
  if (!info.pulls || !has_in_lists(g) || impl_->communicator) o.direction = Direction::push;
  detail::RunSetup setup;
  std::uint64_t budget = o.device_budget;
  std::uint64_t l2_bytes = 0;
  std::string device = cpu_device_name();
#if OOC_ENGINE_CUDA
  if (impl_->device) {
    budget = detail::device_budget(*impl_->device, o.device_budget);
    device = detail::device_name(*impl_->device);
    l2_bytes = detail::device_l2_bytes(*impl_->device);
  }
#endif
  // A program's own arrays come off a budget the user gave (allocated already, they are no
  // longer in the free memory an automatic budget is taken from).
  const std::uint64_t own_bytes = std::uint64_t{g.num_vertices()} * info.own_vertex_bytes;
  if (o.device_budget > 0) budget -= std::min(budget, own_bytes);
  const bool gpu_rank = impl_->communicator && backend() == Backend::cuda;
  setup.memory = plan_memory(
      g, partitions(), info.value_bytes, info.kind == ProgramKind::accumulative, o, budget,
      gpu_rank ? static_cast<std::uint32_t>(impl_->communicator->size()) : 0, l2_bytes);
  setup.drive.tasks = {o.filter_merge, setup.memory.staging_edges, o.priority, info.ordered};
  // Slices pay where nothing else orders the work: accumulative programs and monotone ones without
  // a priority order (CC). BFS and SSSP, whose priority windows already take the most settled
  // vertices first, measured slower with them (docs/cost-model.md#resident-slices).
  if (backend() == Backend::cuda && o.priority &&
      (info.kind == ProgramKind::accumulative || !info.ordered)) {
    setup.drive.tasks.resident_slices = o.resident_slices;
    setup.drive.tasks.min_slice_edges = o.min_slice_edges;
  }
  setup.drive.max_iterations = run.max_iterations;
  setup.drive.cancelled = run.cancelled;
  setup.drive.communicator = impl_->communicator.get();
  setup.drive.exchange_rounds = o.exchange_rounds;
  RunStats& s = setup.stats;
  s.algorithm = info.name;
  s.backend = std::string(to_string(backend()));
  s.device = device;
  s.transfer = std::string(to_string(o.transfer));
  s.priority = o.priority;
  s.load_balance = std::string(to_string(o.load_balance));
  s.direction = std::string(to_string(options().direction));
  if (impl_->communicator) {
    s.exchange = backend() == Backend::cuda ? std::string(to_string(o.exchange)) : "dense";
    s.exchange_rounds = o.exchange_rounds;
  }
  s.in_memory = setup.memory.in_memory;
  s.pull_blocks = setup.memory.pull_blocks;
  s.resident_slices = setup.drive.tasks.resident_slices;
  s.compressed = setup.memory.compressed;
  s.adapt_costs = o.adapt_costs && backend() == Backend::cuda;
  s.budget = setup.memory.budget;
  s.vertex_bytes = setup.memory.vertex_bytes + own_bytes;
  s.staging_bytes = setup.memory.staging_bytes;
  s.edge_bytes = g.num_edges() * (info.needs_weights && g.weighted() ? 8 : 4);
  s.partitions = static_cast<std::uint32_t>(partitions().size());
  return setup;
}

// Runs a built-in program on the engine's backend; values stay in internal ids.
template <class P>
detail::RawRun<P> OocEngine::run_builtin(const P& program, detail::RunSetup setup) {
  using Executor = std::unique_ptr<detail::ValuesExecutor<typename P::Value>>;
  return execute<P>(
      [&](const MemoryPlan& plan) -> Executor {
#if OOC_ENGINE_CUDA
        if (impl_->device) {
          return detail::make_cuda_executor(program, cuda_run(plan));
        }
#endif
        return std::make_unique<detail::CpuExecutor<P>>(graph(), partitions(), pull_lists(),
                                                        program, options(), plan, owned_vertices());
      },
      std::move(setup));
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

BcResult OocEngine::bc(std::span<const vid_t> sources, const RunOptions& run) {
  if (sources.empty()) throw InvalidInput("bc needs at least one source");
  if (grouped() || impl_->communicator) {
    throw Unsupported("bc runs on one GPU or on the CPU, not across ranks yet");
  }
  std::vector<vid_t> internal;
  for (const vid_t s : sources)
    internal.push_back(internal_id(s));
  {
    std::vector<vid_t> sorted = internal;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
      throw InvalidInput("bc's sources must be distinct (a vertex is listed twice)");
  }
  const Graph& g = graph();
  const vid_t n = g.num_vertices();
  // The programs' own arrays: path counts, successor counts and, for the backward runs, the
  // levels; 4 bytes each per vertex, off the device budget. On the CPU backend the programs
  // read the host arrays and the forward runs' levels in place.
  detail::ProgramInfo forward_info = detail::info_of<BcForward>("bc");
  detail::ProgramInfo backward_info = detail::info_of<BcBackward>("bc");
  forward_info.own_vertex_bytes = backward_info.own_vertex_bytes = 12;
  Buffer<float> host_sigma = Buffer<float>::allocate(n);
  Buffer<std::uint32_t> host_successors;
  float* sigma = host_sigma.data();
  std::uint32_t* successors = nullptr;
  // CUDA: the arrays in device memory, and a copy of the levels for the backward runs.
  std::shared_ptr<void> device_sigma, device_successors, device_levels;
#if OOC_ENGINE_CUDA
  if (impl_->device) {
    const detail::DeviceGraph& d = *impl_->device;
    device_sigma = detail::device_allocate(d, n * sizeof(float), "bc's path counts");
    device_successors =
        detail::device_allocate(d, n * sizeof(std::uint32_t), "bc's successor counts");
    device_levels = detail::device_allocate(d, n * sizeof(std::uint32_t), "bc's levels");
    sigma = static_cast<float*>(device_sigma.get());
    successors = static_cast<std::uint32_t*>(device_successors.get());
  }
#endif
  if (successors == nullptr) {
    host_successors = Buffer<std::uint32_t>::allocate(n);
    successors = host_successors.data();
  }
  // Planned once for every source. The forward runs go bulk-synchronous (no priority deferral,
  // no second pass over loaded partitions): each iteration is one whole level.
  detail::RunSetup forward_setup = begin_run(forward_info, run);
  forward_setup.drive.tasks.priority = false;
  forward_setup.stats.priority = false;
  const detail::RunSetup backward_setup = begin_run(backward_info, run);
  BcResult result;
  std::vector<double> total(n, 0.0);
  for (const vid_t s : internal) {
    auto levels = run_builtin(BcForward{s, sigma, successors}, forward_setup);
    result.converged = result.converged && levels.converged;
    const std::uint32_t* level = levels.values.data();
#if OOC_ENGINE_CUDA
    if (impl_->device) {
      detail::copy_to_device(*impl_->device, device_levels.get(), level, n * sizeof(std::uint32_t));
      level = static_cast<const std::uint32_t*>(device_levels.get());
    }
#endif
    auto dependencies = run_builtin(BcBackward{level, sigma, successors}, backward_setup);
    result.converged = result.converged && dependencies.converged;
#if OOC_ENGINE_CUDA
    if (impl_->device)
      detail::copy_to_host(*impl_->device, host_sigma.data(), sigma, n * sizeof(float));
#endif
    // delta_s(v) = sigma(v) T(v) - 1 for the vertices reached from s, s itself apart.
    tbb::parallel_for(vid_t{0}, n, [&](vid_t v) {
      if (v == s || levels.values[v] == BcForward::kUnreached) return;
      const double t = static_cast<double>(dependencies.values[v]) + dependencies.deltas[v];
      total[v] += std::max(0.0, static_cast<double>(host_sigma[v]) * t - 1.0);
    });
    levels.stats.algorithm = "bc forward";
    dependencies.stats.algorithm = "bc backward";
    if (result.forward.empty()) {
      result.stats = levels.stats;
    } else {
      result.stats.add(levels.stats);
    }
    result.stats.add(dependencies.stats);
    result.forward.push_back(std::move(levels.stats));
    result.backward.push_back(std::move(dependencies.stats));
  }
  result.stats.algorithm = "bc";
  result.stats.priority = options().priority;  // the backward runs'; the forward ones go without
  result.values = to_user_ids(total.data());
  return result;
}

// A group checks a request once, before its ranks run it: a bad request would otherwise fail on
// every rank and leave the ranks' link broken for later runs.
Result<std::uint32_t> OocEngine::bfs(vid_t source, const RunOptions& run) {
  if (grouped()) {
    lead().internal_id(source);
    return on_group([&](OocEngine& e) { return e.bfs(source, run); });
  }
  const Bfs program{internal_id(source)};
  auto raw = run_builtin(program, begin_run(detail::info_of<Bfs>("bfs"), run));
  return {to_user_ids(raw.values.data()), std::move(raw.stats), raw.converged};
}

Result<double> OocEngine::sssp(vid_t source, const RunOptions& run) {
  if (grouped()) {
    lead().internal_id(source);
    lead().begin_run(detail::info_of<SsspU32>("sssp"), run);
    return on_group([&](OocEngine& e) { return e.sssp(source, run); });
  }
  const vid_t s = internal_id(source);
  Result<double> result;
  const auto finish = [&](auto raw, auto unreached) {
    std::vector<double> internal(raw.values.size());
    tbb::parallel_for(std::size_t{0}, internal.size(), [&](std::size_t v) {
      internal[v] = raw.values[v] == unreached ? std::numeric_limits<double>::infinity()
                                               : static_cast<double>(raw.values[v]);
    });
    result.values = to_user_ids(internal.data());
    result.stats = std::move(raw.stats);
    result.converged = raw.converged;
  };
  if (graph().weight_type == WeightType::f32) {
    finish(run_builtin(SsspF32{s}, begin_run(detail::info_of<SsspF32>("sssp"), run)),
           SsspF32::kUnreached);
  } else {
    finish(run_builtin(SsspU32{s}, begin_run(detail::info_of<SsspU32>("sssp"), run)),
           SsspU32::kUnreached);
  }
  return result;
}

Result<vid_t> OocEngine::cc(const RunOptions& run) {
  if (grouped()) {
    lead().begin_run(detail::info_of<Cc>("cc"), run);
    return on_group([&](OocEngine& e) { return e.cc(run); });
  }
  auto raw = run_builtin(Cc{}, begin_run(detail::info_of<Cc>("cc"), run));
  // Labels are the smallest internal id of each component; users want the smallest user id.
  const Graph& g = graph();
  std::vector<vid_t> smallest(g.num_vertices(), kNoVertex);
  tbb::parallel_for(vid_t{0}, g.num_vertices(),
                    [&](vid_t v) { atomic_min(&smallest[raw.values[v]], g.original_id(v)); });
  tbb::parallel_for(vid_t{0}, g.num_vertices(),
                    [&](vid_t v) { raw.values[v] = smallest[raw.values[v]]; });
  return {to_user_ids(raw.values.data()), std::move(raw.stats), raw.converged};
}

Result<float> OocEngine::pagerank(const PageRankOptions& pr) {
  if (!(pr.damping > 0.0f && pr.damping < 1.0f)) {
    throw InvalidInput("damping " + std::to_string(pr.damping) +
                       " must be strictly between 0 and 1");
  }
  if (!(pr.tolerance > 0.0f)) throw InvalidInput("tolerance must be positive");
  if (grouped()) return on_group([&](OocEngine& e) { return e.pagerank(pr); });
  auto raw = run_builtin(PageRank{pr.damping, pr.tolerance},
                         begin_run(detail::info_of<PageRank>("pagerank"), pr.run));
  // The rank is what was taken plus what is still pending; then normalise.
  const std::size_t n = raw.values.size();
  const double total = tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, n), 0.0,
      [&](const tbb::blocked_range<std::size_t>& r, double sum) {
        for (std::size_t v = r.begin(); v < r.end(); ++v)
          sum += raw.values[v] + raw.deltas[v];
        return sum;
      },
      std::plus<>());
  tbb::parallel_for(std::size_t{0}, n, [&](std::size_t v) {
    raw.values[v] = static_cast<float>((raw.values[v] + raw.deltas[v]) / total);
  });
  return {to_user_ids(raw.values.data()), std::move(raw.stats), raw.converged};
}

}  // namespace ooc
