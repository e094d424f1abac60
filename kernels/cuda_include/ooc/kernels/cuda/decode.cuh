#pragma once
// Decoding compressed lists (ooc/core/codec.hpp) on the GPU: a filter task copies a task's
// compressed bytes into staging and this kernel writes the raw targets where the advance
// kernels read them, so every mapping and program runs unchanged on the decoded partition.
//
// A warp takes 1024 consecutive output edges at a time. It finds the vertex holding the first
// by binary search over the offsets, reaches the block holding it through the list's chunk
// table (at most 31 blocks walked), then decodes block after block: lane 0 holds the block's
// first target and lane i the i-th delta, read as one bit field; an inclusive warp sum turns
// them into targets. A list's blocks do not depend on each other, so hubs spread over many
// warps like any other edges.
#include <cstdint>

#include "ooc/core/types.hpp"
#include "ooc/kernels/cuda/warp.cuh"

namespace ooc::cuda {

inline constexpr eid_t kDecodeEdges = 1024;  // output edges per warp item

// The raw targets of vertices [first, last) into out (vertex first's list at out[0]), from
// `lists`, which holds the compressed bytes from coffsets[first] on.
__global__ void decode_kernel(const std::uint8_t* lists, const eid_t* coffsets,
                              const eid_t* offsets, vid_t first, vid_t last, vid_t* out);

// The `count` weights packed at `width` bits (codec::packed_weight) from bit `first_bit` of
// `packed` on, plus `base`, into out: a thread per weight.
__global__ void unpack_weights_kernel(const std::uint8_t* packed, std::uint64_t first_bit,
                                      eid_t count, std::uint32_t width, std::uint32_t base,
                                      std::uint32_t* out);

}  // namespace ooc::cuda
