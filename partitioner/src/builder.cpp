// Edge list -> CSR. Counting sort by source: count degrees, prefix-sum them into offsets,
// scatter the edges, then sort (and de-duplicate) each adjacency list, so the result does not
// depend on the input order of edges with the same source. Peak memory is the edge list plus
// one target array (plus weights).
#include "ooc/partitioner/builder.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <string>
#include <vector>

#include "list_build.hpp"
#include "ooc/core/error.hpp"
#include "ooc/core/progress.hpp"
#include "parallel.hpp"

namespace ooc {
namespace {

constexpr std::uint64_t kEdgeChunk = std::uint64_t{1} << 18;

using detail::kept;
using Plan = detail::EdgePlan;

void check_ids(const EdgeList& edges) {
  const vid_t n = edges.num_vertices;
  std::atomic<std::uint64_t> first_bad{edges.size()};
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, edges.size(), kEdgeChunk),
                    [&](const tbb::blocked_range<std::uint64_t>& r) {
                      for (std::uint64_t i = r.begin(); i < r.end(); ++i) {
                        if (edges.sources[i] >= n || edges.targets[i] >= n) {
                          std::uint64_t seen = first_bad.load();
                          while (i < seen && !first_bad.compare_exchange_weak(seen, i)) {
                          }
                          return;
                        }
                      }
                    });
  const std::uint64_t bad = first_bad.load();
  if (bad < edges.size()) {
    throw InvalidInput("edge " + std::to_string(bad) + " (" + std::to_string(edges.sources[bad]) +
                       " -> " + std::to_string(edges.targets[bad]) +
                       ") names a vertex beyond the declared " + std::to_string(n) + " vertices");
  }
}

// Renumbers the vertices that keep at least one edge to 0..k-1, in the order of their ids: those
// become the graph's ids (the user's), and the others are gone.
void compact_ids(EdgeList& edges, const Plan& plan) {
  const vid_t n = edges.num_vertices;
  auto new_id = Buffer<vid_t>::allocate(std::size_t{n} + 1);
  detail::parallel_fill(new_id.data(), new_id.size(), vid_t{0});
  const auto mark = [&](vid_t v) {
    std::atomic_ref<vid_t>(new_id[v]).store(1, std::memory_order_relaxed);
  };
  tbb::parallel_for(std::uint64_t{0}, edges.size(), [&](std::uint64_t i) {
    const vid_t u = edges.sources[i], v = edges.targets[i];
    if (!kept(plan, u, v)) return;
    mark(u);
    mark(v);
  });
  // After the scan, v is used exactly when new_id[v + 1] > new_id[v].
  const vid_t used = detail::exclusive_scan(new_id.data(), new_id.size());
  tbb::parallel_for(std::uint64_t{0}, edges.size(), [&](std::uint64_t i) {
    edges.sources[i] = new_id[edges.sources[i]];
    edges.targets[i] = new_id[edges.targets[i]];
  });
  edges.num_vertices = used;
}

// Calls visit(from, to) for every edge the plan keeps, in both directions when asked, limited to
// sources in [lo, hi).
template <class Visit>
void edges_from(const EdgeList& edges, const Plan& plan, vid_t lo, vid_t hi, ProgressStep& progress,
                Visit&& visit) {
  for (std::uint64_t begin = 0; begin < edges.size(); begin += kEdgeChunk) {
    const std::uint64_t end = std::min(edges.size(), begin + kEdgeChunk);
    for (std::uint64_t i = begin; i < end; ++i) {
      const vid_t u = edges.sources[i], v = edges.targets[i];
      if (!kept(plan, u, v)) continue;
      if (u - lo < hi - lo) visit(u, v, i);
      if (plan.both_directions && u != v && v - lo < hi - lo) visit(v, u, i);
    }
    progress.advance(end - begin);
  }
}

// Degrees counted into offsets[0..n), then an exclusive scan makes them offsets.
Buffer<eid_t> count_offsets(const EdgeList& edges, const Plan& plan) {
  const vid_t n = edges.num_vertices;
  auto offsets = Buffer<eid_t>::allocate(std::size_t{n} + 1);
  detail::parallel_fill(offsets.data(), offsets.size(), eid_t{0});
  const std::vector<vid_t> bounds = detail::owner_bounds(0, n);
  ProgressStep progress("counting degrees", edges.size() * (bounds.size() - 1));
  detail::for_owners(bounds, [&](vid_t lo, vid_t hi) {
    edges_from(edges, plan, lo, hi, progress,
               [&](vid_t from, vid_t, std::uint64_t) { ++offsets[from]; });
  });
  detail::exclusive_scan(offsets.data(), offsets.size());
  return offsets;
}

void scatter(const EdgeList& edges, const Plan& plan, Graph& g) {
  const vid_t n = edges.num_vertices;
  const eid_t m = g.offsets[n];
  const std::vector<vid_t> bounds = detail::owner_bounds_by_edges(g.offsets.data(), 0, n, m);
  auto cursor = Buffer<eid_t>::allocate(n);
  detail::parallel_copy_bytes(cursor.data(), g.offsets.data(), cursor.size_bytes());
  ProgressStep progress("placing edges", edges.size() * (bounds.size() - 1));
  detail::for_owners(bounds, [&](vid_t lo, vid_t hi) {
    edges_from(edges, plan, lo, hi, progress, [&](vid_t from, vid_t to, std::uint64_t i) {
      const eid_t at = cursor[from]++;
      g.targets[at] = to;
      if (plan.keep_input_weights) g.weights[at] = edges.weights[i];
    });
  });
}

