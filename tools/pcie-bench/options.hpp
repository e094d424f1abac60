#pragma once
// What the user asked for on the command line, and the plan of sizes derived from it.
#include <cstdint>
#include <string>
#include <vector>

#include "timing.hpp"

namespace pcie_bench {

// The groups of tests `--only` selects.
enum class Group { copy, sweep, zerocopy, lists, blocks, unified };

struct Options {
  bool quick = false;
  std::string size;  // empty: 4GiB, or 1GiB with --quick
  int repeat = 0;    // 0: 5, or 3 with --quick
  int device = -1;   // -1: every GPU
  std::vector<std::string> only;
  std::string csv;
  std::string json;
  std::string plot_dir;
  bool quiet = false;
  std::string storage;  // --storage FILE: only the reads of FILE from its storage
};

// The command line, parsed; run is false when CLI11 has already printed the help or an error
// and the program should exit with exit_status.
struct CommandLine {
  Options options;
  bool run = true;
  int exit_status = 0;
};

CommandLine parse_command_line(int argc, char** argv);

// How much each group moves per run, derived from --size: large enough that no cache holds
// it and every run lasts milliseconds, small enough that the default run stays short.
struct Plan {
  std::uint64_t zero_copy_bytes = 0;  // the mapped buffer of the zero-copy patterns
  std::uint64_t copy_bytes = 0;       // pinned and pageable copies; the sweep's largest
  std::uint64_t list_bytes = 0;       // useful bytes a list-length test reads at most
  std::uint64_t blocks_bytes = 0;     // per run of the resident-blocks sweep
  std::uint64_t unified_bytes = 0;    // the managed buffer
  Repeats repeats;
  std::vector<Group> groups;
  bool quiet = false;

  bool wants(Group group) const;
};

Plan make_plan(const Options& options);

}  // namespace pcie_bench
