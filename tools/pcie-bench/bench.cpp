// One GPU's shared state for its tests, and the checked, cache-cold timing of zero-copy reads.
#include "bench.hpp"

#include <cstdio>
#include <iostream>

#include "cuda_check.hpp"
#include "ooc/core/error.hpp"
#include "ooc/core/units.hpp"

namespace pcie_bench {

void log_line(const Plan& plan, std::string_view line) {
  if (!plan.quiet) std::cerr << "pcie-bench: " << line << std::endl;
}

std::string describe_row(const Row& row) {
  std::string text = row.device == kAllDevices ? "all GPUs" : "GPU " + std::to_string(row.device);
  text += " " + row.test + " | " + row.pattern + (row.param.empty() ? "" : " | " + row.param);
  if (!row.sample) return text + ": skipped (" + row.note + ")";
  char figure[32];
  std::snprintf(figure, sizeof figure, ": %.2f GB/s", row.gbps());
  return text + figure;
}

Bench::Bench(int device, const Plan& plan, std::vector<Row>& rows)
    : device_(device), plan_(plan), rows_(rows) {
  PCIE_CHECK(cudaSetDevice(device));
  PCIE_CHECK(cudaDeviceGetAttribute(&multiprocessors_, cudaDevAttrMultiProcessorCount, device));
  int l2 = 0;
  PCIE_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
  // Writing twice the L2's size evicts whatever host lines a previous run left there.
  evictor_bytes_ = 2 * static_cast<std::size_t>(l2) + (1u << 20);
  stream_ = make_stream();
  counter_ = alloc_device(sizeof(unsigned long long));
  l2_evictor_ = alloc_device(evictor_bytes_);
}

const std::uint32_t* Bench::mapped_words() {
  if (!mapped_) {
    log_line(plan_, "GPU " + std::to_string(device_) + ": pinning " +
                        ooc::format_bytes(plan_.zero_copy_bytes) + " of mapped host memory");
    mapped_ = alloc_pinned(plan_.zero_copy_bytes, cudaHostAllocMapped);
    fill_ones(mapped_.get(), plan_.zero_copy_bytes);
  }
  return device_view(mapped_.get());
}

Grid Bench::full_grid(Kernel kernel) const {
  return {multiprocessors_ * resident_blocks_per_sm(kernel, kBlockThreads), kBlockThreads,
          stream_.get()};
}

void Bench::evict_l2() {
  const int value = ++evictions_ & 0xff;
  PCIE_CHECK(cudaMemsetAsync(l2_evictor_.get(), value, evictor_bytes_, stream()));
}

Sample Bench::time_reads(const std::function<void(unsigned long long*)>& launch,
                         std::uint64_t words_per_run, std::string_view what,
                         const std::function<void()>& prepare) {
  auto* counter = static_cast<unsigned long long*>(counter_.get());
  PCIE_CHECK(cudaMemsetAsync(counter, 0, sizeof *counter, stream()));
  const Sample sample = time_runs(
      stream(), plan_.repeats,
      [&] {
        evict_l2();
        prepare();
      },
      [&] { launch(counter); });
  unsigned long long read = 0;
  PCIE_CHECK(cudaMemcpy(&read, counter, sizeof read, cudaMemcpyDeviceToHost));
  const auto runs = static_cast<unsigned long long>(plan_.repeats.total());
  if (read != words_per_run * runs) {
    throw ooc::Error("self-check failed: " + std::string(what) + " read " +
                     std::to_string(read / runs) + " words per run instead of " +
                     std::to_string(words_per_run));
  }
  return sample;
}

void Bench::add(Row row) {
  row.device = device_;
  log_line(plan_, describe_row(row));
  rows_.push_back(std::move(row));
}

}  // namespace pcie_bench
