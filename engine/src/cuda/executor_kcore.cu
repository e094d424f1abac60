// The CUDA executor instantiated for k-core's two peeling programs (kcore_program.hpp), their
// runs started again shell after shell, and the step between two shells (kcore.cpp calls them;
// the step's passes are cuda/kcore_step.cuh's, which the frontier loop takes too: kcore_step.cuh
// is included before the executor is instantiated, so the loop of KCorePeel opens shells itself).
#include <cooperative_groups.h>

#include <algorithm>
#include <array>

#include "ooc/core/cuda_check.hpp"
#include "ooc/engine/cuda/cuda_executor.cuh"
#include "ooc/engine/cuda/kcore_step.cuh"

namespace ooc::detail {
namespace {

constexpr int kThreads = 256;
// A few waves of blocks over the GPU: each thread then walks its share of the list.
constexpr unsigned kMostBlocks = 4096;

unsigned blocks_for(std::uint64_t n) {
  return static_cast<unsigned>(std::min<std::uint64_t>((n + kThreads - 1) / kThreads, kMostBlocks));
}

__global__ void list_all(vid_t* left, vid_t n) {
  for (std::uint64_t v = cuda::grid_thread(); v < n; v += cuda::grid_threads())
    left[v] = static_cast<vid_t>(v);
}

__global__ void compact(KCoreState s) {
  cuda::kcore_compact(s);
}

// Those at the least remaining degree get it as their core number and are listed in `opened`
// (a coalesced group's at once), counted in words[kOpened].
__global__ void open(KCoreState s, vid_t* opened) {
  const unsigned long long least = cuda::read(s.steps.words + KCoreSteps::kLeast);
  if (least == ~0ull) return;
  unsigned long long* count = s.steps.words + KCoreSteps::kOpened;
  cuda::kcore_open(s, static_cast<std::uint32_t>(least), [&](vid_t v) {
    const cooperative_groups::coalesced_group g = cooperative_groups::coalesced_threads();
    unsigned long long first = 0;
    if (g.thread_rank() == 0) first = atomicAdd(count, static_cast<unsigned long long>(g.size()));
    opened[g.shfl(first, 0) + g.thread_rank()] = v;
  });
}

__global__ void finish(KCoreState s) {
  cuda::kcore_finish(s, false);
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

std::uint32_t kcore_open_next_shell(const DeviceGraph& device, const KCoreState& state, vid_t n,
                                    KCoreLists& lists) {
  const char* doing = "opening k-core's next shell";
  OOC_CUDA(cudaSetDevice(device.device), "selecting the GPU");
  unsigned long long* words = state.steps.words;
  if (!lists.listed) {
    std::array<unsigned long long, KCoreSteps::kWords> start{};
    start[KCoreSteps::kCount] = n;
    start[KCoreSteps::kLeast] = ~0ull;
    OOC_CUDA(cudaMemcpy(words, start.data(), sizeof start, cudaMemcpyHostToDevice), doing);
    if (n > 0) list_all<<<blocks_for(n), kThreads>>>(state.steps.left[0], n);
    OOC_CUDA(cudaGetLastError(), doing);
    lists.listed = true;
    lists.left = n;
  }
  if (lists.left == 0) return KCoreState::kUnpeeled;
  // lists.left bounds the list the frontier loop's steps may have shortened since.
  OOC_CUDA(cudaMemset(words + KCoreSteps::kOpened, 0, sizeof(unsigned long long)), doing);
  compact<<<blocks_for(lists.left), kThreads>>>(state);
  OOC_CUDA(cudaGetLastError(), doing);
  open<<<blocks_for(lists.left), kThreads>>>(state, lists.opened);
  OOC_CUDA(cudaGetLastError(), doing);
  finish<<<1, 1>>>(state);
  OOC_CUDA(cudaGetLastError(), doing);
  std::array<unsigned long long, KCoreSteps::kWords> back{};
  std::uint32_t shell = 0;
  OOC_CUDA(cudaMemcpy(back.data(), words, sizeof back, cudaMemcpyDeviceToHost), doing);
  OOC_CUDA(cudaMemcpy(&shell, state.shell, sizeof shell, cudaMemcpyDeviceToHost), doing);
  lists.left = back[KCoreSteps::kCount + back[KCoreSteps::kSide]];
  lists.opened_count = back[KCoreSteps::kOpened];
  return lists.opened_count > 0 ? shell : KCoreState::kUnpeeled;
}

}  // namespace ooc::detail
