// Allocation and release of the host and device memory pcie-bench measures across PCIe.
#include "cuda_resources.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <thread>
#include <vector>

#include "cuda_check.hpp"
#include "ooc/core/error.hpp"

namespace pcie_bench {

void UnregisterAndFree::operator()(void* p) const noexcept {
  static_cast<void>(cudaHostUnregister(p));
  std::free(p);
}

PinnedPtr alloc_pinned(std::size_t bytes, unsigned flags) {
  void* p = nullptr;
  PCIE_CHECK(cudaHostAlloc(&p, bytes, flags));
  return PinnedPtr(p);
}

DevicePtr alloc_device(std::size_t bytes) {
  void* p = nullptr;
  PCIE_CHECK(cudaMalloc(&p, bytes));
  return DevicePtr(p);
}

DevicePtr alloc_managed(std::size_t bytes) {
  void* p = nullptr;
  PCIE_CHECK(cudaMallocManaged(&p, bytes, cudaMemAttachGlobal));
  return DevicePtr(p);
}

RegisteredPtr alloc_registered_ones(std::size_t bytes) {
  void* p = std::malloc(bytes);
  if (p == nullptr) throw ooc::OutOfMemory("malloc of " + std::to_string(bytes) + " bytes failed");
  fill_ones(p, bytes);
  if (const cudaError_t status = cudaHostRegister(p, bytes, cudaHostRegisterMapped);
      status != cudaSuccess) {
    std::free(p);
    check_cuda(status, "cudaHostRegister(malloc'ed buffer, cudaHostRegisterMapped)", __FILE__,
               __LINE__);
  }
  return RegisteredPtr(p);
}

std::unique_ptr<std::byte[]> alloc_pageable(std::size_t bytes) {
  std::unique_ptr<std::byte[]> p(new (std::nothrow) std::byte[bytes]);
  if (!p) throw ooc::OutOfMemory("malloc of " + std::to_string(bytes) + " bytes failed");
  std::memset(p.get(), 1, bytes);
  return p;
}

const std::uint32_t* device_view(const void* host) {
  void* device = nullptr;
  PCIE_CHECK(cudaHostGetDevicePointer(&device, const_cast<void*>(host), 0));
  return static_cast<const std::uint32_t*>(device);
}

StreamPtr make_stream() {
  cudaStream_t s = nullptr;
  PCIE_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  return StreamPtr(s);
}

EventPtr make_event(unsigned flags) {
  cudaEvent_t e = nullptr;
  PCIE_CHECK(cudaEventCreateWithFlags(&e, flags));
  return EventPtr(e);
}

void fill_ones(void* host, std::size_t bytes) {
  auto* words = static_cast<std::uint32_t*>(host);
  const std::size_t count = bytes / sizeof(std::uint32_t);
  const std::size_t workers = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t share = (count + workers - 1) / workers;
  std::vector<std::jthread> threads;
  for (std::size_t begin = 0; begin < count; begin += share) {
    const std::size_t end = std::min(count, begin + share);
    threads.emplace_back([=] { std::fill(words + begin, words + end, 1u); });
  }
}

}  // namespace pcie_bench
