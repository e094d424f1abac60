// pcie-bench: measures what this machine's host-GPU link gives, in each way OocGraph moves
// edges across it: explicit copies (HyTGraph's ExpTM engines) and kernels reading pinned host
// memory (EMOGI's zero-copy, merged and aligned), with the patterns, list lengths, alignment
// and parallelism that decide how close to the link's peak they come. See
// docs/pcie-bench.md. This file: the command line, the order of the tests, the output.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "ooc/core/error.hpp"
#include "ooc/core/storage_reads.hpp"
#include "ooc/core/units.hpp"
#include "ooc/transfer/devices.hpp"
#include "options.hpp"
#include "peak.hpp"
#include "plot.hpp"
#include "report.hpp"
#include "suite.hpp"

namespace pcie_bench {
namespace {

struct GroupRun {
  Group group;
  const char* what;
  void (*run)(Bench&);
};

constexpr GroupRun kGroupRuns[] = {
    {Group::sweep, "pinned H2D copies of growing size", run_size_sweep},
    {Group::zerocopy, "zero-copy access patterns", run_zero_copy_tests},
    {Group::lists, "a warp per neighbour list", run_list_tests},
    {Group::blocks, "resident-blocks sweep", run_block_sweep},
    {Group::unified, "unified memory", run_unified_test},
};

std::vector<int> pick_devices(std::size_t count, int wanted) {
  if (wanted >= 0 && static_cast<std::size_t>(wanted) >= count) {
    throw ooc::InvalidInput("--device " + std::to_string(wanted) + ": this machine has " +
                            std::to_string(count) + " GPU(s), numbered from 0");
  }
  if (wanted >= 0) return {wanted};
  std::vector<int> devices;
  for (std::size_t i = 0; i < count; ++i)
    devices.push_back(static_cast<int>(i));
  return devices;
}

void run_device(int device, const Plan& plan, std::vector<Row>& rows) {
  Bench bench(device, plan, rows);
  const std::string gpu = "GPU " + std::to_string(device) + ": ";
  log_line(plan, gpu + (plan.wants(Group::copy) ? std::string("explicit copies")
                                                : std::string(kPeakName) + " (copy, 1 stream)"));
  run_copy_tests(bench, !plan.wants(Group::copy));
  for (const GroupRun& group : kGroupRuns) {
    if (!plan.wants(group.group)) continue;
    log_line(plan, gpu + group.what);
    group.run(bench);
  }
}

std::string describe_plan(const Plan& plan) {
  return "zero-copy buffer " + ooc::format_bytes(plan.zero_copy_bytes) + ", copies " +
         ooc::format_bytes(plan.copy_bytes) + "; each figure the median of " +
         std::to_string(plan.repeats.timed) + " timed runs after " +
         std::to_string(plan.repeats.warmup) + " warm-up; GB/s = 1e9 bytes/s";
}

void write_outputs(const Options& options, const Plan& plan, std::vector<Row>& rows,
                   const std::vector<ooc::DeviceInfo>& devices,
                   const std::optional<Plotter>& plotter) {
  const auto peaks = apply_peaks(rows);
  print_table(std::cout, rows);
  std::cout.flush();
  if (!options.csv.empty()) write_csv(options.csv, rows);
  std::string json = options.json;
  if (json.empty() && plotter) json = plotter->default_json();
  if (!json.empty()) write_json(json, rows, peaks, plan, devices);
  if (plotter) plotter->plot(json, plan.quiet);
}

// --storage FILE: what the file's storage gives to the reads of a graph beyond host memory.
int run_storage(const Options& options) {
  ooc::StorageReadOptions o;
  if (options.quick) {
    o.max_bytes = std::uint64_t{1} << 30;
    o.latency_reads = 64;
  }
  const ooc::StorageReads r = ooc::measure_storage_reads(options.storage, o);
  const std::string device =
      r.device.empty() ? "no block device found (tmpfs reads memory; an overlay hides its disk)"
                       : "block device " + r.device;
  std::printf("storage: %s (%s), %s, %s\n", options.storage.c_str(),
              ooc::format_bytes(r.file_bytes).c_str(), device.c_str(),
              r.direct ? "O_DIRECT (the page cache bypassed)"
                       : "no O_DIRECT here (read through the page cache, its pages dropped first)");
  std::printf("sequential reads: %s in %s blocks, %u in flight: %.2f GB/s (%.3f s)\n",
              ooc::format_bytes(r.bytes).c_str(), ooc::format_bytes(o.block_bytes).c_str(),
              o.in_flight, r.bytes_per_second() / 1e9, r.seconds);
  std::printf("random 4KiB reads: median %.1f us over %u reads\n", r.latency_seconds * 1e6,
              r.latency_reads);
  return 0;
}

int run(const Options& options) {
  if (!options.storage.empty()) return run_storage(options);
  const auto started = std::chrono::steady_clock::now();
  const Plan plan = make_plan(options);
  std::optional<Plotter> plotter;  // checked first: never spend GPU time, then fail to plot
  if (!options.plot_dir.empty()) plotter.emplace(options.plot_dir);
  const std::vector<ooc::DeviceInfo> found = ooc::list_devices();
  if (found.empty()) throw ooc::Unsupported(ooc::describe_devices());
  const std::vector<int> devices = pick_devices(found.size(), options.device);
  std::cout << ooc::describe_devices() << '\n' << describe_plan(plan) << "\n\n";
  std::vector<Row> rows;
  for (const int device : devices)
    run_device(device, plan, rows);
  if (devices.size() > 1) {
    for (Row& row : run_all_gpus(devices, plan))
      rows.push_back(std::move(row));
  }
  write_outputs(options, plan, rows, found, plotter);
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;
  char done[64];
  std::snprintf(done, sizeof done, "done in %.1f s", took.count());
  log_line(plan, done);
  return 0;
}

}  // namespace
}  // namespace pcie_bench

int main(int argc, char** argv) {
  const pcie_bench::CommandLine line = pcie_bench::parse_command_line(argc, argv);
  if (!line.run) return line.exit_status;
  try {
    return pcie_bench::run(line.options);
  } catch (const std::exception& e) {
    std::cerr << "pcie-bench: " << e.what() << '\n';
    return 1;
  }
}
