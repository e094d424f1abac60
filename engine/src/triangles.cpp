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
#include "ooc/engine/detail/triangles.hpp"

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/parallel_reduce.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "engine_impl.hpp"
#include "host_lists.hpp"
#include "ooc/core/error.hpp"
#include "ooc/core/parallel_scan.hpp"
#include "ooc/engine/communicator.hpp"
#include "ooc/engine/engine.hpp"
#include "ooc/engine/ownership.hpp"
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

using Counts = std::vector<std::atomic<std::uint64_t>>;

// What one pass of the oriented edges found.
struct Found {
  std::uint64_t triangles = 0;
  std::uint64_t edges = 0;  // the oriented edges taken
};

// The oriented edges u -> v of `sources` (those whose v is in `only`, when given), each list(u)
// intersected with list(v) from `targets` (the same lists, or another rank's): every common w
// closes a triangle, counted for u, v and w into `count`.
Found count_pairs(const detail::Oriented& sources, const detail::Oriented& targets,
                  const Bitmap* only, Counts& count) {
  return tbb::parallel_reduce(
      tbb::blocked_range<vid_t>(0, sources.num_vertices()), Found{},
      [&](const tbb::blocked_range<vid_t>& r, Found found) {
        for (vid_t u = r.begin(); u != r.end(); ++u) {
          for (const vid_t v : sources.list(u)) {
            if (only != nullptr && !only->test(v)) continue;
            ++found.edges;
            const std::span<const vid_t> other = targets.list(v);
            std::uint64_t here = 0;
            intersect(sources.list(u), other, [&](vid_t w) {
              count[w].fetch_add(1, std::memory_order_relaxed);
              ++here;
            });
            if (here == 0) continue;
            count[u].fetch_add(here, std::memory_order_relaxed);
            count[v].fetch_add(here, std::memory_order_relaxed);
            found.triangles += here;
          }
        }
        return found;
      },
      [](Found a, const Found& b) {
        a.triangles += b.triangles;
        a.edges += b.edges;
        return a;
      });
}

std::vector<std::uint64_t> loaded(const Counts& count) {
  std::vector<std::uint64_t> out(count.size());
  tbb::parallel_for(std::size_t{0}, count.size(),
                    [&](std::size_t v) { out[v] = count[v].load(std::memory_order_relaxed); });
  return out;
}

// Each vertex's triangles and the graph's, the oriented lists intersected on the CPU.
detail::TriangleCounts count_on_cpu(const detail::Oriented& o) {
  Counts count(o.num_vertices());
  detail::TriangleCounts out;
  out.total = count_pairs(o, o, nullptr, count).triangles;
  out.per_vertex = loaded(count);
  return out;
}

