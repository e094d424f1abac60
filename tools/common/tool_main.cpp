#include "tool_main.hpp"

#include <tbb/global_control.h>
#include <unistd.h>

#include <cstdio>
#include <exception>
#include <string_view>

#include "ooc/core/error.hpp"
#include "ooc/core/progress.hpp"
#include "ooc/core/units.hpp"

namespace ooc::tools {
namespace {

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

}  // namespace

int run_main(CLI::App& app, int argc, char** argv, const std::function<void()>& body) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    body();
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", app.get_name().c_str(), e.what());
    return 1;
  }
}

ProgressBar::ProgressBar(bool quiet) {
  if (!quiet && ::isatty(STDERR_FILENO) != 0) set_progress_sink(&g_terminal);
}

ProgressBar::~ProgressBar() {
  set_progress_sink(nullptr);
}

CLI::Validator size_validator() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        try {
          parse_size(text);
          return {};
        } catch (const Error& e) {
          return e.what();
        }
      },
      "SIZE");
}

std::shared_ptr<void> limit_threads(unsigned n) {
  if (n == 0) return nullptr;
  return std::make_shared<tbb::global_control>(tbb::global_control::max_allowed_parallelism, n);
}

std::string with_commas(std::uint64_t n) {
  std::string digits = std::to_string(n);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) {
    digits.insert(static_cast<std::size_t>(i), ",");
  }
  return digits;
}

}  // namespace ooc::tools
