// Passes 4 and 5 of a bounded build (bounded_passes.hpp): hub sort's order from the degrees, then
// the file written section by section. The lists are read back from the list file in the new order:
// windows of new ids, each gathered with a pread per run of consecutive old ids (the non-hubs, in
// their old order, make long runs; each hub is a run of its own), renamed, and appended.
#include <tbb/parallel_for.h>

#include <cstring>
#include <span>
#include <vector>

#include "bounded_passes.hpp"
#include "ooc/partitioner/hub_sort.hpp"
#include "oocg_stream.hpp"
#include "parallel.hpp"

namespace ooc::detail::bounded {
namespace {

// Neighbouring lists are read with one pread up to 1 MiB (a longer list alone, in one).
constexpr std::uint64_t kMaxRunEdges = std::uint64_t{1} << 18;

// Appends the lists of new vertices [0, n) to the current section: list i is list order[i] of
// `from` (i itself without an order), its entries renamed by new_id when given. Windows of about
// `window_edges` edges are read with a pread per run of consecutive old ids, in parallel.
void copy_lists(const TempFile& from, std::span<const eid_t> offsets, const Buffer<vid_t>& order,
                const Buffer<vid_t>& new_id, std::uint64_t window_edges, OocgStream& out) {
  const auto n = static_cast<vid_t>(offsets.size() - 1);
  const auto old_of = [&](vid_t i) { return order.empty() ? i : order[i]; };
  struct Run {
    eid_t from, count, to;
  };
  std::vector<Run> runs;
  std::vector<vid_t> window;
  for (vid_t i = 0; i < n;) {
    runs.clear();
    eid_t edges = 0;
    for (; i < n &&
           (edges == 0 || edges + offsets[old_of(i) + 1] - offsets[old_of(i)] <= window_edges);
         ++i) {
      const vid_t old = old_of(i);
      const eid_t begin = offsets[old], length = offsets[old + 1] - begin;
      if (!runs.empty() && runs.back().from + runs.back().count == begin &&
          runs.back().count + length <= kMaxRunEdges) {
        runs.back().count += length;
      } else if (length > 0) {
        runs.push_back({begin, length, edges});
      }
      edges += length;
    }
    window.resize(edges);
    tbb::parallel_for(std::size_t{0}, runs.size(), [&](std::size_t r) {
      from.read(window.data() + runs[r].to, runs[r].count * 4, runs[r].from * 4);
    });
    if (!new_id.empty()) {
      tbb::parallel_for(tbb::blocked_range<eid_t>(0, edges, 1 << 16),
                        [&](const tbb::blocked_range<eid_t>& r) {
                          for (eid_t e = r.begin(); e < r.end(); ++e)
                            window[e] = new_id[window[e]];
                        });
    }
    out.append(window.data(), edges * 4);
  }
}

// The header of the file the in-memory build writes (version 1: no compressed lists, no in-edges).
oocg::Header header_of(vid_t n, eid_t m, WeightType weight_type, bool symmetric,
                       const Order& hub_sorted) {
  using namespace oocg;
  Header h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.version = kOldestVersion;
  h.header_bytes = kHeaderBytes;
  h.flags = (symmetric ? kFlagSymmetric : 0) | (hub_sorted.order.empty() ? 0 : kFlagPermuted);
  h.num_vertices = n;
  h.num_edges = m;
  h.weight_type = static_cast<std::uint32_t>(weight_type);
  h.hub_count = hub_sorted.hubs;
  return h;
}

// The offsets section: the built offsets, or those of the lists in the new order.
void append_offsets(std::span<const eid_t> offsets, const Buffer<vid_t>& order, OocgStream& out) {
  if (order.empty()) {
    out.append(offsets.data(), offsets.size_bytes());
    return;
  }
  std::vector<eid_t> block;
  eid_t at = 0;
  for (const vid_t old : order.span()) {
    block.push_back(at);
    at += offsets[old + 1] - offsets[old];
    if (block.size() == (std::size_t{1} << 16)) {
      out.append(block.data(), block.size() * sizeof(eid_t));
      block.clear();
    }
  }
  block.push_back(at);
  out.append(block.data(), block.size() * sizeof(eid_t));
}

}  // namespace

Order order_vertices(Census& census, Buffer<eid_t>& in_degree, bool symmetric, double hub_fraction,
                     const BoundedOptions& bounded) {
  const vid_t n = census.vertices();
  census.degree[n] = 0;
  exclusive_scan(census.degree.data(), census.degree.size());
  const vid_t hubs = hub_fraction > 0.0 ? hubs_for_fraction(n, hub_fraction) : 0;
  if (hubs == 0) return {};
  Pass pass(bounded, "ordering vertices");
  const std::span<const eid_t> offsets(census.degree);
  if (symmetric) {  // the in-degrees are the out-degrees
    in_degree = Buffer<eid_t>::allocate(n);
    tbb::parallel_for(vid_t{0}, n, [&](vid_t v) { in_degree[v] = offsets[v + 1] - offsets[v]; });
  }
  Order order{hub_order(offsets, in_degree.span(), hubs), hubs};
  in_degree = {};
  pass.done(n, "vertices");
  return order;
}

void write_file(const std::filesystem::path& path, const Census& census, const ListFiles& lists,
                const Order& hub_sorted, WeightType weight_type, bool symmetric,
                std::uint64_t window_edges, const BoundedOptions& bounded) {
  using namespace oocg;
  Pass pass(bounded, "writing");
  const Buffer<vid_t>& order = hub_sorted.order;
  const vid_t n = census.vertices();
  const eid_t m = census.degree[n];
  std::array<std::uint64_t, kHeaderSections> bytes{};
  bytes[kOffsets] = (std::uint64_t{n} + 1) * sizeof(eid_t);
  bytes[kTargets] = m * sizeof(vid_t);
  bytes[kWeights] = lists.weights.size();
  bytes[kOriginalIds] = order.size_bytes();
  OocgStream out(path, header_of(n, m, weight_type, symmetric, hub_sorted), bytes);
  const std::span<const eid_t> offsets(census.degree);
  out.begin(kOffsets);
  append_offsets(offsets, order, out);
  Buffer<vid_t> new_id;
  if (!order.empty()) {
    new_id = Buffer<vid_t>::allocate(n);
    tbb::parallel_for(vid_t{0}, n, [&](vid_t i) { new_id[order[i]] = i; });
  }
  out.begin(kTargets);
  copy_lists(lists.targets, offsets, order, new_id, window_edges, out);
  if (bytes[kWeights] != 0) {
    out.begin(kWeights);
    copy_lists(lists.weights, offsets, order, {}, window_edges, out);
  }
  if (!order.empty()) {
    out.begin(kOriginalIds);
    out.append(order.data(), order.size_bytes());
  }
  out.commit();
  pass.done(m, "edges");
}

}  // namespace ooc::detail::bounded
