#pragma once
// Compressed lists (ooc/core/codec.hpp) read by a warp straight from pinned host memory, in whole
// aligned 128-byte lines: EMOGI's merged access (VLDB'21 §4.3.2) applied to bytes that are not
// one element per lane. The warp holds up to two consecutive lines, lane i holding the i-th
// 32-bit word of each, so a line costs one request of exactly one line and a line that several
// blocks or neighbouring short lists share crosses the link once while the warp holds it. Bit
// fields are read from the held words with shuffles. A block is at most 129 bytes (32 targets
// at 32 bits), so one starting in the first held line ends within the second.
//
// A tile of kLanes lanes of a warp (8: the frontier loop's short lists) does the same with lines
// of 4 kLanes bytes (32: one sector), a block of at most kLanes targets, 4 kLanes + 1 bytes, ending
// within the second; the warp's other tiles hold lines of their own meanwhile.
#include <cstdint>

#include "ooc/core/codec.hpp"
#include "ooc/core/types.hpp"
#include "ooc/kernels/cuda/warp.cuh"

namespace ooc::cuda {

template <unsigned kLanes = kWarp>
class LineWindow {
 public:
  static_assert(kLanes == kWarp || kLanes == 8 || kLanes == 16, "a warp or a tile of it");
  static constexpr unsigned kLineBytes = 4 * kLanes;

  // `lane`: this thread's rank among the kLanes. `end`: one past the last readable byte of the
  // lists; a held line's words from there on read as zero (they lie past every list's bytes).
  __device__ LineWindow(unsigned lane, const std::uint8_t* end)
      : lane_(lane), end_(reinterpret_cast<std::uintptr_t>(end)) {}

  // Holds the bytes [from, to) of host memory, to - from at most kLineBytes + 1 and from moving
  // forward (moving back reloads). Every lane of the tile calls it with the same arguments.
  __device__ void hold(std::uintptr_t from, std::uintptr_t to) {
    const std::uintptr_t line = from & ~std::uintptr_t{kLineBytes - 1};
    if (line != first_) {
      if (lines_ == 2 && line == first_ + kLineBytes) {
        lo_ = hi_;
      } else {
        lo_ = load(line);
      }
      hi_ = 0;
      lines_ = 1;
      first_ = line;
    }
    if (lines_ == 1 && to > first_ + kLineBytes) {
      hi_ = load(first_ + kLineBytes);
      lines_ = 2;
    }
  }

  // Bit offset of an address within the held lines.
  __device__ std::uint64_t bit_of(std::uintptr_t address) const {
    return std::uint64_t{address - first_} * 8;
  }

  // The `width` (at most 32) bits from held bit `bit` on, least significant first; each lane
  // asks for its own field, and every lane of the tile must call.
  __device__ std::uint32_t bits(std::uint64_t bit, std::uint32_t width) const {
    const auto word = static_cast<unsigned>(bit / 32);
    const unsigned mask = tile_mask();
    const std::uint32_t lo0 = __shfl_sync(mask, lo_, word % kLanes, kLanes);
    const std::uint32_t hi0 = __shfl_sync(mask, hi_, word % kLanes, kLanes);
    const std::uint32_t lo1 = __shfl_sync(mask, lo_, (word + 1) % kLanes, kLanes);
    const std::uint32_t hi1 = __shfl_sync(mask, hi_, (word + 1) % kLanes, kLanes);
    const std::uint32_t w0 = word < kLanes ? lo0 : hi0;
    const std::uint32_t w1 = word + 1 < kLanes ? lo1 : word + 1 < 2 * kLanes ? hi1 : 0;
    const std::uint64_t pair = w0 | (std::uint64_t{w1} << 32);
    return static_cast<std::uint32_t>((pair >> (bit % 32)) & ((std::uint64_t{1} << width) - 1));
  }

  // The lanes of this thread's tile, for its shuffles.
  __device__ static unsigned tile_mask() {
    if constexpr (kLanes == kWarp) {
      return kFullMask;
    } else {
      unsigned lane = 0;
      asm("mov.u32 %0, %%laneid;" : "=r"(lane));
      return ((1u << kLanes) - 1) << (lane / kLanes * kLanes);
    }
  }

