#pragma once
// One GPU's state shared by its tests: its properties, a stream, the mapped host buffer the
// zero-copy patterns read, a device buffer that evicts L2 between runs, the counter every
// zero-copy kernel adds into, and the rows measured so far.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "cuda_resources.hpp"
#include "options.hpp"
#include "row.hpp"
#include "zero_copy_kernels.hpp"

namespace pcie_bench {

// Progress lines on stderr, unless --quiet.
void log_line(const Plan& plan, std::string_view line);
std::string describe_row(const Row& row);

class Bench {
 public:
  Bench(int device, const Plan& plan, std::vector<Row>& rows);

  int device() const { return device_; }
  const Plan& plan() const { return plan_; }
  cudaStream_t stream() const { return stream_.get(); }
  int multiprocessors() const { return multiprocessors_; }

  // plan().zero_copy_bytes of pinned, mapped host memory holding ones; made on first use.
  const std::uint32_t* mapped_words();

  // As many blocks of kBlockThreads as the GPU holds at once: enough warps to saturate PCIe.
  Grid full_grid(Kernel kernel) const;

  // Times a kernel reading host memory (launch gets the counter to add into). L2 is evicted
  // before each run (untimed), then prepare() runs; afterwards the counter must show that
  // each run read words_per_run words, or this throws: a pattern that reads the wrong words
  // would report a wrong figure.
  Sample time_reads(
      const std::function<void(unsigned long long*)>& launch, std::uint64_t words_per_run,
      std::string_view what, const std::function<void()>& prepare = [] {});

  // Records a row and prints it as progress.
  void add(Row row);

 private:
  void evict_l2();

  int device_;
  const Plan& plan_;
  std::vector<Row>& rows_;
  int multiprocessors_ = 0;
  std::size_t evictor_bytes_ = 0;
  StreamPtr stream_;
  DevicePtr counter_;
  DevicePtr l2_evictor_;
  PinnedPtr mapped_;
  int evictions_ = 0;
};

}  // namespace pcie_bench
