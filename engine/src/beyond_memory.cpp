// Loading a graph beyond host memory (EngineOptions::host_memory; docs/architecture.md, "Graphs
// beyond host memory"): when the lists a load would read exceed the host memory they may hold, the
// partitions that fit (plan_host_memory) stay in memory, read from the file once; the others stay
// in the file, and the host tier (host_tier.hpp) reads them when a task needs them. Ranks do the
// same with their own partitions and a share of the host memory each. On the GPU the device graph
// then pins the kept lists alone, in place (device_graph.cu, TierSetup).
#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "engine_impl.hpp"
#include "ooc/core/error.hpp"
#include "ooc/core/host_memory.hpp"
#include "ooc/core/storage_reads.hpp"
#include "ooc/engine/ownership.hpp"
#include "ooc/partitioner/oocg.hpp"

namespace ooc {
namespace {

// The bytes of the list sections a whole read with `read` takes (the in-edges aside).
std::uint64_t whole_list_bytes(const OocgInfo& info, const OocgReadOptions& read) {
  const bool compressed = info.compressed && read.read_compressed;
  std::uint64_t bytes = 0;
  if (!info.compressed_only) {
    bytes += info.num_edges * sizeof(vid_t);
    if (info.weight_type != WeightType::none) bytes += info.num_edges * sizeof(std::uint32_t);
  } else if (info.weight_type != WeightType::none && !info.packed_weights) {
    bytes += info.num_edges * sizeof(std::uint32_t);
  }
  if (compressed) bytes += info.compressed_bytes + info.packed_weight_bytes;
  return bytes;
}

// The host memory a load's lists may hold: EngineOptions::host_memory, else 80% of what this
// machine can spare; nullopt when that is unknown (no /proc/meminfo).
std::optional<std::uint64_t> host_budget(const EngineOptions& options) {
  if (options.host_memory > 0) return options.host_memory;
  const std::uint64_t spare = spare_memory();
  if (spare == 0) return std::nullopt;
  return spare;
}

// The offsets (and the compressed lists' offsets, as `read` reads them), to place the partitions
// and price them; no in-edges, which the host tier does not serve (it pushes over the out-lists).
// In pageable memory: a skeleton's list arrays span the file's, and pinned memory would take
// them whole.
struct Layout {
  Graph skeleton;
  std::vector<Partition> parts;
};
Layout layout_of(const std::filesystem::path& path, const EngineOptions& options,
                 OocgReadOptions read) {
  read.vertex_ranges = {{0, 0}};
  read.read_in_edges = false;
  read.memory = nullptr;
  Layout layout{read_oocg(path, read), {}};
  layout.parts = partition_by_edges(layout.skeleton, options.partition_bytes,
                                    layout.skeleton.bytes_per_edge());
  return layout;
}

}  // namespace

std::optional<OocEngine> OocEngine::load_beyond_memory(const std::filesystem::path& path,
                                                       const EngineOptions& options,
                                                       OocgReadOptions read, Backend backend) {
  const std::optional<std::uint64_t> budget = host_budget(options);
  if (!budget || whole_list_bytes(read_oocg_info(path), read) <= *budget) return std::nullopt;
  const Layout layout = layout_of(path, options, read);
  HostMemoryPlan plan = plan_host_memory(layout.skeleton, layout.parts, *budget);
  if (plan.list_bytes <= *budget) return std::nullopt;
  return load_tiered(path, options, std::move(read), std::move(plan), layout.parts.size(), *budget,
                     backend, nullptr);
}

// Each rank on this host takes an equal share of the budget (the threads of one process; under
// MPI the ranks that MPI_COMM_TYPE_SHARED groups, a rank alone on its host taking it whole) and
// prices its own partitions against it. The ranks decide together, so that they agree on the
// partitions (a tiered load reads no in-edges, which cut them too) and run alike (pushing,
// without the frontier loop: run_options): when one rank's lists exceed its share, every rank
// loads with a host tier, a rank whose lists fit keeping them all.
std::optional<OocEngine> OocEngine::load_rank_beyond_memory(
    const std::filesystem::path& path, const EngineOptions& options, Backend backend,
    const std::shared_ptr<Communicator>& communicator) {
  // At least a byte: the stats tell a tier by a budget above 0.
  const std::optional<std::uint64_t> budget = host_budget(options);
  const std::uint64_t share = std::max<std::uint64_t>(
      1, budget.value_or(0) / static_cast<std::uint64_t>(communicator->ranks_on_host()));
  const auto rank = static_cast<std::uint32_t>(communicator->rank());
  OocgReadOptions read;
  read.read_compressed = options.compressed;
  // The plan of this rank's own partitions, made only where the whole graph's lists exceed the
  // share (otherwise its own fit), or once another rank's exceed theirs.
  std::optional<Layout> layout;
  HostMemoryPlan plan;
  const auto make_plan = [&] {
    layout = layout_of(path, options, read);
    const std::vector<std::uint32_t> owners =
        assign_partitions(layout->parts, layout->skeleton.hub_count,
                          static_cast<std::uint32_t>(communicator->size()), options.filter_merge);
    std::vector<bool> own(owners.size());
    for (std::size_t p = 0; p < owners.size(); ++p)
      own[p] = owners[p] == rank;
    plan = plan_host_memory(layout->skeleton, layout->parts, share, own);
  };
  if (budget && whole_list_bytes(read_oocg_info(path), read) > share) make_plan();
  std::array<std::uint64_t, 1> most{layout && plan.list_bytes > share ? plan.list_bytes : 0};
  communicator->all_reduce(most, Reduction::max);
  if (most[0] == 0) return std::nullopt;
  if (!layout) make_plan();
  return load_tiered(path, options, std::move(read), std::move(plan), layout->parts.size(), share,
                     backend, communicator);
}

OocEngine OocEngine::load_tiered(const std::filesystem::path& path, const EngineOptions& options,
                                 OocgReadOptions read, HostMemoryPlan plan, std::size_t partitions,
                                 std::uint64_t budget, Backend backend,
                                 std::shared_ptr<Communicator> communicator) {
  if (backend == Backend::cuda) detail::check_tier_transfer(options);
  read.vertex_ranges = plan.kept_ranges;
  if (read.vertex_ranges.empty()) read.vertex_ranges = {{0, 0}};
  read.read_in_edges = false;  // the tier serves pushes over the out-lists only
  // Sparse, pageable memory (pinned memory would take every array whole): on the GPU the device
  // graph pins the kept lists in place, once the tier says which they are.
  read.memory = nullptr;
  EngineOptions on_cpu = options;
  on_cpu.backend = Backend::cpu;
  OocEngine engine(read_oocg(path, read), on_cpu, std::move(communicator));
  Impl& impl = *engine.impl_;
  if (impl.partitions.size() != partitions) {
    throw Error("the host tier's partitions (" + std::to_string(partitions) +
                ") are not the engine's (" + std::to_string(impl.partitions.size()) + ")");
  }
  impl.options.backend = options.backend;
  read.vertex_ranges.clear();
  impl.host_resident_bytes = plan.kept_bytes;
  impl.host_resident_partitions = plan.kept_partitions;
  impl.tier =
      std::make_unique<detail::HostTier>(path, read, impl.graph, impl.partitions, std::move(plan));
  impl.host_memory = budget;
  // What the hybrid policy prices a partition in the file by (cost_model.hpp), unless given: the
  // file's storage measured as pcie-bench --storage does, briefly: a 64 MiB read in its 4 MiB
  // blocks, 8 in flight (about 10 ms on an NVMe drive; a 4 MiB read in 1 MiB blocks, 4 in flight,
  // gave 1.0-1.1 GB/s on a lent machine's disk whose 4 GiB read gave 1.4-1.6 GB/s, as did the
  // runs' own reads), and 32 random 4 KiB reads.
  CostConstants& cost = impl.options.cost;
  if (cost.storage_bandwidth <= 0 || cost.storage_latency <= 0) {
    const StorageReads measured = measure_storage_reads(
        path, {.block_bytes = 4 << 20, .in_flight = 8, .max_bytes = 64 << 20, .latency_reads = 32});
    if (cost.storage_bandwidth <= 0) cost.storage_bandwidth = measured.bytes_per_second();
    if (cost.storage_latency <= 0) cost.storage_latency = measured.latency_seconds;
  }
  if (backend == Backend::cuda) {
    impl.backend = Backend::cuda;
    impl.make_device_graph();
  }
  return engine;
}

detail::HostTier* OocEngine::host_tier() const {
  return impl_->tier.get();
}

bool OocEngine::lists_in_memory() const {
  if (!grouped()) return impl_->tier == nullptr;
  return std::all_of(impl_->group.begin(), impl_->group.end(),
                     [](const OocEngine& rank) { return rank.lists_in_memory(); });
}

}  // namespace ooc
