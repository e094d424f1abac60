// The engine's public behaviour beyond correctness: clear errors for bad requests, stats that
// add up, in-memory mode, user programs.
#include "ooc/engine/engine.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>

#include "engine_cases.hpp"
#include "graph_util.hpp"
#include "ooc/core/error.hpp"
#include "ooc/core/version.hpp"
#include "ooc/engine/pagerank_bound.hpp"
#include "ooc/partitioner/oocg.hpp"
#include "ooc/partitioner/sage_reorder.hpp"
#include "ooc/transfer/devices.hpp"

namespace ooc {
namespace {

using test::error_of;

EngineOptions cpu() {
  EngineOptions o;
  o.backend = Backend::cpu;
  o.partition_bytes = test::kPartitionBytes;
  return o;
}

TEST(Engine, BadRequestsGetOneClearLine) {
  OocEngine weighted(test::make_shape("kron"), cpu());
  EXPECT_EQ(error_of([&] { weighted.bfs(5000); }),
            "vertex 5000 is out of range: the graph has 2048 vertices (ids 0-2047)");
  PageRankOptions bad;
  bad.damping = 1.5f;
  EXPECT_EQ(error_of([&] { weighted.pagerank(bad); }),
            "damping 1.500000 must be strictly between 0 and 1");

  BuildOptions plain;
  OocEngine unweighted(build_graph(generate_kronecker(8, 4, 1), plain), cpu());
  EXPECT_EQ(error_of([&] { unweighted.sssp(0); }),
            "sssp needs edge weights, and this graph has none (convert or generate it with "
            "--weights file or "
            "--weights random:1-64)");
  EXPECT_EQ(error_of([&] { unweighted.cc(); }),
            "cc needs a symmetric graph, and this one is directed (convert or generate it with "
            "--undirected)");
  EXPECT_EQ(error_of([] { parse_transfer_policy("teleport"); }),
            "unknown transfer policy 'teleport' (expected one of: hybrid, filter, compaction, "
            "zerocopy, unified)");
  EXPECT_EQ(error_of([] { parse_backend("tpu"); }),
            "unknown backend 'tpu' (expected one of: auto, cpu, cuda)");
  EXPECT_EQ(error_of([] { parse_load_balance("block"); }),
            "unknown load balance 'block' (expected one of: tiled, warp, ordered, decompose, "
            "hierarchical)");
  EXPECT_EQ(parse_load_balance("warp"), LoadBalance::warp);
  EXPECT_EQ(parse_load_balance("ordered"), LoadBalance::ordered);
  EXPECT_EQ(parse_load_balance("hierarchical"), LoadBalance::hierarchical);
  EXPECT_EQ(to_string(LoadBalance::tiled), "tiled");
  EXPECT_EQ(to_string(LoadBalance::decompose), "decompose");
}

TEST(Engine, PullRequestsItCannotServeGetOneClearLine) {
  EngineOptions o = cpu();
  o.direction = Direction::pull;
  OocEngine directed(test::make_shape("kron_directed"), o);
  EXPECT_EQ(error_of([&] { directed.bfs(0); }),
            "the pull direction reads each vertex's in-edges, and this directed graph's file holds "
            "none: convert or generate it with partition-tool's --in-edges (or --undirected), or "
            "use --direction push or auto");
  OocEngine symmetric(test::make_symmetric_shape("kron"), o);
  const vid_t source = symmetric.highest_degree_vertex();
  EXPECT_EQ(error_of([&] { symmetric.bc(std::vector<vid_t>{source}); }),
            "bc does not run in the pull direction (its program declares no offer(); see "
            "docs/programs.md): use --direction push or auto");
  EXPECT_EQ(error_of([&] { symmetric.run(test::UphillHops{source}); }),
            "user program does not run in the pull direction (its program declares no offer(); "
            "see docs/programs.md): use --direction push or auto");
  EXPECT_EQ(error_of([] { parse_direction("sideways"); }),
            "unknown direction 'sideways' (expected one of: push, pull, auto)");
  EXPECT_EQ(error_of([] { parse_cc_algorithm("bfs"); }),
            "unknown cc algorithm 'bfs' (expected one of: afforest, labels)");
  // Auto pushes where pulling cannot run: the same values as push, no iteration pulled.
  RunSettings settings = directed.settings();
  settings.direction = Direction::automatic;
  directed.configure(settings);
  const auto levels = directed.bfs(0);
  EXPECT_EQ(levels.stats.direction, "auto");
  EXPECT_EQ(levels.stats.pull_iterations(), 0u);
  // ... and says why, in the stats and at the end of the summary.
  const std::string why =
      "push: this directed graph has no in-edges to pull over (partition-tool --in-edges)";
  ASSERT_FALSE(levels.stats.choices.empty());
  EXPECT_EQ(levels.stats.choices.front(), why);
  EXPECT_NE(levels.stats.summary().find("; " + why), std::string::npos);
  settings.direction = Direction::push;
  directed.configure(settings);
  EXPECT_EQ(directed.bfs(0).values, levels.values);
}

// The summary says where a run went otherwise than asked, and nothing where all went as asked:
// under auto, the default, a program with no pull side, or an accumulative one, pushes as it
// always did, unsaid. (Raw lists where the file has no compressed ones are noted on the CUDA
// backend only, where compressed lists cross the link.)
TEST(Engine, TheSummarySaysWhereTheRunDiffersFromWhatWasAsked) {
  EngineOptions o = cpu();
  EXPECT_EQ(o.direction, Direction::automatic);
  OocEngine raw(test::make_symmetric_shape("kron"), o);
  const vid_t source = raw.highest_degree_vertex();
  const auto bfs = raw.bfs(source);
  EXPECT_EQ(bfs.stats.direction, "auto");
  EXPECT_TRUE(bfs.stats.choices.empty());
  EXPECT_TRUE(raw.bc(std::vector<vid_t>{source}).stats.choices.empty());
  // PageRank, accumulative, pushes under auto (measured faster), unsaid; it pulls when asked.
  const auto ranks = raw.pagerank();
  EXPECT_EQ(ranks.stats.direction, "auto");
  EXPECT_EQ(ranks.stats.pull_iterations(), 0u);
  EXPECT_TRUE(ranks.stats.choices.empty());
  RunSettings pull = raw.settings();
  pull.direction = Direction::pull;
  raw.configure(pull);
  EXPECT_GT(raw.pagerank().stats.pull_iterations(), 0u);
  o.direction = Direction::push;
  OocEngine asked_push(test::make_symmetric_shape("kron"), o);
  EXPECT_TRUE(asked_push.bc(std::vector<vid_t>{source}).stats.choices.empty());
}

// configure() changes every run setting at once, and none when one is out of range; the
// settings start as EngineOptions' defaults.
TEST(Engine, ConfigureChangesTheRunSettingsTogether) {
  OocEngine engine(test::make_shape("kron"), cpu());
  EXPECT_EQ(engine.settings(), RunSettings{});
  const RunSettings changed{.transfer = TransferPolicy::filter,
                            .priority = Priority::off,
                            .load_balance = LoadBalance::warp,
                            .direction = Direction::automatic,
                            .exchange = Exchange::sparse,
                            .exchange_rounds = 2,
                            .pull_blocks = 3,
                            .resident_slices = 5,
                            .cc = CcAlgorithm::labels};
  engine.configure(changed);
  EXPECT_EQ(engine.settings(), changed);
  EXPECT_EQ(engine.options().load_balance, LoadBalance::warp);
  RunSettings bad = changed;
  bad.transfer = TransferPolicy::zerocopy;
  bad.exchange_rounds = kMaxExchangeRounds + 1;
  EXPECT_EQ(error_of([&] { engine.configure(bad); }),
            "exchange rounds must be from 1 to 64, or 0 for the backend's own (got 65)");
  EXPECT_EQ(engine.settings(), changed);
  EXPECT_EQ(engine.bfs(0).stats.transfer, "filter");
}

TEST(Engine, ResidentSlicesOutOfRangeAreRefusedAndTheCpuBackendRunsOneTask) {
  EngineOptions o = test::options_for("hybrid", true, Backend::cpu);
  o.resident_slices = 0;
  try {
    OocEngine engine(test::make_shape("kron"), o);
    FAIL() << "accepted 0 resident slices";
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()), "resident slices must be from 1 to 256 (got 0)");
  }
  o.resident_slices = 8;
  OocEngine engine(test::make_shape("kron"), o);
  RunSettings too_many = engine.settings();
  too_many.resident_slices = kMaxResidentSlices + 1;
  EXPECT_THROW(engine.configure(too_many), InvalidInput);
  EXPECT_EQ(engine.options().resident_slices, 8u);
  // Slices are the CUDA backend's: the CPU one says it ran one task.
  EXPECT_EQ(engine.pagerank().stats.resident_slices, 1u);
}

