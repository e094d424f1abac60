#pragma once
// The frontier loop's near-far piles (Davidson et al., IPDPS 2014; ooc/engine/frontier_loop.hpp),
// shared by the GPU's kernel (frontier_loop.cuh) and the CPU backend's loop: when the near pile is
// empty, the threshold that separates the piles rises to the least far value plus delta.
#include <cmath>

#include "ooc/core/hd.hpp"

namespace ooc {

// The threshold above a least value `least`: least + delta, or infinity (every vertex near) where
// delta is lost in the rounding of a huge value, so that the pile always moves.
OOC_HD inline double threshold_above(double least, double delta) {
  return least + delta > least ? least + delta : static_cast<double>(INFINITY);
}

}  // namespace ooc
