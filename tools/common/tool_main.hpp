#pragma once
// What every tool's main shares: --version, command-line errors and run-time errors as one line
// on stderr with documented exit codes, a progress bar on stderr when it is a terminal,
// --threads, sizes with units.
#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace ooc::tools {

// Exit codes of every tool (docs/cli.md).
inline constexpr int kExitError = 1;     // the work failed: bad input file, I/O, GPU, memory
inline constexpr int kExitMismatch = 2;  // ooc-run --verify found a difference
inline constexpr int kExitUsage = 64;    // the command line is wrong (sysexits' EX_USAGE)

// What --version prints: version, commit, backends built, build type.
std::string version_text(std::string_view tool);

// Adds --version and parses. Returns nothing when the tool should go on; otherwise its exit
// code: 0 after --help or --version (printed on stdout), kExitUsage after a command-line error,
// printed as "tool: --source: '-1' is not a vertex id (see tool --help)".
std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv);

// parse_command_line, then `body`; an exception from it becomes "tool: message" on stderr and
// exit code kExitError.
int run_main(CLI::App& app, int argc, char** argv, const std::function<void()>& body);

// "tool: warning: message" on stderr, for settings that will work but badly.
void warn(std::string_view message);

// Shows progress on stderr while alive, unless quiet or stderr is not a terminal.
class ProgressBar {
 public:
  explicit ProgressBar(bool quiet);
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;
};

// A CLI11 validator for sizes such as 32MiB, 8GB, 4096.
CLI::Validator size_validator();

// The same for a size that must be above 0 (a partition, the memory of a build), refused before
// any file is read.
CLI::Validator nonzero_size_validator();

// --threads N (1 to 4096; default: all cores).
void add_threads_option(CLI::App& cmd, unsigned& threads);

// Limits oneTBB to n threads for the lifetime of the returned object (0: no limit); warns when
// n is more than the machine's hardware threads.
std::shared_ptr<void> limit_threads(unsigned n);

}  // namespace ooc::tools
