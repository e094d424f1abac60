#pragma once
// Batched traversals: one stream of the edges serves a batch of sources at once. Each vertex
// keeps bit sets over the batch (bit i: the batch's source i), as multi-source BFS does in memory
// (Then et al., "The More the Merrier", VLDB 2015; iBFS on GPUs, Liu et al., SIGMOD 2016); out of
// core it pays more, since every pass over the edges crosses the link once for the whole batch.
// The programs below run level-synchronously through the engine's ordinary runs (settle() is the
// step between levels, program_contract.hpp), so every transfer engine, compressed lists and the
// edge cache serve them; a partition is active when any source of the batch needs it.
//
// Betweenness centrality (Brandes, J. Math. Sociol. 25(2), 2001) on a batch: the forward run
// counts shortest paths sigma per vertex and source, level by level; the backward run
// accumulates T(v) = 1/sigma(v) + sum over the successors w of T(w), deepest level first, so that
// a source's dependency is delta(v) = sigma(v) T(v) - 1. Harmonic closeness adds 1/level per
// source as a vertex is reached. docs/programs.md, "Batched traversals".
//
// Across ranks, relax() changes slots per (vertex, source) beside the values: the bits of `next`
// and the sums sigma (forward) or T (backward), which shared() hands to the engine to combine
// after each iteration (SharedSlots). A slot is marked in one iteration only, and its sum starts
// at 0: sigma before the vertex is reached, T's sum over the successors before they send it.
#include <cstdint>
#include <limits>

#include "ooc/core/atomics.hpp"
#include "ooc/core/hd.hpp"
#include "ooc/core/types.hpp"
#include "ooc/engine/program_contract.hpp"

#if !defined(__CUDA_ARCH__)
#include <bit>
#endif

namespace ooc {

OOC_HD OOC_FORCEINLINE unsigned lowest_bit(std::uint32_t bits) {
#if defined(__CUDA_ARCH__)
  return static_cast<unsigned>(__ffs(static_cast<int>(bits)) - 1);
#else
  return static_cast<unsigned>(std::countr_zero(bits));
#endif
}

OOC_HD OOC_FORCEINLINE unsigned bits_set(std::uint32_t bits) {
#if defined(__CUDA_ARCH__)
  return static_cast<unsigned>(__popc(bits));
#else
  return static_cast<unsigned>(std::popcount(bits));
#endif
}

// A batch's arrays (host memory on the CPU backend, device memory on the GPU). Rows of `words`
// 32-bit words per vertex hold the bit sets; per (vertex, source) arrays hold `width` entries per
// vertex, at v * width + i. A null array is not kept (what the run computes decides).
struct BatchState {
  static constexpr std::uint32_t kUnreached = std::numeric_limits<std::uint32_t>::max();
  std::uint32_t width = 0;            // the batch's sources
  std::uint32_t words = 0;            // per row: (width + 31) / 32
  std::uint32_t* seen = nullptr;      // the sources that reached v in an earlier iteration
  std::uint32_t* frontier = nullptr;  // the sources for which v is in this iteration's frontier
  std::uint32_t* next = nullptr;      // the sources that reached v in this iteration (the
                                      // backward run on ranks: whose T of v changed in it)
  std::uint32_t* upper = nullptr;     // the backward run: the sources for which v is one level
                                      // above this iteration's frontier (a predecessor's level)
  std::uint32_t* level = nullptr;     // per (v, i): v's level from source i (kUnreached)
  float* sigma = nullptr;             // per (v, i): shortest paths from source i to v
  float* t = nullptr;                 // per (v, i): the backward run's sum over v's successors of
                                      // their T, then, once v is taken, T(v) of source i
  double* harmonic = nullptr;         // per v: the sum of 1 / level over the sources

