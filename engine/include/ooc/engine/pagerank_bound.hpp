#pragma once
// How far a PageRank run's ranks may be from the converged ones, in L1 (the ranks sum to 1): the
// bound a run reports from what it left (RunStats::l1_bound), and the tolerance that a run asked
// for an L1 distance runs at (PageRankOptions::l1). docs/programs.md, "PageRank".
//
// The engine's PageRank is the delta form of Maiter and HyTGraph (programs.hpp). With damping d
// and P the walk matrix (column v spreads v's rank evenly over its out-edges; a dangling vertex's
// column is zero: it absorbs), the converged unnormalised ranks are x* = (1 - d)(I - dP)^-1 1. A
// run keeps values x and pending deltas r with (I - dP) x + r = (1 - d) 1 at every push (a push
// moves r_v into x_v and d r_v / deg(v) to each out-neighbour: Andersen, Chung and Lang's
// invariant, FOCS 2006), and returns z = x + r normalised. So x* - z = (I - dP)^-1 dP r, which
// is non-negative, of L1 norm t = |x*| - |z| <= T = d p / (1 - d), p the delta pending at the
// vertices with out-edges (a dangling vertex's is final): the columns of dP sum to d or 0. The
// normalised difference z / |z| - x* / |x*| has a positive part of at most t / (|z| + t), and
// both sum to 1, so
//     L1 <= 2 t / (|z| + t) <= 2 T / (|z| + T)              (truncation; proven)
// The run adds floats. Summed over the vertices the invariant reads
// |x| - d |x with edges| + |r| = (1 - d) V; its defect D at the end is the net rounding of every
// sum and message, which moves at most |D| / (1 - d) of unnormalised rank when it falls one way,
// as a hub's sum of a million equal messages does (it lost 0.2% of the hub's rank on a star of
// 2^20 vertices). What falls either way, and each rank rounded to float at the end (3 u), is
// allowed a floor of 16 u (u = 2^-24):
//     + 2 |D| / ((1 - d) |z|) + 16 u                        (rounding; an estimate)
// Measured on the CPU backend, the whole rounding of runs at tolerances down to 1e-10 (kron,
// urand, grids, stars, chains of 2^12 to 2^20 vertices) stayed within this term, on kron within
// 0.2 of it (docs/programs.md).
#include <cstdint>
#include <span>

#include "ooc/engine/options.hpp"
#include "ooc/partitioner/graph.hpp"

namespace ooc {

// What a PageRank run left, in unnormalised rank units, summed in double.
struct PageRankRemainder {
  double vertices = 0;           // V: each started with 1 - d pending
  double values = 0;             // |x|
  double values_with_edges = 0;  // of the vertices with out-edges
  double deltas = 0;             // |r|
  double pending = 0;            // p: r of the vertices with out-edges
  double total = 0;              // |z|: the float sums x_v + r_v, which the ranks are divided by
};

// Adds up a run's values and pending deltas (internal ids).
PageRankRemainder pagerank_remainder(const Graph& g, std::span<const float> values,
                                     std::span<const float> deltas);

// The bound on the L1 distance of a run's ranks to the converged ones: truncation plus rounding.
double pagerank_l1_bound(double damping, const PageRankRemainder& left);

// The counts of a graph that bound what a run at a tolerance leaves pending.
struct PageRankGraph {
  double vertices = 0;
  double edges = 0;
  double vertices_with_edges = 0;
  // Every edge has its reverse: a dangling vertex is isolated, so |x*| = V - d * dangling.
  bool symmetric = false;
};
PageRankGraph pagerank_graph(const Graph& g, double edges);

// The smallest L1 distance a run may be asked for: below it the rounding floor and the share
// of `l1` kept for rounding leave nothing for truncation.
double pagerank_least_l1();

// The most delta that may pend at the vertices with out-edges (PageRankRemainder::pending) for a
// truncation bound of at most 15/16 of `l1` (the rest is kept for rounding), whatever the graph's
// ranks: |z| + T >= |x*|, which the graph's counts bound from below. A run asked for `l1` ends
// once no more pends (DriveOptions::enough_pending). Throws InvalidInput unless
// pagerank_least_l1() < l1 < 2.
double pagerank_pending_for(double l1, double damping, const PageRankGraph& g);

// The largest tolerance at which a run under `rule` (per_edge or per_vertex) ends with a
// truncation bound of at most 15/16 of `l1`: less than the tolerance pends at each vertex at its
// end (per-vertex), or less than the per-edge threshold times its out-degree (per-edge), in all
// less than pagerank_pending_for(l1). Throws as pagerank_pending_for.
float pagerank_tolerance_for(double l1, double damping, PushRule rule, const PageRankGraph& g);

}  // namespace ooc
