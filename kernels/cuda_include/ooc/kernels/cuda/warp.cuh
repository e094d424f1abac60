#pragma once
// What every kernel shares about its place in the grid and its warp: the thread's and the warp's
// index in the grid and their counts (for grid-stride loops), and a butterfly reduction over a
// warp's lanes.
#include <cstdint>

namespace ooc::cuda {

inline constexpr unsigned kWarp = 32;
inline constexpr unsigned kFullMask = 0xffffffffu;

__device__ __forceinline__ std::uint64_t grid_thread() {
  return static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ std::uint64_t grid_threads() {
  return static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
}
__device__ __forceinline__ std::uint64_t global_warp() {
  return grid_thread() / kWarp;
}
__device__ __forceinline__ std::uint64_t warp_count() {
  return grid_threads() / kWarp;
}

// op over every lane's x; every lane gets the result.
template <class T, class Op>
__device__ __forceinline__ T warp_reduce(T x, Op op) {
  for (unsigned offset = kWarp / 2; offset > 0; offset /= 2)
    x = op(x, __shfl_xor_sync(kFullMask, x, offset));
  return x;
}

}  // namespace ooc::cuda
