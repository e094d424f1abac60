// Triangle counting (OocEngine::triangles): the oriented graph, for both backends, and the CPU
// backend's counting (the GPU's is triangles_gpu.cpp).
//
// Each edge {u, v} is oriented from the lower degree rank to the higher (degree, then id), so that
// a triangle is found once, from its lowest-ranked vertex u: for each oriented edge u -> v, the
// common targets of u's and v's oriented lists close a triangle. Orienting by degree bounds every
// oriented list by about sqrt(2E) (Chiba and Nishizeki), so that a hub's list, which has most of
// a Kronecker graph's edges, is intersected against short ones only. The oriented lists are sorted
// by id; two lists of similar length are merged, a short one against a list more than
// kSearchRatio times longer is searched in it, a binary search per element.
#include "triangles.hpp"

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/parallel_reduce.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "engine_impl.hpp"
#include "host_lists.hpp"
#include "ooc/core/error.hpp"
#include "ooc/core/parallel_scan.hpp"
#include "ooc/engine/engine.hpp"
#include "ooc/transfer/pinned_memory.hpp"

namespace ooc {
namespace {

// Merge two lists of about the same length; search the shorter in the longer past this ratio.
constexpr std::size_t kSearchRatio = 32;

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

// Each vertex's triangles and the graph's, the oriented lists intersected on the CPU.
detail::TriangleCounts count_on_cpu(const detail::Oriented& o) {
  const vid_t n = o.num_vertices();
  std::vector<std::atomic<std::uint64_t>> count(n);
  detail::TriangleCounts out;
  out.total = tbb::parallel_reduce(
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
  out.per_vertex.resize(n);
  for (vid_t v = 0; v < n; ++v)
    out.per_vertex[v] = count[v].load(std::memory_order_relaxed);
  return out;
}

}  // namespace

namespace detail {

Oriented orient(const Graph& g, HostMemory& memory) {
  const vid_t n = g.num_vertices();
  const auto before = [&g](vid_t a, vid_t b) {
    const eid_t da = g.degree(a), db = g.degree(b);
    return da < db || (da == db && a < b);
  };
  Oriented o;
  o.offsets = Buffer<eid_t>::allocate(std::size_t{n} + 1, memory);
  o.offsets[n] = 0;
  // Which edges point to a later rank, a bit each at the edge's place in the graph's lists: each
  // target's degree is read once (a read anywhere in the offsets, which is most of the orienting's
  // time), and the second pass only copies what the bits keep.
  std::vector<std::uint64_t> later_bits((std::size_t{g.num_edges()} + 63) / 64);
  tbb::parallel_for(tbb::blocked_range<vid_t>(0, n), [&](const tbb::blocked_range<vid_t>& r) {
    std::vector<vid_t> scratch;
    for (vid_t u = r.begin(); u != r.end(); ++u) {
      eid_t later = 0, e = g.offsets[u];
      std::uint64_t word = 0;
      // The word of the edge before e; those at the ends of the range are shared with the
      // neighbouring ranges' vertices.
      const auto flush = [&] {
        if (word != 0) std::atomic_ref(later_bits[(e - 1) / 64]).fetch_or(word);
        word = 0;
      };
      for (const vid_t v : host_list(g, u, scratch)) {
        if (before(u, v)) {
          word |= std::uint64_t{1} << (e % 64);
          ++later;
        }
        if (++e % 64 == 0) flush();
      }
      flush();
      o.offsets[u] = later;
    }
  });
  exclusive_scan(o.offsets.data(), std::size_t{n} + 1);
  o.targets = Buffer<vid_t>::allocate(o.offsets[n], memory);
  // Each list sorted (the graph's lists mostly are already), a repeated edge kept once: its list's
  // kept length in `kept`.
  std::vector<eid_t> kept(n);
  std::atomic<bool> repeated{false};
  tbb::parallel_for(tbb::blocked_range<vid_t>(0, n), [&](const tbb::blocked_range<vid_t>& r) {
    std::vector<vid_t> scratch;
    for (vid_t u = r.begin(); u != r.end(); ++u) {
      vid_t* const first = o.targets.data() + o.offsets[u];
      vid_t* last = first;
      eid_t e = g.offsets[u];
      for (const vid_t v : host_list(g, u, scratch)) {
        if ((later_bits[e / 64] >> (e % 64)) & 1) *last++ = v;
        ++e;
      }
      if (!std::is_sorted(first, last)) std::sort(first, last);
      vid_t* const end = std::unique(first, last);
      if (end != last) repeated.store(true, std::memory_order_relaxed);
      kept[u] = static_cast<eid_t>(end - first);
    }
  });
  if (!repeated.load()) return o;
  // A graph with repeated edges (a simple graph has none): the kept targets into lists of their
  // own, the lists' slots past their ends left out.
  Oriented c;
  c.offsets = Buffer<eid_t>::allocate(std::size_t{n} + 1, memory);
  c.offsets[n] = 0;
  tbb::parallel_for(vid_t{0}, n, [&](vid_t u) { c.offsets[u] = kept[u]; });
  exclusive_scan(c.offsets.data(), std::size_t{n} + 1);
  c.targets = Buffer<vid_t>::allocate(c.offsets[n], memory);
  tbb::parallel_for(vid_t{0}, n, [&](vid_t u) {
    std::copy_n(o.targets.data() + o.offsets[u], kept[u], c.targets.data() + c.offsets[u]);
  });
  return c;
}

}  // namespace detail

TriangleResult OocEngine::triangles(const RunOptions& run) {
  RunStats s = begin_host_run("tc", run);
  const Graph& g = graph();
  if (!g.symmetric) {
    throw InvalidInput(
        "tc needs a symmetric graph, and this one is directed (convert or generate it with "
        "--undirected)");
  }
  detail::DeviceGraph* const device = impl_->device.get();
  const auto start = std::chrono::steady_clock::now();
  // The GPU copies the lists from pinned memory at the link's peak.
  const detail::Oriented o =
      detail::orient(g, device ? pinned_memory(options().device) : default_host_memory());
  const double orienting =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  TriangleResult result;
  detail::TriangleCounts counts;
  if (device != nullptr) {
    counts = detail::count_on_gpu(*device, o, options().device_budget, options().in_memory, s);
    s.setup_seconds += orienting;
  } else {
    counts = count_on_cpu(o);
    s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    IterationStats it;
    it.active_vertices = o.num_vertices();
    it.active_edges = o.num_edges();
    it.edges_processed = o.num_edges();  // each oriented edge's two lists intersected
    it.seconds = it.compute_seconds = s.seconds;
    s.iterations.push_back(it);
  }
  result.values = to_user_ids(counts.per_vertex.data());
  result.total = counts.total;
  s.method = "degree-ordered, " + std::to_string(counts.total) + " triangles" + counts.blocks;
  result.stats = std::move(s);
  return result;
}

}  // namespace ooc
