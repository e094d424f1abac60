#include "ooc/engine/exchange_cost.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "ooc/core/units.hpp"

namespace ooc {

double SizeTimes::seconds(std::uint64_t bytes) const {
  const TimedSize* lo = &at.front();
  if (bytes <= lo->bytes) return lo->seconds;
  const TimedSize* rising_lo = nullptr;  // the last segment of two different sizes
  const TimedSize* rising_hi = nullptr;
  for (const TimedSize& hi : at) {
    if (hi.bytes <= lo->bytes) continue;  // the same size again (a small graph)
    const double slope = (hi.seconds - lo->seconds) / static_cast<double>(hi.bytes - lo->bytes);
    if (bytes <= hi.bytes) return lo->seconds + slope * static_cast<double>(bytes - lo->bytes);
    rising_lo = lo;
    rising_hi = &hi;
    lo = &hi;
  }
  if (rising_hi == nullptr) return lo->seconds;  // one size only: its time
  // Past the largest size: its bandwidth, never a time that falls with more bytes.
  const double slope = std::max(0.0, (rising_hi->seconds - rising_lo->seconds) /
                                         static_cast<double>(rising_hi->bytes - rising_lo->bytes));
  return lo->seconds + slope * static_cast<double>(bytes - lo->bytes);
}

ExchangePrice price_exchange(const ExchangeCalibration& c, const ExchangeShape& s) {
  ExchangePrice price;
  const double collective = s.accumulative && s.scattered > 0
                                ? c.reduce_scatter.seconds(s.scattered * s.value_bytes)
                                : c.all_reduce.seconds(s.vertices * s.value_bytes);
  price.dense = collective + (s.accumulative ? c.change_seconds : 0.0);
  if (s.busiest > 0) {  // no rank changed anything: the sparse form makes no collective
    const std::uint64_t gathered = s.ranks * s.busiest * sizeof(std::uint64_t);
    price.sparse = c.all_gather.seconds(gathered) + c.apply_pairs.seconds(gathered);
  }
  return price;
}

bool prefer_sparse(const ExchangeCalibration& c, const ExchangeShape& s) {
  if (!c.measured())
    return sizeof(std::uint64_t) * s.ranks * s.busiest <
           2 * std::uint64_t{s.value_bytes} * s.vertices;
  const ExchangePrice price = price_exchange(c, s);
  return price.sparse < price.dense;
}

std::uint64_t automatic_pair_capacity(const ExchangeCalibration& calibration, ExchangeShape shape) {
  const std::uint64_t ranks = std::max<std::uint64_t>(shape.ranks, 1);
  const std::uint64_t most = (shape.vertices + ranks - 1) / ranks;
  const auto sparse_at = [&](std::uint64_t c) {
    shape.busiest = c;
    return prefer_sparse(calibration, shape);
  };
  if (!calibration.measured() || sparse_at(most)) return most;
  // sparse_at(lo) holds (c = 0: no collective at all), sparse_at(hi) does not.
  std::uint64_t lo = 0, hi = most;
  while (hi - lo > 1) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    (sparse_at(mid) ? lo : hi) = mid;
  }
  // Room for one pair at least: the count runs, and an exchange without changes skips the
  // collective.
  return std::max<std::uint64_t>(lo, 1);
}

std::array<std::uint64_t, kExchangeSizes> exchange_sizes(std::uint64_t largest,
                                                         std::uint64_t unit) {
  const std::uint64_t top = std::max(largest / unit, std::uint64_t{1});
  const std::uint64_t bottom = std::clamp(kSmallestExchangeBytes / unit, std::uint64_t{1}, top);
  const double ratio = static_cast<double>(top) / static_cast<double>(bottom);
  std::array<std::uint64_t, kExchangeSizes> sizes{};
  for (std::size_t i = 0; i < kExchangeSizes; ++i) {
    const double step = static_cast<double>(i) / static_cast<double>(kExchangeSizes - 1);
    const auto units = static_cast<std::uint64_t>(
        std::llround(static_cast<double>(bottom) * std::pow(ratio, step)));
    sizes[i] = std::clamp(units, bottom, top) * unit;
  }
  sizes.back() = top * unit;  // exactly the largest, whatever the rounding did
  return sizes;
}

namespace {

std::string as_time(double seconds) {
  char text[32];
  if (seconds < 1e-3) {
    std::snprintf(text, sizeof text, "%.0f us", seconds * 1e6);
  } else {
    std::snprintf(text, sizeof text, "%.2f ms", seconds * 1e3);
  }
  return text;
}

// "25 us at 4.00 KiB ... 1.31 ms at 256 MiB": the smallest and the largest size.
std::string ends(const SizeTimes& t) {
  return as_time(t.at.front().seconds) + " at " + format_bytes(t.at.front().bytes) + " ... " +
         as_time(t.at.back().seconds) + " at " + format_bytes(t.at.back().bytes);
}

}  // namespace

std::string describe(const ExchangeCalibration& c) {
  char head[96];
  std::snprintf(head, sizeof head, "NCCL set up in %.3f s (joined, warmed up, calibrated)",
                c.setup_seconds);
  return std::string(head) + ": all-reduce " + ends(c.all_reduce) + "; reduce-scatter " +
         ends(c.reduce_scatter) + "; all-gather " + ends(c.all_gather) + "; applying the pairs " +
         ends(c.apply_pairs) + "; accumulative changes " + as_time(c.change_seconds);
}

}  // namespace ooc
