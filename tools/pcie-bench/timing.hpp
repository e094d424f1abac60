#pragma once
// How every figure of pcie-bench is taken: CUDA events around each run, warm-up runs thrown
// away, then the median of the timed runs (the fastest and slowest are kept too).
#include <cuda_runtime_api.h>

#include <utility>
#include <vector>

#include "cuda_check.hpp"
#include "cuda_resources.hpp"
#include "sample.hpp"

namespace pcie_bench {

struct Repeats {
  int warmup = 1;
  int timed = 5;
  int total() const { return warmup + timed; }
};

Sample summarize(std::vector<double> ms);

// Runs prepare() then launch() repeats.total() times on `stream`; only launch() lies between
// the two events. prepare() may enqueue work on `stream` (it finishes before the start event
// is taken) or do host work.
template <class Prepare, class Launch>
Sample time_runs(cudaStream_t stream, const Repeats& repeats, Prepare&& prepare, Launch&& launch) {
  const EventPtr start = make_event();
  const EventPtr stop = make_event();
  std::vector<double> ms;
  for (int run = 0; run < repeats.total(); ++run) {
    prepare();
    PCIE_CHECK(cudaEventRecord(start.get(), stream));
    launch();
    PCIE_CHECK(cudaEventRecord(stop.get(), stream));
    PCIE_CHECK(cudaEventSynchronize(stop.get()));
    float elapsed = 0;
    PCIE_CHECK(cudaEventElapsedTime(&elapsed, start.get(), stop.get()));
    if (run >= repeats.warmup) ms.push_back(elapsed);
  }
  return summarize(std::move(ms));
}

template <class Launch>
Sample time_runs(cudaStream_t stream, const Repeats& repeats, Launch&& launch) {
  return time_runs(
      stream, repeats, [] {}, launch);
}

}  // namespace pcie_bench
