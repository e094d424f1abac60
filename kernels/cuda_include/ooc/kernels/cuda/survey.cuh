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
  std::uint32_t engine;            // Engine
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

// Calls f(v) for every set bit v of `bits` (a word of vertices starting at base).
template <class F>
__device__ __forceinline__ void for_each_bit(std::uint64_t bits, std::uint64_t base, F&& f) {
  while (bits != 0) {
    const int b = __ffsll(static_cast<long long>(bits)) - 1;
    f(static_cast<vid_t>(base + static_cast<std::uint64_t>(b)));
    bits &= bits - 1;
  }
}

__device__ __forceinline__ std::uint64_t grid_thread() {
  return static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ std::uint64_t grid_threads() {
  return static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
}

// Word w's bits below the vertex count.
__device__ __forceinline__ std::uint64_t live_bits(const std::uint64_t* words, std::uint64_t w,
                                                   vid_t n) {
  return words[w] & range_mask(w, 0, n);
}

template <class View>
__global__ void urgency_range_kernel(const std::uint64_t* current, vid_t n, View view,
                                     unsigned long long* most, unsigned long long* least) {
  unsigned long long lo = ~0ull, hi = 0;
  for (std::uint64_t w = grid_thread(); w < (std::uint64_t{n} + 63) / 64; w += grid_threads()) {
    for_each_bit(live_bits(current, w, n), w << 6, [&](vid_t v) {
      const unsigned long long k = order_key(view.urgency(v));
      lo = k < lo ? k : lo;
      hi = k > hi ? k : hi;
    });
  }
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
  for (std::uint64_t w = grid_thread(); w < (std::uint64_t{n} + 63) / 64; w += grid_threads()) {
    for_each_bit(live_bits(current, w, n), w << 6, [&](vid_t v) {
      DeviceBucket& b = local[view.bucket(view.urgency(v))];
      atomicAdd(&b.edges, static_cast<unsigned long long>(view.degree(v)));
      const double mass = view.delta(v);
      if (mass != 0.0) atomicAdd(&b.mass, mass);
    });
  }
  __syncthreads();
  for (int b = threadIdx.x; b < Buckets; b += blockDim.x) {
    if (local[b].edges != 0) atomicAdd(&buckets[b].edges, local[b].edges);
    if (local[b].mass != 0.0) atomicAdd(&buckets[b].mass, local[b].mass);
  }
}

// Per partition counters of admitted active vertices. A thread walks words; consecutive words
// mostly share a partition, so it accumulates and flushes with atomics when the partition
// changes. partition_first has partitions + 1 entries (the last is n).
template <class View>
__global__ void survey_kernel(const std::uint64_t* current, vid_t n, View view,
                              const vid_t* partition_first, std::uint32_t partitions,
                              std::uint32_t line_bytes, PartitionCounters* out) {
  for (std::uint64_t w = grid_thread(); w < (std::uint64_t{n} + 63) / 64; w += grid_threads()) {
    const std::uint64_t bits = live_bits(current, w, n);
    if (bits == 0) continue;
    std::uint32_t lo = 0, hi = partitions;  // partition holding vertex w * 64
    while (hi - lo > 1) {
      const std::uint32_t mid = (lo + hi) / 2;
      if (partition_first[mid] <= (w << 6)) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    std::uint32_t p = lo;
    unsigned long long a = 0, e = 0, r = 0, b = 0, urgent = ~0ull;
    std::uint64_t held = ~std::uint64_t{0};
    double delta = 0;
    const auto flush = [&] {
      if (a == 0) return;
      atomicAdd(&out[p].active_vertices, a);
      atomicAdd(&out[p].active_edges, e);
      atomicAdd(&out[p].requests, r);
      if (b != 0) atomicAdd(&out[p].list_bytes, b);
      if (delta != 0.0) atomicAdd(&out[p].delta, delta);
      atomicMin(&out[p].most_urgent, urgent);
      a = e = r = b = 0;
      urgent = ~0ull;
      delta = 0;
    };
    for_each_bit(bits, w << 6, [&](vid_t v) {
      while (v >= partition_first[p + 1]) {
        flush();
        ++p;
      }
      const double k = view.urgency(v);
      if (!view.admits(k)) return;
      ++a;
      e += view.degree(v);
      r += view.requests(v, line_bytes, held);
      b += view.list_bytes(v);
      const unsigned long long ok = order_key(k);
      urgent = ok < urgent ? ok : urgent;
      delta += view.delta(v);
    });
    flush();
  }
}

// words[w] = the bits of word w's vertices that pick(v) chooses (the pull direction's
// gathering vertices).
template <class Pick>
__global__ void mark_kernel(std::uint64_t* words, vid_t n, Pick pick) {
  for (std::uint64_t w = grid_thread(); w < (std::uint64_t{n} + 63) / 64; w += grid_threads()) {
    std::uint64_t bits = 0;
    for (unsigned b = 0; b < 64 && (w << 6) + b < n; ++b) {
      if (pick(static_cast<vid_t>((w << 6) + b))) bits |= 1ull << b;
    }
    words[w] = bits;
  }
}

// work = admitted(current); current -= work. Every admitted active vertex is processed this
// iteration; the deferred ones stay in current.
template <class View>
__global__ void take_kernel(std::uint64_t* current, std::uint64_t* work, vid_t n, View view,
                            bool deferring) {
  for (std::uint64_t w = grid_thread(); w < (std::uint64_t{n} + 63) / 64; w += grid_threads()) {
    const std::uint64_t bits = live_bits(current, w, n);
    std::uint64_t taken = 0;
    if (deferring) {
      for_each_bit(bits, w << 6, [&](vid_t v) {
        if (view.admits(view.urgency(v))) taken |= 1ull << (v & 63);
      });
    } else {
      taken = bits;
    }
    work[w] = taken;
    current[w] &= ~taken;
  }
}

// current |= next; next = 0.
__global__ void merge_frontier_kernel(std::uint64_t* current, std::uint64_t* next,
                                      std::uint64_t words);

}  // namespace ooc::cuda
