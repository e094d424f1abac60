// A user-defined program, written only against OocGraph's public API: widest (bottleneck)
// paths. width(v) is the largest, over paths from the source, of the smallest edge weight on
// the path — the capacity of the best single route. It is monotone (widths only grow), so it
// fits the engine's contract: relax() raises the target with atomic_max.
//
// The example runs it on a generated weighted graph, out of core, and checks the answer against a
// serial modified Dijkstra (largest width first), exiting non-zero on a mismatch. Built with
// oocgraph_gpu_sources() (CMakeLists.txt) it runs on the GPU when there is one; compiled by a
// host compiler alone it runs on the CPU.
#include <cstdio>
#include <limits>
#include <queue>
#include <vector>

#include "ooc/engine/engine.hpp"
#include "ooc/partitioner/builder.hpp"
#include "ooc/partitioner/generators.hpp"
#include "ooc/partitioner/hub_sort.hpp"

struct WidestPath {
  using Value = std::uint32_t;
  static constexpr ooc::ProgramKind kind = ooc::ProgramKind::monotone;
  static constexpr ooc::Reduction combine = ooc::Reduction::max;  // a width only grows
  static constexpr bool needs_weights = true;
  static constexpr bool needs_symmetric = false;
  ooc::vid_t source;  // internal id

  OOC_HD Value init(ooc::vid_t v) const {
    return v == source ? std::numeric_limits<Value>::max() : 0;
  }
  OOC_HD bool active_at_start(ooc::vid_t v) const { return v == source; }
  OOC_HD bool relax(Value src, std::uint32_t weight, Value* dst) const {
    const Value candidate = src < weight ? src : weight;
    return candidate > ooc::atomic_load(dst) && ooc::atomic_max(dst, candidate) < candidate;
  }
};

// Serial reference in the graph's internal ids.
std::vector<std::uint32_t> widest_reference(const ooc::Graph& g, ooc::vid_t source) {
  std::vector<std::uint32_t> width(g.num_vertices(), 0);
  std::priority_queue<std::pair<std::uint32_t, ooc::vid_t>> heap;
  width[source] = std::numeric_limits<std::uint32_t>::max();
  heap.push({width[source], source});
  while (!heap.empty()) {
    const auto [w, u] = heap.top();
    heap.pop();
    if (w < width[u]) continue;
    for (ooc::eid_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
      const std::uint32_t candidate = std::min(w, g.weights[e]);
      if (candidate > width[g.targets[e]]) {
        width[g.targets[e]] = candidate;
        heap.push({candidate, g.targets[e]});
      }
    }
  }
  return width;
}

int main() {
  ooc::BuildOptions build;
  build.undirected = true;
  build.weights = ooc::parse_weight_spec("random:1-1000", 7);
  ooc::EngineOptions options;
  // OOC_PROGRAMS_ON_GPU: this file was compiled with nvcc and ooc::engine_cuda.
  options.backend = OOC_PROGRAMS_ON_GPU ? ooc::Backend::automatic : ooc::Backend::cpu;
  options.partition_bytes = 1 << 20;
  options.in_memory = false;  // edges stay in host memory: the transfer engines at work
  ooc::OocEngine engine(ooc::hub_sort(ooc::build_graph(ooc::generate_kronecker(16, 16, 7), build)),
                        options);

  const ooc::vid_t source = engine.highest_degree_vertex();
  const auto result = engine.run(WidestPath{engine.internal_id(source)});
  std::printf("%s\n", result.stats.summary().c_str());

  const auto expected = widest_reference(engine.graph(), engine.internal_id(source));
  for (ooc::vid_t v = 0; v < engine.graph().num_vertices(); ++v) {
    if (result.values[engine.user_id(v)] != expected[v]) {
      std::fprintf(stderr, "widest-path: vertex %u: engine %u, reference %u\n", engine.user_id(v),
                   result.values[engine.user_id(v)], expected[v]);
      return 1;
    }
  }
  std::printf("widest paths from %u: %u vertices checked against the serial reference\n", source,
              engine.graph().num_vertices());
  return 0;
}
