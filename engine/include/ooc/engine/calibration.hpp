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

// What one iteration measured of the transfer engines it ran (EngineOptions::adapt_costs): only
// spans that no span of the other engine overlapped, since engines that run at once share the
// link and each one's time then says as much about the other.
struct EngineTimings {
  double filter_bytes = 0, filter_seconds = 0;         // filter tasks' copies, and their decoding
  double zerocopy_requests = 0, zerocopy_seconds = 0;  // zero-copy tasks' kernels
  // The zero-copy partitions' active edges over their edges, weighted by their requests.
  double zerocopy_share = 0;
};

// Timings shorter than this change nothing: launch costs and latency would dominate them (a
// run's tail iterations take about as long whatever they move: docs/performance-log.md, "Figures
// moved from code comments").
inline constexpr double kMinTimedSeconds = 1e-3;
// The weight of one iteration's timings against the constants before it.
inline constexpr double kAdaptWeight = 0.5;

// The constants after one iteration's timings, each moved kAdaptWeight of the way to what the
// timings imply; the others stay:
//   link_bandwidth       filter_bytes / filter_seconds, when filter tasks ran
//   zerocopy_round_trip  the zero-copy kernels' seconds over what formula (3) predicts for their
//                        requests at round trip 1, a round trip being m MR bytes at
//                        link_bandwidth: R m (gamma + (1 - gamma) share) / link_bandwidth.
//                        Kept within [1/4, 16]: a kernel that waits on something else than the
//                        link (an empty grid, atomics) says nothing about the link.
// With the lines full (share 1) the round trip is link_bandwidth over the zero-copy bytes per
// second, as calibrated() sets it from a probe.
CostConstants adapted(CostConstants c, const EngineTimings& t);

// Measures GPU `device`'s link (pinned copies, then zero-copy lists of 8 and 32 elements over
// 256 MiB) in well under a second (docs/cost-model.md, "Calibration"). Throws Unsupported in a
// build without CUDA.
LinkMeasurements probe_link(int device);

}  // namespace ooc
