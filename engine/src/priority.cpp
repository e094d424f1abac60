#include "ooc/engine/priority.hpp"

namespace ooc {

PriorityWindow choose_window(const UrgencyRange& range, std::span<const BucketLoad> buckets,
                             bool by_mass, double fraction, std::uint64_t min_edges) {
  PriorityWindow w;
  w.range = range;
  BucketLoad total;
  for (const BucketLoad& b : buckets) {
    total.edges += b.edges;
    total.mass += b.mass;
  }
  const double target = fraction * (by_mass ? total.mass : static_cast<double>(total.edges));
  BucketLoad taken;
  for (std::size_t b = 0; b < buckets.size(); ++b) {
    taken.edges += buckets[b].edges;
    taken.mass += buckets[b].mass;
    if ((by_mass ? taken.mass : static_cast<double>(taken.edges)) >= target &&
        taken.edges >= min_edges) {
      w.last_bucket = static_cast<int>(b);
      break;
    }
  }
  w.deferring = taken.edges < total.edges;
  return w;
}

PriorityWindow choose_delta_window(const UrgencyRange& range, std::span<const BucketLoad> buckets,
                                   double delta, std::uint64_t min_edges) {
  PriorityWindow w;
  w.range = range;
  const auto bound = static_cast<std::size_t>(range.bucket(range.most + delta));
  std::uint64_t total = 0, taken = 0;
  bool chosen = false;
  for (std::size_t b = 0; b < buckets.size(); ++b) {
    total += buckets[b].edges;
    if (chosen) continue;
    taken += buckets[b].edges;
    if (b >= bound && taken >= min_edges) {
      w.last_bucket = static_cast<int>(b);
      chosen = true;
    }
  }
  w.deferring = taken < total;
  return w;
}

}  // namespace ooc
