#pragma once
// A generated graph as the generators describe it (generators.cpp): how many edges it lists and
// how to make those of any range [first, last) of edge indices, so that the whole list and any
// split of it give the same edges, and a build can take it a part at a time. The undirected
// shapes list each link once and say so; the builder adds the reverse edges.
#include <cstdint>
#include <functional>
#include <string>

#include "ooc/core/types.hpp"

namespace ooc::detail {

struct Shape {
  std::string step;  // the progress step's name
  std::uint64_t edges = 0;
  vid_t vertices = 0;
  bool symmetric = false;
  // Writes edges [first, last) to src, dst and, for a weighted shape, weight (else null).
  std::function<void(std::uint64_t first, std::uint64_t last, vid_t* src, vid_t* dst,
                     std::uint32_t* weight)>
      fill;
  bool weighted = false;  // lists u32 weights of its own
};

// The road-like graph of `vertices` vertices (road_generator.cpp).
Shape road(vid_t vertices, std::uint64_t seed);

}  // namespace ooc::detail
