#pragma once
// The cost model's link constants measured on this machine (docs/cost-model.md, "Calibration"),
// instead of the defaults measured once on the lent H200: from a probe of the GPU's link at start
// (well under a second) or from a pcie-bench JSON of the same machine.
#include "ooc/engine/options.hpp"

namespace ooc {

struct LinkMeasurements {
  double copy_gbps = 0;      // pinned cudaMemcpy H2D
  double zerocopy_gbps = 0;  // zero-copy reads, a warp per whole 128 B line (merged, aligned)
  double list8_gbps = 0;     // a warp per 8-element list on its own 128 B line (32 B a request)
  double list32_gbps = 0;    // the same with 32-element lists (128 B a request)
};

// The constants the measurements set; the others stay as in `base`:
//   link_bandwidth       copy_gbps
//   zerocopy_round_trip  copy_gbps / zerocopy_gbps
//   gamma                a / t(128), with a request of b useful bytes taking t(b) = a + c b: the
//                        8- and 32-element lists give t(32) and t(128)
// Throws InvalidInput, naming the figure, when one is not positive or they contradict the model
// (a longer list delivering fewer bytes per request).
CostConstants calibrated(CostConstants base, const LinkMeasurements& m);

// Measures GPU `device`'s link (pinned copies, then zero-copy lists of 8 and 32 elements over
// 256 MiB) in about 0.1 s. Throws Unsupported in a build without CUDA.
LinkMeasurements probe_link(int device);

}  // namespace ooc
