#include "ooc/engine/detail/host_tier.hpp"

#include <chrono>

namespace ooc::detail {

HostTier::HostTier(const std::filesystem::path& file, const OocgReadOptions& read, Graph& graph,
                   std::span<const Partition> parts, std::vector<bool> resident)
    : lists_(file, read), graph_(graph), parts_(parts), resident_(std::move(resident)) {}

void HostTier::fetch(std::span<const std::uint32_t> partitions, bool compressed,
                     IterationStats& stats) {
  fetched_.clear();
  for (const std::uint32_t p : partitions) {
    if (resident_[p]) continue;
    const Partition& part = parts_[p];
    if (!fetched_.empty() && fetched_.back().second == part.first_vertex) {
      fetched_.back().second = part.last_vertex;  // a task's partitions are consecutive
    } else {
      fetched_.emplace_back(part.first_vertex, part.last_vertex);
    }
  }
  if (fetched_.empty()) return;
  const auto start = std::chrono::steady_clock::now();
  stats.storage_bytes += lists_.fetch(graph_, fetched_, compressed);
  stats.storage_seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void HostTier::release() {
  if (!fetched_.empty()) lists_.release(graph_);
  fetched_.clear();
}

}  // namespace ooc::detail
