// The rank path's own cost on one device: the same run on an engine of one rank (a communicator
// of one, so every exchange counts, collects, combines and marks as on several ranks, with no
// other rank to wait for) against an engine without ranks. On a GPU the rank's collectives are
// NCCL's with one rank. What one rank adds is what every rank of a distributed run pays per
// exchange before any waiting: the ratio of the two runs, and the counters, say how much.
//
// The graph: OOC_BENCH_GRAPH, a .oocg file (whole, in host memory), or else Kronecker of
// OOC_BENCH_SCALE (default 20), undirected, weights 1..64, hub-sorted. The GPU when there is one,
// else the CPU. A GPU rank keeps its lists in the edge cache, never in in-memory mode: give
// OOC_BENCH_BUDGET (a size, e.g. 6GiB) below the graph's bytes so that the engine without ranks
// does too, or the two differ by more than the rank path. OOC_BENCH_IN_MEMORY=off and
// OOC_BENCH_PARTITION_BYTES (a size) stream every list on either backend (filter tasks, processed
// again when loaded), as the CPU backend's ranks do out of core. Counters per run: iterations,
// exchanges, and per exchange its time and, of that, NCCL's; the label is the last run's summary.
#include <benchmark/benchmark.h>

#include <array>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>

#include "ooc/core/units.hpp"
#include "ooc/engine/communicator.hpp"
#include "ooc/engine/engine.hpp"
#include "ooc/partitioner/builder.hpp"
#include "ooc/partitioner/generators.hpp"
#include "ooc/partitioner/hub_sort.hpp"
#include "ooc/partitioner/oocg.hpp"
#include "ooc/transfer/devices.hpp"

namespace {

ooc::Graph bench_graph() {
  if (const char* path = std::getenv("OOC_BENCH_GRAPH")) return ooc::read_oocg(path);
  const char* s = std::getenv("OOC_BENCH_SCALE");
  ooc::BuildOptions o;
  o.undirected = true;
  o.weights = ooc::parse_weight_spec("random:1-64", 1);
  const unsigned scale = s == nullptr ? 20u : static_cast<unsigned>(std::stoul(s));
  return ooc::hub_sort(ooc::build_graph(ooc::generate_kronecker(scale, 16, 1), o), 0.08);
}

// The two engines, each over its own copy of the graph, made once for every benchmark and never
// destroyed: at exit the CUDA runtime and NCCL may be torn down before a static's destructor runs
// (a static engine crashed the process there).
ooc::OocEngine& engine_for(bool ranked) {
  static const auto make = [](bool with_rank) {
    ooc::EngineOptions o;
    o.backend = ooc::list_devices().empty() ? ooc::Backend::cpu : ooc::Backend::cuda;
    o.cc = ooc::CcAlgorithm::labels;  // Afforest's pass exchanges nothing on ranks
    if (const char* budget = std::getenv("OOC_BENCH_BUDGET"))
      o.device_budget = ooc::parse_size(budget);
    if (const char* in_memory = std::getenv("OOC_BENCH_IN_MEMORY"))
      o.in_memory = std::string(in_memory) != "off";
    if (const char* bytes = std::getenv("OOC_BENCH_PARTITION_BYTES"))
      o.partition_bytes = ooc::parse_size(bytes);
    std::shared_ptr<ooc::Communicator> one;
    if (with_rank) one = std::move(ooc::thread_communicators(1).front());
    return new ooc::OocEngine(bench_graph(), o, one);
  };
  static std::array<ooc::OocEngine*, 2> engines{};
  ooc::OocEngine*& engine = engines[ranked ? 1 : 0];
  if (engine == nullptr) engine = make(ranked);
  return *engine;
}

// state.range(0): the program (0 bfs, 1 sssp, 2 cc, 3 pagerank at tolerance 1e-3);
// state.range(1): 1 for the engine of one rank, 0 for the one without.
void BM_OneRank(benchmark::State& state) {
  static constexpr std::array<const char*, 4> kNames = {"bfs", "sssp", "cc", "pagerank"};
  const auto program = static_cast<std::size_t>(state.range(0));
  const bool ranked = state.range(1) != 0;
  ooc::OocEngine& engine = engine_for(ranked);
  const ooc::vid_t source = engine.highest_degree_vertex();
  double seconds = 0, exchange = 0, nccl = 0;
  std::uint64_t exchanges = 0, iterations = 0;
  std::string summary;
  ooc::PageRankOptions pagerank;
  pagerank.tolerance = 1e-3f;
  for (auto _ : state) {
    ooc::RunStats s;
    switch (program) {
      case 0:
        s = engine.bfs(source).stats;
        break;
      case 1:
        s = engine.sssp(source).stats;
        break;
      case 2:
        s = engine.cc().stats;
        break;
      default:
        s = engine.pagerank(pagerank).stats;
        break;
    }
    state.SetIterationTime(s.seconds);
    seconds += s.seconds;
    iterations += s.iterations.size();
    summary = s.summary();
    for (const ooc::IterationStats& it : s.iterations) {
      exchanges += it.exchange_rounds;
      exchange += it.exchange_seconds;
      nccl += it.nccl_seconds;
    }
  }
  const double runs = static_cast<double>(state.iterations());
  state.SetLabel(std::string(kNames[program]) + (ranked ? ", one rank: " : ", no ranks: ") +
                 summary);
  state.counters["iterations"] = static_cast<double>(iterations) / runs;
  state.counters["exchanges"] = static_cast<double>(exchanges) / runs;
  if (exchanges > 0) {
    state.counters["exchange_ms"] = 1e3 * exchange / static_cast<double>(exchanges);
    state.counters["nccl_ms"] = 1e3 * nccl / static_cast<double>(exchanges);
    state.counters["exchange_share"] = exchange / seconds;
  }
}
BENCHMARK(BM_OneRank)
    ->ArgsProduct({{0, 1, 2, 3}, {0, 1}})
    ->ArgNames({"program", "ranked"})
    ->Unit(benchmark::kMillisecond)
    ->UseManualTime();

}  // namespace
