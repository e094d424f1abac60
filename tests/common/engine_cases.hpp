#pragma once
// The graph shapes, policies and programs every backend is checked on, and the check itself:
// run the engine, compare with the serial reference (exactly for BFS, SSSP and CC; within the
// proven bound for PageRank). Shared by the CPU tests and the GPU tests.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "ooc/core/error.hpp"
#include "ooc/engine/engine.hpp"
#include "ooc/engine/reference.hpp"
#include "ooc/partitioner/builder.hpp"
#include "ooc/partitioner/compress.hpp"
#include "ooc/partitioner/generators.hpp"
#include "ooc/partitioner/hub_sort.hpp"
#include "products.hpp"

namespace ooc::test {

// What f throws, as its message ("no error" when it returns).
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

// 512-byte partitions: 128 edges, 64 with weights, so even small graphs have many partitions
// and the stars' hubs have more edges than a partition. The big star's hub has more edges than
// the CUDA advance walks in one block (kHeavyDegree), so the grid-wide split runs too.
inline constexpr std::uint64_t kPartitionBytes = 512;
inline constexpr float kPageRankTolerance = 1e-6f;

inline const std::vector<std::string>& shape_names() {
  static const std::vector<std::string> names{"kron",  "kron_directed", "urand",
                                              "grid",  "star",          "big_star",
                                              "chain", "single",        "disconnected"};
  return names;
}

inline const std::vector<std::string>& program_names() {
  // cc is Afforest (the default), cc_labels label propagation (EngineOptions::cc); pagerank
  // pushes per edge, pagerank_per_vertex per vertex (PageRankOptions::push; the default, auto,
  // takes one of them).
  static const std::vector<std::string> names{"bfs",       "sssp",     "cc",
                                              "cc_labels", "pagerank", "pagerank_per_vertex"};
  return names;
}

// The five policies, hybrid with a budget that holds every edge (in-memory mode), and the
// frontier loop (frontier_loop.hpp) out of core and in memory. Every other policy runs each
// iteration from the host, so that its engines and kernels run whatever the frontier's size.
inline const std::vector<std::string>& policy_names() {
  static const std::vector<std::string> names{"hybrid",  "filter",   "compaction", "zerocopy",
                                              "unified", "resident", "loop",       "loop_resident"};
  return names;
}

// The policies of runs that the frontier loop never serves (ranks, which exchange after every
// iteration; the batched traversals, which settle after every level), where the loop's two would
// run hybrid's and resident's again.
inline const std::vector<std::string>& host_policy_names() {
  static const std::vector<std::string> names(policy_names().begin(), policy_names().end() - 2);
  return names;
}

// The policies whose edges are all in GPU memory.
inline bool in_memory_policy(const std::string& policy) {
  return policy == "resident" || policy == "loop_resident";
}

// The loop's threshold in the "loop" policies: small, so that on the larger shapes the host runs
// the wide levels and the loop the narrow ones, handing the frontier back and forth.
inline constexpr std::uint64_t kLoopTestEdges = 256;

inline Graph build(EdgeList edges, bool undirected, std::uint64_t seed, double hubs = 0.08) {
  BuildOptions options;
  options.undirected = undirected;
  options.weights = parse_weight_spec("random:1-64", seed);
  return hub_sort(build_graph(std::move(edges), options), hubs);
}

// The edges (u, v) of `pairs` over n vertices.
inline EdgeList edge_list_of(vid_t n, const std::vector<std::pair<vid_t, vid_t>>& pairs) {
  EdgeList list;
  list.num_vertices = n;
  list.sources = Buffer<vid_t>::allocate(pairs.size());
  list.targets = Buffer<vid_t>::allocate(pairs.size());
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    list.sources[i] = pairs[i].first;
    list.targets[i] = pairs[i].second;
  }
  return list;
}

// Every pair u < v of n vertices: a clique's edges, one way.
inline std::vector<std::pair<vid_t, vid_t>> clique_pairs(vid_t n) {
  std::vector<std::pair<vid_t, vid_t>> pairs;
  for (vid_t u = 0; u < n; ++u)
    for (vid_t v = u + 1; v < n; ++v)
      pairs.emplace_back(u, v);
  return pairs;
}

// Two components and isolated vertices, ids interleaved so that components span partitions.
inline EdgeList disconnected() {
  std::vector<std::pair<vid_t, vid_t>> pairs;
  for (vid_t v = 0; v + 4 < 300; v += 2)
    pairs.emplace_back(v, v + 2);  // even chain
  for (vid_t v = 3; v < 300; v += 6)
    pairs.emplace_back(1, v);       // odd star
  return edge_list_of(400, pairs);  // 300..399 isolated
}

inline Graph make_shape(const std::string& name) {
  if (name == "kron") return build(generate_kronecker(11, 8, 3), true, 1);
  if (name == "kron_directed") return build(generate_kronecker(11, 8, 4), false, 2);
  if (name == "urand") return build(generate_uniform(11, 8, 5), true, 3);
  if (name == "grid") return build(generate_grid(20, 30), false, 4, 0.0);
  if (name == "star") return build(generate_star(300), false, 5);
  if (name == "big_star") return build(generate_star(10000), true, 9);
  if (name == "chain") return build(generate_chain(200), false, 6, 0.0);
  if (name == "single") return build(generate_empty(1), false, 7);
  return build(disconnected(), true, 8);
}

inline Graph make_compressed_shape(const std::string& name) {
  Graph g = make_shape(name);
  compress(g);
  return g;
}

