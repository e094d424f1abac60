// The decoding kernel of compressed lists (decode.cuh says how it works).
#include "ooc/core/codec.hpp"
#include "ooc/kernels/cuda/bitmap.cuh"
#include "ooc/kernels/cuda/decode.cuh"

namespace ooc::cuda {

__global__ void decode_kernel(const std::uint8_t* lists, const eid_t* coffsets,
                              const eid_t* offsets, vid_t first, vid_t last, vid_t* out) {
  const unsigned lane = threadIdx.x % kWarp;
  const eid_t base = offsets[first], cbase = coffsets[first];
  const eid_t total = offsets[last] - base;
  for (std::uint64_t item = global_warp(); item * kDecodeEdges < total; item += warp_count()) {
    eid_t e = base + item * kDecodeEdges;
    const eid_t end = e + kDecodeEdges < base + total ? e + kDecodeEdges : base + total;
    // From the last vertex whose list starts at or before e.
    for (vid_t v = last_at_most(offsets, first, last, e); e < end; ++v) {
      const eid_t vb = offsets[v], degree = offsets[v + 1] - vb;
      if (vb + degree <= e) continue;  // empty, or before e
      const std::uint8_t* list = lists + (coffsets[v] - cbase);
      eid_t block = (e - vb) / codec::kBlock;
      const eid_t chunk = block / codec::kChunkBlocks;
      std::uint64_t pos = codec::table_bytes(degree);
      if (chunk > 0) pos = codec::read_bits(list + 4 * (chunk - 1), 0, 32);
      for (eid_t b = chunk * codec::kChunkBlocks; b < block; ++b)
        pos += codec::block_bytes(codec::kBlock, list[pos + 4]);
      for (; block * codec::kBlock < degree && e < end; ++block) {
        const eid_t at = block * codec::kBlock;
        const auto n = static_cast<std::uint32_t>(
            degree - at < codec::kBlock ? degree - at : eid_t{codec::kBlock});
        const std::uint32_t width = list[pos + 4];
        std::uint32_t t = 0;
        if (lane == 0) {
          t = codec::read_bits(list + pos, 0, 32);
        } else if (lane < n) {
          t = codec::read_bits(list + pos + codec::kHeaderBytes, std::uint64_t{lane - 1} * width,
                               width);
        }
        for (unsigned step = 1; step < kWarp; step *= 2) {
          const std::uint32_t below = __shfl_up_sync(kFullMask, t, step);
          if (lane >= step) t += below;
        }
        const eid_t edge = vb + at + lane;
        if (lane < n && edge >= e && edge < end) out[edge - base] = t;
        pos += codec::block_bytes(n, width);
        e = vb + at + n;
      }
    }
  }
}

__global__ void unpack_weights_kernel(const std::uint8_t* packed, std::uint64_t first_bit,
                                      eid_t count, std::uint32_t width, std::uint32_t base,
                                      std::uint32_t* out) {
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       i < count; i += static_cast<std::uint64_t>(gridDim.x) * blockDim.x)
    out[i] = base + codec::read_bits(packed, first_bit + i * width, width);
}

}  // namespace ooc::cuda
