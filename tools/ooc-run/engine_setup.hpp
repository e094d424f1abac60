#pragma once
// Before the runs: the engine on a file or a generated graph, the sources of the algorithms that
// take a set of them, and warnings about a layout that will run badly.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ooc/engine/engine.hpp"
#include "options.hpp"

namespace ooc::tools {

// A --generate spec: "kron:SCALE[:EF]", "urand:SCALE[:EF]" or "grid:ROWSxCOLS", each size at
// least 1 (the scale aside). Throws InvalidInput ("'SPEC': why"); the command line checks it so,
// before any graph is made (exit code 64).
struct GenerateSpec {
  std::string kind;
  unsigned scale = 0, edge_factor = 16;
  std::uint32_t rows = 0, cols = 0;
};
GenerateSpec parse_generate(const std::string& text);

// The engine: one process, or one rank of `ranks` that reads only its own partitions' edges.
// A generated graph is given weights when `weighted` (an algorithm asked for needs them).
OocEngine make_engine(const Args& a, const EngineOptions& options,
                      const std::shared_ptr<Communicator>& ranks, bool weighted);

// The sources (user ids) of an algorithm that takes a set: --sources LIST or --source-list, every
// vertex for --sources all, --sources K drawn with --seed, or --source, or the highest out-degree
// vertex. Checked against the graph here,
// before any run.
std::vector<vid_t> source_set_of(const Args& a, const OocEngine& engine);
// Whether --sources or --source-list was given (bfs then runs from each of them at once).
bool sources_given(const Args& a);
// Checks the form of --sources and --source-list (and a count K of at least 1) before the graph is
// loaded; whether the ids are vertices is known only after.
void check_sources(const Args& a);
// What the summary says of them: "4 sampled with seed 1 from the vertices with out-edges (...)".
std::string describe_sources(const Args& a, const std::vector<vid_t>& sources);

void warn_if_many_partitions(std::size_t partitions, const std::string& size);
// Ranks that own no partition only take part in the exchange.
void warn_if_idle_ranks(const OocEngine& engine, const std::string& partition_size);
// GPU ranks pin their share in place: warn when Linux grants no huge pages for it.
void warn_if_ranks_lack_huge_pages(const OocEngine& engine);

}  // namespace ooc::tools
