#pragma once
// The survey kernels (HyTGraph Algorithm 1 lines 1-14, on the GPU): per partition, the
// active vertices the priority window admits, their edges and the zero-copy requests their
// lists need — only these counters go back to the host; the priority window's two passes
// (urgency range, then a histogram of the active work); and the take kernel that moves this
// iteration's admitted vertices into the work bitmap.
//
// They are templates over a vertex view the engine supplies, with
//   double urgency(vid_t v)   how urgent v is (smaller first)
//   bool admits(double u)     whether the priority window lets v run this iteration
//   int bucket(double u)      v's bucket in the priority histogram
//   double delta(vid_t v)     v's pending delta (accumulative programs; 0 otherwise)
//   eid_t degree(vid_t v)     v's out-degree
//   std::uint64_t requests(vid_t v, std::uint32_t line, std::uint64_t& held)   the lines of
//                             `line` bytes that reading v's list in place touches
//                             (ooc/kernels/requests.hpp); `held` is ~0 at each word's start
//   std::uint64_t last_line(vid_t v, std::uint32_t line)   1 + the last line of v's compressed
//                             list (0 when v has none, or the lists are raw)
//   std::uint64_t list_bytes(vid_t v)   the bytes of v's compressed list (0 when none)
// so that nothing here depends on the engine's cost model or priority rules.
#include <cstdint>
#include <cstring>

#include "ooc/kernels/cuda/bitmap.cuh"
#include "ooc/kernels/requests.hpp"

namespace ooc::cuda {

// One partition's counters, as the host reads them back.
struct PartitionCounters {
  unsigned long long active_vertices;
  unsigned long long active_edges;
  unsigned long long requests;
  unsigned long long list_bytes;   // of the compressed lists, when the run reads them
  double delta;                    // pending delta (accumulative programs)
  unsigned long long most_urgent;  // ordered encoding of the smallest urgency key
  std::uint32_t engine;            // TransferEngine
  std::uint32_t pad;
};

// Doubles as unsigned integers that order the same way (for atomicMin/atomicMax).
__host__ __device__ inline unsigned long long order_key(double x) {
  unsigned long long bits;
  memcpy(&bits, &x, sizeof bits);
  return (bits >> 63) != 0 ? ~bits : bits | (1ull << 63);
}
__host__ __device__ inline double from_order_key(unsigned long long k) {
  const unsigned long long bits = (k >> 63) != 0 ? k & ~(1ull << 63) : ~k;
  double x;
  memcpy(&x, &bits, sizeof x);
  return x;
}

__device__ __forceinline__ unsigned long long warp_min(unsigned long long x) {
  return warp_reduce(x, [](unsigned long long a, unsigned long long b) { return a < b ? a : b; });
}
__device__ __forceinline__ unsigned long long warp_max(unsigned long long x) {
  return warp_reduce(x, [](unsigned long long a, unsigned long long b) { return a > b ? a : b; });
}
template <class T>
__device__ __forceinline__ T warp_sum(T x) {
  return warp_reduce(x, [](T a, T b) { return a + b; });
}
// The largest x of the lanes below this one (0 on lane 0).
__device__ __forceinline__ unsigned long long warp_max_below(unsigned long long x) {
  const unsigned lane = threadIdx.x % kWarp;
  for (unsigned offset = 1; offset < kWarp; offset *= 2) {
    const unsigned long long y = __shfl_up_sync(kFullMask, x, offset);
    if (lane >= offset) x = x > y ? x : y;
  }
  const unsigned long long below = __shfl_up_sync(kFullMask, x, 1);
  return lane == 0 ? 0 : below;
}

template <class View>
__global__ void urgency_range_kernel(const std::uint64_t* current, vid_t n, View view,
                                     unsigned long long* most, unsigned long long* least) {
  unsigned long long lo = ~0ull, hi = 0;
  walk_bits(current, n, [&](std::uint64_t, bool, vid_t v, bool on) {
    if (!on) return;
    const double u = view.urgency(v);
    if (!view.admits(u)) return;  // above the floor
    const unsigned long long k = order_key(u);
    lo = k < lo ? k : lo;
    hi = k > hi ? k : hi;
  });
  lo = warp_min(lo);
  hi = warp_max(hi);
  if (threadIdx.x % kWarp != 0) return;
  if (lo != ~0ull) atomicMin(most, lo);
  if (hi != 0) atomicMax(least, hi);
}

struct DeviceBucket {
  unsigned long long edges;
  double mass;
};

template <int Buckets, class View>
__global__ void urgency_histogram_kernel(const std::uint64_t* current, vid_t n, View view,
                                         DeviceBucket* buckets) {
  __shared__ DeviceBucket local[Buckets];
  for (int b = threadIdx.x; b < Buckets; b += blockDim.x)
    local[b] = {0, 0.0};
  __syncthreads();
  walk_bits(current, n, [&](std::uint64_t, bool, vid_t v, bool on) {
    if (!on) return;
    const double u = view.urgency(v);
    if (!view.admits(u)) return;  // above the floor
    DeviceBucket& b = local[view.bucket(u)];
    atomicAdd(&b.edges, static_cast<unsigned long long>(view.degree(v)));
    const double mass = view.delta(v);
    if (mass != 0.0) atomicAdd(&b.mass, mass);
  });
  __syncthreads();
  for (int b = threadIdx.x; b < Buckets; b += blockDim.x) {
    if (local[b].edges != 0) atomicAdd(&buckets[b].edges, local[b].edges);
    if (local[b].mass != 0.0) atomicAdd(&buckets[b].mass, local[b].mass);
  }
}

// What one partition's counters gain from some admitted vertices.
struct SurveyCounts {
  unsigned long long vertices = 0, edges = 0, requests = 0, list_bytes = 0;
  unsigned long long most_urgent = ~0ull;
  double delta = 0;

