#pragma once
// ooc-run's command line: every option, its help and its checks (docs/cli.md).
#include <CLI/CLI.hpp>

#include "options.hpp"

namespace ooc::tools {

// Adds ooc-run's options to `app`, to be parsed into `a`.
void add_options(CLI::App& app, Args& a);

}  // namespace ooc::tools
