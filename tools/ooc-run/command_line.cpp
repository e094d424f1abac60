#include "command_line.hpp"

#include <string>

#include "algorithms.hpp"
#include "engine_setup.hpp"
#include "ooc/core/error.hpp"
#include "outputs.hpp"
#include "ranks.hpp"
#include "tool_main.hpp"

namespace ooc::tools {
namespace {

// An option that takes on or off, with its default shown in --help.
void add_switch(CLI::App& app, const std::string& name, std::string& value,
                const std::string& help) {
  app.add_option(name, value, help)->check(CLI::IsMember({"on", "off"}))->capture_default_str();
}

// "bfs | sssp | cc | pagerank | bc"
std::string algorithm_names() {
  std::string out;
  for (const Algorithm& algorithm : algorithms())
    out += (out.empty() ? "" : " | ") + std::string(algorithm.name);
  return out;
}

// The algorithms, the graph and the sources.
void add_input_options(CLI::App& app, Args& a) {
  app.add_option("ALGORITHM", a.algorithm, algorithm_names() + ", or several separated by commas")
      ->required();
  // Not checked here: a missing file is reported by the loader, which names the rank under MPI.
  auto* graph = app.add_option("-g,--graph", a.graph, ".oocg file made by partition-tool");
  auto* generate =
      app.add_option(
             "--generate", a.generate,
             "Generate in memory instead: kron:SCALE[:EF] | urand:SCALE[:EF] | grid:ROWSxCOLS "
             "(undirected, hub sorted; sssp gets weights random:1-64)")
          ->check(value_check(parse_generate, "SPEC"));
  graph->excludes(generate);
  app.add_option("--weights", a.weights, "With --generate: file | none | random:LO-HI");
  app.add_option("--seed", a.seed, "Seed of --generate and of --sources K")->capture_default_str();
  app.add_option("-s,--source", a.source,
                 "Source vertex for bfs/sssp, and bc's one source (default: the highest "
                 "out-degree)")
      ->type_name("VERTEX");
  auto* sources =
      app.add_option("--sources", a.sources,
                     "bc, closeness (and bfs, from each at once): K (sample K distinct sources "
                     "among the vertices with out-edges, --seed; the values are sums over them) | "
                     "all (every vertex: exact) | LIST (ids and ranges A-B separated by commas, "
                     "e.g. 0-999,5000)")
          ->type_name("K|all|LIST");
  auto* source_list = app.add_option("--source-list", a.source_list, "The same as --sources LIST")
                          ->type_name("LIST");
  sources->excludes(source_list);
  app.add_option("--batch", a.batch,
                 "bc, closeness, bfs from several sources: the sources per pass over the edges "
                 "(0: the most whose arrays fit in 70% of the GPU's free memory, or the host's, "
                 "at most 1024)")
      ->capture_default_str();
}

// Where the engine runs and what it keeps where: fixed while a graph is loaded.
void add_engine_options(CLI::App& app, Args& a) {
  app.add_option("--backend", a.backend, "auto | cpu | cuda")->capture_default_str();
  app.add_option("--devices", a.devices,
                 "GPUs to run on, a rank each: 0 (default), 1, 0,1 or all (under mpirun: "
                 "the GPUs its ranks take on each host, in order; default all)")
      ->check(value_check(
          [](const std::string& text) {
            if (text != "all") parse_devices(text);
          },
          "LIST"));
  app.add_option("--partition-bytes", a.partition_bytes, "Edge data per partition")
      ->check(nonzero_size_validator())
      ->capture_default_str();
  app.add_option("--budget", a.budget,
                 "Device memory the engine may use (0: CUDA takes 90% of free memory)")
      ->check(size_validator())
      ->capture_default_str();
  app.add_option("--host-memory", a.host_memory,
                 "Host memory the graph's lists may hold: the partitions that do not fit are read "
                 "from the file as iterations need them (0: 80% of the memory available)")
      ->check(size_validator())
      ->capture_default_str();
  add_switch(app, "--in-memory", a.in_memory,
             "Keep all edges on the GPU when they fit the budget: on | off (off: edges stay "
             "in host memory, no cache either)");
  add_switch(app, "--cache", a.cache,
             "When the edges do not fit the budget, keep the partitions that the budget "
             "leaves room for on the GPU (CUDA): on | off");
  add_switch(app, "--adapt-costs", a.adapt_costs,
             "After each iteration, move the cost model's link bandwidth and zero-copy "
             "round trip toward what the iteration's copies and zero-copy kernels took "
             "(CUDA): on | off");
  app.add_option("--calibration", a.calibration,
                 "The cost model's link constants: off (the defaults, measured on an H200) | "
                 "probe (measure this GPU's link first, about 0.1 s) | a pcie-bench --json FILE")
      ->capture_default_str();
}

// How edges move and are processed: each takes a list, and the runs go over every combination.
void add_transfer_options(CLI::App& app, Args& a) {
  app.add_option("-t,--transfer", a.transfer,
                 "hybrid | filter | compaction | zerocopy | unified, or a list")
      ->capture_default_str();
  app.add_option("--compressed", a.compressed,
                 "When the graph holds compressed lists and packed weights (partition-tool "
                 "writes them unless --raw-only), filter, compaction and zero-copy tasks and the "
                 "edge cache read them: on | off (off: raw arrays only), or a list (the graph is "
                 "loaded once for each)")
      ->check(list_check(parse_compressed, "LIST"))
      ->capture_default_str();
  app.add_option("--priority", a.priority,
                 "Priority scheduling (urgency order, deferral, reprocessing): on | off | auto "
                 "(on, but off for pagerank out of core, which reached the same accuracy faster "
                 "without it), "
                 "or a list (on,off: both in turn)")
      ->check(list_check(parse_priority, "LIST"))
      ->capture_default_str();
  app.add_option(
         "--load-balance", a.load_balance,
         "CUDA advance mapping: tiled (SAGE) | warp | ordered (tiled; pagerank's short lists "
         "walked in vertex order as warp does) | decompose | hierarchical (Raval et al.; the last "
         "three push only and pull tiled), or a list (each in turn)")
      ->capture_default_str();
  app.add_option("--direction", a.direction,
                 "push | pull (vertices gather from their in-neighbours: a symmetric graph or one "
                 "written with partition-tool --in-edges) | auto (per "
                 "iteration, whichever reads fewer edges in GPU "
                 "memory or moves fewer bytes out of core), or a list")
      ->capture_default_str();
  app.add_option("--pull-blocks", a.pull_blocks,
                 "CUDA, in GPU memory: gathers of an iteration that pulls run range by range of "
                 "source ids, each range's values in the L2 (GraphCage's cache blocking): 1 "
                 "(none; blocking measured slower on Kronecker graphs) | auto (ranges of half the "
                 "L2, none when the values fit it) | N up to 64, or a list")
      ->check(list_check(parse_pull_blocks, "LIST"))
      ->capture_default_str();
  app.add_option("--resident-slices", a.resident_slices,
                 "CUDA, pagerank and cc with priority on: the partitions in GPU memory or in the "
                 "edge cache run as N tasks of equal active edges one after another, each once "
                 "more over the vertices it activated, so later ones start from what earlier ones "
                 "pushed (1: one task), N up to 256, or a list")
      ->check(list_check(parse_resident_slices, "LIST"))
      ->capture_default_str();
  app.add_option("--frontier-loop", a.frontier_loop,
                 "While an iteration's active edges are at most this many, the GPU (or the CPU "
                 "backend) runs the iterations itself with the frontier in its own memory, no "
                 "host round trip per level (graphs of many levels: grids, road networks); sssp "
                 "keeps near-far piles of --priority-delta: EDGES | off, or a list")
      ->check(list_check(parse_frontier_loop, "LIST"))
      ->capture_default_str();
  app.add_option("--loop-hops", a.loop_hops,
                 "CUDA: in the frontier loop a target of a short list that a thread lowers has its "
                 "list relaxed by its warp in the same level, and so on up to N lists in a row, "
                 "rather than queued for the next level: fewer levels on grids and road networks. "
                 "auto (4; sssp's piles in GPU memory 2) | N from 0 to 4, or a list")
      ->check(list_check(parse_loop_hops, "LIST"))
      ->capture_default_str();
  app.add_option("--cc", a.cc,
                 "how cc finds components: afforest (union-find from two sampled neighbours per "
                 "vertex, then only the lists outside the largest component; ranks merge their "
                 "forests) | labels (min-label propagation over every list), or a list (each in "
                 "turn)")
      ->check(list_check(parse_cc_algorithm, "LIST"))
      ->capture_default_str();
}

// Ranks, and the priority scheduler's knobs.
void add_exchange_options(CLI::App& app, Args& a) {
  app.add_option("--exchange", a.exchange,
                 "ranks on GPUs: dense | sparse | auto (per exchange, the form that costs less "
                 "time, priced from NCCL's times measured at load), or a list")
      ->capture_default_str();
  app.add_option("--exchange-rounds", a.exchange_rounds,
                 "ranks: exchanges in an iteration whose active edges are at least a quarter of "
                 "the graph's, run r of R ending at (r/R)^2 of a rank's active edges (1: once "
                 "per iteration; auto: 1 on GPUs, 4 on the CPU), or a list")
      ->check(list_check(parse_rounds, "LIST"))
      ->capture_default_str();
  app.add_option("--priority-fraction", a.priority_fraction,
                 "Priority: share of the work each iteration takes, most urgent first (0: 0.1 of "
                 "the active "
                 "edges for bfs/sssp, 0.8 of the pending delta for pagerank)")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  app.add_option("--priority-delta", a.priority_delta,
                 "Priority, bfs/sssp: each iteration takes the active vertices within this much "
                 "of the smallest active value (delta-stepping's bucket) in place of the "
                 "fraction: auto (sssp twice the mean edge weight, bfs the fraction) | 0 (the "
                 "fraction) | D")
      ->check(value_check(parse_priority_delta, "auto|D"))
      ->capture_default_str();
  app.add_option("--priority-min-edges", a.priority_min_edges,
                 "Priority: never fewer active edges per iteration")
      ->capture_default_str();
}

// What each algorithm is asked, and what is checked and written.
void add_run_options(CLI::App& app, Args& a) {
  app.add_option("--damping", a.damping, "PageRank damping, in (0, 1), or a list (each in turn)")
      ->check(list_check(parse_damping, "LIST"))
      ->capture_default_str();
  app.add_option("--tolerance", a.tolerance,
                 "PageRank: per-vertex delta threshold (ranks around 1), or a list (each in "
                 "turn)")
      ->check(list_check(parse_tolerance, "LIST"))
      ->capture_default_str();
  app.add_option("--l1", a.l1,
                 "PageRank by accuracy: run until the ranks are within this L1 distance of the "
                 "converged ones (they sum to 1): the tolerance that makes sure of it, ending "
                 "once little enough pends; or a list (each in turn)")
      ->check(list_check(parse_l1, "LIST"))
      ->excludes("--tolerance");
  app.add_option(
         "--push", a.push,
         "PageRank: which vertices push their pending delta: auto (per-edge where hubs hold a "
         "third of the edges) | per-edge (a delta per out-edge of at least tolerance * V / "
         "(E + V): hubs wait until it pays for their lists) | per-vertex (a delta of at least "
         "the tolerance), or a list (each in turn)")
      ->check(list_check(parse_push_rule, "LIST"))
      ->capture_default_str();
  app.add_option("--max-iterations", a.max_iterations,
                 "Stop after N iterations (0: until converged)");
  app.add_option("--pagerank-reference", a.pagerank_reference,
                 "A pagerank --output (say, of a run at --tolerance 1e-7): each pagerank run "
                 "reports the L1 distance of its ranks to it");
  app.add_flag("--verify", a.verify, "Check against the serial reference; exit 2 on a mismatch");
  app.add_option("-o,--output", a.output,
                 "Write 'vertex<TAB>value' per vertex (user ids; inf = unreached); - for "
                 "standard output");
  app.add_option("--json", a.json, "Write the runs' statistics as JSON; - for standard output");
  app.add_option("--trace", a.trace,
                 "Write per-iteration statistics as CSV, a row per rank and iteration; - for "
                 "standard output");
  app.add_option("--repeat", a.repeat, "Run N times (statistics of each)")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  add_threads_option(app, a.threads);
  app.add_flag("-q,--quiet", a.quiet, "Only errors and the verification result");
  // Standard output holds one file: the summary lines move to standard error for it.
  app.final_callback([&a] {
    const std::string why = check_outputs(a);
    if (!why.empty()) throw CLI::ValidationError(why);
  });
}

}  // namespace

void add_options(CLI::App& app, Args& a) {
  add_input_options(app, a);
  add_engine_options(app, a);
  add_transfer_options(app, a);
  add_exchange_options(app, a);
  add_run_options(app, a);
}

}  // namespace ooc::tools