TEST(Engine, FrontierLoopHopsAboveTheMostAreRefused) {
  EngineOptions o = test::options_for("loop", true, Backend::cpu);
  o.frontier_loop_hops = kMaxFrontierLoopHops + 1;
  EXPECT_EQ(error_of([&] { OocEngine engine(test::make_shape("kron"), o); }),
            "frontier loop hops must be from 0 to 4, or automatic (got 5)");
}

TEST(Engine, PullBlocksAboveTheMostAreRefused) {
  EngineOptions o = test::options_for("hybrid", true, Backend::cpu);
  o.pull_blocks = kMaxPullBlocks + 1;
  try {
    OocEngine engine(test::make_shape("kron"), o);
    FAIL() << "accepted 65 pull blocks";
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()),
              "pull blocks must be from 1 to 64, or 0 for the GPU's L2 to decide (got 65)");
  }
  OocEngine engine(test::make_shape("kron"), test::options_for("hybrid", true, Backend::cpu));
  RunSettings settings = engine.settings();
  settings.pull_blocks = kMaxPullBlocks + 1;
  EXPECT_THROW(engine.configure(settings), InvalidInput);
  EXPECT_EQ(engine.options().pull_blocks, 1u);
  settings.pull_blocks = kMaxPullBlocks;
  engine.configure(settings);
  EXPECT_EQ(engine.options().pull_blocks, kMaxPullBlocks);
  // The CPU backend gathers unblocked, and says so.
  settings.direction = Direction::pull;
  engine.configure(settings);
  EXPECT_EQ(engine.cc().stats.pull_blocks, 1u);
}

