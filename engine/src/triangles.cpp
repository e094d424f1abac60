// Triangle counting (OocEngine::triangles) on the CPU backend.
//
// Each edge {u, v} is oriented from the lower degree rank to the higher (degree, then id), so that
// a triangle is found once, from its lowest-ranked vertex u: for each oriented edge u -> v, the
// common targets of u's and v's oriented lists close a triangle. Orienting by degree bounds every
// oriented list by about sqrt(2E) (Chiba and Nishizeki), so that a hub's list, which has most of
// a Kronecker graph's edges, is intersected against short ones only. The oriented lists are sorted
// by id; two lists of similar length are merged, a short one against a list more than
// kSearchRatio times longer is searched in it, a binary search per element.
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/parallel_reduce.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <string>
#include <vector>

#include "host_lists.hpp"
#include "ooc/core/error.hpp"
#include "ooc/engine/engine.hpp"

namespace ooc {
namespace {

// Merge two lists of about the same length; search the shorter in the longer past this ratio.
constexpr std::size_t kSearchRatio = 32;

// The oriented graph: vertex u's targets v of higher degree rank, sorted by id.
struct Oriented {
  std::vector<eid_t> offsets;
  std::vector<vid_t> targets;

  std::span<const vid_t> list(vid_t v) const {
    return {targets.data() + offsets[v], static_cast<std::size_t>(offsets[v + 1] - offsets[v])};
  }
};

Oriented orient(const Graph& g) {
  const vid_t n = g.num_vertices();
  const auto before = [&g](vid_t a, vid_t b) {
    const eid_t da = g.degree(a), db = g.degree(b);
    return da < db || (da == db && a < b);
  };
  Oriented o;
  o.offsets.assign(std::size_t{n} + 1, 0);
  tbb::parallel_for(tbb::blocked_range<vid_t>(0, n), [&](const tbb::blocked_range<vid_t>& r) {
    std::vector<vid_t> scratch;
    for (vid_t u = r.begin(); u != r.end(); ++u) {
      for (const vid_t v : detail::host_list(g, u, scratch))
        o.offsets[u + 1] += before(u, v) ? 1 : 0;
    }
  });
  for (vid_t v = 0; v < n; ++v)
    o.offsets[v + 1] += o.offsets[v];
  o.targets.resize(o.offsets[n]);
  // Each list sorted, a repeated edge kept once (its slots past the end stay unused: the list's
  // end is moved back).
  std::vector<eid_t> ends(n);
  tbb::parallel_for(tbb::blocked_range<vid_t>(0, n), [&](const tbb::blocked_range<vid_t>& r) {
    std::vector<vid_t> scratch;
    for (vid_t u = r.begin(); u != r.end(); ++u) {
      eid_t at = o.offsets[u];
      for (const vid_t v : detail::host_list(g, u, scratch))
        if (before(u, v)) o.targets[at++] = v;
      auto* first = o.targets.data() + o.offsets[u];
      std::sort(first, o.targets.data() + at);
      ends[u] = static_cast<eid_t>(std::unique(first, o.targets.data() + at) - o.targets.data());
    }
  });
  // Compact away the repeated edges' slots (a simple graph has none).
  eid_t at = 0;
  for (vid_t u = 0; u < n; ++u) {
    const eid_t begin = o.offsets[u];
    o.offsets[u] = at;
    for (eid_t e = begin; e < ends[u]; ++e)
      o.targets[at++] = o.targets[e];
  }
  o.offsets[n] = at;
  o.targets.resize(at);
  return o;
}

// Calls close(w) for each target the two sorted lists share.
template <class Close>
void intersect(std::span<const vid_t> a, std::span<const vid_t> b, Close&& close) {
  if (a.size() > b.size()) std::swap(a, b);
  if (a.empty()) return;
  if (b.size() > kSearchRatio * a.size()) {
    auto from = b.begin();
    for (const vid_t w : a) {
      from = std::lower_bound(from, b.end(), w);
      if (from == b.end()) return;
      if (*from == w) close(w);
    }
    return;
  }
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i] < b[j]) {
      ++i;
    } else if (b[j] < a[i]) {
      ++j;
    } else {
      close(a[i]);
      ++i;
      ++j;
    }
  }
}

}  // namespace

TriangleResult OocEngine::triangles(const RunOptions& run) {
  RunStats s = begin_host_run("tc", run);
  const Graph& g = graph();
  if (!g.symmetric) {
    throw InvalidInput(
        "tc needs a symmetric graph, and this one is directed (convert or generate it with "
        "--undirected)");
  }
  const auto start = std::chrono::steady_clock::now();
  const Oriented o = orient(g);
  const vid_t n = g.num_vertices();
  std::vector<std::atomic<std::uint64_t>> count(n);
  const std::uint64_t total = tbb::parallel_reduce(
      tbb::blocked_range<vid_t>(0, n), std::uint64_t{0},
      [&](const tbb::blocked_range<vid_t>& r, std::uint64_t found) {
        for (vid_t u = r.begin(); u != r.end(); ++u) {
          for (const vid_t v : o.list(u)) {
            std::uint64_t here = 0;
            intersect(o.list(u), o.list(v), [&](vid_t w) {
              count[w].fetch_add(1, std::memory_order_relaxed);
              ++here;
            });
            if (here == 0) continue;
            count[u].fetch_add(here, std::memory_order_relaxed);
            count[v].fetch_add(here, std::memory_order_relaxed);
            found += here;
          }
        }
        return found;
      },
      std::plus<>());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  TriangleResult result;
  std::vector<std::uint64_t> internal(n);
  for (vid_t v = 0; v < n; ++v)
    internal[v] = count[v].load(std::memory_order_relaxed);
  result.values = to_user_ids(internal.data());
  result.total = total;
  s.method = "degree-ordered, " + std::to_string(total) + " triangles";
  s.seconds = seconds;
  IterationStats it;
  it.active_vertices = n;
  it.active_edges = o.targets.size();
  it.edges_processed = o.targets.size();  // each oriented edge's two lists intersected
  it.seconds = it.compute_seconds = seconds;
  s.iterations.push_back(it);
  result.stats = std::move(s);
  return result;
}

}  // namespace ooc
