// Explicit copies, cudaMemcpyAsync: the transfer of HyTGraph's ExpTM-filter and compaction
// engines (HyTGraph §II-B, costed in §V-A) and the ceiling every other figure is compared with.
// Pinned (cudaHostAlloc) against pageable (malloc) memory, H2D against D2H, one stream against
// kStreams streams that split one buffer, and pinned H2D copies from 4 KiB up, which show the
// fixed cost of a copy: bandwidth reaches the peak only once a copy is large enough to hide it.
#include <algorithm>
#include <cstdio>
#include <vector>

#include "cuda_check.hpp"
#include "ooc/core/units.hpp"
#include "suite.hpp"

namespace pcie_bench {
namespace {

constexpr int kStreams = 4;
constexpr std::uint64_t kSweepStart = 4096;
constexpr std::uint64_t kSweepBytesPerRun = 64ull << 20;  // small copies: batch this many bytes
constexpr std::uint64_t kSweepMaxBatch = 1024;

// Copies one buffer split across 1..kStreams streams, forked from and joined back into `main`,
// so the events on `main` time the whole transfer.
class SplitCopier {
 public:
  explicit SplitCopier(cudaStream_t main) : main_(main), fork_(make_event(cudaEventDisableTiming)) {
    for (int i = 0; i < kStreams; ++i) {
      side_.push_back(make_stream());
      joins_.push_back(make_event(cudaEventDisableTiming));
    }
  }

  void copy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, int streams) {
    if (streams == 1) {
      PCIE_CHECK(cudaMemcpyAsync(dst, src, bytes, kind, main_));
      return;
    }
    PCIE_CHECK(cudaEventRecord(fork_.get(), main_));
    const std::size_t part = bytes / static_cast<std::size_t>(streams);
    for (int i = 0; i < streams; ++i) {
      const std::size_t offset = part * static_cast<std::size_t>(i);
      const std::size_t length = i + 1 == streams ? bytes - offset : part;
      cudaStream_t s = side_[static_cast<std::size_t>(i)].get();
      PCIE_CHECK(cudaStreamWaitEvent(s, fork_.get(), 0));
      PCIE_CHECK(cudaMemcpyAsync(static_cast<std::byte*>(dst) + offset,
                                 static_cast<const std::byte*>(src) + offset, length, kind, s));
      PCIE_CHECK(cudaEventRecord(joins_[static_cast<std::size_t>(i)].get(), s));
      PCIE_CHECK(cudaStreamWaitEvent(main_, joins_[static_cast<std::size_t>(i)].get(), 0));
    }
  }

 private:
  cudaStream_t main_;
  EventPtr fork_;
  std::vector<StreamPtr> side_;
  std::vector<EventPtr> joins_;
};

// peak: this row is the GPU's pinned H2D peak, the figure '% peak' divides by (peak.hpp).
void measure_copy(Bench& bench, SplitCopier& copier, const char* memory, void* host, void* device,
                  std::size_t bytes, cudaMemcpyKind kind, int streams, bool peak = false) {
  const bool h2d = kind == cudaMemcpyHostToDevice;
  void* dst = h2d ? device : host;
  const void* src = h2d ? host : device;
  Row row;
  row.test = "copy";
  row.pattern = std::string(memory) + (h2d ? " H2D" : " D2H");
  row.param = std::to_string(streams) + (streams == 1 ? " stream" : " streams");
  row.x = streams;
  row.bytes = bytes;
  row.peak = peak;
  row.sample = time_runs(bench.stream(), bench.plan().repeats,
                         [&] { copier.copy(dst, src, bytes, kind, streams); });
  bench.add(std::move(row));
}

void measure_sweep_point(Bench& bench, void* device, const void* host, std::uint64_t size) {
  const std::uint64_t batch =
      std::clamp(kSweepBytesPerRun / size, std::uint64_t{1}, kSweepMaxBatch);
  Row row;
  row.test = "sweep";
  row.pattern = "pinned H2D";
  row.param = ooc::format_bytes(size);
  row.x = static_cast<double>(size);
  row.bytes = size * batch;
  row.sample = time_runs(bench.stream(), bench.plan().repeats, [&] {
    for (std::uint64_t i = 0; i < batch; ++i) {
      PCIE_CHECK(cudaMemcpyAsync(device, host, size, cudaMemcpyHostToDevice, bench.stream()));
    }
  });
  char note[96];
  std::snprintf(note, sizeof note, "%llu copies per run, %.1f us each",
                static_cast<unsigned long long>(batch),
                row.sample->median_ms * 1e3 / static_cast<double>(batch));
  row.note = note;
  bench.add(std::move(row));
}

}  // namespace

void run_copy_tests(Bench& bench, bool reference_only) {
  const std::size_t bytes = bench.plan().copy_bytes;
  const PinnedPtr pinned = alloc_pinned(bytes, cudaHostAllocDefault);
  const DevicePtr device = alloc_device(bytes);
  SplitCopier copier(bench.stream());
  measure_copy(bench, copier, "pinned", pinned.get(), device.get(), bytes, cudaMemcpyHostToDevice,
               1, true);
  if (reference_only) return;
  measure_copy(bench, copier, "pinned", pinned.get(), device.get(), bytes, cudaMemcpyDeviceToHost,
               1);
  for (const cudaMemcpyKind kind : {cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost}) {
    measure_copy(bench, copier, "pinned", pinned.get(), device.get(), bytes, kind, kStreams);
  }
  const auto pageable = alloc_pageable(bytes);
  for (const int streams : {1, kStreams}) {
    for (const cudaMemcpyKind kind : {cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost}) {
      measure_copy(bench, copier, "pageable", pageable.get(), device.get(), bytes, kind, streams);
    }
  }
}

void run_size_sweep(Bench& bench) {
  const std::uint64_t largest = bench.plan().copy_bytes;
  const PinnedPtr pinned = alloc_pinned(largest, cudaHostAllocDefault);
  const DevicePtr device = alloc_device(largest);
  std::uint64_t size = kSweepStart;
  for (; size <= largest; size *= 4)
    measure_sweep_point(bench, device.get(), pinned.get(), size);
  if (size / 4 != largest) measure_sweep_point(bench, device.get(), pinned.get(), largest);
}

}  // namespace pcie_bench
