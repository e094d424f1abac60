// The CUDA executor instantiated for k-core's two peeling programs (kcore_program.hpp), their
// runs started again shell after shell, and the step between two shells (kcore.cpp calls them).
#include <algorithm>
#include <cub/block/block_reduce.cuh>
#include <cub/device/device_select.cuh>
#include <cuda/functional>

#include "ooc/core/cuda_check.hpp"
#include "ooc/engine/cuda/cuda_executor.cuh"

namespace ooc::detail {
namespace {

constexpr int kThreads = 256;
// A few waves of blocks over the GPU: each thread then walks its share of the list.
constexpr unsigned kMostBlocks = 4096;

unsigned blocks_for(std::uint64_t n) {
  return static_cast<unsigned>(std::min<std::uint64_t>((n + kThreads - 1) / kThreads, kMostBlocks));
}

// Grid-stride over [0, count).
template <class F>
__device__ void for_each_index(std::uint64_t count, F&& f) {
  for (std::uint64_t i = cuda::grid_thread(); i < count; i += cuda::grid_threads())
    f(i);
}

__global__ void list_all(vid_t* left, vid_t n) {
  for_each_index(n, [&](std::uint64_t v) { left[v] = static_cast<vid_t>(v); });
}

struct NotPeeled {
  const std::uint32_t* core;
  __device__ bool operator()(vid_t v) const { return core[v] == KCoreState::kUnpeeled; }
};

// The least remaining degree of the `count` vertices of `left`, into *least (kUnpeeled before).
__global__ void least_remaining(KCoreState s, const vid_t* left, std::uint64_t count,
                                unsigned long long* least) {
  using Reduce = cub::BlockReduce<std::uint32_t, kThreads>;
  __shared__ typename Reduce::TempStorage temp;
  std::uint32_t mine = KCoreState::kUnpeeled;
  for_each_index(count, [&](std::uint64_t i) { mine = min(mine, s.remaining[left[i]]); });
  const std::uint32_t block = Reduce(temp).Reduce(mine, ::cuda::minimum<>{});
  if (threadIdx.x == 0 && block != KCoreState::kUnpeeled) atomicMin(least, block);
}

// Each vertex of `left` with `shell` edges left (none has fewer) gets core number `shell` and is
// listed in `opened` (a warp's at once, in order of no importance).
__global__ void open_shell(KCoreState s, const vid_t* left, std::uint64_t count,
                           std::uint32_t shell, vid_t* opened, unsigned long long* opened_count) {
  const unsigned lane = threadIdx.x % cuda::kWarp;
  // Whole warps walk the list, so that the ballot sees every lane.
  for (std::uint64_t base = cuda::grid_thread() - lane; base < count;
       base += cuda::grid_threads()) {
    const std::uint64_t i = base + lane;
    const vid_t v = i < count ? left[i] : 0;
    const bool opens = i < count && s.remaining[v] <= shell;
    const unsigned mask = __ballot_sync(cuda::kFullMask, opens);
    if (mask == 0) continue;
    unsigned long long first = 0;
    if (lane == 0) first = atomicAdd(opened_count, static_cast<unsigned long long>(__popc(mask)));
    first = __shfl_sync(cuda::kFullMask, first, 0);
    if (!opens) continue;
    s.core[v] = shell;
    opened[first + __popc(mask & ((1u << lane) - 1))] = v;
  }
}

}  // namespace

std::unique_ptr<ValuesExecutor<KCorePeel::Value>> make_cuda_executor(const KCorePeel& program,
                                                                     const CudaRun& run) {
  return std::make_unique<CudaExecutor<KCorePeel>>(program, run);
}

std::unique_ptr<ValuesExecutor<KCoreRankedPeel::Value>> make_cuda_executor(
    const KCoreRankedPeel& program, const CudaRun& run) {
  return std::make_unique<CudaExecutor<KCoreRankedPeel>>(program, run);
}

void restart_cuda_executor(ValuesExecutor<KCorePeel::Value>& executor, const KCorePeel& program,
                           const vid_t* frontier, std::uint64_t count) {
  dynamic_cast<CudaExecutor<KCorePeel>&>(executor).restart(program, frontier, count);
}

void restart_cuda_executor(ValuesExecutor<KCoreRankedPeel::Value>& executor,
                           const KCoreRankedPeel& program, const vid_t* frontier,
                           std::uint64_t count) {
  dynamic_cast<CudaExecutor<KCoreRankedPeel>&>(executor).restart(program, frontier, count);
}

std::size_t kcore_temp_bytes(const DeviceGraph& device, vid_t n) {
  OOC_CUDA(cudaSetDevice(device.device), "selecting the GPU");
  std::size_t bytes = 0;
  OOC_CUDA(cub::DeviceSelect::If(nullptr, bytes, static_cast<vid_t*>(nullptr),
                                 static_cast<unsigned long long*>(nullptr), std::int64_t{n},
                                 NotPeeled{nullptr}),
           "sizing k-core's scratch");
  return std::max<std::size_t>(bytes, 1);
}

std::uint32_t kcore_open_next_shell(const DeviceGraph& device, const KCoreState& state, vid_t n,
                                    KCoreLists& lists) {
  const char* doing = "opening k-core's next shell";
  OOC_CUDA(cudaSetDevice(device.device), "selecting the GPU");
  if (lists.left_count == KCoreLists::kNotListed) {
    lists.left_count = n;
    if (n > 0) list_all<<<blocks_for(n), kThreads>>>(lists.left, n);
    OOC_CUDA(cudaGetLastError(), doing);
  }
  if (lists.left_count == 0) return KCoreState::kUnpeeled;
  // The peeled leave the list, in place.
  std::size_t temp_bytes = lists.temp_bytes;
  OOC_CUDA(
      cub::DeviceSelect::If(lists.temp, temp_bytes, lists.left, lists.counts,
                            static_cast<std::int64_t>(lists.left_count), NotPeeled{state.core}),
      doing);
  // counts[0]: those left; counts[1]: the least remaining degree, then those opened.
  OOC_CUDA(cudaMemset(lists.counts + 1, 0xff, sizeof(unsigned long long)), doing);
  unsigned long long left = 0;
  OOC_CUDA(cudaMemcpy(&left, lists.counts, sizeof(left), cudaMemcpyDeviceToHost), doing);
  lists.left_count = left;
  if (left == 0) return KCoreState::kUnpeeled;
  least_remaining<<<blocks_for(left), kThreads>>>(state, lists.left, left, lists.counts + 1);
  OOC_CUDA(cudaGetLastError(), doing);
  unsigned long long least = 0;
  OOC_CUDA(cudaMemcpy(&least, lists.counts + 1, sizeof(least), cudaMemcpyDeviceToHost), doing);
  const auto shell = static_cast<std::uint32_t>(least);
  OOC_CUDA(cudaMemset(lists.counts + 1, 0, sizeof(unsigned long long)), doing);
  open_shell<<<blocks_for(left), kThreads>>>(state, lists.left, left, shell, lists.opened,
                                             lists.counts + 1);
  OOC_CUDA(cudaGetLastError(), doing);
  unsigned long long opened = 0;
  OOC_CUDA(cudaMemcpy(&opened, lists.counts + 1, sizeof(opened), cudaMemcpyDeviceToHost), doing);
  lists.opened_count = opened;
  return shell;
}

}  // namespace ooc::detail
