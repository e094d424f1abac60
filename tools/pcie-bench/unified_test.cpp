// Unified memory, the baseline EMOGI (VLDB'21) §5.1.2 and HyTGraph compare against:
// cudaMallocManaged + cudaMemAdviseSetReadMostly, the host writes the data, then the GPU reads
// it for the first time and the driver migrates (duplicates) it page by page on faults. Each
// run starts with the host writing the whole buffer again, which drops the GPU's copies, so
// every timed read is a first touch. Refused when the buffer would not fit in the GPU's free
// memory: oversubscribed managed memory can hang a GPU that others share.
#include <string>

#include "cuda_check.hpp"
#include "ooc/core/units.hpp"
#include "suite.hpp"

namespace pcie_bench {
namespace {

// The managed buffer must leave this share of the free memory unused.
constexpr double kFreeMemoryShare = 0.9;

// Why the test cannot run on this GPU, or empty when it can.
std::string refusal(int device, std::uint64_t bytes) {
  int concurrent = 0;
  PCIE_CHECK(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, device));
  if (concurrent == 0) return "skipped: this GPU cannot fault on managed memory";
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  PCIE_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (static_cast<double>(bytes) > kFreeMemoryShare * static_cast<double>(free_bytes)) {
    return "skipped: " + ooc::format_bytes(bytes) + " would not fit in 90% of the " +
           ooc::format_bytes(free_bytes) + " free on the GPU (oversubscribed managed memory " +
           "can hang a shared GPU); use a smaller --size";
  }
  return {};
}

}  // namespace

void run_unified_test(Bench& bench) {
  const std::uint64_t bytes = bench.plan().unified_bytes;
  Row row;
  row.test = "unified";
  row.pattern = "managed, read-mostly";
  row.param = "GPU first touch";
  row.bytes = bytes;
  row.note = refusal(bench.device(), bytes);
  if (!row.note.empty()) {
    bench.add(std::move(row));
    return;
  }
  const DevicePtr managed = alloc_managed(bytes);
  cudaMemLocation location{};
  location.type = cudaMemLocationTypeDevice;
  location.id = bench.device();
  PCIE_CHECK(cudaMemAdvise(managed.get(), bytes, cudaMemAdviseSetReadMostly, location));
  const auto* words = static_cast<const std::uint32_t*>(managed.get());
  const std::uint64_t lines = bytes / kLineBytes;
  const Grid grid = bench.full_grid(Kernel::lines);
  row.sample = bench.time_reads(
      [&](unsigned long long* total) { read_lines(words, lines, 0, total, grid); },
      lines * kWordsPerLine, "unified memory", [&] { fill_ones(managed.get(), bytes); });
  row.note = "merged+aligned kernel; the host rewrites the buffer before each run";
  bench.add(std::move(row));
}

}  // namespace pcie_bench