// ooc-run's default source is the same vertex whatever order partition-tool wrote the graph
// in: on a grid most vertices tie at degree 4, and the smallest user id among them wins.
TEST(Engine, TheHighestDegreeVertexIsTheSameInEveryOrder) {
  const auto grid = [] { return build_graph(generate_grid(24, 24), {}); };
  const Graph plain = grid();
  vid_t expected = 0;  // the smallest user id of the highest degree (plain keeps the users' ids)
  for (vid_t v = 0; v < plain.num_vertices(); ++v) {
    ASSERT_EQ(plain.original_id(v), v);
    if (plain.degree(v) > plain.degree(expected)) expected = v;
  }
  std::vector<Graph> orders;
  orders.push_back(hub_sort(grid()));
  orders.push_back(sage_reorder(grid()));
  bool an_order_moved_it = false;  // else the test would not tell the tie-break apart
  for (Graph& g : orders) {
    vid_t first = 0;  // the old choice: the smallest internal id of the highest degree
    for (vid_t v = 0; v < g.num_vertices(); ++v) {
      if (g.degree(v) > g.degree(first)) first = v;
    }
    an_order_moved_it |= g.original_id(first) != expected;
    EXPECT_EQ(OocEngine(std::move(g), cpu()).highest_degree_vertex(), expected);
  }
  EXPECT_TRUE(an_order_moved_it);
  EXPECT_EQ(OocEngine(grid(), cpu()).highest_degree_vertex(), expected);
}

TEST(Engine, PullingIterationsAreCountedAndGiveThePushValues) {
  EngineOptions o = cpu();
  OocEngine engine(test::make_symmetric_shape("kron"), o);
  const vid_t source = engine.highest_degree_vertex();
  const auto pushed = engine.bfs(source);
  EXPECT_EQ(pushed.stats.pull_iterations(), 0u);
  RunSettings settings = engine.settings();
  settings.direction = Direction::pull;
  engine.configure(settings);
  const auto pulled = engine.bfs(source);
  EXPECT_EQ(pulled.values, pushed.values);
  ASSERT_FALSE(pulled.stats.iterations.empty());
  // Every iteration with a frontier and vertices left to gather pulls (here, all of them).
  EXPECT_EQ(pulled.stats.pull_iterations(), pulled.stats.iterations.size());
  for (const IterationStats& it : pulled.stats.iterations) {
    EXPECT_TRUE(it.pull);
    EXPECT_GT(it.frontier_vertices, 0u);
    EXPECT_GT(it.active_vertices, 0u);  // the vertices that gathered
  }
  EXPECT_NE(pulled.stats.summary().find("pulled in"), std::string::npos);
  const auto labels_pulled = engine.cc().values;
  settings.direction = Direction::push;
  engine.configure(settings);
  EXPECT_EQ(engine.cc().values, labels_pulled);
}

TEST(Engine, BadBcRequestsGetOneClearLine) {
  OocEngine engine(test::make_shape("kron"), cpu());  // symmetric, 2048 vertices
  EXPECT_EQ(error_of([&] { engine.bc(std::vector<vid_t>{}); }), "bc needs at least one source");
  EXPECT_EQ(error_of([&] {
              engine.bc(std::vector<vid_t>{1, 5000});
            }),
            "vertex 5000 is out of range: the graph has 2048 vertices (ids 0-2047)");
  EXPECT_EQ(error_of([&] {
              engine.bc(std::vector<vid_t>{7, 3, 7});
            }),
            "bc's sources must be distinct (a vertex is listed twice)");
  EXPECT_EQ(error_of([&] { engine.sample_sources(0, 1); }),
            "sampling needs at least one source (asked for 0)");
  const std::string too_many = error_of([&] { engine.sample_sources(2049, 1); });
  EXPECT_EQ(too_many.rfind("cannot sample 2049 sources: the graph has ", 0), 0u) << too_many;
  EXPECT_NE(too_many.find(" vertices with out-edges"), std::string::npos) << too_many;
  OocEngine directed(test::make_shape("kron_directed"), cpu());
  EXPECT_EQ(error_of([&] { directed.bc(std::vector<vid_t>{0}); }),
            "bc needs a symmetric graph, and this one is directed (convert or generate it with "
            "--undirected)");
}

TEST(Engine, SampledBcSourcesAreDistinctVerticesWithEdgesAndFollowTheSeed) {
  OocEngine engine(test::make_shape("disconnected"), cpu());  // 100 isolated vertices of 400
  const auto sources = engine.sample_sources(50, 9);
  EXPECT_EQ(sources, engine.sample_sources(50, 9));
  EXPECT_NE(sources, engine.sample_sources(50, 10));
  std::vector<vid_t> sorted = sources;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end());
  for (const vid_t s : sources)
    EXPECT_GT(engine.graph().degree(engine.internal_id(s)), 0u) << s;
  const auto all = engine.sample_sources(static_cast<std::uint32_t>(sources.size() * 3), 3);
  for (const vid_t s : all)  // the partial-shuffle path: most of the vertices with edges
    EXPECT_GT(engine.graph().degree(engine.internal_id(s)), 0u) << s;
}

