#include "ooc/engine/detail/host_tier.hpp"

#include <algorithm>
#include <chrono>
#include <utility>

#include "ooc/core/direct_reads.hpp"

namespace ooc::detail {

HostTier::HostTier(const std::filesystem::path& file, const OocgReadOptions& read, Graph& graph,
                   std::span<const Partition> parts, HostMemoryPlan plan)
    : lists_(file, read),
      graph_(graph),
      parts_(parts),
      resident_(std::move(plan.kept)),
      resident_ranges_(std::move(plan.kept_ranges)) {}

void HostTier::fetch(std::span<const std::uint32_t> partitions, bool compressed,
                     IterationStats& stats) {
  if (ahead_.valid()) {
    const bool these = std::ranges::equal(partitions, ahead_partitions_);
    const auto start = std::chrono::steady_clock::now();
    const IterationStats read = settle();
    if (these) {
      stats.storage_wait_seconds +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      stats.storage_bytes += read.storage_bytes;
      stats.storage_ahead_bytes += read.storage_bytes;
      stats.storage_seconds += read.storage_seconds;
      return;
    }
    release();  // read ahead for a task that did not come (a run cut short): not counted
  }
  fetch_now(partitions, compressed, stats);
}

void HostTier::fetch_now(std::span<const std::uint32_t> partitions, bool compressed,
                         IterationStats& stats) {
  fetched_.clear();
  held_.clear();
  for (const std::uint32_t p : partitions) {
    if (!resident_[p]) append_range(fetched_, parts_[p].first_vertex, parts_[p].last_vertex);
  }
  read(compressed, stats);
}

void HostTier::fetch_ahead(std::vector<std::uint32_t> partitions, bool compressed) {
  settle();
  ahead_partitions_ = partitions;
  ahead_ = std::async(std::launch::async, [this, partitions = std::move(partitions), compressed] {
    IterationStats read;
    fetch_now(partitions, compressed, read);
    return read;
  });
}

IterationStats HostTier::settle() {
  return ahead_.valid() ? ahead_.get() : IterationStats{};
}

void HostTier::fetch_lists(std::span<const std::uint32_t> partitions,
                           std::span<const vid_t> vertices, bool compressed,
                           IterationStats& stats) {
  release();  // a read ahead's, were one left
  fetched_.clear();
  held_.clear();
  // Where v's list starts among the lists the run reads.
  const auto at = [&](vid_t v) {
    return compressed ? graph_.compressed.offsets[v] : std::uint64_t{graph_.offsets[v]} * 4;
  };
  // The 4 KiB pages that the lists of [first, last) span there.
  const auto pages = [&](vid_t first, vid_t last) {
    return (at(last) + kDirectAlignment - 1) / kDirectAlignment - at(first) / kDirectAlignment;
  };
  auto next = vertices.begin();
  for (const std::uint32_t p : partitions) {
    const Partition& part = parts_[p];
    next = std::lower_bound(next, vertices.end(), part.first_vertex);
    const auto end = std::lower_bound(next, vertices.end(), part.last_vertex);
    if (resident_[p] || next == end) {
      next = end;
      continue;
    }
    append_range(held_, part.first_vertex, part.last_vertex);
    const std::size_t first_run = fetched_.size();
    for (; next != end; ++next) {
      const vid_t v = *next;
      if (fetched_.size() > first_run && at(v) - at(fetched_.back().second) <= kGapBytes) {
        fetched_.back().second = v + 1;
      } else {
        fetched_.emplace_back(v, v + 1);
      }
    }
    // Past the page cache a read takes whole pages: where the runs take as many as the partition,
    // it is read whole, in one read.
    if (!lists_.direct()) continue;
    std::uint64_t run_pages = 0;
    for (std::size_t r = first_run; r < fetched_.size(); ++r)
      run_pages += pages(fetched_[r].first, fetched_[r].second);
    if (run_pages >= pages(part.first_vertex, part.last_vertex)) {
      fetched_.resize(first_run);
      append_range(fetched_, part.first_vertex, part.last_vertex);
    }
  }
  read(compressed, stats);
}

void HostTier::read(bool compressed, IterationStats& stats) {
  if (fetched_.empty()) return;
  const auto start = std::chrono::steady_clock::now();
  // A whole partition's pages go back as read; a run's, as its partition's (held_).
  stats.storage_bytes +=
      lists_.fetch(graph_, fetched_, compressed, held_.empty() ? nullptr : &held_);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  stats.storage_seconds += seconds;
  stats.storage_wait_seconds += seconds;  // a read ahead's thread's: fetch counts the wait instead
}

void HostTier::release() {
  settle();
  if (!fetched_.empty()) lists_.release(graph_, pinned_);
  fetched_.clear();
}

}  // namespace ooc::detail
