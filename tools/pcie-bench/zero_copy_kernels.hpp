#pragma once
// Launchers of the kernels that read host memory over PCIe (zero_copy_kernels.cu). Each adds
// every word it reads into *total, so nothing is optimised away and the host can check that
// a pattern read exactly the words it should.
#include <cuda_runtime_api.h>

#include <cstdint>

namespace pcie_bench {

constexpr std::uint64_t kLineBytes = 128;  // EMOGI §3.3: the largest PCIe read a warp makes
constexpr std::uint64_t kWordsPerLine = kLineBytes / sizeof(std::uint32_t);
constexpr int kBlockThreads = 256;

struct Grid {
  int blocks = 0;
  int threads = kBlockThreads;
  cudaStream_t stream = nullptr;
};

enum class Kernel { chunks, lines };

// How many blocks of `threads` threads of `kernel` an SM holds at once.
int resident_blocks_per_sm(Kernel kernel, int threads);

// Naive (EMOGI §3.3, Fig. 3a): each thread reads its own 128-byte chunk word after word
// (chunks dealt round the grid, so a warp's chunks are neighbours), so a warp's simultaneous
// loads touch 32 different lines and each becomes a 32-byte request; the thread's next words
// are then found in L1, if its line is still there.
void read_chunks(const std::uint32_t* words, std::uint64_t chunks, unsigned long long* total,
                 const Grid& grid);

// Merged (EMOGI §3.3, Fig. 3b/c): a warp reads one 128-byte line per step, lane i word i.
// shift_words = 0 keeps each step on one line (aligned); 8, 16, 24 move the window by 32, 64,
// 96 bytes so each step spans two lines. Reads lines * 32 words from words[shift_words].
void read_lines(const std::uint32_t* words, std::uint64_t lines, std::uint32_t shift_words,
                unsigned long long* total, const Grid& grid);

// Neighbour lists (EMOGI §4.3): list k holds `length` words from words[first + k * stride];
// warp k of the launch reads list k, lane i word i of each 32-word step, as a kernel that
// gives each active vertex a warp does.
struct ListLayout {
  std::uint64_t count = 0;
  std::uint32_t length = 0;
  std::uint64_t stride = 0;
  std::uint64_t first = 0;
};

// shift_to_line: EMOGI's aligned access (§4.3.2, Listing 2): the warp starts at the 128-byte
// boundary at or below the list's start, and lanes before the start stay idle.
void read_lists(const std::uint32_t* words, const ListLayout& layout, bool shift_to_line,
                unsigned long long* total, cudaStream_t stream);

}  // namespace pcie_bench
