#pragma once
// The pinned H2D peak: the one figure per GPU that the '% peak' column, the JSON's peak_gbps
// and the dashed line of every plot all are. It is one measurement, the copy test's
// "pinned H2D", "1 stream" row (the row run_copy_tests marks with Row::peak), never a maximum
// over several rows: a maximum of medians is biased upwards by noise and, when a sweep point
// won, named a figure that no row labelled as the peak showed.
#include <map>
#include <vector>

#include "row.hpp"

namespace pcie_bench {

// The name the table's note, the plots' legends (plot_pcie.py) and docs/pcie-bench.md give it.
inline constexpr const char* kPeakName = "pinned H2D peak";

// Each GPU's peak: the GB/s of its row marked Row::peak; with more than one GPU measured, also
// kAllDevices: the sum of their peaks, which the all-at-once rows are compared with. Sets every
// measured row's percent_of_peak (exactly 100 for a peak row) and names the peak rows in their
// note. Throws std::logic_error if a GPU has two peak rows.
std::map<int, double> apply_peaks(std::vector<Row>& rows);

}  // namespace pcie_bench