// The shape compressed with its raw lists left out (partition-tool --compress-only).
inline Graph make_compressed_only_shape(const std::string& name) {
  Graph g = make_compressed_shape(name);
  drop_raw_lists(g);
  return g;
}

// The policies that move edges over the link, which compressed lists change.
inline const std::vector<std::string>& moving_policy_names() {
  static const std::vector<std::string> names{"hybrid", "filter", "compaction", "zerocopy", "loop"};
  return names;
}

using CompressedCase = std::tuple<std::string, std::string, std::string>;  // program, shape, policy

inline std::string compressed_case_name(const ::testing::TestParamInfo<CompressedCase>& c) {
  return std::get<0>(c.param) + "_" + std::get<1>(c.param) + "_" + std::get<2>(c.param);
}

inline auto compressed_cases() {
  return ::testing::ValuesIn(cases(program_names(), shape_names(), moving_policy_names()));
}

inline EngineOptions options_for(const std::string& policy, bool priority, Backend backend) {
  EngineOptions o;
  o.backend = backend;
  o.partition_bytes = kPartitionBytes;
  o.priority = priority ? Priority::on : Priority::off;
  // One request per round trip: with 512-byte partitions and MR = 256 every cost rounds up to
  // one round trip and hybrid would never mix engines.
  o.cost.max_requests = 1;
  const bool loop = policy.starts_with("loop");
  o.frontier_loop_edges = loop ? kLoopTestEdges : 0;
  if (in_memory_policy(policy)) {
    o.device_budget = std::uint64_t{1} << 30;
  } else {
    o.transfer = loop ? TransferPolicy::hybrid : parse_transfer_policy(policy);
    o.in_memory = false;  // the GPU's default budget would hold these small graphs whole
  }
  return o;
}

// The frontier loop (frontier_loop.hpp) on a grid of many levels (255 from a corner),
// weighted 1..64 and undirected: after the first survey every level runs in the loop, with the
// host loop's values, and the loop pushes even when asked for auto (no pull survey for a tiny
// frontier). SSSP's near-far piles relax each edge at most 3 times with the automatic delta; a
// delta of 1 settles each vertex once (integer weights: its value is final when it is the least),
// and a delta of all the weights at once is Bellman-Ford's frontier, which relaxes more.
inline Graph weighted_grid(std::uint32_t side) {
  return build(generate_grid(side, side), true, 21, 0.0);
}

inline void expect_frontier_loop_on_a_grid(Backend backend) {
  const Graph g = weighted_grid(128);
  const eid_t edges = g.num_edges();
  EngineOptions host = options_for("hybrid", true, backend);
  host.direction = Direction::push;  // a level an iteration, as the loop's
  EngineOptions loop = host;
  loop.frontier_loop_edges = kFrontierLoopEdges;
  loop.frontier_loop_hops = 0;  // a level of the loop is a level of the BFS
  loop.direction = Direction::automatic;
  OocEngine by_host(weighted_grid(128), host), by_loop(weighted_grid(128), loop);
  const auto bfs = by_loop.bfs(0);
  const auto bfs_host = by_host.bfs(0);
  EXPECT_EQ(bfs.values, bfs_host.values);
  EXPECT_TRUE(reference::compare_exact(bfs.values, reference::bfs(g, 0)).equal);
  EXPECT_EQ(bfs_host.stats.loop_iterations(), 0u);
  ASSERT_EQ(bfs.stats.iterations.size(), bfs_host.stats.iterations.size());  // a level each
  EXPECT_EQ(bfs.stats.loop_iterations(), bfs.stats.iterations.size());
  EXPECT_EQ(bfs.stats.pull_iterations(), 0u);
  EXPECT_EQ(bfs.stats.edges_processed(), edges);  // a BFS level is final: each list once
  EXPECT_EQ(bfs.stats.frontier_loop_edges, kFrontierLoopEdges);
  EXPECT_NE(bfs.stats.summary().find("frontier loop in 255 of 255 iterations"), std::string::npos)
      << bfs.stats.summary();
  const auto sssp = by_loop.sssp(0);
  EXPECT_TRUE(reference::compare_exact(sssp.values, reference::sssp(g, 0)).equal);
  EXPECT_EQ(sssp.values, by_host.sssp(0).values);
  EXPECT_GT(sssp.stats.frontier_loop_delta, 0.0);
  EXPECT_LE(sssp.stats.edges_processed(), 3 * edges);
  EXPECT_EQ(sssp.stats.loop_iterations(), sssp.stats.iterations.size());
  const auto sssp_with = [&](double delta) {
    EngineOptions o = loop;
    o.priority_delta = delta;
    OocEngine engine(weighted_grid(128), o);
    const auto run = engine.sssp(0);
    EXPECT_EQ(run.values, sssp.values) << "delta " << delta;
    EXPECT_EQ(run.stats.frontier_loop_delta, delta);
    return run.stats.edges_processed();
  };
  EXPECT_EQ(sssp_with(1), edges);
  EXPECT_GT(sssp_with(1e9), sssp.stats.edges_processed());
  // Hops (CUDA): the same values in fewer levels, every list relaxed at least once; the CPU
  // backend takes none. Automatic: 4, but 2 for SSSP's piles in GPU memory.
  for (const std::uint32_t hops : {1u, 2u, 4u}) {
    SCOPED_TRACE("hops " + std::to_string(hops));
    EngineOptions o = loop;
    o.frontier_loop_hops = hops;
    OocEngine engine(weighted_grid(128), o);
    const auto hopped = engine.bfs(0);
    EXPECT_EQ(hopped.values, bfs.values);
    EXPECT_EQ(engine.sssp(0).values, sssp.values);
    if (backend == Backend::cuda) {
      EXPECT_EQ(hopped.stats.frontier_loop_hops, hops);
      EXPECT_LT(hopped.stats.iterations.size(), bfs.stats.iterations.size());
      EXPECT_GE(hopped.stats.edges_processed(), edges);
      EXPECT_NE(hopped.stats.summary().find(std::to_string(hops) + " hops"), std::string::npos)
          << hopped.stats.summary();
    } else {
      EXPECT_EQ(hopped.stats.frontier_loop_hops, 0u);
      EXPECT_EQ(hopped.stats.iterations.size(), bfs.stats.iterations.size());
    }
  }
  EngineOptions automatic = loop;
  automatic.frontier_loop_hops = kAutomaticLoopHops;
  OocEngine by_default(weighted_grid(128), automatic);
  const bool gpu = backend == Backend::cuda;
  EXPECT_EQ(by_default.bfs(0).stats.frontier_loop_hops, gpu ? 4u : 0u);
  EXPECT_EQ(by_default.sssp(0).stats.frontier_loop_hops, gpu ? 4u : 0u);
  OocEngine in_memory(weighted_grid(128), options_for("loop_resident", true, backend));
  const auto resident_bfs = in_memory.bfs(0);
  EXPECT_EQ(resident_bfs.values, bfs.values);
  EXPECT_EQ(resident_bfs.stats.frontier_loop_hops, gpu ? 4u : 0u);
  const auto resident_sssp = in_memory.sssp(0);
  EXPECT_EQ(resident_sssp.values, sssp.values);
  EXPECT_EQ(resident_sssp.stats.frontier_loop_hops, gpu ? 2u : 0u);
}

