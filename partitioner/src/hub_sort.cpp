// Hub sort (HyTGraph §VI-A). Scores are compared as exact integer products Dout*Din (the
// normalisation by Dmax^2 of formula (4) does not change the order), ties broken by id, so the
// order is deterministic. Hubs go first in score order; the others keep their natural order.
#include "ooc/partitioner/hub_sort.hpp"

#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include <atomic>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "ooc/core/error.hpp"
#include "ooc/core/progress.hpp"
#include "parallel.hpp"
#include "relabel.hpp"

namespace ooc {

Buffer<eid_t> in_degrees(const Graph& g) {
  const vid_t n = g.num_vertices();
  auto din = Buffer<eid_t>::allocate(n);
  if (g.symmetric) {
    tbb::parallel_for(vid_t{0}, n, [&](vid_t v) { din[v] = g.degree(v); });
    return din;
  }
  detail::parallel_fill(din.data(), din.size(), eid_t{0});
  tbb::parallel_for(
      tbb::blocked_range<eid_t>(0, g.num_edges(), 1 << 16),
      [&](const tbb::blocked_range<eid_t>& r) {
        for (eid_t e = r.begin(); e < r.end(); ++e) {
          std::atomic_ref<eid_t>(din[g.targets[e]]).fetch_add(1, std::memory_order_relaxed);
        }
      });
  return din;
}

vid_t hubs_for_fraction(vid_t vertices, double fraction) {
  if (!(fraction >= 0.0 && fraction <= 1.0)) {
    throw InvalidInput("hub fraction " + std::to_string(fraction) + " must be between 0 and 1");
  }
  return static_cast<vid_t>(std::llround(fraction * vertices));
}

Buffer<vid_t> hub_order(const Graph& g, vid_t hubs) {
  const Buffer<eid_t> din = in_degrees(g);
  return hub_order(g.offsets.span(), din.span(), hubs);
}

Buffer<vid_t> hub_order(std::span<const eid_t> offsets, std::span<const eid_t> din, vid_t hubs) {
  const auto n = static_cast<vid_t>(din.size());
  using Scored = std::pair<std::uint64_t, vid_t>;  // (~score, id): ascending = score desc, id asc
  std::vector<Scored> scored(n);
  tbb::parallel_for(vid_t{0}, n, [&](vid_t v) {
    const std::uint64_t dout = offsets[v + 1] - offsets[v], in = din[v];
    // Saturate instead of wrapping: degrees above 2^32 each would overflow the product.
    const std::uint64_t score =
        in != 0 && dout > ~std::uint64_t{0} / in ? ~std::uint64_t{0} : dout * in;
    scored[v] = {~score, v};
  });
  tbb::parallel_sort(scored.begin(), scored.end());
  auto order = Buffer<vid_t>::allocate(n);
  auto is_hub = Buffer<vid_t>::allocate(std::size_t{n} + 1);
  detail::parallel_fill(is_hub.data(), is_hub.size(), vid_t{0});
  tbb::parallel_for(vid_t{0}, hubs, [&](vid_t i) {
    order[i] = scored[i].second;
    is_hub[scored[i].second] = 1;
  });
  scored = {};
  // Non-hubs in natural order: position = hubs + (non-hubs before v).
  auto hubs_before = Buffer<vid_t>::allocate(std::size_t{n} + 1);
  detail::parallel_copy_bytes(hubs_before.data(), is_hub.data(), is_hub.size_bytes());
  detail::exclusive_scan(hubs_before.data(), hubs_before.size());
  tbb::parallel_for(vid_t{0}, n, [&](vid_t v) {
    if (is_hub[v] == 0) order[hubs + (v - hubs_before[v])] = v;
  });
  return order;
}

Graph hub_sort(Graph&& input, double fraction) {
  Graph g = std::move(input);
  const vid_t n = g.num_vertices();
  const vid_t hubs = hubs_for_fraction(n, fraction);
  if (hubs == 0) return g;
  ProgressStep progress("hub sorting", 2 * g.num_edges() + n);
  const Buffer<vid_t> order = hub_order(g, hubs);
  progress.advance(n);
  // Lists move to their new place with targets relabelled; their order is kept (the builder
  // sorted them by old id), which is deterministic and all that the engine needs.
  return detail::relabel(g, order.span(), hubs, /*sort=*/false, progress);
}

}  // namespace ooc
