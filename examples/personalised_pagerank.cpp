// A user-defined accumulative program, written only against OocGraph's public API: personalised
// PageRank, the PageRank of a walk that restarts at one vertex. In the engine's delta form
// (programs.hpp) the restart mass starts as the source's pending delta; a vertex takes its delta,
// keeps it, and sends damping * delta / out-degree along each out-edge; a vertex without
// out-edges absorbs it. The result, value plus what is still pending below the threshold, is
// x = sum over k of (damping P)^k e_source: unnormalised, summing to at most 1 / (1 - damping).
//
// The example runs it out of core on a generated graph and checks it against a serial power
// iteration of the same sum (L1 distance within the bound the threshold allows), exiting
// non-zero otherwise. Built with oocgraph_gpu_sources() it runs on the GPU when there is one.
#include <cmath>
#include <cstdio>
#include <vector>

#include "ooc/engine/engine.hpp"
#include "ooc/partitioner/builder.hpp"
#include "ooc/partitioner/generators.hpp"
#include "ooc/partitioner/hub_sort.hpp"

struct PersonalisedPageRank {
  using Value = float;
  static constexpr ooc::ProgramKind kind = ooc::ProgramKind::accumulative;
  static constexpr bool needs_weights = false;
  static constexpr bool needs_symmetric = false;
  ooc::vid_t source;  // internal id
  float damping;
  float threshold;  // a vertex is active while its pending delta is at least this

  OOC_HD Value init(ooc::vid_t) const { return 0.0f; }
  OOC_HD Value init_delta(ooc::vid_t v) const { return v == source ? 1.0f : 0.0f; }
  OOC_HD bool active_at_start(ooc::vid_t v) const { return v == source; }
  OOC_HD Value message(Value delta, ooc::eid_t out_degree) const {
    return damping * delta / static_cast<float>(out_degree);
  }
  OOC_HD bool relax(Value message, std::uint32_t, Value* dst) const {
    const float before = ooc::atomic_add(dst, message);
    return before < threshold && before + message >= threshold;  // crossed it: active
  }
};

// Serial reference in the graph's internal ids: the same sum, by power iteration in double.
std::vector<double> reference(const ooc::Graph& g, ooc::vid_t source, double damping) {
  std::vector<double> x(g.num_vertices(), 0.0), r(g.num_vertices(), 0.0), next;
  r[source] = 1.0;
  for (double left = 1.0; left > 1e-12;) {
    next.assign(g.num_vertices(), 0.0);
    left = 0.0;
    for (ooc::vid_t u = 0; u < g.num_vertices(); ++u) {
      x[u] += r[u];
      const ooc::eid_t degree = g.degree(u);
      for (ooc::eid_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e)
        next[g.targets[e]] += damping * r[u] / static_cast<double>(degree);
    }
    r.swap(next);
    for (const double m : r)
      left += m;
  }
  return x;
}

int main() {
  ooc::EngineOptions options;
  options.backend = OOC_PROGRAMS_ON_GPU ? ooc::Backend::automatic : ooc::Backend::cpu;
  options.partition_bytes = 1 << 20;
  options.in_memory = false;
  ooc::OocEngine engine(ooc::hub_sort(ooc::build_graph(ooc::generate_kronecker(16, 16, 11), {})),
                        options);

  const ooc::vid_t source = engine.highest_degree_vertex();
  const PersonalisedPageRank program{engine.internal_id(source), 0.85f, 1e-9f};
  const auto result = engine.run(program);
  std::printf("%s\n", result.stats.summary().c_str());

  const ooc::Graph& g = engine.graph();
  const std::vector<double> expected = reference(g, program.source, program.damping);
  double l1 = 0;
  for (ooc::vid_t v = 0; v < g.num_vertices(); ++v)
    l1 += std::abs(result.values[engine.user_id(v)] - expected[v]);
  // What stays pending (below the threshold at each vertex) would have spread at most
  // 1 / (1 - damping) times itself; float sums add a little.
  const double bound =
      g.num_vertices() * static_cast<double>(program.threshold) / (1.0 - program.damping) + 1e-4;
  std::printf(
      "personalised PageRank from %u: L1 distance %.2e to the serial reference (bound %.2e)\n",
      source, l1, bound);
  if (!(l1 <= bound)) {
    std::fprintf(stderr, "personalised-pagerank: L1 distance %.3e exceeds %.3e\n", l1, bound);
    return 1;
  }
  return 0;
}