// The loop hands the frontier back when it grows past the threshold and takes it again when it
// shrinks (kron's wide middle levels on the host), stops at the iteration limit like the host
// loop, and is not asked for where it does not serve: ranks, pull forced, a policy named.
inline void expect_frontier_loop_hands_back(Backend backend) {
  EngineOptions o = options_for("loop", true, backend);
  OocEngine kron(make_shape("kron"), o);
  const vid_t source = kron.highest_degree_vertex();
  const auto bfs = kron.bfs(source);
  EXPECT_TRUE(reference::compare_exact(bfs.values, reference::bfs(kron.graph(), source)).equal);
  EXPECT_GT(bfs.stats.loop_iterations(), 0u);
  EXPECT_LT(bfs.stats.loop_iterations(), bfs.stats.iterations.size());
  for (const IterationStats& it : bfs.stats.iterations) {
    if (it.frontier_loop) {
      EXPECT_LE(it.active_edges, kLoopTestEdges);
    }
  }
  OocEngine grid(weighted_grid(64), options_for("loop_resident", true, backend));
  RunOptions limited;
  limited.max_iterations = 5;
  const auto cut = grid.bfs(0, limited);
  EXPECT_FALSE(cut.converged);
  EXPECT_EQ(cut.stats.iterations.size(), 5u);
  EXPECT_EQ(cut.stats.loop_iterations(), 5u);
  // A run of more levels than a stretch: the cancel is asked before each stretch, and stops the
  // run after one.
  EngineOptions level_a_level = options_for("loop_resident", true, backend);
  level_a_level.frontier_loop_hops = 0;
  OocEngine chain(build(generate_chain(kLoopIterations + 100), false, 22, 0.0), level_a_level);
  int asked = 0;
  RunOptions cancelled;
  cancelled.cancelled = [&] { return ++asked > 1; };
  try {
    chain.bfs(0, cancelled);
    ADD_FAILURE() << "no exception";
  } catch (const Cancelled& e) {
    EXPECT_EQ(std::string(e.what()),
              "the run was cancelled after " + std::to_string(kLoopIterations) + " iterations");
  }
  for (const char* policy : {"filter", "compaction"}) {
    EngineOptions named = options_for(policy, true, backend);
    named.frontier_loop_edges = kFrontierLoopEdges;
    OocEngine engine(weighted_grid(64), named);
    const auto run = engine.bfs(0);
    EXPECT_EQ(run.stats.loop_iterations(), 0u) << policy;
    EXPECT_EQ(run.stats.frontier_loop_edges, 0u) << policy;
  }
}

// Compressed lists and packed weights, read by `engine`'s tasks (o.transfer), give the raw
// graph's BFS, SSSP and CC values and move fewer bytes, on shapes of long, short and
// one-target lists. The big star's lists of one target take 5 bytes compressed against 4 raw,
// so zero-copy reads no fewer lines of them.
inline void expect_compressed_like_raw(const EngineOptions& o, TransferEngine engine) {
  for (const char* shape : {"kron", "big_star", "grid"}) {
    OocEngine raw(make_shape(shape), o);
    OocEngine packed(make_compressed_shape(shape), o);
    const vid_t source = raw.highest_degree_vertex();
    const bool fewer = engine == TransferEngine::filter || std::string(shape) != "big_star";
    const auto bfs_raw = raw.bfs(source), bfs_packed = packed.bfs(source);
    EXPECT_EQ(bfs_packed.values, bfs_raw.values) << shape;
    EXPECT_TRUE(bfs_packed.stats.compressed) << shape;
    EXPECT_GT(bfs_packed.stats.bytes(engine), 0u) << shape;
    if (fewer) {
      EXPECT_LT(bfs_packed.stats.bytes(engine), bfs_raw.stats.bytes(engine)) << shape;
    }
    const auto sssp_raw = raw.sssp(source), sssp_packed = packed.sssp(source);
    EXPECT_EQ(sssp_packed.values, sssp_raw.values) << shape;
    if (fewer) {
      EXPECT_LT(sssp_packed.stats.bytes(engine), sssp_raw.stats.bytes(engine)) << shape;
    }
    if (raw.graph().symmetric) {
      EXPECT_EQ(packed.cc().values, raw.cc().values) << shape;
    }
  }
}

