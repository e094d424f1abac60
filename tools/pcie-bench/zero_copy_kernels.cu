// Kernels that read pinned, mapped host memory over PCIe ("zero-copy") in the access patterns
// EMOGI (VLDB'21) analyses: a thread per chunk (§3.3, Fig. 3a), merged and aligned (Fig. 3b),
// merged but misaligned (Fig. 3c), and a warp per neighbour list, with the start shifted down
// to the 128-byte boundary (§4.3.2, Listing 2). Loads are 4 bytes per lane, as in EMOGI.
// The trick that makes the figures mean something: every loop is `#pragma unroll 1`, so each
// warp has exactly one load in flight and the outstanding PCIe requests are the resident
// warps (the resident-blocks sweep varies that number). The merged kernels stride over the
// buffer by the whole grid, so neighbouring warps read neighbouring lines at the same time.
#include "cuda_check.hpp"
#include "zero_copy_kernels.hpp"

namespace pcie_bench {
namespace {

constexpr unsigned kWarpSize = 32;
constexpr unsigned kFullMask = 0xffffffffu;

__device__ std::uint64_t thread_rank() {
  return static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}

__device__ std::uint64_t thread_count() {
  return static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
}

// Adds each warp's sum into *total with one atomic (blocks are whole warps).
__device__ void add_to_total(unsigned long long sum, unsigned long long* total) {
  for (unsigned offset = kWarpSize / 2; offset > 0; offset /= 2) {
    sum += __shfl_down_sync(kFullMask, sum, offset);
  }
  if (threadIdx.x % kWarpSize == 0) atomicAdd(total, sum);
}

__global__ void chunks_kernel(const std::uint32_t* words, std::uint64_t chunks,
                              unsigned long long* total) {
  unsigned long long sum = 0;
#pragma unroll 1
  for (std::uint64_t chunk = thread_rank(); chunk < chunks; chunk += thread_count()) {
    const std::uint32_t* mine = words + chunk * kWordsPerLine;
#pragma unroll 1
    for (unsigned i = 0; i < kWordsPerLine; ++i)
      sum += mine[i];
  }
  add_to_total(sum, total);
}

__global__ void lines_kernel(const std::uint32_t* words, std::uint64_t lines,
                             std::uint32_t shift_words, unsigned long long* total) {
  const unsigned lane = threadIdx.x % kWarpSize;
  const std::uint64_t warps = thread_count() / kWarpSize;
  unsigned long long sum = 0;
#pragma unroll 1
  for (std::uint64_t line = thread_rank() / kWarpSize; line < lines; line += warps) {
    sum += words[line * kWordsPerLine + shift_words + lane];
  }
  add_to_total(sum, total);
}

template <bool kShiftToLine>
__global__ void lists_kernel(const std::uint32_t* words, ListLayout layout,
                             unsigned long long* total) {
  const unsigned lane = threadIdx.x % kWarpSize;
  const std::uint64_t list = thread_rank() / kWarpSize;
  unsigned long long sum = 0;
  if (list < layout.count) {
    const std::uint64_t begin = layout.first + list * layout.stride;
    const std::uint64_t end = begin + layout.length;
    const std::uint64_t start = kShiftToLine ? begin & ~(kWordsPerLine - 1) : begin;
#pragma unroll 1
    for (std::uint64_t i = start + lane; i < end; i += kWarpSize) {
      if (!kShiftToLine || i >= begin) sum += words[i];
    }
  }
  add_to_total(sum, total);
}

const void* kernel_symbol(Kernel kernel) {
  switch (kernel) {
    case Kernel::chunks:
      return reinterpret_cast<const void*>(&chunks_kernel);
    case Kernel::lines:
      return reinterpret_cast<const void*>(&lines_kernel);
  }
  return nullptr;
}

}  // namespace

int resident_blocks_per_sm(Kernel kernel, int threads) {
  int blocks = 0;
  PCIE_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel_symbol(kernel), threads, 0));
  return blocks;
}

void read_chunks(const std::uint32_t* words, std::uint64_t chunks, unsigned long long* total,
                 const Grid& grid) {
  chunks_kernel<<<grid.blocks, grid.threads, 0, grid.stream>>>(words, chunks, total);
  PCIE_CHECK(cudaGetLastError());
}

void read_lines(const std::uint32_t* words, std::uint64_t lines, std::uint32_t shift_words,
                unsigned long long* total, const Grid& grid) {
  lines_kernel<<<grid.blocks, grid.threads, 0, grid.stream>>>(words, lines, shift_words, total);
  PCIE_CHECK(cudaGetLastError());
}

void read_lists(const std::uint32_t* words, const ListLayout& layout, bool shift_to_line,
                unsigned long long* total, cudaStream_t stream) {
  const std::uint64_t warps_per_block = kBlockThreads / kWarpSize;
  const auto blocks = static_cast<unsigned>((layout.count + warps_per_block - 1) / warps_per_block);
  if (shift_to_line) {
    lists_kernel<true><<<blocks, kBlockThreads, 0, stream>>>(words, layout, total);
  } else {
    lists_kernel<false><<<blocks, kBlockThreads, 0, stream>>>(words, layout, total);
  }
  PCIE_CHECK(cudaGetLastError());
}

}  // namespace pcie_bench
