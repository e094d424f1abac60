// The smallest end-to-end check of the CUDA toolchain and the GPU: launch a kernel, copy back,
// compare with the host.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdio>
#include <vector>

#include "gpu_test.hpp"
#include "ooc/core/cuda_check.hpp"

namespace {

__global__ void squares(unsigned* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i * i;
}

TEST(GpuSmoke, KernelResultMatchesHost) {
  OOC_REQUIRE_GPU();
  std::printf("%s\n", ::ooc::describe_devices().c_str());
  constexpr unsigned n = 1u << 20;
  unsigned* d = nullptr;
  ASSERT_EQ(cudaMalloc(&d, n * sizeof(unsigned)), cudaSuccess);
  squares<<<(n + 255) / 256, 256>>>(d, n);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  std::vector<unsigned> h(n);
  ASSERT_EQ(cudaMemcpy(h.data(), d, n * sizeof(unsigned), cudaMemcpyDeviceToHost), cudaSuccess);
  ASSERT_EQ(cudaFree(d), cudaSuccess);
  for (unsigned i = 0; i < n; ++i)
    ASSERT_EQ(h[i], i * i) << "at " << i;
}

// A failed call throws once: the error it leaves for cudaGetLastError is taken, so that the next
// launch's check does not throw it again (a run after one refused for memory, as ooc-run's lists
// of settings and the Python module make them).
TEST(GpuSmoke, AFailedCallIsReportedOnceNotAgainByTheNextLaunch) {
  OOC_REQUIRE_GPU();
  void* huge = nullptr;
  EXPECT_THROW(OOC_CUDA(cudaMalloc(&huge, std::size_t{1} << 60), "allocating too much"),
               ::ooc::OutOfMemory);
  unsigned* d = nullptr;
  ASSERT_EQ(cudaMalloc(&d, 256 * sizeof(unsigned)), cudaSuccess);
  squares<<<1, 256>>>(d, 256);
  EXPECT_NO_THROW(::ooc::check_launch("squares", "squaring after a failed call"));
  ASSERT_EQ(cudaFree(d), cudaSuccess);
}

}  // namespace
