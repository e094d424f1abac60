#pragma once
// RunStats as JSON and as a per-iteration CSV trace, shared by ooc-run and the benchmark suite.
#include <nlohmann/json.hpp>
#include <ostream>

#include "ooc/engine/stats.hpp"

namespace ooc::tools {

nlohmann::json to_json(const RunStats& stats);

// The exchange's calibration (GPU ranks): NCCL's set-up and every measured size.
nlohmann::json to_json(const ExchangeCalibration& calibration);

// Header line, then one line per iteration of each run; `run` numbers the repeats.
void write_trace_header(std::ostream& out);
void write_trace(std::ostream& out, int run, const RunStats& stats);

}  // namespace ooc::tools