// PageRank's L1 bound allows, beside the tolerance's residue, float rounding in the sum of a
// vertex's incoming messages: a star's hub sums one per leaf.
TEST(Engine, ThePageRankBoundAllowsForTheRoundingOfAHubsSum) {
  const Graph star = test::make_shape("big_star");  // generate_star(10000): a hub, 9,999 leaves
  EXPECT_EQ(reference::max_in_degree(star), 9999u);
  const double plain = reference::pagerank_l1_bound(0.85, 1e-6);
  EXPECT_DOUBLE_EQ(plain, 2e-6 / (0.15 * 0.15) + 1e-5);
  EXPECT_DOUBLE_EQ(reference::pagerank_l1_bound(0.85, 1e-6, 10000), plain + 10000 * 0x1p-24);
}

// The bound a PageRank run reports (pagerank_bound.hpp): 2 T / (|z| + T), T = d p / (1 - d), for
// what pends at vertices with out-edges, plus twice the invariant's defect over (1 - d) |z|,
// plus the rounding floor of 16 u.
TEST(Engine, ThePageRankRunsBoundIsTruncationPlusRounding) {
  constexpr double kFloor = 16 * 0x1p-24;
  // Ten vertices at d = 0.5, 8 of them with edges: |x| - d |x with edges| + |r| = (1 - d) V.
  PageRankRemainder left{.vertices = 10,
                         .values = 8.4,
                         .values_with_edges = 8,
                         .deltas = 0.6,
                         .pending = 0.5,
                         .total = 9};
  EXPECT_DOUBLE_EQ(pagerank_l1_bound(0.5, left), 2 * 0.5 / (9 + 0.5) + kFloor);
  left.pending = left.deltas = 0;  // nothing pending, and the sum off by 0.6
  EXPECT_DOUBLE_EQ(pagerank_l1_bound(0.5, left), 2 * 0.6 / (0.5 * 9) + kFloor);
  left.values = 9;  // what every vertex kept
  EXPECT_DOUBLE_EQ(pagerank_l1_bound(0.5, left), kFloor);
}

// The tolerance for an accuracy leaves at most what keeps 2 T / |x*| within 15/16 of it, less the
// floor: |x*| is V - d * dangling on a symmetric graph, (1 - d)(V + d * with edges) at least on a
// directed one; per vertex less than the tolerance pends at each vertex with edges, per edge less
// than the per-edge threshold (tolerance * V / (E + V)) times its degree.
TEST(Engine, ThePageRankToleranceForAnAccuracyKeepsItsBound) {
  const double d = 0.85, l1 = 1e-3, floor = 16 * 0x1p-24;
  const double truncation = l1 * 15 / 16 - floor;
  const PageRankGraph symmetric{
      .vertices = 1000, .edges = 8000, .vertices_with_edges = 900, .symmetric = true};
  const auto pending_bound = [&](double pending, double least_total) {
    return 2 * (d * pending / (1 - d)) / least_total;
  };
  const double per_vertex = pagerank_tolerance_for(l1, d, PushRule::per_vertex, symmetric);
  EXPECT_NEAR(pending_bound(per_vertex * 900, 1000 - d * 100), truncation, 1e-6 * truncation);
  const double per_edge = pagerank_tolerance_for(l1, d, PushRule::per_edge, symmetric);
  EXPECT_NEAR(pending_bound(per_edge * 1000 / 9000 * 8000, 1000 - d * 100), truncation,
              1e-6 * truncation);
  PageRankGraph directed = symmetric;
  directed.symmetric = false;
  EXPECT_NEAR(pending_bound(pagerank_tolerance_for(l1, d, PushRule::per_vertex, directed) * 900,
                            (1 - d) * (1000 + d * 900)),
              truncation, 1e-6 * truncation);
  // No edges: nothing pends that moves a rank.
  EXPECT_FLOAT_EQ(pagerank_tolerance_for(l1, d, PushRule::per_edge, {.vertices = 5}), 1.0f);
}

