#include "ooc/engine/pagerank_bound.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>

#include "ooc/core/error.hpp"

namespace ooc {
namespace {

constexpr double kRoundoff = 0x1p-24;              // u: half of FLT_EPSILON
constexpr double kRoundingFloor = 16 * kRoundoff;  // what falls either way, and the last rounding
constexpr double kRoundingShare = 1.0 / 16;        // of an l1 asked for, kept for rounding

// 2 T / (|z| + T), T = d p / (1 - d).
double truncation_bound(double damping, const PageRankRemainder& left) {
  const double t = damping * left.pending / (1.0 - damping);
  return t > 0 ? 2.0 * t / (left.total + t) : 0.0;
}

// 2 |D| / ((1 - d) |z|) + 16 u, D the defect of the invariant's sum.
double rounding_bound(double damping, const PageRankRemainder& left) {
  const double defect = left.values - damping * left.values_with_edges + left.deltas -
                        (1.0 - damping) * left.vertices;
  const double moved = left.total > 0 ? 2.0 * std::abs(defect) / ((1.0 - damping) * left.total) : 0;
  return moved + kRoundingFloor;
}

std::string shown(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", x);
  return text;
}

}  // namespace

PageRankRemainder pagerank_remainder(const Graph& g, std::span<const float> values,
                                     std::span<const float> deltas) {
  const auto add = [](PageRankRemainder a, const PageRankRemainder& b) {
    a.values += b.values;
    a.values_with_edges += b.values_with_edges;
    a.deltas += b.deltas;
    a.pending += b.pending;
    a.total += b.total;
    return a;
  };
  PageRankRemainder left = tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, values.size(), 1 << 14), PageRankRemainder{},
      [&](const tbb::blocked_range<std::size_t>& r, PageRankRemainder sum) {
        for (std::size_t v = r.begin(); v < r.end(); ++v) {
          sum.values += values[v];
          sum.deltas += deltas[v];
          sum.total += values[v] + deltas[v];  // in float, as the ranks are made
          if (g.degree(static_cast<vid_t>(v)) == 0) continue;
          sum.values_with_edges += values[v];
          sum.pending += deltas[v];
        }
        return sum;
      },
      add);
  left.vertices = static_cast<double>(values.size());
  return left;
}

double pagerank_l1_bound(double damping, const PageRankRemainder& left) {
  return truncation_bound(damping, left) + rounding_bound(damping, left);
}

PageRankGraph pagerank_graph(const Graph& g, double edges) {
  const vid_t with_edges = tbb::parallel_reduce(
      tbb::blocked_range<vid_t>(0, g.num_vertices(), 1 << 14), vid_t{0},
      [&](const tbb::blocked_range<vid_t>& r, vid_t count) {
        for (vid_t v = r.begin(); v < r.end(); ++v)
          count += g.degree(v) > 0 ? 1 : 0;
        return count;
      },
      std::plus<>());
  return {.vertices = static_cast<double>(g.num_vertices()),
          .edges = edges,
          .vertices_with_edges = static_cast<double>(with_edges),
          .symmetric = g.symmetric};
}

double pagerank_least_l1() {
  return kRoundingFloor / (1.0 - kRoundingShare);
}

double pagerank_pending_for(double l1, double damping, const PageRankGraph& g) {
  if (!(l1 > pagerank_least_l1() && l1 < 2)) {
    throw InvalidInput("an L1 distance of " + shown(l1) + " is not between " +
                       shown(pagerank_least_l1()) +
                       " (float ranks' rounding) and 2 (ranks that sum to 1 are at most 2 apart)");
  }
  const double truncation = (1.0 - kRoundingShare) * l1 - kRoundingFloor;
  // |x*| from below: V - d * dangling on a symmetric graph (a dangling vertex is isolated and
  // keeps 1 - d); otherwise each vertex keeps 1 - d and each with edges passes on d (1 - d).
  const double dangling = g.vertices - g.vertices_with_edges;
  const double least_total = g.symmetric
                                 ? g.vertices - damping * dangling
                                 : (1.0 - damping) * (g.vertices + damping * g.vertices_with_edges);
  // 2 T / |x*| <= truncation, T = d p / (1 - d): the most p may be.
  return truncation * least_total * (1.0 - damping) / (2.0 * damping);
}

float pagerank_tolerance_for(double l1, double damping, PushRule rule, const PageRankGraph& g) {
  const double pending = pagerank_pending_for(l1, damping, g);
  double tolerance = 1.0;  // no vertex with edges: nothing pends where it matters
  if (rule == PushRule::per_edge && g.edges > 0) {
    tolerance = pending * (g.edges + g.vertices) / (g.vertices * g.edges);  // p < per_edge * E
  } else if (rule != PushRule::per_edge && g.vertices_with_edges > 0) {
    tolerance = pending / g.vertices_with_edges;  // p < tolerance * vertices with edges
  }
  return std::nextafter(static_cast<float>(std::min(tolerance, 1.0)), 0.0f);
}

}  // namespace ooc
