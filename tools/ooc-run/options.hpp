#pragma once
// What the user asked ooc-run for (Args, as typed), and the run options' lists parsed: every run
// option takes one value or several separated by commas, and the runs go over their product.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ooc/core/error.hpp"
#include "ooc/core/types.hpp"
#include "ooc/engine/options.hpp"

namespace ooc {
class OocEngine;
}

namespace ooc::tools {

struct Args {
  std::string algorithm;
  std::string graph, generate, weights;
  std::uint64_t seed = 1;
  std::optional<vid_t> source;
  std::string sources;      // bc, closeness, bfs: K to sample, all, or a list
  std::string source_list;  // the same as a list (--source-list)
  std::uint32_t batch = 0;  // the batched traversals' sources per pass (0: chosen)
  std::string backend = "auto", transfer = "hybrid", partition_bytes = "32MiB", budget = "0",
              host_memory = "0";
  std::string priority = "auto";
  std::string load_balance = "tiled";
  std::string direction = "auto";
  std::string exchange = "auto";
  std::string exchange_rounds = "auto";
  std::string pull_blocks = "1";
  std::string resident_slices = "4";
  std::string frontier_loop = std::to_string(kFrontierLoopEdges);
  std::string loop_hops = "auto";
  std::string cc = "afforest";
  std::string in_memory = "on";
  std::string cache = "on";
  std::string compressed = "on";
  std::string adapt_costs = "off";
  std::string calibration = "off";
  double priority_fraction = 0;
  std::string priority_delta = "auto";
  std::uint64_t priority_min_edges = 1u << 20;
  std::string damping = "0.85";
  std::string tolerance = "1e-6";
  std::string l1;  // empty: none (PageRank at the tolerance)
  std::string push = "auto";
  std::uint32_t max_iterations = 0;
  bool verify = false, quiet = false;
  std::string output, json, trace, pagerank_reference;  // "-": standard output
  int repeat = 1;
  unsigned threads = 0;
  std::string devices;  // empty: GPU 0 (under mpirun: the rank's GPU on its host)
};

// The file name that stands for standard output in --output, --json and --trace.
inline constexpr const char* kStandardOutput = "-";

// "a,b,c" as {"a", "b", "c"}; "a" as {"a"}.
std::vector<std::string> split_list(const std::string& text);

// The one parser of every list option: each entry of `text` through `parse_one`, which throws
// an Error naming the entry at fault.
template <class Parse>
auto parse_list(const std::string& text, Parse parse_one) {
  std::vector<decltype(parse_one(std::string()))> out;
  for (const std::string& item : split_list(text))
    out.push_back(parse_one(item));
  return out;
}

// A CLI11 check that the option's text parses: a bad one is a command-line mistake (exit code 64),
// reported as "--option: what parse said".
template <class Parse>
CLI::Validator value_check(Parse parse, const std::string& type_name) {
  return CLI::Validator(
      [parse](std::string& text) -> std::string {
        try {
          parse(text);
          return {};
        } catch (const Error& e) {
          return e.what();
        }
      },
      type_name);
}

// The same for every entry of a list.
template <class Parse>
CLI::Validator list_check(Parse parse_one, const std::string& type_name) {
  return value_check([parse_one](const std::string& text) { parse_list(text, parse_one); },
                     type_name);
}

// One entry of each list option.
Priority parse_priority(const std::string& text);          // on | off | auto
bool parse_compressed(const std::string& text);            // on | off
float parse_damping(const std::string& text);              // a number in (0, 1)
float parse_tolerance(const std::string& text);            // a number above 0
double parse_l1(const std::string& text);                  // a number in (least, 2)
double parse_priority_delta(const std::string& text);      // auto | a number >= 0
std::uint32_t parse_rounds(const std::string& text);       // auto (0) or 1 to kMaxExchangeRounds
std::uint32_t parse_pull_blocks(const std::string& text);  // auto (0) or 1 to kMaxPullBlocks
std::uint32_t parse_resident_slices(const std::string& text);  // 1 to kMaxResidentSlices
std::uint64_t parse_frontier_loop(const std::string& text);    // off (0) | edges, at least 1
std::uint32_t parse_loop_hops(const std::string& text);        // auto | 0 to kMaxFrontierLoopHops

// The engine's options, taking the first entry of every list.
EngineOptions engine_options(const Args& a);

// Every combination of the settings that can change between runs on a loaded engine asked for,
// policies outermost; a list that would run the same thing again on this backend or number of ranks
// is cut to its first entry.
std::vector<RunSettings> settings(const Args& a, Backend backend, int ranks);

}  // namespace ooc::tools