// An accuracy outside (least, 2) is one line, before any run; a run asked for one says the
// tolerance it chose and the bound it reached.
TEST(Engine, PageRankByAccuracySaysItsToleranceAndBound) {
  OocEngine engine(test::make_shape("kron"), cpu());
  const auto asked = [&](double l1) {
    return error_of([&] {
      PageRankOptions pr;
      pr.l1 = l1;
      engine.pagerank(pr);
    });
  };
  EXPECT_EQ(asked(2),
            "an L1 distance of 2 is not between 1.02e-06 (float ranks' rounding) and 2 "
            "(ranks that sum to 1 are at most 2 apart)");
  EXPECT_EQ(asked(-1e-3),
            "an L1 distance of -0.001 is not between 1.02e-06 (float ranks' "
            "rounding) and 2 (ranks that sum to 1 are at most 2 apart)");
  EXPECT_EQ(asked(1e-6),
            "an L1 distance of 1e-06 is not between 1.02e-06 (float ranks' "
            "rounding) and 2 (ranks that sum to 1 are at most 2 apart)");
  EXPECT_DOUBLE_EQ(pagerank_least_l1(), 16 * 0x1p-24 * 16 / 15);
  PageRankOptions pr;
  pr.l1 = 1e-3;
  pr.tolerance = -1;  // not read: the accuracy chooses
  const auto r = engine.pagerank(pr);
  EXPECT_GT(r.stats.tolerance, 0);
  EXPECT_GT(r.stats.l1_bound, 0);
  EXPECT_LE(r.stats.l1_bound, 1e-3);
  char expected[96];
  std::snprintf(expected, sizeof expected, "; per-edge; tolerance %.2g, L1 <= %.1e (bound)",
                r.stats.tolerance, r.stats.l1_bound);
  EXPECT_NE(r.stats.summary().find(expected), std::string::npos) << r.stats.summary();
  // A run at a tolerance reports its bound too.
  const auto at_tolerance = engine.pagerank();
  EXPECT_EQ(at_tolerance.stats.tolerance, 1e-6f);
  EXPECT_GT(at_tolerance.stats.l1_bound, 0);
}

TEST(Engine, AskingForCudaWithoutAGpuIsOneClearLine) {
  if (!list_devices().empty()) GTEST_SKIP() << "this machine has a GPU";
  EngineOptions o = cpu();
  o.backend = Backend::cuda;
  const std::string error = error_of([&] { OocEngine(test::make_shape("chain"), o); });
  if (kBuiltWithCuda) {
    EXPECT_EQ(error.rfind("the CUDA backend needs a GPU: no CUDA device (", 0), 0u) << error;
  } else {
    EXPECT_EQ(
        error,
        "this build has no CUDA backend (configure with -DOOC_WITH_CUDA=ON), use --backend cpu");
  }
  o.backend = Backend::automatic;
  EXPECT_EQ(OocEngine(test::make_shape("chain"), o).backend(), Backend::cpu);
}

TEST(Engine, RefusesABudgetTooSmallForVertexDataAndStaging) {
  EngineOptions o = cpu();
  o.device_budget = 1024;
  OocEngine engine(test::make_shape("kron"), o);
  const std::string error = error_of([&] { engine.bfs(0); });
  EXPECT_EQ(error.rfind("device memory budget too small: vertex data needs ", 0), 0u) << error;
  EXPECT_NE(
      error.find("but the budget allows 1.00 KiB (raise --budget or lower --partition-bytes)"),
      std::string::npos)
      << error;
}

// Priority auto, the default: off for PageRank (accumulative) out of core, on for BFS and SSSP;
// asked for, on for PageRank too, and off for BFS when asked so.
TEST(Engine, PriorityAutoIsOffForPageRankAndOnForTraversals) {
  EngineOptions o = cpu();
  o.in_memory = false;
  OocEngine engine(test::make_shape("kron"), o);
  ASSERT_EQ(engine.settings().priority, Priority::automatic);
  EXPECT_FALSE(engine.pagerank().stats.priority);
  EXPECT_TRUE(engine.bfs(0).stats.priority);
  EXPECT_TRUE(engine.sssp(0).stats.priority);
  RunSettings asked = engine.settings();
  asked.priority = Priority::on;
  engine.configure(asked);
  EXPECT_TRUE(engine.pagerank().stats.priority);
  asked.priority = Priority::off;
  engine.configure(asked);
  EXPECT_FALSE(engine.bfs(0).stats.priority);
  EXPECT_EQ(parse_priority("auto"), Priority::automatic);
  EXPECT_EQ(to_string(Priority::off), "off");
  try {
    parse_priority("sometimes");
    ADD_FAILURE() << "no error";
  } catch (const InvalidInput& e) {
    EXPECT_STREQ(e.what(), "unknown priority 'sometimes' (expected one of: on, off, auto)");
  }
}

TEST(Engine, StatsAddUp) {
  EngineOptions o = cpu();
  o.transfer = TransferPolicy::filter;
  o.priority = Priority::off;
  OocEngine engine(test::make_shape("urand"), o);
  const auto result = engine.bfs(engine.highest_degree_vertex());
  const RunStats& s = result.stats;
  EXPECT_EQ(s.algorithm, "bfs");
  EXPECT_EQ(s.backend, "cpu");
  EXPECT_FALSE(s.in_memory);
  ASSERT_GT(s.iterations.size(), 2u);
  EXPECT_EQ(s.iterations[0].active_vertices, 1u);
  EXPECT_EQ(s.iterations[0].partitions[static_cast<std::size_t>(TransferEngine::filter)], 1u);
  // Without priority every active edge is processed exactly once per iteration, and filter
  // moves whole partitions: never less than the active edges. BFS reads no weights, so the
  // weighted graph moves 4 bytes per edge.
  for (const IterationStats& it : s.iterations) {
    EXPECT_EQ(it.edges_processed, it.active_edges);
    EXPECT_GE(it.bytes[static_cast<std::size_t>(TransferEngine::filter)], it.active_edges * 4);
  }
  EXPECT_EQ(s.total_bytes() % 4, 0u);
  EXPECT_LT(s.total_bytes(), s.iterations.size() * engine.graph().num_edges() * 8);
  EXPECT_EQ(s.total_bytes(), s.bytes(TransferEngine::filter));
  EXPECT_TRUE(result.converged);
  EXPECT_NE(s.summary().find("bfs on CPU"), std::string::npos) << s.summary();
}

