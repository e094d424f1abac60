#include "ooc/partitioner/graph.hpp"

#include <tbb/parallel_for.h>

#include <atomic>
#include <string>

#include "ooc/core/error.hpp"
#include "ooc/partitioner/compress.hpp"
#include "parallel.hpp"

namespace ooc {

void validate(const Graph& g) {
  if (g.offsets.empty()) throw FormatError("graph has no offset array (it needs V+1 entries)");
  const vid_t n = g.num_vertices();
  const eid_t m = g.num_edges();
  if (g.offsets[0] != 0)
    throw FormatError("offsets[0] is " + std::to_string(g.offsets[0]) + ", not 0");
  if (g.offsets[n] != m) {
    throw FormatError("offsets end at " + std::to_string(g.offsets[n]) + " but there are " +
                      std::to_string(m) + " edges");
  }
  if (auto v = detail::first_bad(n, [&](std::size_t i) { return g.offsets[i + 1] < g.offsets[i]; });
      v < n) {
    throw FormatError("offsets decrease at vertex " + std::to_string(v));
  }
  if (auto e = detail::first_bad(m, [&](std::size_t i) { return g.targets[i] >= n; }); e < m) {
    throw FormatError("edge " + std::to_string(e) + " points to vertex " +
                      std::to_string(g.targets[e]) + ", but there are only " + std::to_string(n) +
                      " vertices");
  }
  if (g.weighted() != !g.weights.empty() || (g.weighted() && g.weights.size() != m)) {
    throw FormatError("weight array has " + std::to_string(g.weights.size()) + " entries for " +
                      std::to_string(m) + " edges of weight type " +
                      std::string(to_string(g.weight_type)));
  }
  if (g.hub_count > n) throw FormatError("hub count exceeds the number of vertices");
  if (!g.original_ids.empty()) {
    if (g.original_ids.size() != n) throw FormatError("permutation has the wrong length");
    Buffer<std::uint8_t> seen = Buffer<std::uint8_t>::allocate(n);
    tbb::parallel_for(std::size_t{0}, std::size_t{n}, [&](std::size_t i) { seen[i] = 0; });
    auto dup = detail::first_bad(n, [&](std::size_t i) {
      const vid_t old = g.original_ids[i];
      return old >= n || std::atomic_ref<std::uint8_t>(seen[old]).exchange(1) != 0;
    });
    if (dup < n)
      throw FormatError("permutation is not one-to-one at vertex " + std::to_string(dup));
  }
  if (!g.compressed.empty()) check_compressed(g);
}

Buffer<vid_t> internal_ids(const Graph& g) {
  if (g.original_ids.empty()) return {};
  auto inverse = Buffer<vid_t>::allocate(g.original_ids.size());
  tbb::parallel_for(std::size_t{0}, g.original_ids.size(),
                    [&](std::size_t i) { inverse[g.original_ids[i]] = static_cast<vid_t>(i); });
  return inverse;
}

}  // namespace ooc
