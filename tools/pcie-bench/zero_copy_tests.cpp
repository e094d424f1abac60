// Zero-copy reads, EMOGI (VLDB'21) §3.3: a kernel reads pinned, mapped host memory itself and
// each warp-wide load becomes PCIe read requests of 32 to 128 bytes. Compares the naive
// pattern (a thread per chunk: 32-byte requests, at two occupancies), merged+aligned (one 128-byte
// request per warp load, what OocGraph's zero-copy engine does), and merged but misaligned by
// 32/64/96 B (two requests per load). Then the same merged+aligned reads over malloc memory
// registered with cudaHostRegister, both from malloc's own start and from the first 128-byte
// boundary: malloc's start is rarely 128-byte aligned, which alone makes every load span two lines.
// Last, the resident-blocks sweep: bandwidth against the number of 128-byte reads in flight.
#include <algorithm>
#include <cstdint>
#include <string>

#include "cuda_check.hpp"
#include "ooc/core/units.hpp"
#include "suite.hpp"

namespace pcie_bench {
namespace {

constexpr std::uint32_t kMisalignments[] = {32, 64, 96};  // bytes, as EMOGI Fig. 3c
constexpr int kSweepBlockThreads = 32;  // one warp per block: each step adds one read per SM

Row zero_copy_row(std::string pattern, std::string param, std::uint64_t bytes) {
  Row row;
  row.test = "zerocopy";
  row.pattern = std::move(pattern);
  row.param = std::move(param);
  row.bytes = bytes;
  return row;
}

// How many blocks per SM keep each thread's current 128-byte line in half of L1 (the L1 an SM
// gives a kernel without shared memory is about the attribute below).
int l1_fitting_blocks(const Bench& bench) {
  int l1 = 0;
  PCIE_CHECK(
      cudaDeviceGetAttribute(&l1, cudaDevAttrMaxSharedMemoryPerMultiprocessor, bench.device()));
  const int per_block = kBlockThreads * static_cast<int>(kLineBytes);
  return std::clamp(l1 / 2 / per_block, 1, resident_blocks_per_sm(Kernel::chunks, kBlockThreads));
}

// Naive at two occupancies. With the threads' lines fitting L1, each sector crosses PCIe once
// as a 32-byte request (EMOGI Fig. 3a). With the SMs full, as a thread-per-vertex kernel runs,
// the lines overflow L1 and sectors cross again; that run reads only plan.blocks_bytes, since
// it is slow.
void measure_naive(Bench& bench, const std::uint32_t* words, int blocks_per_sm) {
  const bool full = blocks_per_sm == resident_blocks_per_sm(Kernel::chunks, kBlockThreads);
  const Plan& plan = bench.plan();
  const std::uint64_t chunks = (full ? plan.blocks_bytes : plan.zero_copy_bytes) / kLineBytes;
  const Grid grid{blocks_per_sm * bench.multiprocessors(), kBlockThreads, bench.stream()};
  Row row = zero_copy_row(full ? "naive, SMs full" : "naive", "cudaHostAlloc", chunks * kLineBytes);
  row.sample =
      bench.time_reads([&](unsigned long long* total) { read_chunks(words, chunks, total, grid); },
                       chunks * kWordsPerLine, row.pattern);
  row.note = "a thread per 128 B chunk, " + std::to_string(blocks_per_sm) + " blocks of " +
             std::to_string(kBlockThreads) + "/SM" +
             (full ? ": lines overflow L1, sectors cross again" : ": lines fit L1");
  bench.add(std::move(row));
}

// Merged reads of `lines` lines from `words`, shifted by shift_bytes.
Row measure_lines(Bench& bench, const std::uint32_t* words, std::uint64_t lines,
                  std::uint32_t shift_bytes, std::string pattern, std::string param) {
  const Grid grid = bench.full_grid(Kernel::lines);
  const std::uint32_t shift = shift_bytes / sizeof(std::uint32_t);
  Row row = zero_copy_row(std::move(pattern), std::move(param), lines * kLineBytes);
  row.sample = bench.time_reads(
      [&](unsigned long long* total) { read_lines(words, lines, shift, total, grid); },
      lines * kWordsPerLine, row.pattern);
  return row;
}

void measure_registered(Bench& bench) {
  const std::uint64_t bytes = bench.plan().zero_copy_bytes;
  log_line(bench.plan(), "GPU " + std::to_string(bench.device()) + ": malloc + cudaHostRegister " +
                             "of " + ooc::format_bytes(bytes));
  const RegisteredPtr host = alloc_registered_ones(bytes + kLineBytes);
  const std::uint32_t* words = device_view(host.get());
  const auto offset =
      static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(words) % kLineBytes);
  const std::uint64_t lines = bytes / kLineBytes;
  if (offset != 0) {
    Row row =
        measure_lines(bench, words, lines, 0, "merged, from malloc's start", "cudaHostRegister");
    row.note = "malloc's start lies " + std::to_string(offset) + " B past a 128 B boundary";
    bench.add(std::move(row));
  }
  const std::uint32_t* aligned = words + (kLineBytes - offset) % kLineBytes / sizeof(std::uint32_t);
  Row row = measure_lines(bench, aligned, lines, 0, "merged+aligned", "cudaHostRegister");
  row.note = offset == 0 ? "malloc's start is 128 B aligned" : "from the first 128 B boundary";
  bench.add(std::move(row));
}

}  // namespace

void run_zero_copy_tests(Bench& bench) {
  const std::uint32_t* words = bench.mapped_words();
  const std::uint64_t lines = bench.plan().zero_copy_bytes / kLineBytes;
  measure_naive(bench, words, l1_fitting_blocks(bench));
  measure_naive(bench, words, resident_blocks_per_sm(Kernel::chunks, kBlockThreads));
  bench.add(measure_lines(bench, words, lines, 0, "merged+aligned", "cudaHostAlloc"));
  for (const std::uint32_t shift : kMisalignments) {
    // One line fewer: the shifted window must stay inside the buffer.
    bench.add(measure_lines(bench, words, lines - 1, shift,
                            "merged, " + std::to_string(shift) + " B misaligned", "cudaHostAlloc"));
  }
  measure_registered(bench);
}

void run_block_sweep(Bench& bench) {
  const std::uint32_t* words = bench.mapped_words();
  const std::uint64_t lines = bench.plan().blocks_bytes / kLineBytes;
  const int most = std::max(1, resident_blocks_per_sm(Kernel::lines, kSweepBlockThreads));
  for (int per_sm = 1;; per_sm = per_sm * 2 > most ? most : per_sm * 2) {
    const Grid grid{per_sm * bench.multiprocessors(), kSweepBlockThreads, bench.stream()};
    Row row;
    row.test = "blocks";
    row.pattern = "merged+aligned";
    row.param = std::to_string(per_sm) + " blocks/SM";
    row.x = per_sm;
    row.bytes = lines * kLineBytes;
    row.sample = bench.time_reads(
        [&](unsigned long long* total) { read_lines(words, lines, 0, total, grid); },
        lines * kWordsPerLine, "resident-blocks sweep");
    row.note = std::to_string(grid.blocks) + " one-warp blocks: as many 128 B reads in flight";
    bench.add(std::move(row));
    if (per_sm == most) break;
  }
}

}  // namespace pcie_bench