TEST(Engine, InMemoryModeMovesNoEdgesPerIteration) {
  EngineOptions o = cpu();
  o.device_budget = std::uint64_t{1} << 30;
  OocEngine engine(test::make_shape("kron"), o);
  const auto result = engine.pagerank();
  EXPECT_TRUE(result.stats.in_memory);
  EXPECT_EQ(result.stats.total_bytes(), 0u);
  EXPECT_GT(
      result.stats.iterations[0].partitions[static_cast<std::size_t>(TransferEngine::resident)],
      0u);
}

// Afforest links two sampled neighbours per vertex, then streams only the lists outside the
// largest component: on a Kronecker graph, whose non-isolated vertices nearly all lie in one
// component, far fewer edges than label propagation, which starts with every vertex active.
TEST(Engine, AfforestReadsFewerEdgesThanLabelPropagationForTheSameComponents) {
  OocEngine engine(test::make_shape("kron"), cpu());
  const auto afforest = engine.cc();
  RunSettings labels = engine.settings();
  labels.cc = CcAlgorithm::labels;
  engine.configure(labels);
  const auto propagated = engine.cc();
  EXPECT_EQ(afforest.values, propagated.values);
  EXPECT_EQ(afforest.stats.method, "afforest");
  EXPECT_EQ(propagated.stats.method, "labels");
  const vid_t n = engine.graph().num_vertices();
  // The sampling, then one pass that activates nothing.
  ASSERT_EQ(afforest.stats.iterations.size(), 2u);
  const IterationStats& sampling = afforest.stats.iterations[0];
  EXPECT_EQ(sampling.active_vertices, n);
  EXPECT_GT(sampling.edges_processed, 0u);
  EXPECT_LE(sampling.edges_processed, 2u * n);
  EXPECT_LT(afforest.stats.iterations[1].active_vertices, n / 2);
  EXPECT_LT(afforest.stats.edges_processed() * 4, propagated.stats.edges_processed());
  EXPECT_NE(afforest.stats.summary().find("; afforest"), std::string::npos);
}

// Pushing per edge defers the hubs until their delta pays for their lists: fewer edges for ranks
// within the same L1 bound (expect_matches_reference checks both rules against it on every shape).
TEST(Engine, PageRankPerEdgeProcessesFewerEdgesThanPerVertex) {
  OocEngine engine(test::make_shape("kron"), cpu());
  PageRankOptions pr;
  pr.tolerance = 1e-3f;
  pr.push = PushRule::per_edge;
  const auto per_edge = engine.pagerank(pr);
  pr.push = PushRule::per_vertex;
  const auto per_vertex = engine.pagerank(pr);
  const Graph& g = engine.graph();
  const double bound =
      reference::pagerank_l1_bound(pr.damping, pr.tolerance, reference::max_in_degree(g));
  const std::vector<double> expected = reference::pagerank(g, pr.damping);
  EXPECT_TRUE(reference::compare_l1(per_edge.values, expected, bound).equal);
  EXPECT_TRUE(reference::compare_l1(per_vertex.values, expected, bound).equal);
  EXPECT_LT(per_edge.stats.edges_processed(), per_vertex.stats.edges_processed());
  EXPECT_EQ(per_edge.stats.method, "per-edge");
  EXPECT_EQ(per_vertex.stats.method, "per-vertex");
}

// The automatic rule pushes per edge where hubs hold many of the edges, per vertex where degrees
// are even, and says which in the stats.
TEST(Engine, PageRankPushesPerEdgeOnlyWhereHubsHoldManyEdges) {
  for (const auto& [shape, rule] :
       {std::pair{"kron", "per-edge"}, std::pair{"big_star", "per-edge"},
        std::pair{"urand", "per-vertex"}, std::pair{"grid", "per-vertex"}}) {
    OocEngine engine(test::make_shape(shape), cpu());
    EXPECT_EQ(engine.pagerank().stats.method, rule) << shape;
  }
}

