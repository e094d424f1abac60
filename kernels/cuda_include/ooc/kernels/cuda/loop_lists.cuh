#pragma once
// Where the frontier loop (frontier_loop.cuh) reads a queued vertex's list: in GPU memory, from
// the edge cache, or from pinned host memory by zero-copy, raw or compressed; and what a thread
// counts of those reads. The relaxes mark their lowered targets through the loop's marker
// (frontier_loop.cuh's mark overloads, found when the loop instantiates them).
#include <cstdint>

#include "ooc/core/codec.hpp"
#include "ooc/kernels/cuda/advance.cuh"
#include "ooc/kernels/cuda/bitmap.cuh"
#include "ooc/kernels/requests.hpp"

namespace ooc::cuda {

// Where a vertex's list lies: its first edge (the offsets' entry) and its edges. The loop reads
// it for a target before the target's relax, so that the read overlaps the relax's atomic rather
// than following it, and carries it to whatever reads the list next (the next queue, a hop): one
// memory round trip less on every level's path, and on every hop's.
struct ListPlace {
  eid_t first = 0, edges = 0;
};

__device__ __forceinline__ ListPlace list_place(const eid_t* offsets, vid_t v) {
  const eid_t first = offsets[v];
  return {first, offsets[v + 1] - first};
}

// Chunk c of the list at `place`: its edges [c * kHeavyChunk, (c + 1) * kHeavyChunk), the last
// chunk's up to the list's end.
__device__ __forceinline__ ListPlace chunk_place(ListPlace place, eid_t c) {
  const eid_t begin = c * kHeavyChunk;
  return {place.first + begin,
          place.edges - begin < kHeavyChunk ? place.edges - begin : eid_t{kHeavyChunk}};
}

// Relaxes the edge to t, and marks t when it lowered it, t's place read before the relax. A
// program whose relax() is the min of offer() into the target (Mark::kMinOffer;
// program_contract.hpp asks that of a monotone program that declares offer) takes one atomic_min
// without the load before it that lower_to (programs.hpp) spends to spare atomics: a level's time
// is its chain of memory round trips, not its atomics. The marker then learns the value t was
// lowered to, so that a hop from t need not read it back.
template <class P, class Mark>
__device__ __forceinline__ void relax_loop_edge(const P& program, typename P::Value* dst,
                                                const Mark& marker, Message<P> message,
                                                std::uint32_t weight, vid_t t) {
  const ListPlace place = list_place(marker.offsets, t);
  if constexpr (Mark::kMinOffer) {
    const typename P::Value offered = program.offer(message, weight);
    if (offered < atomic_min(dst + t, offered)) mark(marker, t, place, offered);
  } else if (relax_edge_to(program, message, weight, dst, t)) {
    mark(marker, t, place);
  }
}

// Relaxes a raw list of `degree` edges with `size` threads (this one `rank`) from the 128-byte line
// that holds its first target, as relax_range (advance.cuh) does.
template <class P, class Mark>
__device__ __forceinline__ void relax_loop_list(const P& program, typename P::Value* dst,
                                                const Mark& marker, Message<P> message,
                                                const vid_t* targets, const std::uint32_t* weights,
                                                eid_t degree, unsigned rank, unsigned size) {
  const auto skew =
      static_cast<std::int64_t>((reinterpret_cast<std::uintptr_t>(targets) % 128) / sizeof(vid_t));
  for (std::int64_t j = std::int64_t{rank} - skew; j < static_cast<std::int64_t>(degree);
       j += size) {
    if (j < 0) continue;
    relax_loop_edge(program, dst, marker, message, weights == nullptr ? 0u : weights[j],
                    targets[j]);
  }
}

// What a thread counts of its reads (bytes by zero-copy, in whole requests, and from the edge
// cache), of the edges its hops relaxed, of the edges of the long lists it handed on to the next
// level and of the heavy chunks' edges it relaxed (frontier_loop.cuh), and the target it set aside
// for a hop, with its list's place, the hops it has left (0: none) and, for a Mark::kMinOffer
// program, the value the lane lowered it to.
struct LoopReads {
  unsigned long long zerocopy = 0, cached = 0, hopped = 0, deferred = 0, drained = 0;
  std::uint32_t hop_value = 0;
  vid_t hop_vertex = 0;
  std::uint32_t hop_left = 0;
  ListPlace hop_place;
};

// Where the loop reads vertex v's list: relax(program, dst, marker, message, v, place, rank, size,
// reads) relaxes it (its place: list_place's) with a tile of `size` threads (this one `rank`), the
// tile's first thread counting the reads. A list of up to kTileEdges edges takes a tile of kTile
// threads, a longer one the whole warp (loop_level). relax_chunk(..., v, place, c, lane, reads)
// relaxes chunk c of a list of more than kLoopHeavyEdges edges (chunk_place) with the whole warp,
// its lane 0 counting the chunk's reads: the loop spreads such a list over the grid.
//
// A tile of 8 threads, since a level of a grid or a road network is a few thousand lists of 2 to 4
// edges, and four of them per warp keep their reads and atomics in flight at once.
inline constexpr unsigned kLoopTile = 8;

// In GPU memory (in-memory mode): the resident copy.
struct ResidentLoopLists {
  static constexpr unsigned kTile = kLoopTile;
  static constexpr eid_t kTileEdges = 2 * kTile;
  OffsetEdges edges;

