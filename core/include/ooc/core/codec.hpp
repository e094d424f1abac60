#pragma once
// The compressed neighbour-list encoding ("bp32", docs/file-format.md), the parts that the
// encoder, the CPU decoder and the GPU decoder share.
//
// A sorted list of d targets is cut into blocks of up to 32. A block holds its first target as a
// u32, a u8 bit width w, then the other n - 1 targets as deltas from their predecessor, packed
// least significant bit first at w bits each: 5 + ceil((n - 1) w / 8) bytes, no alignment. A
// list longer than one chunk (32 blocks, 1024 targets) starts with a table of u32 byte offsets,
// from the list's start, of its chunks 1, 2, ...: a decoder can start at any chunk without
// walking the blocks before it. Every block decodes on its own (one warp prefix sum), and all
// of a list's bytes lie between its start and the next list's.
#include <cstdint>
#include <cstring>

#include "ooc/core/hd.hpp"

namespace ooc::codec {

inline constexpr std::uint32_t kBlock = 32;        // targets per block
inline constexpr std::uint32_t kChunkBlocks = 32;  // blocks per chunk
inline constexpr std::uint64_t kChunk = std::uint64_t{kBlock} * kChunkBlocks;
inline constexpr std::uint32_t kHeaderBytes = 5;  // first target, width
// A decoder reads whole aligned 32-bit words: a compressed array is followed by this many
// readable bytes (zero when written), so that reading a list's last field never leaves it.
inline constexpr std::uint64_t kPadding = 8;

OOC_HD inline std::uint64_t chunks(std::uint64_t degree) {
  return (degree + kChunk - 1) / kChunk;
}
// Bytes of a list's chunk table.
OOC_HD inline std::uint64_t table_bytes(std::uint64_t degree) {
  return degree > kChunk ? 4 * (chunks(degree) - 1) : 0;
}
// Bytes of a block of n targets at width w.
OOC_HD inline std::uint64_t block_bytes(std::uint32_t n, std::uint32_t width) {
  return kHeaderBytes + (std::uint64_t{n - 1} * width + 7) / 8;
}
// Bits needed for x (0 for 0).
OOC_HD inline std::uint32_t bit_width(std::uint32_t x) {
  std::uint32_t w = 0;
  while (x != 0) {
    ++w;
    x >>= 1;
  }
  return w;
}
// `width` bits at bit `bit` of `data`, read as two aligned little-endian u32 words (the field
// may span five bytes). `data`'s address need not be aligned; the words around it must be
// readable, which kPadding and 4-byte-aligned array starts make so.
OOC_HD inline std::uint32_t read_bits(const std::uint8_t* data, std::uint64_t bit,
                                      std::uint32_t width) {
  const auto at = reinterpret_cast<std::uintptr_t>(data) + bit / 8;
#if defined(__CUDA_ARCH__)
  const auto* word = reinterpret_cast<const std::uint32_t*>(at & ~std::uintptr_t{3});
  const std::uint64_t pair = word[0] | (std::uint64_t{word[1]} << 32);
#else
  std::uint64_t pair = 0;
  std::memcpy(&pair, reinterpret_cast<const void*>(at & ~std::uintptr_t{3}), sizeof pair);
#endif
  const auto shift = static_cast<std::uint32_t>((at & 3) * 8 + bit % 8);
  const std::uint64_t mask = (std::uint64_t{1} << width) - 1;
  return static_cast<std::uint32_t>((pair >> shift) & mask);
}

// The writing side of read_bits: fields of up to 32 bits put one after another, least significant
// first, each whole byte stored as soon as it is complete. finish() stores the last, partial one.
// The writer can be pointed at a new buffer between fields (to()), the bits it holds going on.
class BitWriter {
 public:
  explicit BitWriter(std::uint8_t* out) : out_(out) {}
  void put(std::uint64_t value, std::uint32_t width) {
    held_ |= value << bits_;
    for (bits_ += width; bits_ >= 8; bits_ -= 8, held_ >>= 8)
      *out_++ = static_cast<std::uint8_t>(held_);
  }
  void finish() {
    if (bits_ > 0) *out_ = static_cast<std::uint8_t>(held_);
  }
  std::uint8_t* position() const { return out_; }
  void to(std::uint8_t* out) { out_ = out; }
  bool partial() const { return bits_ > 0; }

 private:
  std::uint8_t* out_;
  std::uint64_t held_ = 0;  // bits not yet stored, fewer than 8 between fields
  std::uint32_t bits_ = 0;
};

// Integer weights packed at one width for the whole graph (partition-tool --compress on u32
// weights): edge e's weight is the graph's base plus the `width` bits at bit e * width, least
// significant first, of one array followed by kPadding zero bytes. Any edge is reached by its
// index alone, so every engine reads a list's weights the way it reads raw ones.
OOC_HD inline std::uint64_t packed_bytes(std::uint64_t edges, std::uint32_t width) {
  return (edges * width + 7) / 8;
}
OOC_HD inline std::uint32_t packed_weight(const std::uint8_t* packed, std::uint64_t e,
                                          std::uint32_t width, std::uint32_t base) {
  return base + read_bits(packed, e * width, width);
}

}  // namespace ooc::codec
