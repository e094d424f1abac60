#pragma once
// The algorithms ooc-run knows, as a table (as Gunrock's and GAP's harnesses keep theirs): each
// entry says what the algorithm needs, how to run it on an engine, how to check it against the
// serial reference and how to write its values. The rest of the tool knows an algorithm only by
// its entry; adding one is adding an entry to algorithms.cpp.
#include <cstdio>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ooc/engine/engine.hpp"
#include "ooc/engine/reference.hpp"

namespace ooc::tools {

// What one run of an algorithm is given.
struct RunInput {
  vid_t source = 0;                     // Needs::source
  std::span<const vid_t> sources;       // Needs::source_set, and Needs::many_sources when given
  std::uint32_t batch = 0;              // the batched traversals' sources per pass (0: chosen)
  float damping = 0.85f;                // Needs::damping
  float tolerance = 1e-6f;              // Needs::tolerance
  double l1 = 0;                        // Needs::tolerance: the accuracy asked for (0: none)
  PushRule push = PushRule::automatic;  // Needs::tolerance
  RunOptions run;
  std::uint64_t max_in_degree = 0;  // --verify: the graph's (pagerank's float rounding bound)
};

// A run's values as doubles (exact for 32-bit integers and floats), +inf where a vertex was not
// reached, indexed by the user's ids (`columns` per vertex: bfs from several sources keeps one per
// source, vertex v's at v * columns + i); its statistics, and those of the runs it is made of.
struct Outcome {
  std::vector<double> values;
  std::size_t columns = 1;
  RunStats stats;
  bool converged = true;
  std::vector<std::pair<std::string, std::vector<RunStats>>> phases;  // per phase, per source
};

struct Needs {
  bool source = false;        // one source vertex (--source); --json counts the reached edges
  bool source_set = false;    // a set of sources (--sources, --source-list, --source)
  bool many_sources = false;  // with --sources or --source-list, it runs from each of them at once
  bool weights = false;       // --generate draws weights for it
  bool damping = false;       // it runs once per --damping; other algorithms take the first
  bool tolerance = false;     // it runs once per --tolerance and --push; others take the first
  bool ranks = false;         // its values are ranks: --pagerank-reference measures them
  // --priority changes how it is scheduled; the others run without priority scheduling
  // (bulk-synchronous, or on the host), whatever --priority says.
  bool priority = false;
};

struct Algorithm {
  std::string_view name;
  Needs needs;
  Outcome (*run)(OocEngine& engine, const RunInput& in);
  std::vector<double> (*reference)(const Graph& g, const RunInput& in);
  reference::Comparison (*verify)(const std::vector<double>& values,
                                  const std::vector<double>& expected, const RunInput& in);
  // A line of the --output file: the vertex and its values (one per column).
  void (*write_value)(std::FILE* out, std::size_t vertex, std::span<const double> values);
};

std::span<const Algorithm> algorithms();

// The entries named in `list` ("bfs,cc"), in its order. An unknown name is refused with the
// table's names.
std::vector<const Algorithm*> parse_algorithms(const std::string& list);

}  // namespace ooc::tools
