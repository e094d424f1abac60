// OocEngine's planning of a run (OocEngine::begin_run): the program's demands on the graph
// checked, the options it runs by, its memory plan, how the driver goes, and what its stats say
// of it before it starts.
#include <tbb/global_control.h>

#include <algorithm>
#include <array>
#include <string>

#include "engine_impl.hpp"
#include "ooc/core/codec.hpp"
#include "ooc/core/error.hpp"
#include "ooc/core/units.hpp"

namespace ooc {

std::string detail::cpu_device_name() {
  const auto threads =
      tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism);
  return "CPU (" + std::to_string(threads) + " threads)";
}

namespace {

// Whether the pull direction can read the graph's in-edges: a symmetric graph's own lists hold
// them, a directed one's need its in-lists (partition-tool --in-edges).
bool has_in_lists(const Graph& g) {
  return g.symmetric || g.has_in_edges();
}

// The pull direction reads each vertex's in-edges (has_in_lists), with a program that declares
// offer() (programs.hpp).
void check_pull(const detail::ProgramInfo& info, const Graph& g) {
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
}

// A program's demands on the graph.
void check_graph(const detail::ProgramInfo& info, const Graph& g) {
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
}

// A compressed-only graph's lists are read compressed, as every engine but the unified baseline
// can (its in-memory mode is the edge cache, memory_plan.cpp); its in-lists, when it has some,
// are raw.
void check_compressed_only(const Graph& g, const EngineOptions& o) {
  if (g.has_raw_lists()) return;
  const char* rebuild = " rebuild the file without --compress-only";
  if (!o.compressed) {
    throw InvalidInput(std::string("this graph has compressed lists only, which compressed off "
                                   "(--compressed off) leaves unread: run with compressed on, or") +
                       rebuild);
  }
  if (o.transfer == TransferPolicy::unified) {
    throw InvalidInput(std::string("this graph has compressed lists only, and the unified policy "
                                   "needs the raw lists: use another --transfer policy, or") +
                       rebuild);
  }
}

// The processor a run plans for: the memory budget it may use, its name, its L2 (0: unknown).
struct Processor {
  std::uint64_t budget;
  std::string name;
  std::uint64_t l2_bytes;
};

Processor processor_of(const detail::DeviceGraph* device, std::uint64_t asked) {
  if (device == nullptr) return {asked, detail::cpu_device_name(), 0};
  const std::uint64_t budget = detail::device_budget(*device, asked);
  return {budget, detail::device_name(*device), detail::device_l2_bytes(*device)};
}

}  // namespace

RunStats OocEngine::begin_host_run(const std::string& algorithm, const RunOptions& run,
                                   HostRanks ranks) const {
  if (impl_->tier) {
    throw Unsupported(algorithm +
                      " reads every list from host memory, and this graph's exceed "
                      "it: give it more (--host-memory), or run on a larger machine");
  }
  if ((grouped() || impl_->communicator) && ranks == HostRanks::refused) {
    throw Unsupported(algorithm + " runs on one rank for now: run it without --devices or mpirun");
  }
  const bool cuda = impl_->backend == Backend::cuda;
  if (run.cancelled && run.cancelled()) throw Cancelled("the run was cancelled after 0 iterations");
  RunStats s;
  s.algorithm = algorithm;
  s.backend = cuda ? "cuda" : "cpu";
  s.device = cuda ? detail::device_name(*impl_->device) : detail::cpu_device_name();
  s.transfer = std::string(to_string(options().transfer));
  s.priority = false;
  s.direction = "push";
  s.partitions = static_cast<std::uint32_t>(partitions().size());
  return s;
}