// SSSP windows by distance, twice the mean weight by default (the shapes' weights are 1..64, so
// about 65), or the delta asked for; BFS keeps the fraction; 0 asks for the fraction.
TEST(Engine, SsspWindowsByTwiceTheMeanWeightUnlessAskedOtherwise) {
  OocEngine engine(test::make_shape("kron"), test::options_for("hybrid", true, Backend::cpu));
  const vid_t source = engine.highest_degree_vertex();
  const auto automatic = engine.sssp(source);
  EXPECT_GT(automatic.stats.priority_delta, 55.0);
  EXPECT_LT(automatic.stats.priority_delta, 75.0);
  EXPECT_NE(automatic.stats.summary().find("; windows of delta "), std::string::npos);
  EXPECT_EQ(engine.bfs(source).stats.priority_delta, 0.0);
  EngineOptions o = test::options_for("hybrid", true, Backend::cpu);
  o.priority_delta = 0;
  OocEngine fraction(test::make_shape("kron"), o);
  const auto by_fraction = fraction.sssp(source);
  EXPECT_EQ(by_fraction.stats.priority_delta, 0.0);
  EXPECT_EQ(by_fraction.values, automatic.values);
  o.priority_delta = 10;
  OocEngine narrow(test::make_shape("kron"), o);
  const auto by_ten = narrow.sssp(source);
  EXPECT_EQ(by_ten.stats.priority_delta, 10.0);
  EXPECT_EQ(by_ten.values, automatic.values);
  o.priority = Priority::off;
  EXPECT_EQ(OocEngine(test::make_shape("kron"), o).sssp(source).stats.priority_delta, 0.0);
}

// The delta reaches the windows: with no least window size, a narrow delta settles the distances
// in more iterations than a wide one, and the automatic delta windows as the same delta asked for
// by value does.
TEST(Engine, TheDeltaShapesTheIterations) {
  EngineOptions o = test::options_for("hybrid", true, Backend::cpu);
  o.priority_min_edges = 0;
  const auto sssp_with = [&](double delta) {
    o.priority_delta = delta;
    OocEngine engine(test::make_shape("kron"), o);
    return engine.sssp(engine.highest_degree_vertex());
  };
  const auto automatic = sssp_with(kAutomaticDelta);
  const auto narrow = sssp_with(1), wide = sssp_with(1e9);
  EXPECT_EQ(narrow.values, wide.values);
  EXPECT_GT(narrow.stats.iterations.size(), wide.stats.iterations.size());
  const auto same = sssp_with(automatic.stats.priority_delta);
  EXPECT_EQ(same.stats.iterations.size(), automatic.stats.iterations.size());
  EXPECT_EQ(same.stats.edges_processed(), automatic.stats.edges_processed());
  EXPECT_LT(automatic.stats.iterations.size(), narrow.stats.iterations.size());
}

TEST(Engine, MaxIterationsStopsARunAndSaysSo) {
  OocEngine engine(test::make_shape("chain"), cpu());
  RunOptions two;
  two.max_iterations = 2;
  const auto result = engine.bfs(0, two);
  EXPECT_FALSE(result.converged);
  EXPECT_EQ(result.stats.iterations.size(), 2u);
}

// A program written only against the public contract: the number of hops, capped at 3.
struct CappedHops {
  using Value = std::uint32_t;
  static constexpr ProgramKind kind = ProgramKind::monotone;
  static constexpr Reduction combine = Reduction::min;
  static constexpr bool needs_weights = false;
  static constexpr bool needs_symmetric = false;
  vid_t source;
  OOC_HD Value init(vid_t v) const { return v == source ? 0 : 3; }
  OOC_HD bool active_at_start(vid_t v) const { return v == source; }
  OOC_HD bool relax(Value src, std::uint32_t, Value* dst) const { return lower_to(dst, src + 1); }
};

TEST(Engine, RunsUserPrograms) {
  OocEngine engine(test::make_shape("chain"), cpu());
  const auto result = engine.run(CappedHops{engine.internal_id(10)});
  EXPECT_EQ(result.values[10], 0u);
  EXPECT_EQ(result.values[12], 2u);
  EXPECT_EQ(result.values[8], 2u);
  EXPECT_EQ(result.values[100], 3u);
}

// Compressed lists change what filter tasks move, not what the programs compute.
TEST(Engine, CompressedListsGiveTheRawValuesWithFewerFilterBytes) {
  EngineOptions o = cpu();
  o.transfer = TransferPolicy::filter;
  OocEngine raw(test::make_shape("kron"), o);
  OocEngine packed(test::make_compressed_shape("kron"), o);
  o.compressed = false;
  OocEngine unpacked(test::make_compressed_shape("kron"), o);
  const vid_t source = raw.highest_degree_vertex();
  const auto bfs_raw = raw.bfs(source), bfs_packed = packed.bfs(source);
  EXPECT_EQ(bfs_packed.values, bfs_raw.values);
  EXPECT_TRUE(bfs_packed.stats.compressed);
  EXPECT_FALSE(bfs_raw.stats.compressed);
  const std::uint64_t raw_bytes = bfs_raw.stats.bytes(TransferEngine::filter);
  const std::uint64_t packed_bytes = bfs_packed.stats.bytes(TransferEngine::filter);
  EXPECT_LT(packed_bytes, raw_bytes / 2) << raw_bytes << " raw, " << packed_bytes << " compressed";
  EXPECT_EQ(unpacked.bfs(source).stats.bytes(TransferEngine::filter), raw_bytes);
  EXPECT_EQ(packed.sssp(source).values, raw.sssp(source).values);
  EXPECT_EQ(packed.cc().values, raw.cc().values);
  EXPECT_NE(bfs_packed.stats.summary().find("(compressed lists)"), std::string::npos);
}

