#pragma once
// EngineOptions::adapt_costs on the GPU: CUDA events time each filter and zero-copy span of an
// iteration's tasks against one base event, and the spans that no span of the other engine
// overlaps move the cost constants (calibration.hpp, adapted). Kept apart from the executor
// because nothing here depends on the program. For the CUDA sources only.
#include <cuda_runtime.h>

#include <vector>

#include "ooc/engine/calibration.hpp"
#include "ooc/engine/cost_model.hpp"
#include "ooc/transfer/device_array.hpp"

namespace ooc::detail {

class CostAdapter {
 public:
  // What a timed span moved.
  struct Span {
    TransferEngine engine;
    double amount;  // filter: bytes; zero-copy: requests
    double share;   // zero-copy: active edges over the partitions' edges
  };

  // The base event, recorded on `s` before every task's stream waits for the work bitmap.
  void start(cudaStream_t s, const char* doing);
  // A span's start and end on stream s.
  void time_from(cudaStream_t s, const char* doing);
  void time_to(cudaStream_t s, const Span& what, const char* doing);
  // `cost` moved by the spans timed since the last call (the streams have finished them).
  CostConstants adapt(const CostConstants& cost, const char* doing);

 private:
  std::vector<Event> timers_;  // [0] the base, then two per span
  std::vector<Span> timed_;
};

}  // namespace ooc::detail