// Called on a lone engine or a rank (a group asks its first rank), so its own state is the
// graph's and the options'.
detail::RunSetup OocEngine::begin_run(const detail::ProgramInfo& info,
                                      const RunOptions& run) const {
  check_graph(info, graph());
  if (info.settles && !info.shares && impl_->communicator) {
    throw Unsupported(std::string(info.name) +
                      " settles its vertices from arrays of its own, which the ranks cannot "
                      "combine: it runs on one GPU or the CPU, or across ranks once it hands "
                      "them over with shared() (program_contract.hpp)");
  }
  // configure() may have changed the transfer policy since the engine was made.
  check_compressed_only(graph(), options());
  if (impl_->communicator) detail::check_rank_transfer(options());
  if (impl_->tier && impl_->backend == Backend::cuda) detail::check_tier_transfer(options());
  EngineOptions o = impl_->run_options(info);
  const bool automatic_delta = o.priority_delta < 0;
  if (automatic_delta) o.priority_delta = info.weighted_distances ? impl_->distance_delta() : 0;
  const Processor processor = processor_of(impl_->device.get(), o.device_budget);
  // A program's own arrays come off a budget the user gave (allocated already, they are no
  // longer in the free memory an automatic budget is taken from).
  const std::uint64_t own_bytes = std::uint64_t{graph().num_vertices()} * info.own_vertex_bytes;
  std::uint64_t budget = processor.budget;
  if (o.device_budget > 0) budget -= std::min(budget, own_bytes);
  detail::RunSetup setup;
  setup.memory = impl_->plan(info, o, budget, processor.l2_bytes);
  // Automatic direction on a directed graph: its in-lists go to GPU memory beside the out-lists
  // for the pull side. Where that takes the run out of GPU memory that the out-lists alone fit,
  // it pushes in GPU memory instead.
  if (o.direction == Direction::automatic && o.in_memory && !setup.memory.in_memory &&
      graph().has_in_edges() && !graph().symmetric) {
    EngineOptions pushing = o;
    pushing.direction = Direction::push;
    MemoryPlan pushed = impl_->plan(info, pushing, budget, processor.l2_bytes);
    if (pushed.in_memory) {
      o = pushing;
      setup.memory = pushed;
    }
  }
  // Priority auto: off for an accumulative program (PageRank) out of core, where it reached the
  // same L1 faster without it on kron-26, urand-26 and a grid, and in GPU memory on a graph of
  // even degrees (urand, grids); on otherwise: for the other programs, and for PageRank in GPU
  // memory where hubs hold many edges (kron-26), where its resident slices need it and it was the
  // faster (options.hpp, Priority).
  if (o.priority == Priority::automatic) {
    const bool accumulative = info.kind == ProgramKind::accumulative;
    o.priority = accumulative && (!setup.memory.in_memory || !impl_->hubs_hold_many_edges())
                     ? Priority::off
                     : Priority::on;
  }
  setup.drive = impl_->drive_options(info, o, setup.memory, run);
  if (automatic_delta && setup.drive.loop.delta > 0) setup.drive.loop.delta = impl_->loop_delta();
  setup.stats = impl_->describe(info, o, setup, processor.name, own_bytes);
  return setup;
}

// Up to kDeltaSamples weights spread evenly over the edges this engine holds (a rank: those of
// its own partitions, the only ones it read), their mean summed over the ranks so that every rank
// takes the same delta. Raw weights, or packed ones decoded.
double OocEngine::Impl::distance_delta() {
  constexpr std::uint64_t kDeltaSamples = 4096;
  if (sampled_delta > 0) return sampled_delta;
  const Graph& g = graph;
  const auto rank = static_cast<std::uint32_t>(communicator ? communicator->rank() : 0);
  // A rank's own partitions; of a graph beyond host memory, those host memory holds.
  const auto mine = [&](std::size_t p) {
    return (owners.empty() || owners[p] == rank) &&
           (!tier || tier->holds(static_cast<std::uint32_t>(p)));
  };
  std::uint64_t held = 0;
  for (std::size_t p = 0; p < partitions.size(); ++p)
    if (mine(p)) held += partitions[p].num_edges();
  const std::uint64_t stride = std::max<std::uint64_t>(1, held / kDeltaSamples);
  std::array<double, 2> sum_count{};
  std::uint64_t seen = 0;
  for (std::size_t p = 0; p < partitions.size() && g.weighted(); ++p) {
    if (!mine(p)) continue;
    const Partition& part = partitions[p];
    for (eid_t e = part.first_edge; e < part.last_edge; ++e, ++seen) {
      if (seen % stride != 0) continue;
      double w = 0;
      if (g.weight_type == WeightType::f32) {
        w = weight_as_float(g.weights[e]);
      } else if (!g.weights.empty()) {
        w = g.weights[e];
      } else {
        w = codec::packed_weight(g.compressed.packed_weights.data(), e, g.compressed.weight_width,
                                 g.compressed.weight_base);
      }
      sum_count[0] += w;
      sum_count[1] += 1;
    }
  }
  if (communicator) communicator->all_reduce(std::span<double>(sum_count), Reduction::sum);
  const double mean = sum_count[1] > 0 ? sum_count[0] / sum_count[1] : 1.0;
  sampled_delta = mean > 0 ? 2 * mean : 1.0;
  return sampled_delta;
}

