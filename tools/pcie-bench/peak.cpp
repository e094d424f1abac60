// The pinned H2D peak of each GPU, and every row's '% peak' of it (peak.hpp).
#include "peak.hpp"

#include <stdexcept>
#include <string>

namespace pcie_bench {

std::map<int, double> apply_peaks(std::vector<Row>& rows) {
  std::map<int, double> peaks;
  for (Row& row : rows) {
    if (!row.peak || !row.sample || row.device == kAllDevices) continue;
    if (!peaks.emplace(row.device, row.gbps()).second) {
      throw std::logic_error("two pinned H2D peak rows for GPU " + std::to_string(row.device));
    }
    row.note = row.note.empty() ? kPeakName : std::string(kPeakName) + "; " + row.note;
  }
  double sum = 0;
  for (const auto& [device, peak] : peaks)
    sum += peak;
  if (peaks.size() > 1) peaks[kAllDevices] = sum;
  for (Row& row : rows) {
    const auto peak = peaks.find(row.device);
    if (row.sample && peak != peaks.end() && peak->second > 0) {
      row.percent_of_peak = 100 * (row.gbps() / peak->second);  // x / x is exactly 1
    }
  }
  return peaks;
}

}  // namespace pcie_bench
