// Every GPU at once: what the host's PCIe root complexes and memory give when all GPUs pull
// together, as OocGraph's multi-GPU mode does (each GPU reads its own partitions). One host
// thread per GPU sets up its buffers, then a barrier releases all of them for each run; a
// run's time is from the first start to the last finish (host clock), and the bandwidth is
// the bytes of all GPUs over that time. Measures pinned H2D and D2H cudaMemcpyAsync (copy
// group) and merged+aligned zero-copy reads, EMOGI §3.3 (zerocopy group).
#include <algorithm>
#include <barrier>
#include <chrono>
#include <exception>
#include <string>
#include <thread>

#include "cuda_check.hpp"
#include "ooc/core/error.hpp"
#include "suite.hpp"

namespace pcie_bench {
namespace {

using Clock = std::chrono::steady_clock;

struct Span {
  Clock::time_point begin;
  Clock::time_point end;
};

enum class Op { h2d, d2h, zero_copy };

// One GPU's buffers and the operation it repeats.
class GpuWork {
 public:
  GpuWork(int device, const Plan& plan) : bytes_(plan.copy_bytes) {
    PCIE_CHECK(cudaSetDevice(device));
    stream_ = make_stream();
    pinned_ = alloc_pinned(bytes_, cudaHostAllocDefault);
    device_ = alloc_device(bytes_);
    mapped_ = alloc_pinned(bytes_, cudaHostAllocMapped);
    fill_ones(mapped_.get(), bytes_);
    counter_ = alloc_device(sizeof(unsigned long long));
    PCIE_CHECK(cudaMemset(counter_.get(), 0, sizeof(unsigned long long)));
    int sms = 0;
    PCIE_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    grid_ = {sms * resident_blocks_per_sm(Kernel::lines, kBlockThreads), kBlockThreads,
             stream_.get()};
  }

  // Runs `op` once and waits for it.
  void run(Op op) {
    if (op == Op::zero_copy) {
      read_lines(device_view(mapped_.get()), bytes_ / kLineBytes, 0,
                 static_cast<unsigned long long*>(counter_.get()), grid_);
      ++zero_copy_runs_;
    } else {
      const bool h2d = op == Op::h2d;
      PCIE_CHECK(cudaMemcpyAsync(
          h2d ? device_.get() : pinned_.get(), h2d ? pinned_.get() : device_.get(), bytes_,
          h2d ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost, stream_.get()));
    }
    PCIE_CHECK(cudaStreamSynchronize(stream_.get()));
  }

  // Throws unless every zero-copy run read the whole buffer (its words are ones).
  void check_reads() const {
    unsigned long long read = 0;
    PCIE_CHECK(cudaMemcpy(&read, counter_.get(), sizeof read, cudaMemcpyDeviceToHost));
    if (read != zero_copy_runs_ * (bytes_ / sizeof(std::uint32_t))) {
      throw ooc::Error("self-check failed: all-GPU zero-copy reads counted " +
                       std::to_string(read) + " words");
    }
  }

  std::uint64_t bytes() const { return bytes_; }

 private:
  std::uint64_t bytes_;
  StreamPtr stream_;
  PinnedPtr pinned_;
  DevicePtr device_;
  PinnedPtr mapped_;
  DevicePtr counter_;
  Grid grid_;
  unsigned long long zero_copy_runs_ = 0;
};

// spans[op][run][gpu]
using Spans = std::vector<std::vector<std::vector<Span>>>;

void worker(std::size_t slot, int device, const Plan& plan, const std::vector<Op>& ops,
            std::barrier<>& sync, Spans& spans, std::exception_ptr& error) {
  try {
    GpuWork work(device, plan);
    sync.arrive_and_wait();  // every GPU is set up
    for (std::size_t op = 0; op < ops.size(); ++op) {
      for (int run = 0; run < plan.repeats.total(); ++run) {
        sync.arrive_and_wait();
        const Clock::time_point begin = Clock::now();
        work.run(ops[op]);
        spans[op][static_cast<std::size_t>(run)][slot] = {begin, Clock::now()};
      }
    }
    work.check_reads();
  } catch (...) {
    error = std::current_exception();
    sync.arrive_and_drop();
  }
}

Sample aggregate(const std::vector<std::vector<Span>>& runs, const Repeats& repeats) {
  std::vector<double> ms;
  for (std::size_t run = static_cast<std::size_t>(repeats.warmup); run < runs.size(); ++run) {
    const auto& gpus = runs[run];
    Clock::time_point first = gpus.front().begin;
    Clock::time_point last = gpus.front().end;
    for (const Span& span : gpus) {
      first = std::min(first, span.begin);
      last = std::max(last, span.end);
    }
    ms.push_back(std::chrono::duration<double, std::milli>(last - first).count());
  }
  return summarize(std::move(ms));
}

Row aggregate_row(Op op, std::size_t gpus, const Plan& plan, Sample sample) {
  Row row;
  row.device = kAllDevices;
  row.test = op == Op::zero_copy ? "zerocopy" : "copy";
  row.pattern = op == Op::h2d ? "pinned H2D" : op == Op::d2h ? "pinned D2H" : "merged+aligned";
  row.param = std::to_string(gpus) + " GPUs at once";
  row.x = static_cast<double>(gpus);
  row.bytes = plan.copy_bytes * gpus;
  row.sample = sample;
  row.note = "per GPU " + std::to_string(plan.copy_bytes >> 20) + " MiB; host clock";
  return row;
}

std::vector<Op> ops_of(const Plan& plan) {
  std::vector<Op> ops;
  if (plan.wants(Group::copy)) ops.insert(ops.end(), {Op::h2d, Op::d2h});
  if (plan.wants(Group::zerocopy)) ops.push_back(Op::zero_copy);
  return ops;
}

}  // namespace

std::vector<Row> run_all_gpus(const std::vector<int>& devices, const Plan& plan) {
  const std::vector<Op> ops = ops_of(plan);
  if (ops.empty()) return {};
  log_line(plan, "all " + std::to_string(devices.size()) + " GPUs at once");
  const auto runs = static_cast<std::size_t>(plan.repeats.total());
  Spans spans(ops.size(), std::vector<std::vector<Span>>(runs, std::vector<Span>(devices.size())));
  std::vector<std::exception_ptr> errors(devices.size());
  std::barrier<> sync(static_cast<std::ptrdiff_t>(devices.size()));
  {
    std::vector<std::jthread> threads;
    for (std::size_t i = 0; i < devices.size(); ++i) {
      threads.emplace_back(worker, i, devices[i], std::cref(plan), std::cref(ops), std::ref(sync),
                           std::ref(spans), std::ref(errors[i]));
    }
  }
  for (const std::exception_ptr& error : errors) {
    if (error) std::rethrow_exception(error);
  }
  std::vector<Row> rows;
  for (std::size_t op = 0; op < ops.size(); ++op) {
    rows.push_back(
        aggregate_row(ops[op], devices.size(), plan, aggregate(spans[op], plan.repeats)));
    log_line(plan, describe_row(rows.back()));
  }
  return rows;
}

}  // namespace pcie_bench