// The L1 distance between a run's ranks and the reference's.
inline double l1_distance(const std::vector<float>& ranks, const std::vector<double>& expected) {
  double l1 = 0;
  for (std::size_t v = 0; v < ranks.size(); ++v)
    l1 += std::abs(static_cast<double>(ranks[v]) - expected[v]);
  return l1;
}

// Runs `program` on the engine and expects the reference's answer, of `reference_graph` when
// given (the engine's graph with its raw lists, when the engine's has none), else of the engine's.
// Returns the run's statistics (none for cc on a directed graph, which is refused).
inline RunStats expect_matches_reference(const std::string& program, OocEngine& engine,
                                         const Graph* reference_graph = nullptr) {
  const Graph& g = reference_graph != nullptr ? *reference_graph : engine.graph();
  const vid_t source = engine.highest_degree_vertex();
  reference::Comparison c;
  RunStats stats;
  const auto take = [&stats](auto result) {
    stats = std::move(result.stats);
    return std::move(result.values);
  };
  if (program == "bfs") {
    c = reference::compare_exact(take(engine.bfs(source)), reference::bfs(g, source));
  } else if (program == "sssp") {
    c = reference::compare_exact(take(engine.sssp(source)), reference::sssp(g, source));
  } else if (program == "cc" || program == "cc_labels") {
    RunSettings settings = engine.settings();
    settings.cc = program == "cc" ? CcAlgorithm::afforest : CcAlgorithm::labels;
    engine.configure(settings);
    if (!g.symmetric) {
      EXPECT_THROW(engine.cc(), InvalidInput);
      return stats;
    }
    c = reference::compare_exact(take(engine.cc()), reference::cc(g));
    // Afforest unless labels were asked for, on one rank or several.
    const bool afforest = program == "cc";
    EXPECT_EQ(stats.method, afforest ? "afforest" : "labels");
  } else {
    PageRankOptions pr;
    pr.tolerance = kPageRankTolerance;
    pr.push = program == "pagerank_per_vertex" ? PushRule::per_vertex : PushRule::per_edge;
    const std::vector<float> ranks = take(engine.pagerank(pr));
    const std::vector<double> expected = reference::pagerank(g, pr.damping);
    c = reference::compare_l1(
        ranks, expected,
        reference::pagerank_l1_bound(pr.damping, pr.tolerance, reference::max_in_degree(g)));
    // The bound the run reports holds too (pagerank_bound.hpp).
    EXPECT_GE(stats.l1_bound, l1_distance(ranks, expected));
  }
  EXPECT_TRUE(c.equal) << c.message;
  return stats;
}

// PageRank asked for an accuracy (PageRankOptions::l1), pushing per edge and per vertex, priority
// on and off, on every shape: its ranks are within it of the reference's, and the bound the run
// reports lies between their distance and the accuracy asked. The stars' hubs sum thousands of
// equal messages in float, which may keep the bound above a small accuracy (a choice says so).
inline void expect_l1_runs_keep_their_bound(Backend backend) {
  for (const std::string& shape : shape_names()) {
    const Graph g = make_shape(shape);
    const std::vector<double> expected = reference::pagerank(g, 0.85);
    for (const bool priority : {true, false}) {
      OocEngine engine(make_shape(shape), options_for("hybrid", priority, backend));
      for (const PushRule push : {PushRule::per_edge, PushRule::per_vertex}) {
        for (const double l1 : {1e-2, 1e-4, 1e-5}) {
          SCOPED_TRACE(shape + ", priority " + (priority ? "on" : "off") + ", " +
                       std::string(to_string(push)) + ", l1 " + std::to_string(l1));
          PageRankOptions pr;
          pr.l1 = l1;
          pr.push = push;
          const Result<float> r = engine.pagerank(pr);
          const double distance = l1_distance(r.values, expected);
          EXPECT_GE(r.stats.l1_bound, distance);
          EXPECT_GT(r.stats.tolerance, 0);
          EXPECT_TRUE(r.converged);
          if (shape.ends_with("star") && r.stats.l1_bound > l1) {
            EXPECT_TRUE(std::any_of(r.stats.choices.begin(), r.stats.choices.end(),
                                    [](const std::string& choice) {
                                      return choice.find("float rounding") != std::string::npos;
                                    }))
                << r.stats.summary();
            continue;
          }
          EXPECT_LE(r.stats.l1_bound, l1);
          EXPECT_LE(distance, l1);
        }
      }
    }
  }
}

