#pragma once
// What a file's storage gives to reads like those of a graph beyond host memory (the .oocg file
// as a third tier below the GPU and host memory): large aligned reads that bypass the page cache
// (O_DIRECT), several in flight, for the bandwidth; single 4 KiB reads at random aligned offsets,
// one at a time, for the latency. pcie-bench --storage FILE prints them (docs/pcie-bench.md).
//
// Where the file system refuses O_DIRECT (tmpfs, some overlays), the file's pages are dropped
// from the page cache first (posix_fadvise DONTNEED, which drops clean pages) and it is read
// through the cache; `direct` says which happened, so that no figure of the page cache passes
// for one of the storage.
#include <cstdint>
#include <filesystem>
#include <string>

namespace ooc {

struct StorageReadOptions {
  std::uint64_t block_bytes = std::uint64_t{4} << 20;  // a sequential read: a multiple of 4 KiB
  unsigned in_flight = 8;                              // reads at once, a thread each
  std::uint64_t max_bytes = std::uint64_t{4} << 30;    // read sequentially, at most; 0: all
  unsigned latency_reads = 256;                        // random 4 KiB reads
};

struct StorageReads {
  std::string device;   // the block device under the file ("nvme0n1"), or "" (tmpfs, overlays)
  bool direct = false;  // O_DIRECT: the page cache was bypassed
  std::uint64_t file_bytes = 0;
  std::uint64_t bytes = 0;  // read sequentially
  double seconds = 0;       // their wall time
  unsigned latency_reads = 0;
  double latency_seconds = 0;  // the median random read's

  double bytes_per_second() const { return seconds > 0 ? static_cast<double>(bytes) / seconds : 0; }
};

// Throws InvalidInput for options out of range (a block not a multiple of 4 KiB, nothing in
// flight), IoError for a file that cannot be opened or read, or is empty.
StorageReads measure_storage_reads(const std::filesystem::path& file,
                                   const StorageReadOptions& options = {});

}  // namespace ooc
