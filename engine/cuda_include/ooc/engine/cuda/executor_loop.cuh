#pragma once
// Part of CudaExecutor<P> (cuda_executor.cuh, which includes this at its end): the frontier loop
// (ooc/engine/frontier_loop.hpp) launched over the lists where the run keeps them: in GPU memory,
// or out of core from the edge cache and, by zero-copy, from pinned host memory, raw or
// compressed. The kernel is frontier_loop.cuh's; LoopBuffers holds its state.
#include <concepts>
#include <cstdint>
#include <vector>

#include "ooc/engine/cuda/cuda_executor.cuh"
#include "ooc/engine/program_contract.hpp"
#include "ooc/kernels/cuda/frontier_loop.cuh"

namespace ooc::detail {

// Whether the loop relaxes P with one atomic_min and learns the value it lowered a target to
// (frontier_loop.cuh's HopMark): P's relax() is the min of offer() into the target, as the
// contract asks of a min-combining monotone program that declares offer, and its values are
// 32-bit unsigned integers, which atomic_min orders whatever they hold and a lane keeps in one
// register.
template <class P>
inline constexpr bool kLoopMinOffer =
    contract::DeclaresOffer<P> && !EdgeAwareProgram<P> && reduction_of<P>() == Reduction::min &&
    std::same_as<typename P::Value, std::uint32_t>;

template <class P, class Lists>
constexpr auto loop_kernel = &cuda::frontier_loop_kernel<P, Lists, kLoopMinOffer<P>>;

template <class P>
template <class Lists>
void CudaExecutor<P>::launch_loop(const FrontierLoop& loop, const Lists& lists, const char* doing) {
  const void* kernel = reinterpret_cast<const void*>(loop_kernel<P, Lists>);
  cuda::LoopState state =
      loop_.start(loop, current_.data(), g_.num_vertices(), stream(kDirect), doing);
  Value* values = values_.data();
  const eid_t* offsets = device_.offsets.data();
  Lists args_lists = lists;
  void* args[] = {&program_, &values, &offsets, &state, &args_lists};
  OOC_CUDA(
      cudaLaunchCooperativeKernel(kernel, loop_.blocks(), kBlockThreads, args, 0, stream(kDirect)),
      doing);
}

template <class P>
template <class Lists>
bool CudaExecutor<P>::loop_supported() {
  return loop_.supported(options_.device, reinterpret_cast<const void*>(loop_kernel<P, Lists>),
                         cuda::kLoopThreads, cuda::kLoopBlocksPerSm);
}

template <class P>
bool CudaExecutor<P>::run_frontier_loop(const FrontierLoop& loop,
                                        std::vector<IterationStats>& levels) {
  if constexpr (P::kind != ProgramKind::monotone || SettlingProgram<P>) {
    return false;
  } else {
    if (!frontier_loop_serves<P>(options_, plan_, ranked_)) return false;
    const char* doing = "running the frontier loop";
    if (plan_.in_memory) {
      if (!loop_supported<cuda::ResidentLoopLists>()) return false;
      launch_loop(loop, cuda::ResidentLoopLists{edges_for(TransferEngine::resident)}, doing);
    } else {
      const cuda::CachedPartitions parts =
          loop_.partitions(device_, g_, parts_, compressed(false), doing);
      if (compressed(false)) {
        if (!loop_supported<cuda::CompressedLoopLists>()) return false;
        const cuda::CompressedEdges host = *compressed_edges(TransferEngine::zerocopy);
        const cuda::CompressedEdges cache =
            cached(false) ? *compressed_edges(TransferEngine::resident) : host;
        launch_loop(
            loop,
            cuda::CompressedLoopLists{host, cache, parts, weighted_ ? weight_bits(false) : 0u},
            doing);
      } else {
        if (!loop_supported<cuda::RawLoopLists>()) return false;
        const cuda::OffsetEdges host = edges_for(TransferEngine::zerocopy);
        const cuda::OffsetEdges cache = cached(false) ? edges_for(TransferEngine::resident) : host;
        launch_loop(loop, cuda::RawLoopLists{host, cache, parts, cost_.request_bytes}, doing);
      }
    }
    loop_.finish(stream(kDirect), levels, doing);
    return true;
  }
}

}  // namespace ooc::detail
