#pragma once
// A vertex's list as the host algorithms read it (triangles.cpp, scc.cpp): the raw targets, or
// the compressed copy decoded into `scratch` when the graph keeps its lists compressed only.
#include <span>
#include <vector>

#include "ooc/partitioner/compress.hpp"
#include "ooc/partitioner/graph.hpp"

namespace ooc::detail {

inline std::span<const vid_t> host_list(const Graph& g, vid_t v, std::vector<vid_t>& scratch) {
  if (g.has_raw_lists()) return g.neighbors(v);
  scratch.resize(g.degree(v));
  decode_list(g.compressed.bytes.data() + g.compressed.offsets[v], g.degree(v), scratch.data());
  return scratch;
}

}  // namespace ooc::detail
