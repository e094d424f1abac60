// libFuzzer target for the text readers: any bytes, parsed as each text format under each kind
// of weight option, must give an edge list that keeps its invariants or throw ooc::Error. A
// crash, a sanitizer report, any other exception or a broken invariant is a finding.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "ooc/core/error.hpp"
#include "ooc/partitioner/readers.hpp"

namespace {

// Every id is a vertex; one weight per edge exactly when there is a weight type.
void check(const ooc::EdgeList& edges) {
  const bool weighted = edges.weight_type != ooc::WeightType::none;
  if (edges.targets.size() != edges.size() ||
      edges.weights.size() != (weighted ? edges.size() : 0)) {
    std::abort();
  }
  for (std::size_t i = 0; i < edges.size(); ++i) {
    if (edges.sources[i] >= edges.num_vertices || edges.targets[i] >= edges.num_vertices)
      std::abort();
  }
}

ooc::ReadOptions options(bool read_weights, ooc::WeightType forced) {
  ooc::ReadOptions o;
  o.read_weights = read_weights;
  o.force_weight_type = forced;
  return o;
}

const std::array<ooc::ReadOptions, 4> kOptions{
    options(true, ooc::WeightType::none), options(false, ooc::WeightType::none),
    options(true, ooc::WeightType::u32), options(true, ooc::WeightType::f32)};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  for (const ooc::Format format :
       {ooc::Format::edge_list, ooc::Format::wel, ooc::Format::mtx, ooc::Format::gr}) {
    for (const ooc::ReadOptions& o : kOptions) {
      try {
        check(ooc::parse_text(bytes, format, o, "fuzz"));
      } catch (const ooc::Error&) {
        // the expected outcome for bad input
      }
    }
  }
  return 0;
}
