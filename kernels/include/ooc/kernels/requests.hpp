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

}  // namespace ooc
