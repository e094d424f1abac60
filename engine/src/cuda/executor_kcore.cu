// The CUDA executor instantiated for k-core's two peeling programs (kcore_program.hpp), their
// runs started again shell after shell, and the step between two shells (kcore.cpp calls them).
#include <algorithm>
#include <cub/block/block_reduce.cuh>
#include <cuda/functional>

#include "ooc/core/cuda_check.hpp"
#include "ooc/engine/cuda/cuda_executor.cuh"

namespace ooc::detail {
namespace {

constexpr int kThreads = 256;
// A few waves of blocks over the GPU: each thread then walks its share of the vertices.
constexpr unsigned kMostBlocks = 4096;

unsigned blocks_for(vid_t n) {
  return static_cast<unsigned>(
      std::min<std::uint64_t>((std::uint64_t{n} + kThreads - 1) / kThreads, kMostBlocks));
}

// The least remaining degree of the vertices not peeled, into *least (kUnpeeled before).
__global__ void least_remaining(KCoreState s, vid_t n, std::uint32_t* least) {
  using Reduce = cub::BlockReduce<std::uint32_t, kThreads>;
  __shared__ typename Reduce::TempStorage temp;
  std::uint32_t mine = KCoreState::kUnpeeled;
  for (std::uint64_t v = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; v < n;
       v += std::uint64_t{gridDim.x} * blockDim.x) {
    if (s.core[v] == KCoreState::kUnpeeled) mine = min(mine, s.remaining[v]);
  }
  const std::uint32_t block = Reduce(temp).Reduce(mine, ::cuda::minimum<>{});
  if (threadIdx.x == 0 && block != KCoreState::kUnpeeled) atomicMin(least, block);
}

// Every vertex not peeled with `shell` edges left (none has fewer) gets core number `shell`.
__global__ void open_shell(KCoreState s, vid_t n, std::uint32_t shell) {
  for (std::uint64_t v = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; v < n;
       v += std::uint64_t{gridDim.x} * blockDim.x) {
    if (s.core[v] == KCoreState::kUnpeeled && s.remaining[v] <= shell) s.core[v] = shell;
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

void restart_cuda_executor(ValuesExecutor<KCorePeel::Value>& executor, const KCorePeel& program) {
  dynamic_cast<CudaExecutor<KCorePeel>&>(executor).restart(program);
}

void restart_cuda_executor(ValuesExecutor<KCoreRankedPeel::Value>& executor,
                           const KCoreRankedPeel& program) {
  dynamic_cast<CudaExecutor<KCoreRankedPeel>&>(executor).restart(program);
}

std::uint32_t kcore_open_next_shell(const DeviceGraph& device, const KCoreState& state, vid_t n,
                                    std::uint32_t* scratch) {
  const char* doing = "opening k-core's next shell";
  OOC_CUDA(cudaSetDevice(device.device), "selecting the GPU");
  if (n == 0) return KCoreState::kUnpeeled;
  OOC_CUDA(cudaMemset(scratch, 0xff, sizeof(std::uint32_t)), doing);
  least_remaining<<<blocks_for(n), kThreads>>>(state, n, scratch);
  OOC_CUDA(cudaGetLastError(), doing);
  std::uint32_t shell = KCoreState::kUnpeeled;
  OOC_CUDA(cudaMemcpy(&shell, scratch, sizeof(shell), cudaMemcpyDeviceToHost), doing);
  if (shell == KCoreState::kUnpeeled) return shell;
  open_shell<<<blocks_for(n), kThreads>>>(state, n, shell);
  OOC_CUDA(cudaGetLastError(), doing);
  OOC_CUDA(cudaDeviceSynchronize(), doing);
  return shell;
}

}  // namespace ooc::detail
