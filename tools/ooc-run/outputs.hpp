#pragma once
// The files ooc-run writes and reads beside its summary lines: the values (--output), the
// statistics (--json), the trace (--trace), each a file or standard output ("-"), and a PageRank
// --output read back as a reference. The files are checked before the graph is loaded and written
// whole or not at all (core/atomic_file.hpp).
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms.hpp"
#include "ooc/core/atomic_file.hpp"
#include "options.hpp"

namespace ooc::tools {

// Where the summary lines go: standard output, or standard error when one of --output, --json
// and --trace is "-", so that standard output holds that file alone.
std::FILE* report_stream(const Args& a);

// The command line's files: at most one of them may be standard output. Empty when they are
// fine, else why not.
std::string check_outputs(const Args& a);

// Every file of the command line can be written: throws IoError naming the option, the path and
// why not ("--output: cannot write 'x/v.tsv': No such file or directory"), so that a run is not
// lost to an output path. Creates nothing.
void check_output_paths(const Args& a);

// A text file being written, or standard output for "-". The file appears under its name only
// when finish() commits it: a run that fails leaves none, and the file that was there as it was.
class OutputStream {
 public:
  explicit OutputStream(const std::string& path);
  std::FILE* get() const { return out_; }
  // Throws IoError naming the file when not all of `text` was taken.
  void write(std::string_view text);
  // Flushes and commits; throws IoError naming the file when what was written did not all get
  // there.
  void finish();

 private:
  std::string path_;
  std::optional<AtomicFile> file_;
  std::FILE* out_;
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