// A run asked for an accuracy ends once what pends is within it, before the tolerance it chose
// would end it: on kron, pushing per edge and per vertex, priority on and off, in GPU memory and
// out of core, fewer iterations than a run at that tolerance, a choice that says so, and the
// accuracy kept.
inline void expect_l1_runs_end_once_enough_pends(Backend backend) {
  const Graph g = make_shape("kron");
  const std::vector<double> expected = reference::pagerank(g, 0.85);
  for (const std::string policy : {"resident", "hybrid"}) {
    for (const bool priority : {true, false}) {
      OocEngine engine(make_shape("kron"), options_for(policy, priority, backend));
      for (const PushRule push : {PushRule::per_edge, PushRule::per_vertex}) {
        SCOPED_TRACE(policy + ", priority " + (priority ? "on, " : "off, ") +
                     std::string(to_string(push)));
        PageRankOptions asked;
        asked.l1 = 1e-4;
        asked.push = push;
        const Result<float> r = engine.pagerank(asked);
        PageRankOptions fixed;
        fixed.tolerance = static_cast<float>(r.stats.tolerance);
        fixed.push = push;
        const Result<float> whole = engine.pagerank(fixed);
        EXPECT_LT(r.stats.iterations.size(), whole.stats.iterations.size());
        EXPECT_TRUE(std::any_of(r.stats.choices.begin(), r.stats.choices.end(),
                                [](const std::string& choice) {
                                  return choice.find("once what pended was within") !=
                                         std::string::npos;
                                }))
            << r.stats.summary();
        EXPECT_LE(r.stats.l1_bound, asked.l1);
        EXPECT_LE(l1_distance(r.values, expected), asked.l1);
      }
    }
  }
}

// Delta windows that defer (EngineOptions::priority_delta): BFS and SSSP with windows of a delta
// of 2, and of the automatic one, and no least window size (the default keeps these small graphs
// in one window), give the reference's values on `backend` for every shape and policy.
inline void expect_delta_windows_match(Backend backend) {
  for (const std::string& shape : shape_names()) {
    for (const std::string& policy : policy_names()) {
      for (const double delta : {2.0, kAutomaticDelta}) {
        SCOPED_TRACE(shape + ", " + policy + ", delta " + std::to_string(delta));
        EngineOptions o = options_for(policy, true, backend);
        o.priority_delta = delta;
        o.priority_min_edges = 0;
        OocEngine engine(make_shape(shape), o);
        const RunStats sssp = expect_matches_reference("sssp", engine);
        expect_matches_reference("bfs", engine);
        if (delta > 0) {
          EXPECT_EQ(sssp.priority_delta, delta);
        } else if (engine.graph().num_edges() > 0) {
          EXPECT_GT(sssp.priority_delta, 0.0);  // twice the sampled mean weight
        }
      }
    }
  }
}

// The policies a compressed-only graph runs under: all but unified, which it refuses; under
// `resident` (a budget that holds every raw edge) its lists go to the edge cache, compressed, on
// the GPU, and stay in host memory on the CPU.
inline const std::vector<std::string>& compressed_only_policy_names() {
  static const std::vector<std::string> names{"hybrid",   "filter",   "compaction",
                                              "zerocopy", "resident", "loop"};
  return names;
}

inline auto compressed_only_cases() {
  return ::testing::ValuesIn(cases(program_names(), shape_names(), compressed_only_policy_names()));
}

// `program` on the compressed-only shape gives the reference's answer on its raw lists, having
// read compressed lists and, with edges, never run in memory (which copies raw lists).
inline void expect_compressed_only_matches(const std::string& program, const std::string& shape,
                                           const EngineOptions& o) {
  const Graph raw = make_compressed_shape(shape);
  OocEngine engine(make_compressed_only_shape(shape), o);
  ASSERT_TRUE(engine.graph().targets.empty());
  const RunStats stats = expect_matches_reference(program, engine, &raw);
  if (stats.algorithm.empty()) return;  // refused: cc on a directed graph
  EXPECT_TRUE(stats.compressed);
  if (engine.graph().num_edges() > 0) {
    EXPECT_FALSE(stats.in_memory);
  }
}

using Case =
    std::tuple<std::string, std::string, std::string, bool>;  // program, shape, policy, priority

inline std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  const auto& [program, shape, policy, priority] = info.param;
  return program + "_" + shape + "_" + policy + (priority ? "_priority" : "_plain");
}

inline const std::vector<bool>& priorities() {
  static const std::vector<bool> values{false, true};
  return values;
}

inline auto all_cases() {
  return ::testing::ValuesIn(cases(program_names(), shape_names(), policy_names(), priorities()));
}

// The cases with one more axis (ranks, a mapping), as (case, value), over `policies`.
template <class X>
auto all_cases_and(const std::vector<X>& extra,
                   const std::vector<std::string>& policies = policy_names()) {
  return ::testing::ValuesIn(
      nest_last(cases(program_names(), shape_names(), policies, priorities(), extra)));
}

// The batched traversals (bc, closeness, bfs from several sources): the shapes built undirected
// (bc needs a symmetric graph), every policy the loop does not repeat; 4 sources in batches of 1,
// 12 in batches of 5 (not a power of two; the last batch short) and 40 (two words of bits) in a
// batch of the width the engine chooses (all at once). Fewer sources for the narrow batches: each
// batch runs a level per iteration, and the chain's 200 levels add up.
// Path counts and dependencies are single precision in the engine.
inline constexpr double kBcRelative = 1e-4;
inline constexpr double kClosenessRelative = 1e-9;  // sums of 1 / level in another order

inline const std::vector<std::string>& bc_shape_names() {
  static const std::vector<std::string> names{"kron",     "urand", "grid",   "star",
                                              "big_star", "chain", "single", "disconnected"};
  return names;
}

