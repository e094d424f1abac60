#pragma once
// --plot: runs plot_pcie.py (python3 + matplotlib) on the run's JSON to draw the PNGs.
#include <string>

namespace pcie_bench {

class Plotter {
 public:
  // Finds plot_pcie.py (next to the executable, else in the source tree), creates `dir` and
  // checks that the interpreter imports matplotlib, so a run never spends GPU time only to
  // fail at the end. Throws ooc::Error with what to do.
  explicit Plotter(std::string dir);

  // Where the JSON goes when --json names no file.
  std::string default_json() const;

  // Draws the PNGs into the directory; throws if the script fails.
  void plot(const std::string& json_path, bool quiet) const;

 private:
  std::string dir_;
  std::string python_;
  std::string script_;
};

}  // namespace pcie_bench
