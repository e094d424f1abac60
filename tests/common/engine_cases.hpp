#pragma once
// The graph shapes, policies and programs every backend is checked on, and the check itself:
// run the engine, compare with the serial reference (exactly for BFS, SSSP and CC; within the
// proven bound for PageRank). Shared by the CPU tests and the GPU tests.
#include <gtest/gtest.h>

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

namespace ooc::test {

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
  static const std::vector<std::string> names{"bfs", "sssp", "cc", "pagerank"};
  return names;
}

// The five policies, plus hybrid with a budget that holds every edge (in-memory mode).
inline const std::vector<std::string>& policy_names() {
  static const std::vector<std::string> names{"hybrid",   "filter",  "compaction",
                                              "zerocopy", "unified", "resident"};
  return names;
}

inline Graph build(EdgeList edges, bool undirected, std::uint64_t seed, double hubs = 0.08) {
  BuildOptions options;
  options.undirected = undirected;
  options.weights = parse_weight_spec("random:1-64", seed);
  return hub_sort(build_graph(std::move(edges), options), hubs);
}

// Two components and isolated vertices, ids interleaved so that components span partitions.
inline EdgeList disconnected() {
  EdgeList list;
  const vid_t n = 400;
  std::vector<std::pair<vid_t, vid_t>> pairs;
  for (vid_t v = 0; v + 4 < 300; v += 2)
    pairs.emplace_back(v, v + 2);  // even chain
  for (vid_t v = 3; v < 300; v += 6)
    pairs.emplace_back(1, v);  // odd star
  list.num_vertices = n;       // 300..399 isolated
  list.sources = Buffer<vid_t>::allocate(pairs.size());
  list.targets = Buffer<vid_t>::allocate(pairs.size());
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    list.sources[i] = pairs[i].first;
    list.targets[i] = pairs[i].second;
  }
  return list;
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

// The policies that move edges over the link, which compressed lists change.
inline const std::vector<std::string>& moving_policy_names() {
  static const std::vector<std::string> names{"hybrid", "filter", "compaction", "zerocopy"};
  return names;
}

using CompressedCase = std::tuple<std::string, std::string, std::string>;  // program, shape, policy

inline std::string compressed_case_name(const ::testing::TestParamInfo<CompressedCase>& c) {
  return std::get<0>(c.param) + "_" + std::get<1>(c.param) + "_" + std::get<2>(c.param);
}

inline auto compressed_cases() {
  return ::testing::Combine(::testing::ValuesIn(program_names()),
                            ::testing::ValuesIn(shape_names()),
                            ::testing::ValuesIn(moving_policy_names()));
}

inline EngineOptions options_for(const std::string& policy, bool priority, Backend backend) {
  EngineOptions o;
  o.backend = backend;
  o.partition_bytes = kPartitionBytes;
  o.priority = priority;
  // One request per round trip: with 512-byte partitions and MR = 256 every cost rounds up to
  // one round trip and hybrid would never mix engines.
  o.cost.max_requests = 1;
  if (policy == "resident") {
    o.device_budget = std::uint64_t{1} << 30;
  } else {
    o.transfer = parse_transfer_policy(policy);
    o.in_memory = false;  // the GPU's default budget would hold these small graphs whole
  }
  return o;
}

// Compressed lists and packed weights, read by `engine`'s tasks (o.transfer), give the raw
// graph's BFS, SSSP and CC values and move fewer bytes, on shapes of long, short and
// one-target lists. The big star's lists of one target take 5 bytes compressed against 4 raw,
// so zero-copy reads no fewer lines of them.
inline void expect_compressed_like_raw(const EngineOptions& o, Engine engine) {
  for (const char* shape : {"kron", "big_star", "grid"}) {
    OocEngine raw(make_shape(shape), o);
    OocEngine packed(make_compressed_shape(shape), o);
    const vid_t source = raw.highest_degree_vertex();
    const bool fewer = engine == Engine::filter || std::string(shape) != "big_star";
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

// Runs `program` on the engine and expects the reference's answer.
inline void expect_matches_reference(const std::string& program, OocEngine& engine) {
  const Graph& g = engine.graph();
  const vid_t source = engine.highest_degree_vertex();
  reference::Comparison c;
  if (program == "bfs") {
    c = reference::compare_exact(engine.bfs(source).values, reference::bfs(g, source));
  } else if (program == "sssp") {
    c = reference::compare_exact(engine.sssp(source).values, reference::sssp(g, source));
  } else if (program == "cc") {
    if (!g.symmetric) {
      EXPECT_THROW(engine.cc(), InvalidInput);
      return;
    }
    c = reference::compare_exact(engine.cc().values, reference::cc(g));
  } else {
    PageRankOptions pr;
    pr.tolerance = kPageRankTolerance;
    c = reference::compare_l1(engine.pagerank(pr).values, reference::pagerank(g, pr.damping),
                              reference::pagerank_l1_bound(pr.damping, pr.tolerance));
  }
  EXPECT_TRUE(c.equal) << c.message;
}

using Case =
    std::tuple<std::string, std::string, std::string, bool>;  // program, shape, policy, priority

inline std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  const auto& [program, shape, policy, priority] = info.param;
  return program + "_" + shape + "_" + policy + (priority ? "_priority" : "_plain");
}

inline auto all_cases() {
  return ::testing::Combine(::testing::ValuesIn(program_names()),
                            ::testing::ValuesIn(shape_names()), ::testing::ValuesIn(policy_names()),
                            ::testing::Bool());
}

}  // namespace ooc::test