  __device__ void add(unsigned long long e, unsigned long long r, unsigned long long b,
                      unsigned long long urgent, double d) {
    ++vertices;
    edges += e;
    requests += r;
    list_bytes += b;
    most_urgent = urgent < most_urgent ? urgent : most_urgent;
    delta += d;
  }
  __device__ void add_to(PartitionCounters& c) const {
    atomicAdd(&c.active_vertices, vertices);
    atomicAdd(&c.active_edges, edges);
    atomicAdd(&c.requests, requests);
    if (list_bytes != 0) atomicAdd(&c.list_bytes, list_bytes);
    if (delta != 0.0) atomicAdd(&c.delta, delta);
    atomicMin(&c.most_urgent, most_urgent);
  }
};

// Per partition counters of admitted active vertices. The warp walks the bitmap (walk_bits) and
// keeps each lane's sums for the partition it is in; they meet in one atomic per counter when
// the warp leaves the partition. A half word that crosses a partition's end (rare: partitions
// hold thousands of vertices) adds its later lanes with their own atomics. partition_first has
// partitions + 1 entries (the last is n).
//
// A compressed list's requests depend on the list before it in the same word (the line window
// still holds its last line): a lane learns it from the lanes below, whose lists lie before its
// own, as the largest last line among them (View::last_line).
template <class View>
__global__ void survey_kernel(const std::uint64_t* current, vid_t n, View view,
                              const vid_t* partition_first, std::uint32_t partitions,
                              std::uint32_t line_bytes, PartitionCounters* out) {
  std::uint32_t p = 0;
  SurveyCounts mine;
  const auto flush = [&] {
    if (__ballot_sync(kFullMask, mine.vertices != 0) == 0) return;
    SurveyCounts all;
    all.vertices = warp_sum(mine.vertices);
    all.edges = warp_sum(mine.edges);
    all.requests = warp_sum(mine.requests);
    all.list_bytes = warp_sum(mine.list_bytes);
    all.delta = warp_sum(mine.delta);
    all.most_urgent = warp_min(mine.most_urgent);
    if (threadIdx.x % kWarp == 0) all.add_to(out[p]);
    mine = SurveyCounts{};
  };
  unsigned long long before = 0;  // the last line + 1 of the word's lists walked so far; 0: none
  walk_bits(current, n, [&](std::uint64_t w, bool fresh, vid_t v, bool on) {
    const vid_t first = static_cast<vid_t>(v - threadIdx.x % kWarp);
    if (first >= partition_first[p + 1]) {
      flush();
      p = last_at_most(partition_first, p + 1, partitions, first);
    }
    if (fresh) before = 0;
    const double k = on ? view.urgency(v) : 0.0;
    const bool admitted = on && view.admits(k);
    const unsigned long long last = admitted ? view.last_line(v, line_bytes) : 0;
    const unsigned long long below = warp_max_below(last);
    const unsigned long long ended = before > below ? before : below;
    before = warp_max(ended > last ? ended : last);
    if (!admitted) return;
    std::uint64_t held = ended == 0 ? ~std::uint64_t{0} : ended - 1;
    const unsigned long long e = view.degree(v), r = view.requests(v, line_bytes, held),
                             b = view.list_bytes(v), urgent = order_key(k);
    const double d = view.delta(v);
    if (v < partition_first[p + 1]) {
      mine.add(e, r, b, urgent, d);
    } else {
      SurveyCounts one;
      one.add(e, r, b, urgent, d);
      one.add_to(out[last_at_most(partition_first, p + 1, partitions, v)]);
    }
  });
  flush();
}

// words[w] = the bits of word w's vertices that pick(v) chooses (the pull direction's
// gathering vertices). A warp per word, a lane per vertex of each half.
template <class Pick>
__global__ void mark_kernel(std::uint64_t* words, vid_t n, Pick pick) {
  const unsigned lane = threadIdx.x % kWarp;
  const std::uint64_t count = (std::uint64_t{n} + 63) / 64;
  for (std::uint64_t w = global_warp(); w < count; w += warp_count()) {
    const std::uint64_t low = (w << 6) + lane, high = low + 32;
    const unsigned lo = __ballot_sync(kFullMask, low < n && pick(static_cast<vid_t>(low)));
    const unsigned hi = __ballot_sync(kFullMask, high < n && pick(static_cast<vid_t>(high)));
    if (lane == 0) words[w] = std::uint64_t{lo} | std::uint64_t{hi} << 32;
  }
}

// Sets the bits of the `count` vertices `list` holds (a run started from a listed frontier).
template <class Vertex>
__global__ void mark_list_kernel(std::uint64_t* words, const Vertex* list, std::uint64_t count) {
  for (std::uint64_t i = grid_thread(); i < count; i += grid_threads())
    bit_set(words, list[i]);
}

// work = admitted(current); current -= work. Every admitted active vertex is processed this
// iteration; the deferred ones (and those above the floor) stay in current. `holding`: some may.
template <class View>
__global__ void take_kernel(std::uint64_t* current, std::uint64_t* work, vid_t n, View view,
                            bool holding) {
  const std::uint64_t count = (std::uint64_t{n} + 63) / 64;
  for_each_chunk(n, [&](std::uint64_t chunk, unsigned lane) {
    const std::uint64_t w = chunk + lane;
    const std::uint64_t bits = w < count ? live_bits(current, w, n) : 0;
    std::uint64_t taken = bits;
    if (holding) {
      taken = 0;
      walk_chunk(chunk, bits, [&](std::uint64_t at, bool, vid_t v, bool on) {
        const unsigned ok = __ballot_sync(kFullMask, on && view.admits(view.urgency(v)));
        if (at == w) taken |= std::uint64_t{ok} << (v & 32);  // v & 32: the half's first bit
      });
    }
    if (w < count) {
      work[w] = taken;
      current[w] &= ~taken;
    }
  });
}

// *sum += the deltas of the vertices with out-edges, in double (PageRank's pending delta p,
// pagerank_bound.hpp): a thread per vertex, a warp's sum in one atomic.
template <class Value>
__global__ void pending_kernel(const Value* deltas, const eid_t* offsets, vid_t n, double* sum) {
  double mine = 0;
  for (std::uint64_t v = grid_thread(); v < n; v += grid_threads())
    if (offsets[v + 1] > offsets[v]) mine += static_cast<double>(deltas[v]);
  mine = warp_sum(mine);
  if (threadIdx.x % kWarp == 0 && mine != 0.0) atomicAdd(sum, mine);
}

// current |= next; next = 0.
__global__ void merge_frontier_kernel(std::uint64_t* current, std::uint64_t* next,
                                      std::uint64_t words);

}  // namespace ooc::cuda
