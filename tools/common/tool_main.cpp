#include "tool_main.hpp"

#include <tbb/global_control.h>
#include <unistd.h>

#include <cstdio>
#include <exception>
#include <regex>
#include <string_view>
#include <thread>

#include "ooc/core/error.hpp"
#include "ooc/core/progress.hpp"
#include "ooc/core/units.hpp"
#include "ooc/core/version.hpp"

namespace ooc::tools {

extern const char* const kBuildCommit;  // build_commit.cpp, written at build time

namespace {

std::string g_tool = "ooc";  // the running tool's name, for warnings

// Draws "step [#####.....]  45%  3.1 s" on one line, only for steps that have run a second.
class TerminalSink final : public ProgressSink {
 public:
  void update(std::string_view step, double fraction, double seconds) override {
    if (seconds < 1.0) return;
    constexpr int kWidth = 30;
    const int filled = static_cast<int>(fraction * kWidth);
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.resize(kWidth, '.');
    std::fprintf(stderr, "\r%-32.*s [%s] %3d%% %6.1f s", static_cast<int>(step.size()), step.data(),
                 bar.c_str(), static_cast<int>(fraction * 100), seconds);
    drawn_ = true;
  }
  void finish(std::string_view step, double seconds) override {
    if (!drawn_) return;
    std::fprintf(stderr, "\r%-32.*s %6.1f s%40s\n", static_cast<int>(step.size()), step.data(),
                 seconds, "");
    drawn_ = false;
  }

 private:
  bool drawn_ = false;
};

TerminalSink g_terminal;

// The option called `name` in the app or any of its subcommands.
const CLI::Option* find_option(const CLI::App& app, const std::string& name) {
  if (const CLI::Option* o = app.get_option_no_throw(name)) return o;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (const CLI::Option* o = find_option(*sub, name)) return o;
  }
  return nullptr;
}

std::string describe_type(const std::string& type_name) {
  if (type_name == "VERTEX") return "a vertex id";
  if (type_name == "UINT") return "a non-negative integer";
  if (type_name == "INT" || type_name == "N") return "an integer";
  if (type_name == "FLOAT") return "a number";
  return "a valid " + type_name;
}

// CLI11's messages, in our form where its own is unclear: "Could not convert: --source = -1"
// becomes "--source: '-1' is not a vertex id".
std::string usage_message(const CLI::App& app, const CLI::ParseError& e) {
  const std::string what = e.what();
  static const std::regex conversion("Could not convert: (\\S+) = (.*)");
  std::smatch m;
  if (std::regex_match(what, m, conversion)) {
    const CLI::Option* option = find_option(app, m[1].str());
    const std::string type = option != nullptr ? option->get_type_name() : "";
    return m[1].str() + ": '" + m[2].str() + "' is not " + describe_type(type);
  }
  return what;
}

}  // namespace

std::string version_text(std::string_view tool) {
  return std::string(tool) + " " + kVersion + "\ncommit: " + kBuildCommit +
         "\nbackends: " OOC_BACKENDS "\nbuild: " OOC_BUILD_TYPE "\n";
}

std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv) {
  g_tool = app.get_name();
  app.set_version_flag("--version", version_text(app.get_name()), "Print version and build, exit");
  try {
    app.parse(argc, argv);
    return std::nullopt;
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    std::fprintf(stderr, "%s: %s (see %s --help)\n", g_tool.c_str(), usage_message(app, e).c_str(),
                 g_tool.c_str());
    return kExitUsage;
  }
}

int run_main(CLI::App& app, int argc, char** argv, const std::function<void()>& body) {
  if (const auto code = parse_command_line(app, argc, argv)) return *code;
  try {
    body();
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", g_tool.c_str(), e.what());
    return kExitError;
  }
}

void warn(std::string_view message) {
  std::fprintf(stderr, "%s: warning: %.*s\n", g_tool.c_str(), static_cast<int>(message.size()),
               message.data());
}

ProgressBar::ProgressBar(bool quiet) {
  if (!quiet && ::isatty(STDERR_FILENO) != 0) set_progress_sink(&g_terminal);
}

ProgressBar::~ProgressBar() {
  set_progress_sink(nullptr);
}

namespace {

CLI::Validator size_check(bool nonzero) {
  return CLI::Validator(
      [nonzero](std::string& text) -> std::string {
        try {
          if (parse_size(text) == 0 && nonzero) return "'" + text + "' is not above 0 bytes";
          return {};
        } catch (const Error& e) {
          return e.what();
        }
      },
      "SIZE");
}

}  // namespace

CLI::Validator size_validator() {
  return size_check(false);
}

CLI::Validator nonzero_size_validator() {
  return size_check(true);
}

void add_threads_option(CLI::App& cmd, unsigned& threads) {
  cmd.add_option("--threads", threads, "Worker threads (default: all cores)")
      ->check(CLI::Range(1u, 4096u));
}

std::shared_ptr<void> limit_threads(unsigned n) {
  if (n == 0) return nullptr;
  const unsigned hardware = std::thread::hardware_concurrency();
  if (hardware != 0 && n > hardware) {
    warn("--threads " + std::to_string(n) + " is more than the " + std::to_string(hardware) +
         " hardware threads here; the extra threads only take turns with the others");
  }
  return std::make_shared<tbb::global_control>(tbb::global_control::max_allowed_parallelism, n);
}

}  // namespace ooc::tools
