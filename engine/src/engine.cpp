#include "ooc/engine/engine.hpp"

#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>

#include "engine_impl.hpp"
#include "group.hpp"
#include "ooc/core/error.hpp"
#include "ooc/core/version.hpp"
#include "ooc/engine/ownership.hpp"
#include "ooc/engine/pagerank_bound.hpp"
#include "ooc/partitioner/oocg.hpp"
#include "ooc/transfer/devices.hpp"
#include "ooc/transfer/pinned_memory.hpp"

namespace ooc {
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

// A rank on the GPU holds only its own edges (its ranges pinned in place): the unified baseline
// would copy the whole graph. (Its in-memory mode is an edge cache of its own partitions.)
void detail::check_rank_transfer(const EngineOptions& options) {
  if (options.transfer == TransferPolicy::unified &&
      resolve_backend(options.backend, options.device) == Backend::cuda) {
    throw Unsupported(
        "the unified policy runs on one GPU only: use another --transfer policy with ranks");
  }
}

void detail::check_tier_transfer(const EngineOptions& options) {
  if (options.transfer == TransferPolicy::unified) {
    throw Unsupported(
        "the unified policy copies every list into managed memory, and host memory holds only "
        "part of this graph's (--host-memory): use another --transfer policy");
  }
}

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
    // What the ranks read, pinned once (portable to every GPU): their views then pin nothing of
    // their own.
    if (resolve_backend(options.backend, options.devices.front()) == Backend::cuda) {
      detail::pin_edges(*whole, options.devices.front(),
                        {.in_edges = true, .compressed = options.compressed});
    }
    impl_->options = options;
    impl_->group =
        detail::make_group(options, [&](const EngineOptions& o, std::shared_ptr<Communicator> c) {
          return OocEngine(detail::share(whole), o, std::move(c));
        });
    return;
  }
  if (communicator) detail::check_rank_transfer(options);
  impl_->backend = resolve_backend(options.backend, options.device);
  impl_->graph = std::move(graph);
  impl_->options = options;
  impl_->partitions =
      partition_by_edges(impl_->graph, options.partition_bytes, impl_->graph.bytes_per_edge());
  impl_->internal_of_user = internal_ids(impl_->graph);
  if (communicator) impl_->join_ranks(std::move(communicator));
  if (impl_->graph.has_in_edges()) impl_->take_in_lists();
  if (impl_->backend == Backend::cuda) impl_->make_device_graph();
}

void OocEngine::Impl::take_in_lists() {
  // In pinned memory before the view of them is taken (a file loaded for the GPU has them there
  // already). A rank's graph may be read in part: make_device_graph pins its share in place.
  if (backend == Backend::cuda && !communicator)
    detail::pin_edges(graph, options.device, {.in_edges = true});
  in_lists = in_edge_view(graph);
  const Buffer<eid_t>& in_offsets = graph.in_edges.offsets;
  for (const Partition& p : partitions) {
    in_partitions.push_back(
        {p.first_vertex, p.last_vertex, in_offsets[p.first_vertex], in_offsets[p.last_vertex]});
  }
}

void OocEngine::Impl::join_ranks(std::shared_ptr<Communicator> link) {
  const auto rank = static_cast<std::uint32_t>(link->rank());
  owners = assign_partitions(partitions, graph.hub_count, static_cast<std::uint32_t>(link->size()),
                             options.filter_merge);
  owned = vertices_of(partitions, owners, rank, graph.num_vertices());
  layout = owned_layout(partitions, owners, static_cast<std::uint32_t>(link->size()));
  communicator = std::move(link);
}

void OocEngine::Impl::make_device_graph() {
  // A graph beyond host memory (load_tiered): only the lists host memory holds are pinned.
  const std::optional<detail::TierSetup> kept =
      tier ? std::optional<detail::TierSetup>({tier->held_ranges(), tier->held()}) : std::nullopt;
  const detail::TierSetup* held = kept ? &*kept : nullptr;
  if (!communicator) {
    device = detail::make_device_graph(graph, partitions, options, nullptr, held);
    if (graph.has_in_edges()) detail::add_in_lists(*device, in_lists, in_partitions);
  } else {
    const auto ranges =
        owned_vertex_ranges(partitions, owners, static_cast<std::uint32_t>(communicator->rank()));
    const detail::RankSetup rank{*communicator, owned, ranges, owners, layout};
    device = detail::make_device_graph(graph, partitions, options, &rank, held);
    if (graph.has_in_edges()) detail::add_in_lists(*device, in_lists, in_partitions, &rank);
  }
  // Reads into an array moved whole into pinned memory land there: its pages stay.
  if (tier) tier->keep_pages_of(detail::lists_pinned_whole(*device));
}

