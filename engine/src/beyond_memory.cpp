// Loading a graph beyond host memory (EngineOptions::host_memory; docs/architecture.md, "Graphs
// beyond host memory"): when the lists a load would read exceed the host memory they may hold, the
// partitions that fit stay in memory, read from the file once; the others stay in the file, and
// the host tier (host_tier.hpp) reads them when a task needs them.
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

// The bytes partition p's lists take in memory as the read options read them: raw targets and
// weights, compressed lists and packed weights.
std::uint64_t list_bytes(const Graph& g, const Partition& p) {
  const eid_t edges = g.offsets[p.last_vertex] - g.offsets[p.first_vertex];
  std::uint64_t bytes = 0;
  if (g.has_raw_lists()) bytes += edges * sizeof(vid_t);
  if (!g.weights.empty()) bytes += edges * sizeof(std::uint32_t);
  if (!g.compressed.empty()) {
    bytes += g.compressed.offsets[p.last_vertex] - g.compressed.offsets[p.first_vertex];
    bytes += edges * g.compressed.weight_width / 8;
  }
  return bytes;
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
  std::vector<std::uint64_t> bytes(parts.size());
  std::uint64_t total = 0;
  for (std::size_t p = 0; p < parts.size(); ++p)
    total += bytes[p] = list_bytes(skeleton, parts[p]);
  if (total <= budget) return std::nullopt;
  if (backend == Backend::cuda) {
    throw Unsupported("the graph's lists take " + format_bytes(total) + ", more than the " +
                      format_bytes(budget) +
                      " of host memory they may hold: the CUDA backend keeps every list in host "
                      "memory for now (its host tier is to come); run on the CPU backend "
                      "(--backend cpu), or give them more (--host-memory)");
  }
  // In partition order while they fit: hub sort puts the hubs, whose lists most iterations read,
  // first.
  std::vector<bool> resident(parts.size(), false);
  std::uint64_t held = 0;
  std::uint32_t held_partitions = 0;
  read.vertex_ranges.clear();
  for (std::size_t p = 0; p < parts.size(); ++p) {
    if (held + bytes[p] > budget) continue;
    held += bytes[p];
    ++held_partitions;
    resident[p] = true;
    if (!read.vertex_ranges.empty() && read.vertex_ranges.back().second == parts[p].first_vertex) {
      read.vertex_ranges.back().second = parts[p].last_vertex;
    } else {
      read.vertex_ranges.emplace_back(parts[p].first_vertex, parts[p].last_vertex);
    }
  }
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
                                                 std::move(resident));
  impl.host_memory = budget;
  impl.host_resident_bytes = held;
  impl.host_resident_partitions = held_partitions;
  return engine;
}

detail::HostTier* OocEngine::host_tier() const {
  return impl_->tier.get();
}

bool OocEngine::lists_in_memory() const {
  return grouped() || impl_->tier == nullptr;
}

}  // namespace ooc
