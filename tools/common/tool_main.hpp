#pragma once
// What every tool's main shares: errors become one line on stderr and a non-zero exit, a
// progress bar on stderr when it is a terminal, --threads, sizes with units.
#include <CLI/CLI.hpp>
#include <functional>
#include <string>

namespace ooc::tools {

// Parses with CLI11 and runs `body`; ooc::Error and std::exception become
// "<tool>: <message>" on stderr and exit code 1; CLI11 errors keep CLI11's own message and code.
int run_main(CLI::App& app, int argc, char** argv, const std::function<void()>& body);

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

// Limits oneTBB to n threads for the lifetime of the returned object (0: no limit).
std::shared_ptr<void> limit_threads(unsigned n);

// "2147483648" -> "2,147,483,648"
std::string with_commas(std::uint64_t n);

}  // namespace ooc::tools
