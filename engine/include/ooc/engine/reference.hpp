#pragma once
// Serial references, one per algorithm, as the GAP benchmark suite pairs every kernel with a
// verifier: deliberately simple code (queue BFS, Dijkstra, union-find, power iteration) that
// shares nothing with the engine but the graph. Values are indexed by the user's ids, like the
// engine's results, and compare() says whether two results agree. They read the raw lists: a
// compressed-only graph's are decoded first (decode_raw_lists); given none, they throw
// InvalidInput.
#include <cstdint>
#include <string>
#include <vector>

#include "ooc/partitioner/graph.hpp"

namespace ooc::reference {

std::vector<std::uint32_t> bfs(const Graph& g, vid_t source_user_id);
// Float weights are added in float, as the engine does, so results are exactly comparable.
std::vector<double> sssp(const Graph& g, vid_t source_user_id);
std::vector<vid_t> cc(const Graph& g);

// How many triangles each vertex (user ids) of a symmetric graph is in: every triple u < v < w of
// mutual neighbours, counted once, found by a merge of u's and v's lists sorted by id.
std::vector<std::uint64_t> triangles(const Graph& g);
// Each vertex's core number (user ids) on a symmetric graph, by Batagelj and Zaversnik's bucket
// order (arXiv cs/0310049): the vertex of least remaining degree next, every list entry a degree
// (a repeated edge or a self-loop the file kept counts too).
std::vector<std::uint32_t> kcore(const Graph& g);
// Each vertex's strongly connected component (user ids), named by its smallest user id: Tarjan's
// algorithm on the out-lists, iterative (a stack of vertices and next edges) so that a long path
// cannot overflow the call stack.
std::vector<vid_t> scc(const Graph& g);
// Normalised to sum to 1; iterates until no rank changes by more than 1e-13 of the total.
std::vector<double> pagerank(const Graph& g, double damping);

// Brandes' betweenness centrality from the given sources (user ids), unweighted, in double: for
// each vertex the sum over the sources s of delta_s(v) (engine.hpp, OocEngine::bc).
std::vector<double> bc(const Graph& g, const std::vector<vid_t>& sources_user_ids);

// Harmonic closeness from the given sources (user ids), unweighted: for each vertex v the sum
// over the sources s other than v that reach it of 1 / d(s, v) (engine.hpp, OocEngine::closeness).
std::vector<double> closeness(const Graph& g, const std::vector<vid_t>& sources_user_ids);

// The L1 distance a PageRank result may have from the reference: residual deltas below the
// tolerance leave at most 2 * tolerance / (1 - damping)^2 of the (normalised) total unsettled,
// plus float rounding. The engine adds a vertex's incoming messages up in single precision, up to
// `max_in_degree` of them into one sum in a pass, whose rounding error is at most that many times
// float's unit roundoff of what passes through the vertex (Higham, "Accuracy and Stability of
// Numerical Algorithms", 4.2): a hub whose in-edges number 10,000 may be off by 6e-4 of its rank,
// where a small graph's vertices stay within the 1e-5 also allowed.
double pagerank_l1_bound(double damping, double tolerance, std::uint64_t max_in_degree = 0);

// The most edges into one vertex (pagerank_l1_bound); reads the raw lists.
std::uint64_t max_in_degree(const Graph& g);

struct Comparison {
  bool equal = true;
  std::string message;  // the first difference, when not equal
};

template <class A, class B>
Comparison compare_exact(const std::vector<A>& engine, const std::vector<B>& expected) {
  if (engine.size() != expected.size()) return {false, "sizes differ"};
  for (std::size_t v = 0; v < engine.size(); ++v) {
    if (static_cast<double>(engine[v]) != static_cast<double>(expected[v])) {
      return {false, "vertex " + std::to_string(v) + ": engine " + std::to_string(engine[v]) +
                         ", reference " + std::to_string(expected[v])};
    }
  }
  return {};
}

Comparison compare_l1(const std::vector<float>& engine, const std::vector<double>& expected,
                      double bound);
// Every value within `relative` of the reference's, relative to max(1, |reference|) (bc, whose
// engine keeps path counts and dependencies in single precision).
Comparison compare_relative(const std::vector<double>& engine, const std::vector<double>& expected,
                            double relative);

}  // namespace ooc::reference
