// Loading a graph beyond host memory (EngineOptions::host_memory; docs/architecture.md, "Graphs
// beyond host memory"): when the lists a load would read exceed the host memory they may hold, the
// partitions that fit (plan_host_memory) stay in memory, read from the file once; the others stay
// in the file, and the host tier (host_tier.hpp) reads them when a task needs them.
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "engine_impl.hpp"
#include "ooc/core/error.hpp"
#include "ooc/core/units.hpp"
#include "ooc/partitioner/oocg.hpp"

namespace ooc {
namespace {

// The memory the kernel says this machine can give without swapping (MemAvailable), or 0.
std::uint64_t available_memory() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib) {
    std::getline(meminfo, unit);
    if (key == "MemAvailable:") return kib * 1024;
  }
  return 0;
}

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

}  // namespace

std::optional<OocEngine> OocEngine::load_beyond_memory(const std::filesystem::path& path,
                                                       const EngineOptions& options,
                                                       OocgReadOptions read, Backend backend) {
  const std::uint64_t available = options.host_memory > 0 ? 0 : available_memory();
  if (options.host_memory == 0 && available == 0) return std::nullopt;  // no /proc/meminfo
  const std::uint64_t budget = options.host_memory > 0 ? options.host_memory : available / 10 * 8;
  if (whole_list_bytes(read_oocg_info(path), read) <= budget) return std::nullopt;
  // The offsets (and the compressed lists' offsets), to place the partitions and price them.
  OocgReadOptions layout = read;
  layout.vertex_ranges = {{0, 0}};
  layout.read_in_edges = false;
  const Graph skeleton = read_oocg(path, layout);
  const std::vector<Partition> parts =
      partition_by_edges(skeleton, options.partition_bytes, skeleton.bytes_per_edge());
  HostMemoryPlan plan = plan_host_memory(skeleton, parts, budget);
  if (plan.list_bytes <= budget) return std::nullopt;
  if (backend == Backend::cuda) {
    throw Unsupported("the graph's lists take " + format_bytes(plan.list_bytes) +
                      ", more than the " + format_bytes(budget) +
                      " of host memory they may hold: the CUDA backend keeps every list in host "
                      "memory for now (its host tier is to come); run on the CPU backend "
                      "(--backend cpu), or give them more (--host-memory)");
  }
  read.vertex_ranges = plan.kept_ranges;
  if (read.vertex_ranges.empty()) read.vertex_ranges = {{0, 0}};
  read.read_in_edges = false;  // the tier serves pushes over the out-lists only
  OocEngine engine(read_oocg(path, read), options);
  Impl& impl = *engine.impl_;
  if (impl.partitions.size() != parts.size()) {
    throw Error("the host tier's partitions (" + std::to_string(parts.size()) +
                ") are not the engine's (" + std::to_string(impl.partitions.size()) + ")");
  }
  read.vertex_ranges.clear();
  impl.tier = std::make_unique<detail::HostTier>(path, read, impl.graph, impl.partitions,
                                                 std::move(plan.kept));
  impl.host_memory = budget;
  impl.host_resident_bytes = plan.kept_bytes;
  impl.host_resident_partitions = plan.kept_partitions;
  return engine;
}

detail::HostTier* OocEngine::host_tier() const {
  return impl_->tier.get();
}

bool OocEngine::lists_in_memory() const {
  return grouped() || impl_->tier == nullptr;
}

}  // namespace ooc