inline Graph make_symmetric_shape(const std::string& name) {
  if (name == "grid") return build(generate_grid(20, 30), true, 4, 0.0);
  if (name == "star") return build(generate_star(300), true, 5);
  if (name == "chain") return build(generate_chain(200), true, 6, 0.0);
  if (name == "single") return build(generate_empty(1), true, 7);
  // Road-like: planar-like, mean degree about 2.5, most vertices of core 1 or 2.
  if (name == "road") return build(generate_road(3000, 8), true, 8, 0.0);
  return make_shape(name);  // kron, urand, big_star and disconnected are built undirected there
}

// The shapes triangles are counted on: every symmetric one (make_symmetric_shape) and a road-like
// graph.
inline std::vector<std::string> triangle_shapes() {
  std::vector<std::string> shapes;
  for (const std::string& shape : shape_names())
    if (shape != "kron_directed") shapes.push_back(shape);
  shapes.emplace_back("road");
  return shapes;
}

// The highest-degree vertex (the stars' hub), then vertices spread over the ids, up to `count`.
inline std::vector<vid_t> batch_sources(const OocEngine& engine, vid_t count = 40) {
  std::vector<vid_t> sources{engine.highest_degree_vertex()};
  const vid_t n = engine.graph().num_vertices();
  for (vid_t i = 0; i < count && sources.size() < std::min(count, n); ++i) {
    const auto v = static_cast<vid_t>(std::uint64_t{i} * n / count);
    if (std::find(sources.begin(), sources.end(), v) == sources.end()) sources.push_back(v);
  }
  return sources;
}

// bc, closeness and bfs from the sources in batches of `batch` (0: the engine's choice) against
// the serial references; `reference_graph`: the raw lists of a compressed-only engine.
inline void expect_batches_match_references(OocEngine& engine, std::uint32_t batch,
                                            const std::vector<vid_t>& sources,
                                            const Graph* reference_graph = nullptr) {
  const Graph& g = reference_graph != nullptr ? *reference_graph : engine.graph();
  // bc and closeness give no slot to a source without out-edges; bfs gives every source its row.
  const auto passes = [&](std::size_t count) {
    const auto width =
        static_cast<std::uint32_t>(std::min<std::size_t>(batch == 0 ? 1024 : batch, count));
    return std::pair{width, width == 0 ? 0 : (count + width - 1) / width};
  };
  const auto reaching =
      static_cast<std::size_t>(std::count_if(sources.begin(), sources.end(), [&](vid_t s) {
        return engine.graph().degree(engine.internal_id(s)) > 0;
      }));
  const auto [width, batches] = passes(reaching);
  const BatchResult bc = engine.bc(sources, {}, batch);
  const reference::Comparison c =
      reference::compare_relative(bc.values, reference::bc(g, sources), kBcRelative);
  EXPECT_TRUE(c.equal) << "bc: " << c.message;
  EXPECT_EQ(bc.batch, width);
  EXPECT_EQ(bc.stats.batch, width);
  EXPECT_EQ(bc.forward.size(), batches);
  EXPECT_EQ(bc.backward.size(), batches);
  if (!bc.forward.empty()) {
    EXPECT_FALSE(bc.forward.front().priority);  // bulk-synchronous, whatever the engine says
  }
  const BatchResult closeness = engine.closeness(sources, {}, batch);
  const reference::Comparison h = reference::compare_relative(
      closeness.values, reference::closeness(g, sources), kClosenessRelative);
  EXPECT_TRUE(h.equal) << "closeness: " << h.message;
  EXPECT_EQ(closeness.forward.size(), batches);
  EXPECT_TRUE(closeness.backward.empty());
  const LevelsResult levels = engine.bfs(sources, {}, batch);
  ASSERT_EQ(levels.levels.size(), sources.size());
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const reference::Comparison l =
        reference::compare_exact(levels.levels[i], reference::bfs(g, sources[i]));
    EXPECT_TRUE(l.equal) << "bfs from " << sources[i] << ": " << l.message;
  }
}

inline void expect_batches_match_references(OocEngine& engine, std::uint32_t batch = 0,
                                            const Graph* reference_graph = nullptr) {
  const vid_t count = batch == 0 ? 40 : batch == 1 ? 4 : 12;
  expect_batches_match_references(engine, batch, batch_sources(engine, count), reference_graph);
}

using BatchCase = std::tuple<std::string, std::string, std::uint32_t>;  // shape, policy, batch

inline std::string batch_case_name(const ::testing::TestParamInfo<BatchCase>& info) {
  const auto& [shape, policy, batch] = info.param;
  return shape + "_" + policy + (batch == 0 ? "_chosen" : "_of_" + std::to_string(batch));
}

inline const std::vector<std::uint32_t>& batch_widths() {
  static const std::vector<std::uint32_t> widths{1, 5, 0};
  return widths;
}

inline auto batch_cases() {
  return ::testing::ValuesIn(cases(bc_shape_names(), host_policy_names(), batch_widths()));
}

template <class X>
auto batch_cases_and(const std::vector<X>& extra) {
  return ::testing::ValuesIn(
      nest_last(cases(bc_shape_names(), host_policy_names(), batch_widths(), extra)));
}

// The pull direction: the symmetric shapes (a pulling vertex reads its in-edges through its own
// list), every policy, pull forced in every iteration with work and auto; priority on and off.
// A case runs every program (the per-process set-up costs more than these small runs).
using DirectionCase = std::tuple<std::string, std::string, std::string, bool>;