// Across ranks: `own` holds this rank's vertices' oriented lists. The ranks take turns to hand
// theirs to the others (Communicator::broadcast: each listed vertex's oriented degree, then the
// lists), and in the turn of rank t each rank counts its own edges u -> v whose v rank t owns,
// with v's list beside u's: on the CPU (count_pairs), or on the GPU (`device`: count_on_gpu, own
// lists against the turn's, each in GPU memory when both fit `asked`, else in blocks). So each
// edge is counted once, by u's owner. The counts are summed over the ranks at the end. A rank
// holds its own lists and one other rank's at a time. A turn is an iteration on the CPU, and on
// the GPU as many as own's blocks; its broadcasts are its first iteration's exchange.
detail::TriangleCounts count_on_ranks(detail::Oriented& own, Communicator& ranks,
                                      std::span<const Partition> partitions,
                                      std::span<const std::uint32_t> owners,
                                      detail::DeviceGraph* device, std::uint64_t asked,
                                      bool in_memory, HostMemory& memory, RunStats& s) {
  using Clock = std::chrono::steady_clock;
  const vid_t n = own.num_vertices();
  Counts count(device == nullptr ? n : 0);
  std::vector<std::uint64_t> counted(device == nullptr ? 0 : n);
  detail::Oriented theirs;
  theirs.offsets = Buffer<eid_t>::allocate(std::size_t{n} + 1, memory);
  std::uint64_t total = 0;
  for (int turn = 0; turn < ranks.size(); ++turn) {
    const auto start = Clock::now();
    IterationStats it;
    const bool mine = turn == ranks.rank();
    const std::vector<std::pair<vid_t, vid_t>> ranges =
        owned_vertex_ranges(partitions, owners, static_cast<std::uint32_t>(turn));
    std::vector<std::uint32_t> degrees;
    Bitmap owned(n);
    for (const auto& [first, last] : ranges) {
      for (vid_t v = first; v < last; ++v) {
        degrees.push_back(mine ? static_cast<std::uint32_t>(own.offsets[v + 1] - own.offsets[v])
                               : 0);
        owned.set(v);
      }
    }
    ranks.broadcast(degrees, turn);
    std::fill_n(theirs.offsets.data(), std::size_t{n} + 1, eid_t{0});
    std::size_t at = 0;
    for (const auto& [first, last] : ranges) {
      for (vid_t v = first; v < last; ++v)
        theirs.offsets[v] = degrees[at++];
    }
    detail::exclusive_scan(theirs.offsets.data(), std::size_t{n} + 1);
    const eid_t edges = theirs.offsets[n];
    // The turn's rank sends its lists in place: they are its own.targets, in vertex order.
    if (!mine) theirs.targets = Buffer<vid_t>::allocate(edges, memory);
    ranks.broadcast(std::span<vid_t>(mine ? own.targets.data() : theirs.targets.data(), edges),
                    turn);
    it.exchange_bytes = (degrees.size() + edges) * sizeof(std::uint32_t);
    it.exchange_rounds = 2;  // the degrees, then the lists
    it.exchange_seconds = std::chrono::duration<double>(Clock::now() - start).count();
    const detail::Oriented& lists = mine ? own : theirs;
    if (device == nullptr) {
      const Found found = count_pairs(own, lists, &owned, count);
      total += found.triangles;
      it.iteration = static_cast<std::uint32_t>(s.iterations.size());
      it.active_vertices = it.frontier_vertices = static_cast<vid_t>(degrees.size());
      it.active_edges = it.frontier_edges = edges;
      it.edges_processed = found.edges;
      it.seconds = std::chrono::duration<double>(Clock::now() - start).count();
      it.compute_seconds = it.seconds - it.exchange_seconds;
      s.iterations.push_back(it);
      continue;
    }
    // count_on_gpu appends the turn's iterations to the run's and sets its plan (the last turn's
    // stays); each turn's copy of whole lists adds to the setup's bytes.
    const std::size_t first = s.iterations.size();
    const std::uint64_t setup_bytes = std::exchange(s.setup_bytes, 0);
    const detail::TriangleCounts c = detail::count_on_gpu(*device, own, lists, asked, in_memory, s);
    s.setup_bytes += setup_bytes;
    total += c.total;
    tbb::parallel_for(vid_t{0}, n, [&](vid_t v) { counted[v] += c.per_vertex[v]; });
    for (std::size_t i = first; i < s.iterations.size(); ++i)
      s.iterations[i].iteration = static_cast<std::uint32_t>(i);
    IterationStats& opening = s.iterations[first];
    opening.exchange_bytes = it.exchange_bytes;
    opening.exchange_rounds = it.exchange_rounds;
    opening.exchange_seconds = it.exchange_seconds;
    opening.seconds += it.exchange_seconds;
  }
  detail::TriangleCounts out;
  out.per_vertex = device == nullptr ? loaded(count) : std::move(counted);
  const auto summing = Clock::now();
  ranks.all_reduce(std::span<std::uint64_t>(out.per_vertex), Reduction::sum);
  ranks.all_reduce(std::span<std::uint64_t>(&total, 1), Reduction::sum);
  s.iterations.back().exchange_bytes += (std::uint64_t{n} + 1) * sizeof(std::uint64_t);
  s.iterations.back().exchange_rounds += 2;
  s.iterations.back().exchange_seconds +=
      std::chrono::duration<double>(Clock::now() - summing).count();
  out.total = total;
  return out;
}

}  // namespace

namespace detail {

Oriented orient(const Graph& g, HostMemory& memory, const Bitmap* listed) {
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
      if (listed != nullptr && !listed->test(u)) {
        o.offsets[u] = 0;
        continue;
      }
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
      if (listed != nullptr && !listed->test(u)) continue;  // kept[u] stays 0
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
  if (grouped()) {  // a request checked once, before the ranks run it (engine.cpp says why)
    lead().begin_host_run("tc", run, HostRanks::allowed);
    return on_group([&](OocEngine& e) { return e.triangles(run); });
  }
  RunStats s = begin_host_run("tc", run, HostRanks::allowed);
  const Graph& g = graph();
  if (!g.symmetric) {
    throw InvalidInput(
        "tc needs a symmetric graph, and this one is directed (convert or generate it with "
        "--undirected)");
  }
  detail::DeviceGraph* const device = impl_->device.get();
  Communicator* const ranks = impl_->communicator.get();
  if (ranks != nullptr) barrier(*ranks);  // the ranks' clocks start together
  const auto start = std::chrono::steady_clock::now();
  // The GPU copies the lists from pinned memory at the link's peak. A rank orients its own.
  HostMemory& memory = device ? pinned_memory(options().device) : default_host_memory();
  detail::Oriented o = detail::orient(g, memory, ranks != nullptr ? &impl_->owned : nullptr);
  const double orienting =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  TriangleResult result;
  detail::TriangleCounts counts;
  if (ranks != nullptr) {
    counts = count_on_ranks(o, *ranks, partitions(), impl_->owners, device, options().device_budget,
                            options().in_memory, memory, s);
    s.setup_seconds = orienting;
    s.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() - orienting;
  } else if (device != nullptr) {
    counts = detail::count_on_gpu(*device, o, o, options().device_budget, options().in_memory, s);
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
