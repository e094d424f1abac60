#pragma once
// The CPU backend's advance: for every active vertex of a task, run the program along each of
// its out-edges (push), or have every vertex that may change gather along its list (pull),
// wherever those edges are (the CSR in place for zero-copy, a staged partition for filter, a
// compacted batch for compaction). Parallel over vertices with oneTBB; a vertex with a very long
// list is split over edge ranges so that one hub does not hold up a thread (the CPU counterpart
// of the GPU kernels' load balancing).
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "ooc/core/atomics.hpp"
#include "ooc/core/types.hpp"
#include "ooc/kernels/bitmap.hpp"
#include "ooc/kernels/message.hpp"

namespace ooc {

// The vertex arrays of one run of program P. `deltas` is used by accumulative programs only.
template <class P>
struct ProgramArrays {
  typename P::Value* values = nullptr;
  typename P::Value* deltas = nullptr;
};

// One active vertex's out-edges, wherever they currently are.
struct VertexEdges {
  vid_t vertex;
  const vid_t* targets;
  const std::uint32_t* weights;  // null when unweighted
  eid_t count;                   // the vertex's full out-degree
};

namespace detail {

inline constexpr eid_t kSplitEdges = eid_t{1} << 15;

template <class P>
OOC_FORCEINLINE void relax_edges(const P& program, ProgramArrays<P> arrays, Bitmap& next,
                                 const Message<P>& message, const VertexEdges& e, eid_t begin,
                                 eid_t end) {
  typename P::Value* dst = P::kind == ProgramKind::monotone ? arrays.values : arrays.deltas;
  for (eid_t j = begin; j < end; ++j) {
    const vid_t t = e.targets[j];
    if (relax_edge_to(program, message, e.weights == nullptr ? 0u : e.weights[j], dst, t))
      next.set_atomic(t);
  }
}

// The message the vertex sends, or false when it has nothing to send.
template <class P>
OOC_FORCEINLINE bool take_message(const P& program, ProgramArrays<P> arrays, const VertexEdges& e,
                                  Message<P>& message) {
  if constexpr (P::kind == ProgramKind::monotone) {
    message = make_message<P>(atomic_load(arrays.values + e.vertex), e.vertex);
    return true;
  } else {
    const typename P::Value delta = atomic_exchange(arrays.deltas + e.vertex, typename P::Value{0});
    if (delta == typename P::Value{0}) return false;
    atomic_add(arrays.values + e.vertex, delta);
    if (e.count == 0) return false;  // dangling: the delta is absorbed
    message = make_message<P>(program.message(delta, e.count), e.vertex);
    return true;
  }
}

}  // namespace detail

// Processes `count` vertices, edges_of(i) describing the i-th; returns the edges processed.
template <class P, class EdgesOf>
eid_t advance_cpu(const P& program, ProgramArrays<P> arrays, Bitmap& next, std::size_t count,
                  EdgesOf&& edges_of) {
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, count, 64), eid_t{0},
      [&](const tbb::blocked_range<std::size_t>& r, eid_t processed) {
        for (std::size_t i = r.begin(); i < r.end(); ++i) {
          const VertexEdges e = edges_of(i);
          Message<P> message{};
          if (!detail::take_message(program, arrays, e, message)) continue;
          processed += e.count;
          if (e.count < detail::kSplitEdges) {
            detail::relax_edges(program, arrays, next, message, e, 0, e.count);
            continue;
          }
          tbb::parallel_for(tbb::blocked_range<eid_t>(0, e.count, detail::kSplitEdges / 4),
                            [&](const tbb::blocked_range<eid_t>& edges) {
                              detail::relax_edges(program, arrays, next, message, e, edges.begin(),
                                                  edges.end());
                            });
        }
        return processed;
      },
      [](eid_t a, eid_t b) { return a + b; });
}

// The pull direction: each of `count` vertices gathers what `rule` offers along its list
// (edges_of(i): on a symmetric graph its in-neighbours), then combines the result into its value
// once; `rule` is the engine's PullRule (ooc/engine/pull.hpp). A vertex stops reading when
// rule.done() says nothing more can change it; read(i, n) hears that the i-th read n edges of its
// list. A very long list is split over edge ranges, each gathered and combined on its own.
// Returns the edges read.
template <class Rule, class EdgesOf, class Read>
eid_t pull_cpu(const Rule& rule, Bitmap& next, std::size_t count, EdgesOf&& edges_of, Read&& read) {
  using Value = decltype(rule.start(vid_t{0}));
  // Floats are combined in double: a sum of a hub's thousands of offers in float order loses
  // about 1e-4 of it, where the GPU's tree of warp sums loses far less.
  using Wide = std::conditional_t<std::is_same_v<Value, float>, double, Value>;
  const auto gather = [&](const VertexEdges& e, eid_t begin, eid_t end) {
    const Value started = rule.start(e.vertex);
    Wide gathered = started;
    eid_t j = begin;
    for (; j < end && !rule.done(static_cast<Value>(gathered)); ++j) {
      gathered = Rule::combine(
          gathered, Wide{rule.offer(e.targets[j], e.weights == nullptr ? 0u : e.weights[j])});
    }
    if (rule.apply(e.vertex, static_cast<Value>(gathered), started)) next.set_atomic(e.vertex);
    return j - begin;
  };
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, count, 64), eid_t{0},
      [&](const tbb::blocked_range<std::size_t>& r, eid_t processed) {
        for (std::size_t i = r.begin(); i < r.end(); ++i) {
          const VertexEdges e = edges_of(i);
          if (e.count < detail::kSplitEdges) {
            const eid_t n = gather(e, 0, e.count);
            read(i, n);
            processed += n;
            continue;
          }
          const eid_t n = tbb::parallel_reduce(
              tbb::blocked_range<eid_t>(0, e.count, detail::kSplitEdges / 4), eid_t{0},
              [&](const tbb::blocked_range<eid_t>& edges, eid_t sum) {
                return sum + gather(e, edges.begin(), edges.end());
              },
              [](eid_t a, eid_t b) { return a + b; });
          read(i, n);
          processed += n;
        }
        return processed;
      },
      [](eid_t a, eid_t b) { return a + b; });
}

}  // namespace ooc
