#pragma once
// Zero-copy requests. A warp reading a neighbour list issues one request per 128-byte line the
// list touches (EMOGI's merged access): ceil(bytes/m), plus one when a misaligned start makes the
// list cross one more line boundary — HyTGraph's am(v), computed from the physical position as
// its footnote 1 says.
#include <cstdint>

#include "ooc/core/hd.hpp"

namespace ooc {

OOC_HD inline std::uint64_t lines_spanned(std::uint64_t start_byte, std::uint64_t bytes,
                                          std::uint32_t line) {
  if (bytes == 0) return 0;
  return (start_byte + bytes - 1) / line - start_byte / line + 1;
}

// The lines that reading the weights of edges [first, first + count) touches, each `bits` wide
// (32: raw u32; fewer: packed, codec::packed_weight).
OOC_HD inline std::uint64_t weight_lines(std::uint64_t first, std::uint64_t count,
                                         std::uint32_t bits, std::uint32_t line) {
  const std::uint64_t start = first * bits / 8;
  return lines_spanned(start, ((first + count) * bits + 7) / 8 - start, line);
}

// A compressed list is read through the warp's line window (line_window.cuh), which still holds
// the last line of the list the warp read before it in the same 64-vertex word: the lines of
// [start_byte, start_byte + bytes) less that one when the list starts in it. `held` is that
// line's index (~0 at a word's start) and becomes this list's last line.
OOC_HD inline std::uint64_t window_lines(std::uint64_t start_byte, std::uint64_t bytes,
                                         std::uint32_t line, std::uint64_t& held) {
  if (bytes == 0) return 0;
  const std::uint64_t first = start_byte / line, last = (start_byte + bytes - 1) / line;
  const std::uint64_t lines = last - first + (first == held ? 0 : 1);
  held = last;
  return lines;
}

}  // namespace ooc