// A compressed-only graph runs from its compressed lists alone: what would read raw lists
// (compressed off, the unified baseline) is refused with one line naming the way out.
TEST(Engine, CompressedOnlyGraphsRefuseWhatReadsRawLists) {
  EngineOptions o = cpu();
  o.compressed = false;
  OocEngine off(test::make_compressed_only_shape("kron"), o);
  EXPECT_EQ(error_of([&] { off.bfs(off.highest_degree_vertex()); }),
            "this graph has compressed lists only, which compressed off (--compressed off) leaves "
            "unread: run with compressed on, or rebuild the file without --compress-only");
  o = cpu();
  o.transfer = TransferPolicy::unified;
  OocEngine unified(test::make_compressed_only_shape("kron"), o);
  EXPECT_EQ(error_of([&] { unified.cc(); }),
            "this graph has compressed lists only, and the unified policy needs the raw lists: "
            "use another --transfer policy, or rebuild the file without --compress-only");
  RunSettings filter = unified.settings();
  filter.transfer = TransferPolicy::filter;
  unified.configure(filter);
  EXPECT_TRUE(unified.cc().stats.compressed);
  EXPECT_THROW(reference::bfs(unified.graph(), 0), InvalidInput);
}

// Loaded from a compressed-only file, the engine gives the full file's values; loading it
// without its compressed lists is refused by the reader.
TEST(Engine, LoadsCompressedOnlyFiles) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("engine_compressed_only_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  Graph g = test::make_compressed_shape("kron");
  write_oocg(g, dir / "full.oocg");
  drop_raw_lists(g);
  write_oocg(g, dir / "only.oocg");
  OocEngine full = OocEngine::load(dir / "full.oocg", cpu());
  OocEngine only = OocEngine::load(dir / "only.oocg", cpu());
  EXPECT_TRUE(only.graph().targets.empty());
  const vid_t source = full.highest_degree_vertex();
  EXPECT_EQ(only.highest_degree_vertex(), source);
  EXPECT_EQ(only.bfs(source).values, full.bfs(source).values);
  EXPECT_EQ(only.sssp(source).values, full.sssp(source).values);
  EXPECT_EQ(only.cc().values, full.cc().values);
  EngineOptions off = cpu();
  off.compressed = false;
  EXPECT_NE(error_of([&] { OocEngine::load(dir / "only.oocg", off); })
                .find("this file has compressed lists only, and --compressed off reads the raw "
                      "lists"),
            std::string::npos);
  std::filesystem::remove_all(dir);
}

// The host loop asks before every iteration (the frontier loop between its stretches: below).
TEST(Engine, ACancelledRunThrowsCancelledNamingTheIterationsDone) {
  EngineOptions o = cpu();
  o.frontier_loop_edges = 0;
  OocEngine engine(test::make_shape("grid"), o);
  int asked = 0;
  RunOptions run;
  run.cancelled = [&] { return ++asked > 3; };
  try {
    engine.bfs(0, run);
    FAIL() << "no exception";
  } catch (const Cancelled& e) {
    EXPECT_STREQ(e.what(), "the run was cancelled after 3 iterations");
  }
  run.cancelled = [] { return false; };
  EXPECT_TRUE(engine.bfs(0, run).converged);
}

// The frontier loop's piles move on when delta is lost in a huge distance's rounding: float
// weights of 1e20 and a delta of 1, where least + delta == least (frontier_loop.hpp).
TEST(Engine, TheFrontierLoopsPilesMoveOnPastDeltasLostInRounding) {
  const float w = 1e20f;
  std::uint32_t bits = 0;
  std::memcpy(&bits, &w, sizeof bits);
  EdgeList chain = test::edge_list(4, {{0, 1}, {1, 2}, {2, 3}}, {bits, bits, bits});
  chain.weight_type = WeightType::f32;
  EngineOptions o = cpu();
  o.priority_delta = 1;
  OocEngine engine(build_graph(std::move(chain), {}), o);
  const auto sssp = engine.sssp(0);
  EXPECT_TRUE(reference::compare_exact(sssp.values, reference::sssp(engine.graph(), 0)).equal);
  EXPECT_EQ(sssp.stats.loop_iterations(), sssp.stats.iterations.size());
  EXPECT_EQ(sssp.stats.frontier_loop_delta, 1.0);
}

// Filter, compaction and zero-copy tasks read compressed lists and packed weights (decoded into
// staging on the CPU): fewer bytes for the same values.
TEST(Engine, CompressedListsAndPackedWeightsMoveFewerBytes) {
  for (const TransferEngine engine :
       {TransferEngine::filter, TransferEngine::compaction, TransferEngine::zerocopy}) {
    EngineOptions o = cpu();
    o.transfer = parse_transfer_policy(std::string(to_string(engine)));
    test::expect_compressed_like_raw(o, engine);
  }
}

}  // namespace
}  // namespace ooc
