// The partitioner's heavy steps on a Kronecker graph (Graph500 parameters, edge factor 16,
// symmetrised): CSR build in edges per second, hub sort and SAGE's reordering in edges per
// second, .oocg write and read (checksums verified) in bytes per second. Scale 20 by default;
// set OOC_BENCH_SCALE for larger runs on the GPU host.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "ooc/partitioner/builder.hpp"
#include "ooc/partitioner/generators.hpp"
#include "ooc/partitioner/hub_sort.hpp"
#include "ooc/partitioner/oocg.hpp"
#include "ooc/partitioner/sage_reorder.hpp"

namespace {

unsigned bench_scale() {
  const char* s = std::getenv("OOC_BENCH_SCALE");
  return s == nullptr ? 20u : static_cast<unsigned>(std::stoul(s));
}

ooc::Graph kron_graph() {
  ooc::BuildOptions o;
  o.undirected = true;
  return ooc::build_graph(ooc::generate_kronecker(bench_scale(), 16, 1), o);
}

void BM_GenerateKronecker(benchmark::State& state) {
  std::uint64_t edges = 0;
  for (auto _ : state)
    edges += ooc::generate_kronecker(bench_scale(), 16, 1).size();
  state.counters["edges/s"] =
      benchmark::Counter(static_cast<double>(edges), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_GenerateKronecker)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_BuildCsr(benchmark::State& state) {
  ooc::BuildOptions o;
  o.undirected = true;
  std::uint64_t edges = 0;
  for (auto _ : state) {
    state.PauseTiming();
    ooc::EdgeList list = ooc::generate_kronecker(bench_scale(), 16, 1);
    state.ResumeTiming();
    edges += ooc::build_graph(std::move(list), o).num_edges();
  }
  state.counters["edges/s"] =
      benchmark::Counter(static_cast<double>(edges), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_BuildCsr)->Unit(benchmark::kMillisecond)->UseRealTime();

// Edges per second of a reordering, each iteration on a fresh graph.
template <class Reorder>
void reorder_rate(benchmark::State& state, Reorder reorder) {
  std::uint64_t edges = 0;
  for (auto _ : state) {
    state.PauseTiming();
    ooc::Graph g = kron_graph();
    state.ResumeTiming();
    edges += reorder(std::move(g)).num_edges();
  }
  state.counters["edges/s"] =
      benchmark::Counter(static_cast<double>(edges), benchmark::Counter::kIsRate);
}

void BM_HubSort(benchmark::State& state) {
  reorder_rate(state, [](ooc::Graph&& g) { return ooc::hub_sort(std::move(g)); });
}
BENCHMARK(BM_HubSort)->Unit(benchmark::kMillisecond)->UseRealTime();

// Hub sort and SAGE's rounds (the default 2), into sorted lists: the cost of --reorder sage.
void BM_SageReorder(benchmark::State& state) {
  reorder_rate(state, [](ooc::Graph&& g) { return ooc::sage_reorder(std::move(g)); });
}
BENCHMARK(BM_SageReorder)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_OocgWriteRead(benchmark::State& state) {
  const ooc::Graph g = kron_graph();
  const auto path =
      std::filesystem::temp_directory_path() / ("bench_" + std::to_string(::getpid()) + ".oocg");
  const bool write = state.range(0) == 0;
  if (!write) ooc::write_oocg(g, path);
  for (auto _ : state) {
    if (write) {
      ooc::write_oocg(g, path);
    } else {
      ooc::OocgReadOptions copy;
      copy.memory = &ooc::default_host_memory();
      benchmark::DoNotOptimize(ooc::read_oocg(path, copy).num_edges());
    }
  }
  state.SetBytesProcessed(
      static_cast<std::int64_t>(state.iterations() * std::filesystem::file_size(path)));
  std::filesystem::remove(path);
}
BENCHMARK(BM_OocgWriteRead)
    ->ArgName("read")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