  // The lines loaded so far, each one request of kLineBytes.
  __device__ std::uint32_t loaded() const { return loaded_; }

 private:
  __device__ std::uint32_t load(std::uintptr_t line) {
    ++loaded_;
    const std::uintptr_t word = line + 4 * lane_;
    return word + 4 <= end_ ? *reinterpret_cast<const std::uint32_t*>(word) : 0;
  }

  unsigned lane_;
  std::uintptr_t end_;
  std::uintptr_t first_ = ~std::uintptr_t{0};  // address of the first held line
  unsigned lines_ = 0;
  std::uint32_t lo_ = 0, hi_ = 0;
  std::uint32_t loaded_ = 0;
};

// The block of n (at most kLanes) targets that starts at host address `at`: lane i < n gets its
// i-th target, and `bytes` the block's size. Every lane of the tile calls it. `eager`: hold at
// once every line the block may span at its widest (32-bit fields), rather than the header's line
// first and the next only when the header's width says the block reaches it: one round trip for a
// block that crosses a line where there would be two, for a line loaded that the block may not
// need.
template <unsigned kLanes>
__device__ __forceinline__ vid_t decode_block(LineWindow<kLanes>& window, std::uintptr_t at,
                                              std::uint32_t n, unsigned lane, std::uint64_t& bytes,
                                              bool eager = false) {
  window.hold(at, at + (eager ? codec::block_bytes(n, 32) : codec::kHeaderBytes));
  const std::uint64_t bit = window.bit_of(at);
  const std::uint32_t first = window.bits(bit, 32);
  const std::uint32_t width = window.bits(bit + 32, 8);
  bytes = codec::block_bytes(n, width);
  window.hold(at, at + bytes);  // the same first line: `bit` stays valid
  const std::uint64_t field =
      bit + 8 * codec::kHeaderBytes + std::uint64_t{lane > 0 ? lane - 1 : 0} * width;
  std::uint32_t t = window.bits(field, width);  // lane 0's is unused
  if (lane == 0) t = first;
  if (lane >= n) t = 0;
  const unsigned mask = LineWindow<kLanes>::tile_mask();
  for (unsigned step = 1; step < kLanes; step *= 2) {
    const std::uint32_t below = __shfl_up_sync(mask, t, step, kLanes);
    if (lane >= step) t += below;
  }
  return t;
}

// Holds the lines of the weights of edges [first, first + n) (n at most kLanes), packed at `width`
// bits (codec::packed_weight) at address `packed`, and returns the bit where the first begins.
// Called before the targets' block is decoded, its loads are in flight beside the block's.
// Every lane of the tile calls it.
template <unsigned kLanes>
__device__ __forceinline__ std::uint64_t hold_packed_weights(LineWindow<kLanes>& window,
                                                             const std::uint8_t* packed,
                                                             std::uint64_t first, std::uint32_t n,
                                                             std::uint32_t width) {
  const std::uint64_t bit = first * width;
  const std::uintptr_t from = reinterpret_cast<std::uintptr_t>(packed) + bit / 8;
  // At most kLanes fields of 31 bits and 7 bits of offset: at most 4 kLanes bytes, within two
  // lines.
  window.hold(from, from + (bit % 8 + std::uint64_t{n} * width + 7) / 8);
  return window.bit_of(from) + bit % 8;
}

// The weight of edge first + lane (lane < n; the others get garbage) from those weights. Every
// lane of the tile calls it.
template <unsigned kLanes>
__device__ __forceinline__ std::uint32_t packed_weight_lane(LineWindow<kLanes>& window,
                                                            const std::uint8_t* packed,
                                                            std::uint64_t first, std::uint32_t n,
                                                            std::uint32_t width, std::uint32_t base,
                                                            unsigned lane) {
  const std::uint64_t bit = hold_packed_weights(window, packed, first, n, width);
  return base + window.bits(bit + std::uint64_t{lane} * width, width);
}

}  // namespace ooc::cuda