  template <class P, class Mark>
  __device__ void relax(const P& program, typename P::Value* dst, const Mark& marker,
                        Message<P> message, vid_t, ListPlace place, unsigned rank, unsigned size,
                        LoopReads&) const {
    relax_loop_list(program, dst, marker, message, edges.targets + place.first,
                    edges.weights == nullptr ? nullptr : edges.weights + place.first, place.edges,
                    rank, size);
  }

  template <class P, class Mark>
  __device__ void relax_chunk(const P& program, typename P::Value* dst, const Mark& marker,
                              Message<P> message, vid_t v, ListPlace place, eid_t c, unsigned lane,
                              LoopReads& reads) const {
    relax(program, dst, marker, message, v, chunk_place(place, c), lane, kWarp, reads);
  }
};

// The partition of v and, when the edge cache holds it, the shift of its edges there.
struct CachedPartitions {
  const vid_t* partition_first;  // partitions + 1
  std::uint32_t partitions;
  const eid_t* shift;       // per partition: global edge index - cache index; kAbsent: not cached
  const eid_t* list_shift;  // compressed lists: global byte offset - cache byte offset
  static constexpr eid_t kAbsent = ~eid_t{0};

  __device__ std::uint32_t partition(vid_t v) const {
    return shift == nullptr ? 0 : last_at_most(partition_first, 0, partitions, v);
  }
  __device__ bool cached(std::uint32_t p) const { return shift != nullptr && shift[p] != kAbsent; }
};

// Raw lists out of core: from the edge cache where it holds v's partition, else from pinned host
// memory by zero-copy, the tile reading the list's aligned lines.
struct RawLoopLists {
  static constexpr unsigned kTile = kLoopTile;
  static constexpr eid_t kTileEdges = 2 * kTile;
  OffsetEdges host, cache;
  CachedPartitions parts;
  std::uint32_t line;  // bytes per zero-copy request

  template <class P, class Mark>
  __device__ void relax(const P& program, typename P::Value* dst, const Mark& marker,
                        Message<P> message, vid_t v, ListPlace place, unsigned rank, unsigned size,
                        LoopReads& reads) const {
    const std::uint32_t p = parts.partition(v);
    const bool cached = parts.cached(p);
    const OffsetEdges& e = cached ? cache : host;
    const eid_t begin = place.first - (cached ? parts.shift[p] : 0);
    if (rank == 0) {
      const std::uint64_t bytes = std::uint64_t{place.edges} * sizeof(vid_t);
      const std::uint64_t copies = e.weights == nullptr ? 1 : 2;  // targets, weights
      if (cached) {
        reads.cached += bytes * copies;
      } else {
        reads.zerocopy += lines_spanned(begin * sizeof(vid_t), bytes, line) * copies * line;
      }
    }
    relax_loop_list(program, dst, marker, message, e.targets + begin,
                    e.weights == nullptr ? nullptr : e.weights + begin, place.edges, rank, size);
  }

