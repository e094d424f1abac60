#pragma once
// Pinned, mapped host memory for one GPU (cudaHostAlloc with cudaHostAllocMapped), placed on the
// NUMA node nearest that GPU with hwloc. Edges live here: copies from it run at the link's
// peak, and kernels can read it directly (zero-copy). Page-aligned, so every neighbour list's
// 128-byte alignment is what its offset makes it (a malloc'ed and registered buffer starts 16
// bytes off a 128-byte line and loses a third of the zero-copy bandwidth; see pcie-bench).
#include "ooc/core/buffer.hpp"

namespace ooc {

// The strategy for GPU `device`; valid for the life of the process. Throws Unsupported in a
// build without CUDA.
HostMemory& pinned_memory(int device);

}  // namespace ooc
