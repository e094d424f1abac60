#pragma once
// The results of a run: the '% peak' column, the table on stdout, CSV and JSON files.
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include "ooc/transfer/devices.hpp"
#include "options.hpp"
#include "row.hpp"

namespace pcie_bench {

// Each GPU's pinned H2D cudaMemcpy peak (the best pinned H2D copy or sweep point of the run);
// for kAllDevices, the sum over the GPUs measured. Sets every row's percent_of_peak.
std::map<int, double> apply_peaks(std::vector<Row>& rows);

void print_table(std::ostream& out, const std::vector<Row>& rows);
void write_csv(const std::string& path, const std::vector<Row>& rows);
// `devices`: as listed when the run began (free memory before the run).
void write_json(const std::string& path, const std::vector<Row>& rows,
                const std::map<int, double>& peaks, const Plan& plan,
                const std::vector<ooc::DeviceInfo>& devices);

}  // namespace pcie_bench