  OOC_HD std::uint64_t row(vid_t v) const { return std::uint64_t{v} * words; }
  OOC_HD std::uint64_t at(vid_t v, std::uint32_t i) const { return std::uint64_t{v} * width + i; }
  // Source i of the batch starts from vertex v: the batch's arrays must be zero (level: all
  // ones) before the first source is placed.
  OOC_HD void place_source(std::uint32_t i, vid_t v) const {
    const std::uint32_t bit = 1u << (i % 32);
    seen[row(v) + i / 32] |= bit;
    frontier[row(v) + i / 32] |= bit;
    if (level != nullptr) level[at(v, i)] = 0;
    if (sigma != nullptr) sigma[at(v, i)] = 1.0f;
  }
  // Source i's dependency of v after the backward run: sigma(v) T(v) - 1, where a vertex of level
  // 1 (never taken: it sends nothing) still holds its successors' sum, so sigma(v) times that; 0
  // for the source itself and for the vertices it did not reach.
  OOC_HD double dependency(vid_t v, std::uint32_t i) const {
    const std::uint32_t l = level[at(v, i)];
    if (l == 0 || l == kUnreached) return 0.0;
    const double d = static_cast<double>(sigma[at(v, i)]) * t[at(v, i)] - (l == 1 ? 0.0 : 1.0);
    return d > 0.0 ? d : 0.0;
  }
};

// The forward run of a batch: BFS from every source at once, one level per iteration. The value
// is a vertex's least level over the batch (its distance from the nearest source). Along the way,
// as the state asks: each source's levels, its path counts sigma, and the harmonic sums.
struct BatchForward {
  using Value = std::uint32_t;
  static constexpr ProgramKind kind = ProgramKind::monotone;
  static constexpr Reduction combine = Reduction::min;
  static constexpr bool needs_weights = false;
  static constexpr bool needs_symmetric = false;
  static constexpr Value kUnreached = BatchState::kUnreached;
  BatchState s;

  OOC_HD Value init(vid_t v) const { return active_at_start(v) ? 0 : kUnreached; }
  OOC_HD bool active_at_start(vid_t v) const {
    for (std::uint32_t k = 0; k < s.words; ++k)
      if (s.frontier[s.row(v) + k] != 0) return true;
    return false;
  }
  // The sources for which `from` is in the frontier and `to` is new reach `to` on the next level:
  // their path counts add up (sigma(from) is final: the last iteration settled it). The bits
  // already in `next` (another edge into `to` set them) are not ORed again.
  OOC_HD bool relax(Value least, std::uint32_t, Value* dst, vid_t from, vid_t to) const {
    bool reached = false;
    for (std::uint32_t k = 0; k < s.words; ++k) {
      const std::uint32_t bits = s.frontier[s.row(from) + k] & ~s.seen[s.row(to) + k];
      if (bits == 0) continue;
      if (s.sigma != nullptr) {
        for (std::uint32_t b = bits; b != 0; b &= b - 1) {
          const std::uint32_t i = 32 * k + lowest_bit(b);
          atomic_add(s.sigma + s.at(to, i), s.sigma[s.at(from, i)]);
        }
      }
      std::uint32_t* const next = s.next + s.row(to) + k;
      if ((*next & bits) != bits && (atomic_or(next, bits) & bits) != bits) reached = true;
    }
    if (reached) atomic_min(dst, least + 1);
    return reached;
  }
  // After iteration `iteration`: the sources that reached v in it are v's frontier, at level
  // iteration + 1.
  OOC_HD bool settle(vid_t v, std::uint32_t iteration) const {
    bool any = false;
    for (std::uint32_t k = 0; k < s.words; ++k)
      any = any || s.next[s.row(v) + k] != 0;
    if (!any) return false;
    const std::uint32_t depth = iteration + 1;
    unsigned reached = 0;
    for (std::uint32_t k = 0; k < s.words; ++k) {
      const std::uint32_t bits = s.next[s.row(v) + k];
      s.next[s.row(v) + k] = 0;
      s.frontier[s.row(v) + k] = bits;
      s.seen[s.row(v) + k] |= bits;
      reached += bits_set(bits);
      for (std::uint32_t b = bits; b != 0 && s.level != nullptr; b &= b - 1)
        s.level[s.at(v, 32 * k + lowest_bit(b))] = depth;
    }
    if (s.harmonic != nullptr) s.harmonic[v] += static_cast<double>(reached) / depth;
    return true;
  }
  // Across ranks: the sources that reached each vertex, and their path counts.
  SharedSlots shared() const { return {s.width, s.next, s.sigma}; }
};

// The backward run of a batch whose forward run reached level `depth` at most: iteration j takes
// the vertices of level depth - j (per source), whose T = 1/sigma + the sum their successors sent
// is then final, and which add it to their predecessors' sums (the neighbours one level up, on a
// symmetric graph). Levels 1 and 0 send nothing: a source's own dependency does not count.
// Between iterations each vertex marks, in two rows, the sources for which it is in the next
// frontier and those for which it is one level above it, so that an edge finds the sources it
// serves with one AND per word. On ranks (`next` given) relax() marks the sums it adds to. The
// value is unused.
struct BatchBackward {
  using Value = std::uint32_t;
  static constexpr ProgramKind kind = ProgramKind::monotone;
  static constexpr Reduction combine = Reduction::min;
  static constexpr bool needs_weights = false;
  static constexpr bool needs_symmetric = true;
  BatchState s;
  std::uint32_t depth;