inline std::string direction_case_name(const ::testing::TestParamInfo<DirectionCase>& info) {
  const auto& [shape, policy, direction, priority] = info.param;
  return shape + "_" + policy + "_" + direction + (priority ? "_priority" : "_plain");
}

inline const std::vector<std::string>& direction_names() {
  static const std::vector<std::string> names{"pull", "auto"};
  return names;
}

inline auto direction_cases() {
  return ::testing::ValuesIn(
      cases(bc_shape_names(), policy_names(), direction_names(), priorities()));
}

template <class X>
auto direction_cases_and(const std::vector<X>& extra,
                         const std::vector<std::string>& policies = policy_names()) {
  return ::testing::ValuesIn(
      nest_last(cases(bc_shape_names(), policies, direction_names(), priorities(), extra)));
}

inline EngineOptions direction_options(const std::string& policy, const std::string& direction,
                                       bool priority, Backend backend) {
  EngineOptions o = options_for(policy, priority, backend);
  o.direction = parse_direction(direction);
  return o;
}

// The pull direction on directed graphs, over their in-lists (partition-tool --in-edges):
// Kronecker and uniform graphs, a chain (a level per vertex), a star whose hub points at its
// leaves (vertices without in-edges and without out-edges), and stars whose leaves point at the
// hub, whose in-list then fills a partition of its own (the big one's more than the CUDA gather
// walks in one block); every policy, pull forced and auto, priority on and off.
inline const std::vector<std::string>& in_edge_shape_names() {
  static const std::vector<std::string> names{"kron_directed", "urand_directed", "chain_directed",
                                              "out_star",      "in_star",        "in_big_star"};
  return names;
}

// The generator's edges as they are, not symmetrised (stars and chains are undirected as made).
inline EdgeList one_way(EdgeList list) {
  list.symmetric_input = false;
  return list;
}

// Edges (leaf, hub) of a star of n vertices.
inline EdgeList inward_star(vid_t n) {
  EdgeList list = one_way(generate_star(n));
  std::swap(list.sources, list.targets);
  return list;
}

inline Graph make_in_edge_shape(const std::string& name) {
  Graph g = name == "urand_directed"   ? build(generate_uniform(11, 8, 12), false, 12)
            : name == "chain_directed" ? build(one_way(generate_chain(200)), false, 13, 0.0)
            : name == "out_star"       ? build(one_way(generate_star(300)), false, 14)
            : name == "in_star"        ? build(inward_star(300), false, 10)
            : name == "in_big_star"    ? build(inward_star(10000), false, 11)
                                       : make_shape(name);
  g.in_edges = in_edges_of(g);
  return g;
}

inline auto in_edge_cases() {
  return ::testing::ValuesIn(
      cases(in_edge_shape_names(), policy_names(), direction_names(), priorities()));
}

template <class X>
auto in_edge_cases_and(const std::vector<X>& extra) {
  return ::testing::ValuesIn(nest_last(
      cases(in_edge_shape_names(), policy_names(), direction_names(), priorities(), extra)));
}

// Every program on `engine` (a graph with in-edges) matches its reference (cc, which needs a
// symmetric graph, is refused); forced, BFS, SSSP and PageRank pull.
inline void expect_in_edge_runs_match(OocEngine& engine, const std::string& direction) {
  ASSERT_FALSE(engine.graph().symmetric);  // else the pull would read the out-lists
  for (const std::string& program : program_names()) {
    SCOPED_TRACE(program);
    const RunStats stats = expect_matches_reference(program, engine);
    if (direction == "pull" && !program.starts_with("cc")) {
      EXPECT_GT(stats.pull_iterations(), 0u);
    }
  }
}

// A BFS that pulls over zero-copy stops reading a vertex's list at its first frontier neighbour:
// it reads fewer edges than its gathering vertices' lists hold, and its bytes are the 128-byte
// lines it read, within what those lists span (at most two lines more than their bytes each).
inline void expect_zero_copy_gathers_count_lines(Backend backend) {
  OocEngine engine(make_symmetric_shape("kron"),
                   direction_options("zerocopy", "pull", false, backend));
  const auto bfs = engine.bfs(engine.highest_degree_vertex());
  std::uint64_t gathering_edges = 0, span_bound = 0;
  for (const IterationStats& it : bfs.stats.iterations) {
    EXPECT_TRUE(it.pull);
    gathering_edges += it.active_edges;
    span_bound += it.active_edges * sizeof(vid_t) + it.active_vertices * 2 * 128;
  }
  EXPECT_LT(bfs.stats.edges_processed(), gathering_edges);
  EXPECT_GT(bfs.stats.bytes(TransferEngine::zerocopy), 0u);
  EXPECT_LE(bfs.stats.bytes(TransferEngine::zerocopy), span_bound);
}

// User programs written only against the public contract (programs.hpp), one of each kind.
// Widest path: monotone, values only grow (atomic_max; the ranks combine with max).
struct WidestPath {
  using Value = std::uint32_t;
  static constexpr ProgramKind kind = ProgramKind::monotone;
  static constexpr bool needs_weights = true;
  static constexpr bool needs_symmetric = false;
  static constexpr Reduction combine = Reduction::max;
  vid_t source;
  OOC_HD Value init(vid_t v) const { return v == source ? ~Value{0} : 0; }
  OOC_HD bool active_at_start(vid_t v) const { return v == source; }
  OOC_HD Value offer(Value src, std::uint32_t weight) const { return src < weight ? src : weight; }
  OOC_HD bool relax(Value src, std::uint32_t weight, Value* dst) const {
    const Value candidate = offer(src, weight);
    return candidate > atomic_load(dst) && atomic_max(dst, candidate) < candidate;
  }
};