// Sorts every list; when de-duplication shortened some, moves the lists into fresh arrays.
void sort_and_dedupe(Graph& g, bool dedupe) {
  const vid_t n = g.num_vertices();
  auto length = Buffer<eid_t>::allocate(std::size_t{n} + 1);
  const bool is_float = g.weight_type == WeightType::f32;
  {
    ProgressStep progress("sorting adjacency lists", g.num_edges());
    tbb::parallel_for(
        tbb::blocked_range<vid_t>(0, n, 256), [&](const tbb::blocked_range<vid_t>& r) {
          std::vector<std::uint64_t> scratch;
          for (vid_t v = r.begin(); v < r.end(); ++v) {
            std::uint32_t* w = g.weights.empty() ? nullptr : g.weights.data() + g.offsets[v];
            length[v] = detail::sort_and_dedupe_list(g.targets.data() + g.offsets[v], w,
                                                     g.degree(v), dedupe, is_float, scratch);
          }
          progress.advance(g.offsets[r.end()] - g.offsets[r.begin()]);
        });
  }
  length[n] = 0;
  const eid_t kept_edges = detail::exclusive_scan(length.data(), length.size());
  if (kept_edges == g.num_edges()) return;
  auto targets = Buffer<vid_t>::allocate(kept_edges);
  auto weights = Buffer<std::uint32_t>::allocate(g.weights.empty() ? 0 : kept_edges);
  tbb::parallel_for(tbb::blocked_range<vid_t>(0, n, 1024), [&](const tbb::blocked_range<vid_t>& r) {
    for (vid_t v = r.begin(); v < r.end(); ++v) {
      const auto count = static_cast<std::size_t>(length[v + 1] - length[v]);
      std::copy_n(g.targets.data() + g.offsets[v], count, targets.data() + length[v]);
      if (!weights.empty())
        std::copy_n(g.weights.data() + g.offsets[v], count, weights.data() + length[v]);
    }
  });
  g.offsets = std::move(length);
  g.targets = std::move(targets);
  g.weights = std::move(weights);
}

// Random integer weights, symmetric: (u, v) and (v, u) get the same weight.
void generate_weights(Graph& g, const WeightSpec& spec) {
  g.weights = Buffer<std::uint32_t>::allocate(g.num_edges());
  g.weight_type = WeightType::u32;
  tbb::parallel_for(tbb::blocked_range<vid_t>(0, g.num_vertices(), 1024),
                    [&](const tbb::blocked_range<vid_t>& r) {
                      for (vid_t u = r.begin(); u < r.end(); ++u) {
                        for (eid_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
                          g.weights[e] = detail::random_weight(spec, u, g.targets[e]);
                        }
                      }
                    });
}

std::uint32_t parse_bound(std::string_view text, std::string_view spec) {
  std::uint32_t value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || ptr != text.data() + text.size() || text.empty()) {
    throw InvalidInput("invalid weights '" + std::string(spec) +
                       "': expected random:LO-HI with integers 0 <= LO <= HI < 2^32");
  }
  return value;
}

}  // namespace

WeightSpec parse_weight_spec(std::string_view text, std::uint64_t seed) {
  WeightSpec spec;
  spec.seed = seed;
  if (text == "file") return spec;
  if (text == "none") {
    spec.kind = WeightSpec::Kind::none;
    return spec;
  }
  constexpr std::string_view kRandom = "random:";
  if (text.substr(0, kRandom.size()) != kRandom) {
    throw InvalidInput("invalid weights '" + std::string(text) +
                       "': expected file, none or random:LO-HI (e.g. random:1-64)");
  }
  const std::string_view range = text.substr(kRandom.size());
  const auto dash = range.find('-');
  if (dash == std::string_view::npos) parse_bound("", text);
  spec.kind = WeightSpec::Kind::random;
  spec.low = parse_bound(range.substr(0, dash), text);
  spec.high = parse_bound(range.substr(dash + 1), text);
  if (spec.low > spec.high) parse_bound("", text);
  return spec;
}

Graph build_graph(EdgeList&& input, const BuildOptions& options) {
  EdgeList edges = std::move(input);
  if (edges.targets.size() != edges.size() ||
      (!edges.weights.empty() && edges.weights.size() != edges.size())) {
    throw InvalidInput("edge list arrays have different lengths");
  }
  const Plan plan =
      detail::edge_plan(options, edges.symmetric_input,
                        edges.weight_type != WeightType::none && !edges.weights.empty());
  check_ids(edges);

  Graph g;
  g.symmetric = plan.both_directions;
  if (options.compact_ids) compact_ids(edges, plan);
  g.offsets = count_offsets(edges, plan);
  const eid_t m = g.offsets[edges.num_vertices];
  g.targets = Buffer<vid_t>::allocate(m);
  if (plan.keep_input_weights) {
    g.weights = Buffer<std::uint32_t>::allocate(m);
    g.weight_type = edges.weight_type;
  }
  scatter(edges, plan, g);
  edges = EdgeList{};  // release the input before the sort allocates
  sort_and_dedupe(g, options.remove_duplicates);
  if (options.weights.kind == WeightSpec::Kind::random) generate_weights(g, options.weights);
  return g;
}

}  // namespace ooc