OocEngine OocEngine::load(const std::filesystem::path& path, EngineOptions options,
                          std::shared_ptr<Communicator> communicator) {
  detail::check_rank_transfer(options);
  // Part of a rank's lists may stay in the file (host_memory, or what this machine can spare).
  const Backend backend = resolve_backend(options.backend, options.device);
  if (std::optional<OocEngine> tiered =
          load_rank_beyond_memory(path, options, backend, communicator))
    return std::move(*tiered);
  // The offsets first (and the in-offsets, which cut the partitions too), to place the
  // partitions; then this rank's lists alone: out-edges, compressed lists as a single GPU reads
  // them, in-edges.
  OocgReadOptions layout;
  layout.vertex_ranges = {{0, 0}};
  layout.read_compressed = false;
  const Graph skeleton = read_oocg(path, layout);
  const std::vector<Partition> parts =
      partition_by_edges(skeleton, options.partition_bytes, skeleton.bytes_per_edge());
  const std::vector<std::uint32_t> owners =
      assign_partitions(parts, skeleton.hub_count, static_cast<std::uint32_t>(communicator->size()),
                        options.filter_merge);
  OocgReadOptions read;
  read.vertex_ranges =
      owned_vertex_ranges(parts, owners, static_cast<std::uint32_t>(communicator->rank()));
  if (read.vertex_ranges.empty()) read.vertex_ranges = {{0, 0}};  // a rank may own nothing
  read.read_compressed = options.compressed;
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
    auto group =
        detail::make_group(options, [&](const EngineOptions& o, std::shared_ptr<Communicator> c) {
          return OocEngine::load(path, o, std::move(c));
        });
    return OocEngine(std::move(group), std::move(options));
  }
  if (options.devices.size() == 1) options.device = options.devices.front();
  // For the GPU the edges go straight into pinned memory, checksummed on the way.
  OocgReadOptions read;
  read.read_compressed = options.compressed;
  const Backend backend = resolve_backend(options.backend, options.device);
  if (backend == Backend::cuda) read.memory = &pinned_memory(options.device);
  // Part of the lists may stay in the file (host_memory, or what this machine can spare).
  if (std::optional<OocEngine> tiered = load_beyond_memory(path, options, read, backend))
    return std::move(*tiered);
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
  detail::on_threads(
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
std::optional<ExchangeCalibration> OocEngine::exchange_calibration() const {
  const Impl& first = *lead().impl_;
  if (!first.communicator || !first.device) return std::nullopt;
  return detail::exchange_calibration(*first.device);
}
detail::RankView OocEngine::rank_view() const {
  if (!impl_->communicator) return {};
  return {&impl_->owned, impl_->communicator.get(), &impl_->layout};
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

detail::CudaRun OocEngine::cuda_run(const MemoryPlan& plan) const {
  if (impl_->device)
    return {graph(),
            partitions(),
            options(),
            plan,
            *impl_->device,
            pull_lists().partitions,
            impl_->communicator.get(),
            impl_->tier.get()};
  throw Unsupported("a CUDA executor on an engine whose backend is " +
                    std::string(to_string(backend())));
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
  detail::ProgramInfo f32 = detail::info_of<SsspF32>("sssp");
  detail::ProgramInfo u32 = detail::info_of<SsspU32>("sssp");
  f32.weighted_distances = u32.weighted_distances = true;
  if (graph().weight_type == WeightType::f32) {
    finish(run_builtin(SsspF32{s}, begin_run(f32, run)), SsspF32::kUnreached);
  } else {
    finish(run_builtin(SsspU32{s}, begin_run(u32, run)), SsspU32::kUnreached);
  }
  return result;
}

// PushRule::automatic's test (and Priority::automatic's in GPU memory): whether the lists of at
// least 4 times the mean out-degree (of the vertices that have edges) hold a third of the edges or
// more. Per-edge pushing pays where hubs hold many edges (Kronecker graphs: about two thirds), and
// on graphs of even degrees (uniform random graphs, grids: none) it only keeps more vertices
// active, unprocessed, for the surveys to walk (docs/programs.md, "PageRank"). Degrees are every
// rank's, so all ranks agree.
bool OocEngine::Impl::hubs_hold_many_edges() {
  if (hub_heavy) return *hub_heavy;
  const Graph& g = graph;
  using Sums = std::array<std::uint64_t, 2>;  // vertices with edges, their edges
  const auto add = [](Sums a, Sums b) { return Sums{a[0] + b[0], a[1] + b[1]}; };
  const auto sum_over = [&](auto pick) {
    return tbb::parallel_reduce(
        tbb::blocked_range<vid_t>(0, g.num_vertices(), 1 << 14), Sums{},
        [&](const tbb::blocked_range<vid_t>& r, Sums s) {
          for (vid_t v = r.begin(); v < r.end(); ++v) {
            if (pick(g.degree(v))) s = add(s, Sums{1, g.degree(v)});
          }
          return s;
        },
        add);
  };
  const Sums all = sum_over([](eid_t d) { return d > 0; });
  if (all[0] == 0) {
    hub_heavy = false;
  } else {
    const Sums hubs = sum_over([&](eid_t d) { return d * all[0] >= 4 * all[1]; });
    hub_heavy = 3 * hubs[1] >= all[1];
  }
  return *hub_heavy;
}

Result<float> OocEngine::pagerank(const PageRankOptions& pr) {
  if (!(pr.damping > 0.0f && pr.damping < 1.0f)) {
    throw InvalidInput("damping " + std::to_string(pr.damping) +
                       " must be strictly between 0 and 1");
  }
  if (pr.l1 == 0 && !(pr.tolerance > 0.0f)) throw InvalidInput("tolerance must be positive");
  if (grouped()) return on_group([&](OocEngine& e) { return e.pagerank(pr); });
  const PushRule rule = pr.push != PushRule::automatic  ? pr.push
                        : impl_->hubs_hold_many_edges() ? PushRule::per_edge
                                                        : PushRule::per_vertex;
  const std::span<const Partition> parts = impl_->partitions;
  const double v = graph().num_vertices();
  const double e =
      parts.empty() ? 0.0 : static_cast<double>(parts.back().last_edge - parts.front().first_edge);
  const std::optional<PageRankGraph> counts =
      pr.l1 == 0 ? std::nullopt : std::optional(pagerank_graph(graph(), e));
  const float tolerance =
      pr.l1 == 0 ? pr.tolerance : pagerank_tolerance_for(pr.l1, pr.damping, rule, *counts);
  PageRank program{pr.damping, tolerance};
  // At most per_edge * max(degree, 1) pends at a vertex, per_edge * (E + V) in all.
  if (rule == PushRule::per_edge)
    program.per_edge = program.threshold = static_cast<float>(tolerance * v / (e + v));
  detail::RunSetup setup = begin_run(detail::info_of<PageRank>("pagerank"), pr.run);
  // Asked for an accuracy, one rank ends as soon as what pends is small enough for it, which the
  // tolerance makes sure of only at its end: every vertex below it pends far less than that in
  // all. Ranks run to the tolerance (each sees only its own vertices' deltas).
  if (counts && !impl_->communicator)
    setup.drive.enough_pending = pagerank_pending_for(pr.l1, pr.damping, *counts);
  auto raw = run_builtin(program, std::move(setup));
  raw.stats.method = to_string(rule);
  raw.stats.tolerance = tolerance;
  // The rank is what was taken plus what is still pending; then normalise.
  const PageRankRemainder left = pagerank_remainder(graph(), raw.values.span(), raw.deltas.span());
  const std::size_t n = raw.values.size();
  tbb::parallel_for(std::size_t{0}, n, [&](std::size_t u) {
    raw.values[u] = static_cast<float>((raw.values[u] + raw.deltas[u]) / left.total);
  });
  raw.stats.l1_bound = pagerank_l1_bound(pr.damping, left);
  // Converged, yet above the accuracy asked for: its rounding (pagerank_bound.hpp).
  if (pr.l1 > 0 && raw.stats.l1_bound > pr.l1 && raw.converged) {
    char why[160];
    std::snprintf(why, sizeof why,
                  "L1 bound %.2g above the %.2g asked: float rounding (a vertex summing many "
                  "equal messages)",
                  raw.stats.l1_bound, pr.l1);
    raw.stats.choices.emplace_back(why);
  }
  return {to_user_ids(raw.values.data()), std::move(raw.stats), raw.converged};
}

}  // namespace ooc
