#pragma once
// A kernel launch in one call that names the kernel once: OOC_LAUNCH writes the <<<>>> launch and
// checks it (cuda_check.hpp), the kernel's name in the error taken from the launch's own text, so
// that no hand-typed name can drift from the kernel it reports (CUB's "a launch is one call").
#include <cuda_runtime.h>

#include <string>
#include <string_view>

#include "ooc/core/cuda_check.hpp"

namespace ooc::cuda {

// The kernel's name as written at the launch, bare: no parentheses, namespaces or template
// arguments, so that an error names it as a reader greps for it.
inline std::string kernel_name(std::string_view written) {
  if (written.size() >= 2 && written.front() == '(')
    written = written.substr(1, written.size() - 2);
  written = written.substr(0, written.find('<'));
  if (const auto colon = written.rfind("::"); colon != std::string_view::npos)
    written = written.substr(colon + 2);
  while (!written.empty() && written.front() == ' ')
    written.remove_prefix(1);
  while (!written.empty() && written.back() == ' ')
    written.remove_suffix(1);
  return std::string(written);
}

// check_launch with the name made only when the launch failed.
inline void check_launch_of(const char* written, const char* doing) {
  const cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) throw_cuda(err, kernel_name(written).c_str(), doing);
}

}  // namespace ooc::cuda

// kernel<<<grid, block, 0, stream>>>(args...), then the launch checked: an error names the
// kernel and says what the engine was `doing`. A kernel with several template arguments goes in
// parentheses, (ns::kernel<A, B>), because the preprocessor splits its arguments at commas.
#define OOC_LAUNCH(kernel, grid, block, stream, doing, ...) \
  do {                                                      \
    kernel<<<(grid), (block), 0, (stream)>>>(__VA_ARGS__);  \
    ::ooc::cuda::check_launch_of(#kernel, (doing));         \
  } while (false)