  OOC_HD Value init(vid_t) const { return 0; }
  OOC_HD bool active_at_start(vid_t v) const { return take_level(v, depth); }
  OOC_HD bool relax(Value, std::uint32_t, Value*, vid_t from, vid_t to) const {
    for (std::uint32_t k = 0; k < s.words; ++k) {
      const std::uint32_t bits = s.frontier[s.row(from) + k] & s.upper[s.row(to) + k];
      if (bits == 0) continue;
      for (std::uint32_t b = bits; b != 0; b &= b - 1) {
        const std::uint32_t i = 32 * k + lowest_bit(b);
        atomic_add(s.t + s.at(to, i), s.t[s.at(from, i)]);
      }
      if (s.next != nullptr && (s.next[s.row(to) + k] & bits) != bits)
        atomic_or(s.next + s.row(to) + k, bits);
    }
    return false;
  }
  OOC_HD bool settle(vid_t v, std::uint32_t iteration) const {
    if (s.next != nullptr) {
      for (std::uint32_t k = 0; k < s.words; ++k)
        s.next[s.row(v) + k] = 0;
    }
    return iteration + 1 < depth && take_level(v, depth - iteration - 1);
  }
  // Across ranks: the sums over the successors, and which of them changed.
  SharedSlots shared() const { return {s.width, s.next, s.t}; }

 private:
  // v's rows for the iteration that takes level l (l > 1): the sources from which it is at
  // level l (its frontier; true when there are any), whose T it completes, and at level l - 1.
  OOC_HD bool take_level(vid_t v, std::uint32_t l) const {
    if (l < 2) return false;
    bool any = false;
    for (std::uint32_t k = 0; k < s.words; ++k) {
      std::uint32_t at_l = 0, above = 0;
      for (std::uint32_t b = 0; b < 32 && 32 * k + b < s.width; ++b) {
        const std::uint64_t at = s.at(v, 32 * k + b);
        const std::uint32_t level = s.level[at];
        if (level == l) {
          at_l |= 1u << b;
          s.t[at] += 1.0f / s.sigma[at];
        }
        if (level + 1 == l) above |= 1u << b;
      }
      s.frontier[s.row(v) + k] = at_l;
      s.upper[s.row(v) + k] = above;
      any = any || at_l != 0;
    }
    return any;
  }
};

static_assert(GraphProgram<BatchForward> && GraphProgram<BatchBackward> &&
              SharingProgram<BatchForward> && SharingProgram<BatchBackward> &&
              SettlingProgram<BatchForward> && SettlingProgram<BatchBackward>);

}  // namespace ooc
