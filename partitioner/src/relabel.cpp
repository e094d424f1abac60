#include "relabel.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <vector>

#include "list_sort.hpp"
#include "parallel.hpp"

namespace ooc::detail {

Graph relabel(const Graph& g, std::span<const vid_t> order, std::uint32_t hub_count, bool sort,
              ProgressStep& progress) {
  const vid_t n = g.num_vertices();
  auto new_id = Buffer<vid_t>::allocate(n);
  tbb::parallel_for(vid_t{0}, n, [&](vid_t i) { new_id[order[i]] = i; });

  Graph out;
  out.symmetric = g.symmetric;
  out.weight_type = g.weight_type;
  out.hub_count = hub_count;
  out.offsets = Buffer<eid_t>::allocate(std::size_t{n} + 1);
  tbb::parallel_for(vid_t{0}, n, [&](vid_t i) { out.offsets[i] = g.degree(order[i]); });
  out.offsets[n] = 0;
  exclusive_scan(out.offsets.data(), out.offsets.size());
  out.targets = Buffer<vid_t>::allocate(g.num_edges());
  out.weights = Buffer<std::uint32_t>::allocate(g.weights.size());
  tbb::parallel_for(tbb::blocked_range<vid_t>(0, n, 256), [&](const tbb::blocked_range<vid_t>& r) {
    ListSortScratch scratch;
    for (vid_t i = r.begin(); i < r.end(); ++i) {
      const vid_t old = order[i];
      const eid_t from = g.offsets[old], to = out.offsets[i];
      const eid_t length = g.degree(old);
      for (eid_t k = 0; k < length; ++k)
        out.targets[to + k] = new_id[g.targets[from + k]];
      std::uint32_t* weights = out.weights.empty() ? nullptr : out.weights.data() + to;
      if (weights != nullptr) std::copy_n(g.weights.data() + from, length, weights);
      if (sort) sort_list(out.targets.data() + to, weights, length, scratch);
    }
    progress.advance(2 * (out.offsets[r.end()] - out.offsets[r.begin()]));
  });
  // Users keep their ids: compose with an earlier renumbering (compacted ids, hub sort).
  out.original_ids = Buffer<vid_t>::allocate(n);
  tbb::parallel_for(vid_t{0}, n, [&](vid_t i) { out.original_ids[i] = g.original_id(order[i]); });
  return out;
}

}  // namespace ooc::detail