// Near-far piles are processed a level at a time, each level a barrier however few its vertices:
// a wider pile settles more vertices a level, at the price of relaxing some twice. Davidson et
// al.'s delta, 32 (a warp) mean weights over the mean degree, was the fastest of a sweep on one
// H100 in GPU memory (docs/performance-log.md, 2026-12-05): a 4096x4096 grid (weights 1..64, degree
// 4: delta 263) took 0.129 s at delta 260 against 0.171 s at the host windows' 2 mean weights, a
// 24 M-vertex road graph (degree 2.5: delta 1,317) 0.117-0.125 s at 823-1,646 against 0.170 s.
// On kron-26 (degree 31) it is about the mean weight. Never below the mean weight, where most
// edges are heavy and each level settles few vertices.
double OocEngine::Impl::loop_delta() {
  constexpr double kLanes = 32;
  const double mean = distance_delta() / 2;
  const double degree = graph.num_vertices() > 0 ? static_cast<double>(graph.num_edges()) /
                                                       static_cast<double>(graph.num_vertices())
                                                 : 1.0;
  return std::max(mean, kLanes * mean / std::max(degree, 1.0));
}

// The options this run goes by: push where the program or the graph rules pulling out (refused
// when pull was asked for by name).
EngineOptions OocEngine::Impl::run_options(const detail::ProgramInfo& info) const {
  EngineOptions o = options;
  if (o.direction == Direction::pull && !info.pushes_only) check_pull(info, graph);
  if (!info.pulls || !has_in_lists(graph) || tier) o.direction = Direction::push;
  // An accumulative program (PageRank) pushes under auto: pulling its large early frontiers then
  // pushing the rest was 1.05-8.4x slower than pushing throughout on urand-26, the 4096^2 grid
  // and the road-like graph (H100, docs/performance-log.md, 2026-12-06); it pulls when asked.
  if (o.direction == Direction::automatic && info.kind == ProgramKind::accumulative) {
    o.direction = Direction::push;
  }
  // The host tier reads a partition's lists for a task (host_tier.hpp): the frontier loop, which
  // reads lists outside tasks, would find those of partitions in the file missing.
  if (tier) o.frontier_loop_edges = 0;
  // A settling program is level-synchronous: no deferral, no second pass over a loaded
  // partition, so that an iteration is one level. (Priority auto is settled with the memory plan,
  // in begin_run.)
  if (info.settles) o.priority = Priority::off;
  return o;
}

MemoryPlan OocEngine::Impl::plan(const detail::ProgramInfo& info, const EngineOptions& o,
                                 std::uint64_t budget, std::uint64_t l2_bytes) const {
  const bool gpu_rank = communicator && backend == Backend::cuda;
  const auto ranks = gpu_rank ? static_cast<std::uint32_t>(communicator->size()) : 0;
  return plan_memory(
      graph, partitions, info.value_bytes, info.kind == ProgramKind::accumulative, o, budget, ranks,
      l2_bytes, gpu_rank && device ? detail::exchange_calibration(*device) : ExchangeCalibration{},
      gpu_rank && layout.scatters(ranks, graph.num_vertices()) ? layout.slots(ranks) : 0,
      tier != nullptr);
}

