#pragma once
// Owners of the memory, streams and events the tests use: each frees what it holds when it
// goes out of scope, so a test that throws leaves nothing pinned or allocated behind.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>

namespace pcie_bench {

struct FreePinned {
  void operator()(void* p) const noexcept { static_cast<void>(cudaFreeHost(p)); }
};
struct FreeDevice {  // device and managed memory alike
  void operator()(void* p) const noexcept { static_cast<void>(cudaFree(p)); }
};
struct UnregisterAndFree {
  void operator()(void* p) const noexcept;
};
struct DestroyStream {
  void operator()(cudaStream_t s) const noexcept { static_cast<void>(cudaStreamDestroy(s)); }
};
struct DestroyEvent {
  void operator()(cudaEvent_t e) const noexcept { static_cast<void>(cudaEventDestroy(e)); }
};

using PinnedPtr = std::unique_ptr<void, FreePinned>;
using DevicePtr = std::unique_ptr<void, FreeDevice>;
using RegisteredPtr = std::unique_ptr<void, UnregisterAndFree>;
using StreamPtr = std::unique_ptr<CUstream_st, DestroyStream>;
using EventPtr = std::unique_ptr<CUevent_st, DestroyEvent>;

// cudaHostAlloc: flags cudaHostAllocDefault for copies, cudaHostAllocMapped for zero-copy.
PinnedPtr alloc_pinned(std::size_t bytes, unsigned flags);
DevicePtr alloc_device(std::size_t bytes);
// cudaMallocManaged, attached globally.
DevicePtr alloc_managed(std::size_t bytes);
// malloc, filled with ones (which also faults every page in), then cudaHostRegister'ed
// mapped: the pointer is malloc's own, with whatever alignment malloc gave it.
RegisteredPtr alloc_registered_ones(std::size_t bytes);
// Ordinary pageable memory from malloc, every page touched so no copy pays the first fault.
std::unique_ptr<std::byte[]> alloc_pageable(std::size_t bytes);

// The address a kernel uses for mapped or registered host memory.
const std::uint32_t* device_view(const void* host);

StreamPtr make_stream();
EventPtr make_event(unsigned flags = cudaEventDefault);

// Fills host memory with the 32-bit word 1, on all cores: zero-copy kernels add what they
// read, so their sums count the words they touched.
void fill_ones(void* host, std::size_t bytes);

}  // namespace pcie_bench
