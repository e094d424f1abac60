#pragma once
// Part of CpuExecutor<P> (cpu_executor.hpp, which includes this at its end): the CPU backend's
// frontier loop (frontier_loop.hpp). The levels and piles of the GPU's persistent kernel
// (frontier_loop.cuh), with the queues in host memory: a level of many vertices runs in parallel
// (oneTBB), a short one on this thread. The frontier bitmap `current` is the near pile's
// membership and the far bitmap the far pile's, so a vertex is queued once per pile however many
// edges lower it, and what is still active when the loop hands back is in `current`.
#include <tbb/enumerable_thread_specific.h>

#include <atomic>
#include <cmath>
#include <limits>
#include <vector>

#include "ooc/engine/detail/cpu_executor.hpp"
#include "ooc/kernels/near_far.hpp"

namespace ooc::detail {

namespace loop_bits {

// True when this call set v's bit. Release, so that whoever clears the bit (acquire) and then
// reads v's value sees the value lowered before it was set.
inline bool set(Bitmap& bits, vid_t v) {
  const std::uint64_t mask = std::uint64_t{1} << (v & 63);
  return (std::atomic_ref<std::uint64_t>(bits.words()[v >> 6])
              .fetch_or(mask, std::memory_order_acq_rel) &
          mask) == 0;
}

inline void clear(Bitmap& bits, vid_t v) {
  std::atomic_ref<std::uint64_t>(bits.words()[v >> 6])
      .fetch_and(~(std::uint64_t{1} << (v & 63)), std::memory_order_acq_rel);
}

}  // namespace loop_bits

// What one thread gathers while it processes part of a level.
struct CpuLoopLocal {
  std::vector<vid_t> next, far;
  eid_t next_edges = 0, processed = 0;
  std::uint64_t lines = 0;
  std::vector<vid_t> targets;  // a compressed list decoded
  std::vector<std::uint32_t> weights;
};

template <class P>
VertexEdges CpuExecutor<P>::loop_edges(vid_t v, CpuLoopLocal& local) const {
  const eid_t degree = g_.degree(v), first = g_.offsets[v];
  if (!plan_.compressed || plan_.in_memory) return edges_in_place(v);
  // As zero-copy reads them: the compressed list (and packed weights) decoded.
  local.targets.resize(degree);
  decode_list(g_.compressed.bytes.data() + g_.compressed.offsets[v], degree, local.targets.data());
  const std::uint32_t* weights = nullptr;
  if (weighted_ && !g_.weights.empty()) {
    weights = g_.weights.data() + first;
  } else if (weighted_) {
    local.weights.resize(degree);
    unpack_weights(g_.compressed, first, degree, local.weights.data());
    weights = local.weights.data();
  }
  return {v, local.targets.data(), weights, degree};
}

template <class P>
bool CpuExecutor<P>::run_frontier_loop(const FrontierLoop& loop,
                                       std::vector<IterationStats>& levels) {
  if (!frontier_loop_serves<P>(options_, plan_, owned_ != nullptr)) return false;
  const bool piles = loop.delta > 0;
  if (piles && far_.size() != g_.num_vertices()) far_ = Bitmap(g_.num_vertices());
  const auto value = [&](vid_t v) { return static_cast<double>(atomic_load(values_.data() + v)); };
  // The smallest value of the vertices of `queue` that `in` keeps.
  const auto least_of = [&](const std::vector<vid_t>& queue, auto&& in) {
    double least = std::numeric_limits<double>::infinity();
    for (const vid_t v : queue)
      if (in(v)) least = std::min(least, value(v));
    return least;
  };
  const auto edges_of = [&](const std::vector<vid_t>& queue) {
    eid_t sum = 0;
    for (const vid_t v : queue)
      sum += g_.degree(v);
    return sum;
  };
  // The near pile from the frontier; with piles, those at or above the smallest value plus delta
  // go far.
  std::vector<vid_t> near, far;
  current_.for_each_set(0, g_.num_vertices(),
                        [&](std::size_t v) { near.push_back(static_cast<vid_t>(v)); });
  double threshold = std::numeric_limits<double>::infinity();
  if (piles && !near.empty()) {
    threshold = threshold_above(least_of(near, [](vid_t) { return true; }), loop.delta);
    std::erase_if(near, [&](vid_t v) {
      if (value(v) < threshold) return false;
      loop_bits::clear(current_, v);
      loop_bits::set(far_, v);
      far.push_back(v);
      return true;
    });
  }
  eid_t near_edges = edges_of(near);
  // Marks t, whose value a relax lowered, in the pile its value now belongs to.
  const auto mark = [&](vid_t t, CpuLoopLocal& local) {
    if (piles && value(t) >= threshold) {
      if (loop_bits::set(far_, t)) local.far.push_back(t);
    } else if (loop_bits::set(current_, t)) {
      local.next.push_back(t);
      local.next_edges += g_.degree(t);
    }
  };
  const auto process = [&](vid_t u, CpuLoopLocal& local) {
    loop_bits::clear(current_, u);  // before the value is read: a later lowering queues u again
    if (piles) loop_bits::clear(far_, u);
    const eid_t degree = g_.degree(u);
    if (degree == 0) return;
    const Message<P> message = make_message<P>(atomic_load(values_.data() + u), u);
    const VertexEdges e = loop_edges(u, local);
    for (eid_t j = 0; j < degree; ++j) {
      if (relax_edge_to(program_, message, e.weights == nullptr ? 0u : e.weights[j], values_.data(),
                        e.targets[j]))
        mark(e.targets[j], local);
    }
    std::uint64_t held = 0;
    local.processed += degree;
    local.lines += read_lines(push_lists_, u, degree, held);
  };
  tbb::enumerable_thread_specific<CpuLoopLocal> locals;
  for (std::uint32_t level = 0; level < loop.iterations && near_edges <= loop.edges;) {
    if (near.empty()) {
      if (!piles || far.empty()) break;
      // The near pile is done: the threshold rises to the smallest far value plus delta, and
      // the far vertices below it move near (those processed near meanwhile have left the pile).
      threshold = threshold_above(least_of(far, [&](vid_t v) { return far_.test(v); }), loop.delta);
      std::vector<vid_t> still;
      for (const vid_t v : far) {
        if (!far_.test(v)) continue;
        if (value(v) >= threshold) {
          still.push_back(v);
          continue;
        }
        loop_bits::clear(far_, v);
        if (loop_bits::set(current_, v)) near.push_back(v);
      }
      far.swap(still);
      near_edges = edges_of(near);
      continue;
    }
    const auto begin = Clock::now();
    IterationStats it;
    it.frontier_loop = true;
    it.active_vertices = it.frontier_vertices = near.size();
    it.active_edges = it.frontier_edges = near_edges;
    for (CpuLoopLocal& local : locals) {
      local.next.clear();
      local.far.clear();
      local.next_edges = local.processed = local.lines = 0;
    }
    if (near.size() < 1024) {
      CpuLoopLocal& local = locals.local();
      for (const vid_t u : near)
        process(u, local);
    } else {
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, near.size(), 256),
                        [&](const tbb::blocked_range<std::size_t>& r) {
                          CpuLoopLocal& local = locals.local();
                          for (std::size_t i = r.begin(); i < r.end(); ++i)
                            process(near[i], local);
                        });
    }
    near.clear();
    near_edges = 0;
    for (CpuLoopLocal& local : locals) {
      near.insert(near.end(), local.next.begin(), local.next.end());
      far.insert(far.end(), local.far.begin(), local.far.end());
      near_edges += local.next_edges;
      it.edges_processed += local.processed;
      if (!plan_.in_memory) {
        it.bytes[static_cast<std::size_t>(TransferEngine::zerocopy)] +=
            local.lines * options_.cost.request_bytes;
      }
    }
    it.compute_seconds = it.seconds = since(begin);
    levels.push_back(it);
    ++level;
  }
  // Hand back: the far pile joins the frontier (the near one is in it already).
  for (const vid_t v : far) {
    if (!far_.test(v)) continue;
    loop_bits::clear(far_, v);
    current_.set(v);
  }
  return true;
}

}  // namespace ooc::detail
