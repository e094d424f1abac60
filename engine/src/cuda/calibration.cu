// probe_link: the link's figures that the cost model's constants come from, measured the way
// pcie-bench measures them (its copy and lists tests), small enough to run before every job.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "ooc/core/buffer.hpp"
#include "ooc/core/cuda_check.hpp"
#include "ooc/engine/calibration.hpp"
#include "ooc/kernels/cuda/launch.cuh"
#include "ooc/transfer/device_array.hpp"
#include "ooc/transfer/pinned_memory.hpp"

namespace ooc {
namespace {

constexpr std::size_t kProbeBytes = std::size_t{256} << 20;
constexpr std::uint32_t kLineWords = 32;  // 128 B
constexpr int kTimedRuns = 3;

// A warp per list of `length` words, each list at the start of its own 128 B line: one request
// per warp load (merged and aligned, as the zero-copy engine reads).
__global__ void read_lists_kernel(const std::uint32_t* host, std::uint64_t lists,
                                  std::uint32_t length, unsigned long long* sink) {
  const unsigned lane = threadIdx.x % 32;
  const std::uint64_t warps = std::uint64_t{gridDim.x} * blockDim.x / 32;
  std::uint32_t sum = 0;
  for (std::uint64_t w = (std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32; w < lists;
       w += warps) {
    if (lane < length) sum += host[w * kLineWords + lane];
  }
  if (sum == 0xffffffffu) atomicAdd(sink, 1ull);  // keeps the loads; never true for zeros
}

// The fastest of kTimedRuns runs of `work` (after one untimed), in GB/s of `bytes` useful bytes.
template <class Work>
double best_gbps(std::uint64_t bytes, cudaStream_t s, Work&& work) {
  const char* doing = "probing the link";
  Event start(true), stop(true);
  work();
  double best_ms = 0;
  for (int r = 0; r < kTimedRuns; ++r) {
    start.record(s, doing);
    work();
    stop.record(s, doing);
    stop.synchronize(doing);
    float ms = 0;
    OOC_CUDA(cudaEventElapsedTime(&ms, start.get(), stop.get()), doing);
    best_ms = r == 0 ? ms : std::min<double>(best_ms, ms);
  }
  return static_cast<double>(bytes) / (best_ms * 1e-3) / 1e9;
}

}  // namespace

LinkMeasurements probe_link(int device) {
  const char* doing = "probing the link";
  OOC_CUDA(cudaSetDevice(device), doing);
  const std::size_t words = kProbeBytes / sizeof(std::uint32_t);
  Buffer<std::uint32_t> host = Buffer<std::uint32_t>::allocate(words, pinned_memory(device));
  std::fill(host.data(), host.data() + words, 0u);
  void* mapped = nullptr;
  OOC_CUDA(cudaHostGetDevicePointer(&mapped, host.data(), 0), doing);
  DeviceArray<std::uint32_t> target(words, "the link probe");
  DeviceArray<unsigned long long> sink(1, "the link probe");
  Stream stream;
  const cudaStream_t s = stream.get();
  int sms = 0;
  OOC_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), doing);
  const unsigned blocks = static_cast<unsigned>(sms) * 8;
  const std::uint64_t lists = words / kLineWords;
  const auto read_lists = [&](std::uint32_t length) {
    return best_gbps(lists * length * sizeof(std::uint32_t), s, [&] {
      OOC_LAUNCH(read_lists_kernel, blocks, 256, s, doing,
                 static_cast<const std::uint32_t*>(mapped), lists, length, sink.data());
    });
  };
  LinkMeasurements m;
  m.copy_gbps = best_gbps(kProbeBytes, s, [&] {
    OOC_CUDA(cudaMemcpyAsync(target.data(), host.data(), kProbeBytes, cudaMemcpyHostToDevice, s),
             doing);
  });
  m.list32_gbps = read_lists(32);
  m.zerocopy_gbps = m.list32_gbps;  // whole lines, merged and aligned
  m.list8_gbps = read_lists(8);
  return m;
}

}  // namespace ooc