// Personalised PageRank: accumulative, all the restart mass at one vertex (unnormalised).
struct PersonalisedPageRank {
  using Value = float;
  static constexpr ProgramKind kind = ProgramKind::accumulative;
  static constexpr bool needs_weights = false;
  static constexpr bool needs_symmetric = false;
  vid_t source;
  float damping, threshold;
  OOC_HD Value init(vid_t) const { return 0.0f; }
  OOC_HD Value init_delta(vid_t v) const { return v == source ? 1.0f : 0.0f; }
  OOC_HD bool active_at_start(vid_t v) const { return v == source; }
  OOC_HD Value message(Value delta, eid_t out_degree) const {
    return damping * delta / static_cast<float>(out_degree);
  }
  OOC_HD Value offer(Value message, std::uint32_t) const { return message; }
  OOC_HD bool relax(Value message, std::uint32_t, Value* dst) const {
    const float before = atomic_add(dst, message);
    return before < threshold && before + message >= threshold;
  }
};

// Hop counts that only follow edges to a larger id: monotone, and it reads the edge's ids.
struct UphillHops {
  using Value = std::uint32_t;
  static constexpr ProgramKind kind = ProgramKind::monotone;
  static constexpr Reduction combine = Reduction::min;
  static constexpr bool needs_weights = false;
  static constexpr bool needs_symmetric = false;
  vid_t source;
  OOC_HD Value init(vid_t v) const { return v == source ? 0 : ~Value{0}; }
  OOC_HD bool active_at_start(vid_t v) const { return v == source; }
  OOC_HD bool relax(Value src, std::uint32_t, Value* dst, vid_t from, vid_t to) const {
    return to > from && lower_to(dst, src + 1);
  }
};

// Serial references in internal ids (the engines' results are in user ids).
inline std::vector<std::uint32_t> widest_reference(const Graph& g, vid_t source) {
  std::vector<std::uint32_t> width(g.num_vertices(), 0);
  width[source] = ~std::uint32_t{0};
  for (bool changed = true; changed;) {  // Bellman-Ford: simple, and the graphs are small
    changed = false;
    for (vid_t u = 0; u < g.num_vertices(); ++u) {
      for (eid_t e = g.offsets[u]; e < g.offsets[u + 1] && width[u] > 0; ++e) {
        const std::uint32_t c = std::min(width[u], g.weights[e]);
        if (c > width[g.targets[e]]) {
          width[g.targets[e]] = c;
          changed = true;
        }
      }
    }
  }
  return width;
}

inline std::vector<std::uint32_t> uphill_reference(const Graph& g, vid_t source) {
  std::vector<std::uint32_t> hops(g.num_vertices(), ~std::uint32_t{0});
  hops[source] = 0;
  std::vector<vid_t> queue{source};
  for (std::size_t i = 0; i < queue.size(); ++i) {
    const vid_t u = queue[i];
    for (eid_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
      const vid_t t = g.targets[e];
      if (t > u && hops[t] == ~std::uint32_t{0}) {
        hops[t] = hops[u] + 1;
        queue.push_back(t);
      }
    }
  }
  return hops;
}

// The L1 distance between two runs' values.
inline double l1_distance(const std::vector<float>& a, const std::vector<float>& b) {
  double l1 = 0;
  for (std::size_t v = 0; v < a.size(); ++v)
    l1 += std::abs(static_cast<double>(a[v]) - b[v]);
  return l1;
}

template <class T>
std::vector<T> in_user_ids(const OocEngine& engine, const std::vector<T>& internal) {
  std::vector<T> out(internal.size());
  for (vid_t v = 0; v < internal.size(); ++v)
    out[engine.user_id(v)] = internal[v];
  return out;
}

// The three user programs on `engine`: the monotone ones equal to their references, personalised
// PageRank equal to `expected_ppr` (another backend's run) within float rounding, sums to 1.
inline std::vector<float> expect_user_programs(OocEngine& engine,
                                               const std::vector<float>& expected_ppr = {}) {
  const vid_t source = engine.highest_degree_vertex();
  const vid_t s = engine.internal_id(source);
  const Graph& g = engine.graph();
  EXPECT_EQ(engine.run(WidestPath{s}).values, in_user_ids(engine, widest_reference(g, s)));
  EXPECT_EQ(engine.run(UphillHops{s}).values, in_user_ids(engine, uphill_reference(g, s)));
  const auto ppr = engine.run(PersonalisedPageRank{s, 0.85f, 1e-9f}).values;
  double sum = 0;
  for (const float x : ppr)
    sum += x;
  // Unnormalised: the restart mass 1 at the source, then d of it, d^2, ... at most 1 / (1 - d)
  // in all, less what dangling vertices absorb.
  EXPECT_GT(sum, 1.0);
  EXPECT_LE(sum, 1.0 / (1.0 - 0.85) * (1 + 1e-3));  // float rounding over many additions
  EXPECT_GE(ppr[source], 1.0f);
  if (!expected_ppr.empty()) {
    EXPECT_LT(l1_distance(ppr, expected_ppr), 1e-4);
  }
  return ppr;
}

}  // namespace ooc::test