detail::DriveOptions OocEngine::Impl::drive_options(const detail::ProgramInfo& info,
                                                    const EngineOptions& o,
                                                    const MemoryPlan& memory,
                                                    const RunOptions& run) const {
  detail::DriveOptions drive;
  drive.tasks = {o.filter_merge, memory.staging_edges, o.priority == Priority::on, info.ordered};
  // Slices pay where nothing else orders the work: accumulative programs and monotone ones
  // without a priority order (CC). BFS and SSSP, whose priority windows already take the most
  // settled vertices first, measured slower with them (docs/cost-model.md#resident-slices).
  if (backend == Backend::cuda && o.priority == Priority::on &&
      (info.kind == ProgramKind::accumulative || !info.ordered)) {
    drive.tasks.resident_slices = o.resident_slices;
    drive.tasks.min_slice_edges = o.min_slice_edges;
  }
  drive.max_iterations = run.max_iterations;
  drive.cancelled = run.cancelled;
  drive.communicator = communicator.get();
  // A settling program's iteration is one level: an exchange before its end finds nothing the
  // next level could use, and its slots combine once per iteration (SharedSlots).
  const std::uint32_t rounds = o.exchange_rounds != 0     ? o.exchange_rounds
                               : backend == Backend::cuda ? kGpuExchangeRounds
                                                          : kCpuExchangeRounds;
  drive.exchange_rounds = info.settles ? 1 : rounds;
  drive.exchange_values = !info.values_unused;
  drive.priority_delta = std::max(0.0, o.priority_delta);
  drive.tiny_edges = o.frontier_loop_edges;
  if (frontier_loop_serves(info.kind, info.settles, o, memory, communicator != nullptr)) {
    drive.loop.edges = o.frontier_loop_edges;
    drive.loop.iterations = kLoopIterations;
    // Near-far piles where the host loop would window by value (delta-stepping's buckets).
    if (o.priority == Priority::on && info.ordered) drive.loop.delta = drive.priority_delta;
    // Hops save a GPU level's memory round trips; the CPU backend's levels have none to save.
    // Automatic, as measured (docs/cost-model.md, "Hops"): 4, where up to four lists set aside are
    // relaxed at once; in GPU memory 2 for SSSP's piles, where more relax values not yet final
    // and a level's round trips are cheap, but out of core, where each is a zero-copy read, 4.
    if (backend == Backend::cuda) {
      const bool piles = drive.loop.delta > 0;
      drive.loop.hops = o.frontier_loop_hops != kAutomaticLoopHops ? o.frontier_loop_hops
                        : piles && memory.in_memory                ? 2
                                                                   : 4;
    }
  }
  return drive;
}

