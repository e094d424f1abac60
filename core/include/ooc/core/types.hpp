#pragma once
// Vertex ids are 32-bit, edge offsets 64-bit: graphs with more than 2^32 edges must work.
#include <cstdint>
#include <limits>
#include <string_view>

namespace ooc {

using vid_t = std::uint32_t;
using eid_t = std::uint64_t;

inline constexpr vid_t kMaxVertexId = std::numeric_limits<vid_t>::max() - 1;  // max() = "none"
inline constexpr vid_t kNoVertex = std::numeric_limits<vid_t>::max();

// The two kinds of graph program (see ooc/engine/programs.hpp for the contract).
enum class ProgramKind { monotone, accumulative };

// Edge weights live in their own array of 32-bit words; f32 weights are stored as their bits.
enum class WeightType : std::uint8_t { none = 0, u32 = 1, f32 = 2 };

constexpr std::string_view to_string(WeightType t) {
  switch (t) {
    case WeightType::none:
      return "none";
    case WeightType::u32:
      return "u32";
    case WeightType::f32:
      return "f32";
  }
  return "?";
}

}  // namespace ooc
