#pragma once
// An edge list as read from a file or made by a generator, before it becomes a CSR graph.
// Sources and targets are separate arrays (structure of arrays) so that the builder can stream
// each; weights, when present, are 32-bit words (f32 stored as bits) as in Graph.
#include <cstdint>

#include "ooc/core/buffer.hpp"
#include "ooc/core/types.hpp"

namespace ooc {

struct EdgeList {
  Buffer<vid_t> sources;
  Buffer<vid_t> targets;
  Buffer<std::uint32_t> weights;  // empty, or one per edge
  WeightType weight_type = WeightType::none;
  // max id + 1 at least; a reader sets it from a header where the format has one (Matrix
  // Market), so isolated vertices at the end are kept.
  vid_t num_vertices = 0;
  // The input declares the graph symmetric (Matrix Market "symmetric"): both directions of
  // every listed edge are meant, whatever the build options say.
  bool symmetric_input = false;

  std::uint64_t size() const noexcept { return sources.size(); }
};

}  // namespace ooc
