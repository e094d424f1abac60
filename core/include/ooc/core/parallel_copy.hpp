#pragma once
// A copy with every core (oneTBB). One thread copies at one core's bandwidth and takes each
// first-touch page fault of the destination in turn: the unified policy's managed copy of a
// Kronecker-26 graph's edges took several times as long that way (docs/performance-log.md,
// "Figures moved from code comments"). Chunks of 4 MiB keep oneTBB's scheduling cost negligible.
#include <tbb/parallel_for.h>

#include <cstddef>
#include <cstring>

namespace ooc::detail {

inline void parallel_copy_bytes(void* dst, const void* src, std::size_t bytes) {
  constexpr std::size_t kChunk = std::size_t{4} << 20;
  tbb::parallel_for(std::size_t{0}, (bytes + kChunk - 1) / kChunk, [&](std::size_t c) {
    const std::size_t begin = c * kChunk;
    const std::size_t len = begin + kChunk < bytes ? kChunk : bytes - begin;
    std::memcpy(static_cast<char*>(dst) + begin, static_cast<const char*>(src) + begin, len);
  });
}

}  // namespace ooc::detail
