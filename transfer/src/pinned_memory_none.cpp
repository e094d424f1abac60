#include "ooc/core/error.hpp"
#include "ooc/transfer/pinned_memory.hpp"

namespace ooc {

HostMemory& pinned_memory(int) {
  throw Unsupported("pinned GPU memory needs a build with CUDA");
}

}  // namespace ooc
