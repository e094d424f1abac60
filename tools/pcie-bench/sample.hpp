#pragma once
// What one figure is: the median, fastest and slowest of its timed runs, and the unit every
// figure is given in. No CUDA here, so the report's logic can be tested on any host.

namespace pcie_bench {

struct Sample {
  double median_ms = 0;
  double fastest_ms = 0;
  double slowest_ms = 0;
};

// 1e9 bytes per second, the unit of every figure.
inline double gb_per_s(double bytes, double ms) {
  return bytes / (ms * 1e-3) / 1e9;
}

}  // namespace pcie_bench
