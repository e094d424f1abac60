#include "ooc/engine/calibration.hpp"

#include <algorithm>
#include <string>

#include "ooc/core/error.hpp"

namespace ooc {

CostConstants calibrated(CostConstants base, const LinkMeasurements& m) {
  const auto positive = [](double gbps, const char* what) {
    if (!(gbps > 0)) {
      throw InvalidInput(std::string("link calibration: ") + what + " is " + std::to_string(gbps) +
                         " GB/s; it must be positive");
    }
  };
  positive(m.copy_gbps, "the pinned copy");
  positive(m.zerocopy_gbps, "the zero-copy read");
  positive(m.list8_gbps, "the 8-element lists");
  positive(m.list32_gbps, "the 32-element lists");
  // Nanoseconds per request: bytes / (GB/s).
  const double t32 = 32.0 / m.list8_gbps, t128 = 128.0 / m.list32_gbps;
  const double per_byte = (t128 - t32) / 96.0;
  const double fixed = t32 - 32.0 * per_byte;
  if (per_byte < 0 || fixed < 0) {
    throw InvalidInput("link calibration: 8-element lists at " + std::to_string(m.list8_gbps) +
                       " GB/s and 32-element ones at " + std::to_string(m.list32_gbps) +
                       " GB/s do not fit a fixed plus per-byte cost per request");
  }
  base.link_bandwidth = m.copy_gbps * 1e9;
  base.zerocopy_round_trip = m.copy_gbps / m.zerocopy_gbps;
  base.gamma = fixed / t128;
  return base;
}

CostConstants adapted(CostConstants c, const EngineTimings& t) {
  const auto toward = [](double now, double measured) {
    return now + kAdaptWeight * (measured - now);
  };
  if (t.filter_seconds >= kMinTimedSeconds && t.filter_bytes > 0)
    c.link_bandwidth = toward(c.link_bandwidth, t.filter_bytes / t.filter_seconds);
  if (t.zerocopy_seconds >= kMinTimedSeconds && t.zerocopy_requests > 0) {
    const double predicted = t.zerocopy_requests * c.request_bytes *
                             (c.gamma + (1 - c.gamma) * t.zerocopy_share) / c.link_bandwidth;
    const double ratio = std::clamp(t.zerocopy_seconds / predicted, 0.25, 16.0);
    c.zerocopy_round_trip = toward(c.zerocopy_round_trip, ratio);
  }
  return c;
}

}  // namespace ooc