  template <class P, class Mark>
  __device__ void relax_chunk(const P& program, typename P::Value* dst, const Mark& marker,
                              Message<P> message, vid_t v, ListPlace place, eid_t c, unsigned lane,
                              LoopReads& reads) const {
    relax(program, dst, marker, message, v, chunk_place(place, c), lane, kWarp, reads);
  }
};

// Compressed lists out of core, from the cache's copy or from pinned host memory. A list of up to
// kTileEdges edges (one block of at most a target per lane) is decoded by a tile of 8 threads from
// the 32-byte lines it holds, four lists per warp at once, as a level of a grid or a road network
// and every hop needs; a longer one by the whole warp from 128-byte lines. Each holds every line a
// block may span at once: a level's time is its round trips.
struct CompressedLoopLists {
  static constexpr unsigned kTile = kLoopTile;
  static constexpr eid_t kTileEdges = kTile;
  CompressedEdges host, cache;
  CachedPartitions parts;
  std::uint32_t weight_bits;  // 0: the program reads none

  template <class P, class Mark>
  __device__ void relax(const P& program, typename P::Value* dst, const Mark& marker,
                        Message<P> message, vid_t v, ListPlace place, unsigned rank, unsigned size,
                        LoopReads& reads) const {
    if (size == kWarp) {
      relax_edges<kWarp>(program, dst, marker, message, v, place, 0, place.edges, rank, reads);
    } else {
      relax_edges<kTile>(program, dst, marker, message, v, place, 0, place.edges, rank, reads);
    }
  }

  template <class P, class Mark>
  __device__ void relax_chunk(const P& program, typename P::Value* dst, const Mark& marker,
                              Message<P> message, vid_t v, ListPlace place, eid_t c, unsigned lane,
                              LoopReads& reads) const {
    const eid_t begin = c * kHeavyChunk;
    relax_edges<kWarp>(program, dst, marker, message, v, place, begin,
                       begin + chunk_place(place, c).edges, lane, reads);
  }

 private:
  // Edges [begin, end) of v's list (the whole list, or a chunk), from the block the list's table
  // gives (chunk_offset), by kLanes threads; the first counts the reads: from the cache, the bytes
  // from that block (the table too from the list's start) to the next chunk's or the list's end,
  // and their packed weights; by zero-copy, the lines loaded.
  template <unsigned kLanes, class P, class Mark>
  __device__ void relax_edges(const P& program, typename P::Value* dst, const Mark& marker,
                              Message<P> message, vid_t v, ListPlace place, eid_t begin, eid_t end,
                              unsigned rank, LoopReads& reads) const {
    const std::uint32_t p = parts.partition(v);
    const bool cached = parts.cached(p);
    const CompressedEdges& e = cached ? cache : host;
    const eid_t first_edge = place.first - (cached ? parts.shift[p] : 0);
    const std::uint8_t* list = e.lists + (e.coffsets[v] - (cached ? parts.list_shift[p] : 0));
    const std::uint64_t offset = chunk_offset(list, place.edges, begin / kHeavyChunk);
    ListWindows<kLanes> windows(rank, e, /*all_lines=*/true);
    for_each_block(windows, e.packed, reinterpret_cast<std::uintptr_t>(list) + offset, begin, end,
                   e.weights == nullptr ? nullptr : e.weights + first_edge, first_edge, rank,
                   [&](vid_t t, std::uint32_t weight, bool mine) {
                     if (mine) relax_loop_edge(program, dst, marker, message, weight, t);
                     return false;
                   });
    if (rank != 0) return;
    if (cached) {
      const std::uint64_t next = end == place.edges
                                     ? host.coffsets[v + 1] - host.coffsets[v]
                                     : chunk_offset(list, place.edges, end / kHeavyChunk);
      reads.cached +=
          next - (begin == 0 ? 0 : offset) + (std::uint64_t{end - begin} * weight_bits + 7) / 8;
    } else {
      reads.zerocopy += std::uint64_t{windows.lists.loaded() + windows.weights.loaded()} *
                        LineWindow<kLanes>::kLineBytes;
    }
  }
};

}  // namespace ooc::cuda
