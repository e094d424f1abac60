#pragma once
// One measurement: what was measured, how many useful bytes a run moved, and its timing.
#include <cstdint>
#include <optional>
#include <string>

#include "sample.hpp"

namespace pcie_bench {

constexpr int kAllDevices = -1;  // Row::device of the all-GPUs-at-once measurements

struct Row {
  int device = 0;                // CUDA index, or kAllDevices
  std::string test;              // the group: copy, sweep, zerocopy, lists, blocks, unified
  std::string pattern;           // e.g. "pinned H2D", "merged+aligned", "end to end"
  std::string param;             // e.g. "4 streams", "L=8", "4 blocks/SM"
  double x = 0;                  // the swept value the plots use: bytes, L, blocks per SM
  std::uint64_t bytes = 0;       // useful bytes one run moves
  std::optional<Sample> sample;  // empty: skipped, and the note says why
  std::string note;
  bool peak = false;           // its GPU's pinned H2D peak, the figure '% peak' divides by
  double percent_of_peak = 0;  // of this GPU's pinned H2D peak in this run (peak.hpp)

  double gbps() const {
    return sample ? gb_per_s(static_cast<double>(bytes), sample->median_ms) : 0;
  }
  double slowest_gbps() const {
    return sample ? gb_per_s(static_cast<double>(bytes), sample->slowest_ms) : 0;
  }
  double fastest_gbps() const {
    return sample ? gb_per_s(static_cast<double>(bytes), sample->fastest_ms) : 0;
  }
};

}  // namespace pcie_bench