// What the run's stats say of it before it starts: the program, where it runs, how.
RunStats OocEngine::Impl::describe(const detail::ProgramInfo& info, const EngineOptions& o,
                                   const detail::RunSetup& setup, std::string device_name,
                                   std::uint64_t own_bytes) const {
  RunStats s;
  s.algorithm = info.name;
  s.backend = std::string(to_string(backend));
  s.device = std::move(device_name);
  s.transfer = std::string(to_string(o.transfer));
  s.priority = o.priority == Priority::on;
  if (o.priority == Priority::on && info.ordered && info.kind == ProgramKind::monotone)
    s.priority_delta = o.priority_delta;
  s.load_balance = std::string(to_string(o.load_balance));
  s.direction = std::string(to_string(options.direction));  // as asked
  if (communicator) {
    s.exchange = backend == Backend::cuda ? std::string(to_string(o.exchange)) : "dense";
    s.exchange_rounds = setup.drive.exchange_rounds;
    if (device) s.exchange_calibration = detail::exchange_calibration(*device);
  }
  s.in_memory = setup.memory.in_memory;
  s.pull_blocks = setup.memory.pull_blocks;
  s.resident_slices = setup.drive.tasks.resident_slices;
  s.compressed = setup.memory.compressed;
  s.adapt_costs = o.adapt_costs && backend == Backend::cuda;
  s.budget = setup.memory.budget;
  s.vertex_bytes = setup.memory.vertex_bytes + own_bytes;
  s.staging_bytes = setup.memory.staging_bytes;
  if (device) s.host_pinned_bytes = detail::pinned_host_bytes(*device);
  s.edge_bytes = graph.num_edges() * (info.needs_weights && graph.weighted() ? 8 : 4);
  s.partitions = static_cast<std::uint32_t>(partitions.size());
  s.frontier_loop_edges = setup.drive.loop.edges;
  s.frontier_loop_delta = setup.drive.loop.delta;
  s.frontier_loop_hops = setup.drive.loop.hops;
  s.host_memory = host_memory;
  s.host_resident_bytes = host_resident_bytes;
  s.storage_direct = tier != nullptr && tier->direct();
  if (tier != nullptr) {
    s.storage_bandwidth = o.cost.storage_bandwidth;
    s.storage_latency = o.cost.storage_latency;
  }
  s.host_resident_partitions = host_resident_partitions;
  s.choices = choices(info, o, setup.memory);
  return s;
}

// Where a run goes otherwise than its options (`options`, as asked) say, and why: what
// run_options and plan_memory decided (`o`, `memory`), so that a user sees the fast path.
std::vector<std::string> OocEngine::Impl::choices(const detail::ProgramInfo& info,
                                                  const EngineOptions& o,
                                                  const MemoryPlan& memory) const {
  std::vector<std::string> out;
  // Automatic direction: a program without a pull side, and an accumulative one (run_options),
  // push as they always did, unsaid.
  if (options.direction != Direction::push && o.direction == Direction::push && info.pulls) {
    if (tier) {
      out.emplace_back("push: the host tier reads the out-lists a push needs");
    } else if (info.kind != ProgramKind::accumulative) {
      out.emplace_back(!has_in_lists(graph) ? "push: this directed graph has no in-edges to pull "
                                              "over (partition-tool --in-edges)"
                                            : "push: the in-lists would take the run out of GPU "
                                              "memory, which the out-lists fit");
    }
  }
  if (tier && options.frontier_loop_edges > 0) {
    out.emplace_back("no frontier loop: it reads lists outside the host tier's tasks");
  }
  const bool gpu_rank = communicator && backend == Backend::cuda;
  if (backend == Backend::cuda && options.in_memory && !memory.in_memory) {
    if (tier) {
      out.emplace_back(
          "out of core: host memory holds only part of the lists, which the edge cache keeps");
    } else if (gpu_rank) {
      out.emplace_back("out of core: a GPU rank keeps its own partitions in the edge cache");
    } else if (!graph.has_raw_lists()) {
      out.emplace_back(
          "out of core: the file has compressed lists only, which in-memory mode does not copy "
          "(the edge cache keeps them)");
    } else if (options.transfer != TransferPolicy::unified) {
      out.push_back("out of core: the edges (" +
                    format_bytes(memory.edge_bytes + memory.in_edge_bytes) +
                    ") and the vertex data and staging (" + format_bytes(memory.needed()) +
                    ") exceed the budget (" + format_bytes(memory.budget) + ")");
    }
  }
  // Compressed lists pay where lists cross the link; the CPU backend reads a file's raw lists
  // as fast (docs/performance-log.md, 2026-12-05, the default file's entry).
  if (backend == Backend::cuda && options.compressed && !memory.in_memory &&
      graph.compressed.empty()) {
    out.emplace_back(
        "raw lists: the graph has no compressed lists (partition-tool writes them unless "
        "--raw-only)");
  }
  return out;
}

}  // namespace ooc
