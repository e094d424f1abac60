// The command line of pcie-bench (CLI11) and the sizes each group of tests uses.
// GCC 12 reports a false "potential null pointer dereference" in libstdc++'s vector<string>
// growth as CLI11 instantiates it (CLI::detail::split); the waiver covers this file only.
#pragma GCC diagnostic ignored "-Wnull-dereference"
#include "options.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <map>

#include "ooc/core/error.hpp"
#include "ooc/core/units.hpp"
#include "tool_main.hpp"

namespace pcie_bench {
namespace {

constexpr std::uint64_t kMiB = 1ull << 20;
constexpr std::uint64_t kGiB = 1ull << 30;
// Below this the zero-copy buffer is no longer several times the GPU's L2 cache.
constexpr std::uint64_t kMinSize = 64 * kMiB;

const std::map<std::string, Group> kGroups{
    {"copy", Group::copy},   {"sweep", Group::sweep},   {"zerocopy", Group::zerocopy},
    {"lists", Group::lists}, {"blocks", Group::blocks}, {"unified", Group::unified}};

constexpr const char* kDescription =
    "pcie-bench measures what this machine's host-GPU link gives, in the ways the OocGraph\n"
    "engine uses it: explicit copies (cudaMemcpyAsync) and kernels that read pinned host\n"
    "memory directly (zero-copy, with EMOGI's merged and aligned access).";

constexpr const char* kFooter =
    R"(Groups of tests (--only takes one or more, separated by commas or spaces):
  copy      cudaMemcpyAsync of pinned and pageable memory, H2D and D2H, 1 and 4 streams
  sweep     pinned H2D copies of 4 KiB to 1 GiB: where per-copy latency stops mattering
  zerocopy  kernels reading mapped host memory: naive (a thread per chunk), merged+aligned
            (a warp per 128 B line), merged but misaligned by 32/64/96 B, and the same
            over cudaHostRegister'ed malloc memory instead of cudaHostAlloc
  lists     a warp per neighbour list of L = 1..256 four-byte elements: lists end to end,
            the same with EMOGI's shift of each start down to 128 B, lists on 128 B lines
  blocks    merged+aligned reads with 1, 2, 4 ... one-warp blocks per SM: bandwidth as the
            number of outstanding requests grows
  unified   cudaMallocManaged + read-mostly, host-written data first read by the GPU
            (skipped if the buffer does not fit in the GPU's free memory)
The pinned H2D cudaMemcpy reference (the '% peak' column) is measured in every run.

Sizes: --size is the buffer the zero-copy patterns read. Copies (pinned and pageable) and
the largest sweep point move a quarter of it, at most 1GiB; the blocks sweep and unified
memory read a quarter of it, each list length up to an eighth.

Output: a table on stdout: GPU, test, pattern, param, bytes per run, GB/s (1e9 bytes/s of
useful data, median of the timed runs) and % of the pinned H2D cudaMemcpy peak of this run.
Progress goes to stderr. Every GPU is measured in turn; with several, also all at once.
A default run takes well under a minute per GPU, --quick a few seconds.
--plot DIR writes transfer_size.png, access_pattern.png, list_length.png and
resident_blocks.png (and DIR/pcie-bench.json unless --json is given) by running
plot_pcie.py, installed next to pcie-bench, under python3 with matplotlib; set
PCIE_BENCH_PYTHON to use another interpreter.

Examples:
  pcie-bench
  pcie-bench --quick --only copy,zerocopy
  pcie-bench --device 1 --json run.json --plot plots/
  pcie-bench --storage graph.oocg

Exit status: 0 on success; 1 on an error (no GPU, a CUDA failure, plotting failed);
CLI11's codes for a bad command line. More: docs/pcie-bench.md.)";

std::string check_size(const std::string& text) {
  try {
    if (ooc::parse_size(text) < kMinSize) return "must be at least 64MiB";
    return {};
  } catch (const ooc::Error& e) {
    return e.what();
  }
}

std::uint64_t round_down(std::uint64_t value, std::uint64_t multiple) {
  return value / multiple * multiple;
}

void define_options(CLI::App& app, Options& options) {
  app.description(kDescription);
  app.footer(kFooter);
  app.get_formatter()->column_width(26);
  app.add_flag("--quick", options.quick, "1GiB buffers, 3 timed runs: a rough picture in seconds");
  app.add_option("--size", options.size,
                 "Zero-copy buffer (default 4GiB, --quick 1GiB, at least 64MiB)")
      ->type_name("SIZE")
      ->check(CLI::Validator(check_size, "", "size"));
  app.add_option("--repeat", options.repeat,
                 "Timed runs per figure after one warm-up (default 5, --quick 3)")
      ->type_name("N")
      ->check(CLI::Range(1, 1000));
  app.add_option("--device", options.device,
                 "Only this GPU (default: each GPU in turn, then all at once)")
      ->type_name("N")
      ->check(CLI::Range(0, 1023));
  app.add_option("--only", options.only, "Only these groups of tests (see below)")
      ->type_name("GROUP")
      ->delimiter(',')
      ->check(CLI::IsMember(kGroups));
  app.add_option("--csv", options.csv, "Also write one CSV row per measurement to FILE")
      ->type_name("FILE");
  app.add_option("--json", options.json, "Also write the machine, GPUs and rows to FILE as JSON")
      ->type_name("FILE");
  app.add_option("--plot", options.plot_dir, "Also draw PNG plots into DIR (see below)")
      ->type_name("DIR");
  app.add_flag("--quiet", options.quiet, "No progress lines on stderr");
  app.add_option("--storage", options.storage,
                 "Only measure reads of FILE from its storage, no GPU needed: 4MiB O_DIRECT "
                 "reads, 8 in flight, of up to 4GiB of it (--quick 1GiB), and the latency of "
                 "random 4KiB reads")
      ->type_name("FILE");
}

}  // namespace

CommandLine parse_command_line(int argc, char** argv) {
  CLI::App app;
  app.name("pcie-bench");
  CommandLine line;
  define_options(app, line.options);
  if (const auto exit_status = ooc::tools::parse_command_line(app, argc, argv)) {
    line.run = false;
    line.exit_status = *exit_status;
  }
  return line;
}

bool Plan::wants(Group group) const {
  return std::find(groups.begin(), groups.end(), group) != groups.end();
}

Plan make_plan(const Options& options) {
  Plan plan;
  const std::uint64_t size =
      options.size.empty() ? (options.quick ? kGiB : 4 * kGiB) : ooc::parse_size(options.size);
  plan.zero_copy_bytes = round_down(size, 128);
  plan.copy_bytes = round_down(std::min(size / 4, kGiB), 4096);
  plan.list_bytes = round_down(size / 8, 128);
  plan.blocks_bytes = round_down(size / 4, 128);
  plan.unified_bytes = round_down(size / 4, 128);
  plan.repeats.timed = options.repeat > 0 ? options.repeat : (options.quick ? 3 : 5);
  for (const auto& [name, group] : kGroups) {
    if (options.only.empty() ||
        std::find(options.only.begin(), options.only.end(), name) != options.only.end()) {
      plan.groups.push_back(group);
    }
  }
  plan.quiet = options.quiet;
  return plan;
}

}  // namespace pcie_bench
