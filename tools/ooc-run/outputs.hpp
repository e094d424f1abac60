#pragma once
// The files ooc-run writes and reads beside its summary lines: the values (--output), the
// statistics (--json), the trace (--trace), each a file or standard output ("-"), and a PageRank
// --output read back as a reference.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <ostream>
#include <string>
#include <vector>

#include "algorithms.hpp"
#include "options.hpp"

namespace ooc::tools {

// Where the summary lines go: standard output, or standard error when one of --output, --json
// and --trace is "-", so that standard output holds that file alone.
std::FILE* report_stream(const Args& a);

// The command line's files: at most one of them may be standard output. Empty when they are
// fine, else why not.
std::string check_outputs(const Args& a);

// A text file being written, or standard output for "-".
class OutputStream {
 public:
  explicit OutputStream(const std::string& path);
  std::ostream& get() { return *out_; }
  // Flushes; throws IoError naming the file when what was written did not all get there.
  void finish();

 private:
  std::string path_;
  std::ofstream file_;
  std::ostream* out_;
};

// "vertex<TAB>value" per vertex in the user's ids, each written as `algorithm` writes its values;
// `columns` values per vertex (bfs from several sources: a tab before each, in the sources' order).
void write_values(const std::string& path, const Algorithm& algorithm,
                  const std::vector<double>& values, std::size_t columns);

// A PageRank --output to measure runs against: "vertex<TAB>value" for every vertex, in order.
std::vector<double> read_ranks(const std::string& path, std::size_t vertices);

double l1_distance(const std::vector<double>& a, const std::vector<double>& b);

// An order-independent digest of the values, to compare runs (policies) without the reference.
std::uint64_t digest(const std::vector<double>& values);

}  // namespace ooc::tools
