// The engine's CPU-side pieces: the compaction engine's gather throughput (bytes of edges and
// indices written to staging per second, the rate ExpTM-compaction feeds PCIe at), and the cost
// model's per-partition evaluation.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "ooc/engine/cost_model.hpp"
#include "ooc/partitioner/builder.hpp"
#include "ooc/partitioner/generators.hpp"
#include "ooc/transfer/compaction.hpp"

namespace {

// state.range(0): percent of the vertices active, picked at random.
void BM_Compaction(benchmark::State& state) {
  ooc::BuildOptions o;
  o.undirected = true;
  static const ooc::Graph g = ooc::build_graph(ooc::generate_kronecker(20, 16, 1), o);
  std::vector<ooc::vid_t> active;
  std::mt19937 random(1);
  for (ooc::vid_t v = 0; v < g.num_vertices(); ++v) {
    if (random() % 100 < static_cast<unsigned>(state.range(0))) active.push_back(v);
  }
  std::vector<ooc::vid_t> vertices(active.size()), targets(g.num_edges());
  std::vector<ooc::eid_t> offsets(active.size() + 1);
  const ooc::CompactionBuffer out{vertices.data(), offsets.data(),  targets.data(),
                                  nullptr,         vertices.size(), targets.size()};
  std::uint64_t bytes = 0;
  for (auto _ : state) {
    const ooc::CompactedBatch batch = ooc::compact(g, active, out);
    bytes += batch.edges * sizeof(ooc::vid_t) + batch.vertices * ooc::kCompactionIndexBytes;
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
}
BENCHMARK(BM_Compaction)
    ->ArgName("active%")
    ->Arg(1)
    ->Arg(10)
    ->Arg(50)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_CostModel(benchmark::State& state) {
  const ooc::CostConstants c;
  std::vector<ooc::PartitionActivity> parts(4096);
  std::mt19937_64 random(1);
  for (auto& p : parts) {
    p.edges = 8u << 20;
    p.active_edges = random() % p.edges;
    p.active_vertices = p.active_edges / 16 + 1;
    p.requests = p.active_vertices * 2;
  }
  for (auto _ : state) {
    unsigned chosen = 0;
    for (const auto& p : parts)
      chosen += static_cast<unsigned>(ooc::choose_engine(ooc::transfer_costs(p, 4, c), c));
    benchmark::DoNotOptimize(chosen);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * parts.size()));
}
BENCHMARK(BM_CostModel);

}  // namespace
