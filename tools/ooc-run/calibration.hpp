#pragma once
// --calibration: the cost model's link constants from a probe of the GPU's link or from a
// pcie-bench --json file.
#include <string>

#include "ooc/engine/options.hpp"

namespace ooc::tools {

// Sets `cost` as `how` (off, probe or a pcie-bench JSON file) says for GPU `device`; returns the
// line that says what they are (empty for off).
std::string calibrate(const std::string& how, int device, CostConstants& cost);

}  // namespace ooc::tools
