#pragma once
// The results of a run: the table on stdout, CSV and JSON files ('% peak': peak.hpp).
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include "ooc/transfer/devices.hpp"
#include "options.hpp"
#include "row.hpp"

namespace pcie_bench {

void print_table(std::ostream& out, const std::vector<Row>& rows);
void write_csv(const std::string& path, const std::vector<Row>& rows);
// `peaks`: apply_peaks's, written as peak_gbps. `devices`: as listed when the run began (free
// memory before the run).
void write_json(const std::string& path, const std::vector<Row>& rows,
                const std::map<int, double>& peaks, const Plan& plan,
                const std::vector<ooc::DeviceInfo>& devices);

}  // namespace pcie_bench
