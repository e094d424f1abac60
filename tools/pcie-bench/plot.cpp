// --plot: finds plot_pcie.py and runs it, without a shell, under python3 (or
// $PCIE_BENCH_PYTHON).
#include "plot.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <vector>

#include "ooc/core/error.hpp"

extern char** environ;

namespace pcie_bench {
namespace {

namespace fs = std::filesystem;

constexpr const char* kScript = "plot_pcie.py";

std::string find_script() {
  std::error_code error;
  const fs::path beside = fs::read_symlink("/proc/self/exe", error).parent_path() / kScript;
  if (!error && fs::exists(beside)) return beside.string();
  const fs::path source = fs::path(PCIE_BENCH_SOURCE_DIR) / kScript;
  if (fs::exists(source)) return source.string();
  throw ooc::Error(std::string("--plot: cannot find ") + kScript +
                   " next to the executable or in " + PCIE_BENCH_SOURCE_DIR);
}

// Runs argv[0] found on PATH and returns its exit status; quiet sends its output to /dev/null.
int run_process(const std::vector<std::string>& args, bool quiet) {
  std::vector<char*> argv;
  for (const std::string& arg : args)
    argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (quiet) {
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  }
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    throw ooc::Error("--plot: cannot start " + args[0] + ": " + std::strerror(spawned) +
                     " (set PCIE_BENCH_PYTHON to a Python 3 with matplotlib)");
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR)
      throw ooc::Error("--plot: waitpid failed: " + std::string(std::strerror(errno)));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

Plotter::Plotter(std::string dir) : dir_(std::move(dir)), script_(find_script()) {
  const char* python = std::getenv("PCIE_BENCH_PYTHON");
  python_ = python != nullptr && *python != '\0' ? python : "python3";
  std::error_code error;
  fs::create_directories(dir_, error);
  if (error) throw ooc::IoError("--plot: cannot create " + dir_ + ": " + error.message());
  if (run_process({python_, script_, "--check"}, true) != 0) {
    throw ooc::Error("--plot needs matplotlib, which " + python_ +
                     " cannot import; install it (pip install matplotlib), point "
                     "PCIE_BENCH_PYTHON at a Python that has it, or drop --plot");
  }
}

std::string Plotter::default_json() const {
  return (fs::path(dir_) / "pcie-bench.json").string();
}

void Plotter::plot(const std::string& json_path, bool quiet) const {
  const int status = run_process({python_, script_, json_path, dir_}, quiet);
  if (status != 0) {
    throw ooc::Error("--plot: " + script_ + " exited with status " + std::to_string(status) +
                     "; the results are in " + json_path);
  }
}

}  // namespace pcie_bench
