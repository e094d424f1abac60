#pragma once
// The host tier of a graph beyond host memory (EngineOptions::host_memory; docs/architecture.md,
// "Graphs beyond host memory"): the partitions whose lists host memory holds stay there; a task
// that needs the lists of another reads them from the graph's file into their places first and
// gives their pages back after (OocgLists), so that host memory holds the resident partitions and
// one task's others at a time: the whole partitions for a task that stages them (filter), only
// the lists of its active vertices for one that reads those alone (compaction, zero-copy). On the
// CPU backend, on one rank or on each of several, for its own partitions.
#include <cstdint>
#include <filesystem>
#include <future>
#include <span>
#include <utility>
#include <vector>

#include "ooc/engine/cost_model.hpp"
#include "ooc/engine/stats.hpp"
#include "ooc/partitioner/oocg.hpp"
#include "ooc/partitioner/partition.hpp"

namespace ooc::detail {

class HostTier {
 public:
  // `graph` was read from `file` with `read` and the vertex ranges of the partitions that host
  // memory holds (`plan`'s).
  HostTier(const std::filesystem::path& file, const OocgReadOptions& read, Graph& graph,
           std::span<const Partition> parts, HostMemoryPlan plan);

  // Reads the lists of those of `partitions` that host memory does not hold, adding the bytes
  // and the time to `stats`: their compressed lists alone when the run reads those. Where
  // fetch_ahead started reading them, it waits for that read, and the wait is what `stats`
  // counts as waited for (storage_wait_seconds; the whole read otherwise).
  void fetch(std::span<const std::uint32_t> partitions, bool compressed, IterationStats& stats);
  // Starts reading `partitions` as fetch does, on another thread, while the caller works on
  // what host memory holds already (a filter task staged, its lists released); fetch takes it.
  void fetch_ahead(std::vector<std::uint32_t> partitions, bool compressed);
  // The same for the lists of `vertices` alone (of those partitions, ascending, as CpuFrontier's
  // take_current gives them): runs of them, with the other lists between two of a partition read
  // through where they take at most kGapBytes (a read's latency costs about that much at a
  // disk's bandwidth). Past the page cache (direct()), where a partition's runs span as many 4 KiB
  // pages as the partition, it is read whole.
  void fetch_lists(std::span<const std::uint32_t> partitions, std::span<const vid_t> vertices,
                   bool compressed, IterationStats& stats);
  // Gives back the pages of what the last read took in (once a read ahead, were one started, is
  // done), but those of the arrays keep_pages_of names.
  void release();
  // Arrays of the graph that the CUDA backend moved whole into pinned memory (device_graph.cu):
  // reads land there, and their pages stay, which the driver holds.
  void keep_pages_of(std::vector<const void*> arrays) { pinned_ = std::move(arrays); }
  // Whether host memory holds partition p's lists.
  bool holds(std::uint32_t p) const { return resident_[p]; }
  // The same for every partition, and their vertex ranges, merged.
  const std::vector<bool>& held() const { return resident_; }
  const std::vector<std::pair<vid_t, vid_t>>& held_ranges() const { return resident_ranges_; }
  // Whether the reads bypass the page cache (O_DIRECT; OocgLists::direct).
  bool direct() const { return lists_.direct(); }
  // The most bytes between two lists that fetch_lists reads through rather than read apart.
  static constexpr std::uint64_t kGapBytes = kStorageGapBytes;

 private:
  // Reads fetched_, to give back held_ (fetched_ when empty) on release.
  void read(bool compressed, IterationStats& stats);
  // fetch's reading, which fetch_ahead's thread runs.
  void fetch_now(std::span<const std::uint32_t> partitions, bool compressed, IterationStats& stats);
  // Waits for fetch_ahead's read, if one was started; returns its figures.
  IterationStats settle();

  OocgLists lists_;
  Graph& graph_;
  std::span<const Partition> parts_;
  std::vector<bool> resident_;
  std::vector<std::pair<vid_t, vid_t>> resident_ranges_;
  std::vector<const void*> pinned_;               // keep_pages_of's
  std::vector<std::pair<vid_t, vid_t>> fetched_;  // the ranges read
  std::vector<std::pair<vid_t, vid_t>> held_;     // their partitions', whose pages go back
  std::future<IterationStats> ahead_;             // fetch_ahead's read
  std::vector<std::uint32_t> ahead_partitions_;   // what it reads
};

// The reads HostTier::fetch_lists makes of a partition's active lists, which lie at the byte ranges
// given in ascending order: a list more than kGapBytes past the last one's end starts a read (the
// survey prices a compaction task in the file by them).
struct StorageListReads {
  std::uint64_t reads = 0;
  std::uint64_t end = 0;  // where the last list ends

  void add(std::uint64_t begin, std::uint64_t list_end) {
    if (reads == 0 || begin - end > HostTier::kGapBytes) ++reads;
    end = list_end;
  }
};

}  // namespace ooc::detail
