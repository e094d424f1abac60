// Every program x every transfer policy x priority on/off x graph shape on the CPU backend,
// against the serial references.
#include <gtest/gtest.h>

#include <numeric>

#include "engine_cases.hpp"

namespace ooc {
namespace {

class CpuBackend : public ::testing::TestWithParam<test::Case> {};

TEST_P(CpuBackend, MatchesTheReference) {
  const auto& [program, shape, policy, priority] = GetParam();
  OocEngine engine(test::make_shape(shape), test::options_for(policy, priority, Backend::cpu));
  test::expect_matches_reference(program, engine);
}

INSTANTIATE_TEST_SUITE_P(AllCases, CpuBackend, test::all_cases(), test::case_name);

// Graphs with compressed lists (partition-tool --compress): filter tasks decode them.
class CpuCompressed : public ::testing::TestWithParam<test::CompressedCase> {};

TEST_P(CpuCompressed, MatchesTheReference) {
  const auto& [program, shape, policy] = GetParam();
  OocEngine engine(test::make_compressed_shape(shape),
                   test::options_for(policy, true, Backend::cpu));
  test::expect_matches_reference(program, engine);
}

INSTANTIATE_TEST_SUITE_P(EveryMovingPolicy, CpuCompressed, test::compressed_cases(),
                         test::compressed_case_name);

// Compressed-only graphs (partition-tool --compress-only): every task reads the compressed
// lists, the references the raw ones.
class CpuCompressedOnly : public ::testing::TestWithParam<test::CompressedCase> {};

TEST_P(CpuCompressedOnly, MatchesTheReference) {
  const auto& [program, shape, policy] = GetParam();
  test::expect_compressed_only_matches(program, shape,
                                       test::options_for(policy, true, Backend::cpu));
}

INSTANTIATE_TEST_SUITE_P(EveryPolicyButUnified, CpuCompressedOnly, test::compressed_only_cases(),
                         test::compressed_case_name);

// The batched traversals against Brandes' serial code, BFS and harmonic sums.
class CpuBatches : public ::testing::TestWithParam<test::BatchCase> {};

TEST_P(CpuBatches, MatchTheReferences) {
  const auto& [shape, policy, batch] = GetParam();
  OocEngine engine(test::make_symmetric_shape(shape),
                   test::options_for(policy, true, Backend::cpu));
  test::expect_batches_match_references(engine, batch);
}

INSTANTIATE_TEST_SUITE_P(AllCases, CpuBatches, test::batch_cases(), test::batch_case_name);

TEST(CpuBatchRuns, CompressedListsGiveTheRawValues) {
  for (const std::string& policy : test::moving_policy_names()) {
    Graph g = test::make_symmetric_shape("kron");
    compress(g);
    OocEngine engine(std::move(g), test::options_for(policy, true, Backend::cpu));
    test::expect_batches_match_references(engine, 7);
  }
}

TEST(CpuBatchRuns, EverySourceGivesExactValuesInSeveralBatches) {
  OocEngine engine(test::make_symmetric_shape("urand"),
                   test::options_for("hybrid", true, Backend::cpu));
  std::vector<vid_t> all(engine.graph().num_vertices());
  std::iota(all.begin(), all.end(), vid_t{0});
  test::expect_batches_match_references(engine, 96, all);
}

// Triangles (OocEngine::triangles) on every symmetric shape and a road-like graph, raw, compressed
// and compressed-only: each vertex's count is the serial reference's, and the total is a third of
// their sum. A hub's list is searched, not merged (the big star's and kron's hubs against short
// lists).
TEST(CpuTriangles, MatchTheReferenceOnEveryShape) {
  for (const std::string& shape : test::triangle_shapes()) {
    for (const int lists : {0, 1, 2}) {
      SCOPED_TRACE(shape + (lists == 0   ? ", raw"
                            : lists == 1 ? ", compressed"
                                         : ", compressed only"));
      const Graph reference_graph = test::make_symmetric_shape(shape);
      Graph g = test::make_symmetric_shape(shape);
      if (lists > 0) compress(g);
      if (lists == 2) drop_raw_lists(g);
      OocEngine engine(std::move(g), test::options_for("hybrid", true, Backend::cpu));
      const TriangleResult r = engine.triangles();
      const std::vector<std::uint64_t> expected = reference::triangles(reference_graph);
      EXPECT_EQ(r.values, expected);
      std::uint64_t sum = 0;
      for (const std::uint64_t c : expected)
        sum += c;
      EXPECT_EQ(r.total * 3, sum);
      EXPECT_EQ(r.stats.algorithm, "tc");
      EXPECT_NE(r.stats.summary().find(std::to_string(r.total) + " triangles"), std::string::npos);
    }
  }
}

// A grid has none, a clique of n has n choose 3, each of its vertices in (n-1 choose 2); a graph
// that keeps repeated edges counts each once; a directed graph is refused in one line.
TEST(CpuTriangles, CountKnownGraphsAndRefuseWhatTheyCannotRun) {
  OocEngine grid(test::make_symmetric_shape("grid"),
                 test::options_for("hybrid", true, Backend::cpu));
  EXPECT_EQ(grid.triangles().total, 0u);
  OocEngine k6(test::build(test::edge_list_of(6, test::clique_pairs(6)), true, 1, 0.0),
               test::options_for("hybrid", true, Backend::cpu));
  const TriangleResult r = k6.triangles();
  EXPECT_EQ(r.total, 20u);
  EXPECT_EQ(r.values, std::vector<std::uint64_t>(6, 10));
  // Repeated edges and a loop, which this build keeps: an edge counts once, a loop never.
  BuildOptions keep;
  keep.undirected = true;
  keep.remove_duplicates = false;
  OocEngine repeated(
      build_graph(test::edge_list_of(4, {{0, 1}, {1, 0}, {0, 1}, {1, 2}, {2, 0}, {2, 2}, {2, 3}}),
                  keep),
      test::options_for("hybrid", true, Backend::cpu));
  ASSERT_GT(repeated.graph().num_edges(), 8u);  // the repeats are in its lists
  const TriangleResult once = repeated.triangles();
  EXPECT_EQ(once.total, 1u);
  EXPECT_EQ(once.values, (std::vector<std::uint64_t>{1, 1, 1, 0}));
  OocEngine directed(test::make_shape("kron_directed"),
                     test::options_for("hybrid", true, Backend::cpu));
  EXPECT_EQ(test::error_of([&] { directed.triangles(); }),
            "tc needs a symmetric graph, and this one is directed (convert or generate it with "
            "--undirected)");
}

TEST(CpuPageRank, AnAccuracyAskedForIsKeptAndItsBoundReported) {
  test::expect_l1_runs_keep_their_bound(Backend::cpu);
}

TEST(CpuPageRank, AnAccuracyAskedForEndsOnceEnoughPends) {
  test::expect_l1_runs_end_once_enough_pends(Backend::cpu);
}

TEST(CpuFrontierLoop, RunsAGridsLevelsAndSavesSsspsWork) {
  test::expect_frontier_loop_on_a_grid(Backend::cpu);
}

TEST(CpuFrontierLoop, HandsTheFrontierBackAndForth) {
  test::expect_frontier_loop_hands_back(Backend::cpu);
}

TEST(CpuDeltaWindows, MatchTheReference) {
  test::expect_delta_windows_match(Backend::cpu);
}

// The pull direction, forced and chosen per iteration, on the symmetric shapes.
class CpuDirection : public ::testing::TestWithParam<test::DirectionCase> {};

TEST_P(CpuDirection, MatchesTheReference) {
  const auto& [shape, policy, direction, priority] = GetParam();
  OocEngine engine(test::make_symmetric_shape(shape),
                   test::direction_options(policy, direction, priority, Backend::cpu));
  for (const std::string& program : test::program_names()) {
    SCOPED_TRACE(program);
    test::expect_matches_reference(program, engine);
  }
}

INSTANTIATE_TEST_SUITE_P(AllCases, CpuDirection, test::direction_cases(),
                         test::direction_case_name);

// The pull direction over a directed graph's in-lists.
class CpuInEdges : public ::testing::TestWithParam<test::DirectionCase> {};

TEST_P(CpuInEdges, MatchTheReference) {
  const auto& [shape, policy, direction, priority] = GetParam();
  OocEngine engine(test::make_in_edge_shape(shape),
                   test::direction_options(policy, direction, priority, Backend::cpu));
  test::expect_in_edge_runs_match(engine, direction);
}

INSTANTIATE_TEST_SUITE_P(AllCases, CpuInEdges, test::in_edge_cases(), test::direction_case_name);

TEST(CpuDirectionRuns, CompressedListsGiveTheReference) {
  for (const std::string& policy : test::moving_policy_names()) {
    for (const std::string& program : test::program_names()) {
      Graph g = test::make_symmetric_shape("kron");
      compress(g);
      OocEngine engine(std::move(g), test::direction_options(policy, "pull", true, Backend::cpu));
      test::expect_matches_reference(program, engine);
    }
  }
}

// Compressed-only: a symmetric graph pulls over its compressed lists, a directed one over its
// in-lists, which stay raw; BC's two phases read the compressed lists.
TEST(CpuDirectionRuns, CompressedOnlyGraphsPullAndGiveTheReference) {
  for (const std::string& policy : test::compressed_only_policy_names()) {
    SCOPED_TRACE(policy);
    for (const std::string shape : {"kron", "kron_directed"}) {
      const auto make = [&] {
        return shape == "kron" ? test::make_shape(shape) : test::make_in_edge_shape(shape);
      };
      const Graph raw = make();
      Graph g = make();
      compress(g);
      drop_raw_lists(g);
      OocEngine engine(std::move(g), test::direction_options(policy, "pull", true, Backend::cpu));
      for (const std::string& program : test::program_names()) {
        SCOPED_TRACE(program);
        const RunStats stats = test::expect_matches_reference(program, engine, &raw);
        if (!stats.algorithm.empty() && stats.method != "afforest") {  // Afforest only pushes
          EXPECT_GT(stats.pull_iterations(), 0u);
        }
      }
    }
    OocEngine bc(test::make_compressed_only_shape("kron"),
                 test::options_for(policy, true, Backend::cpu));
    const Graph raw = test::make_compressed_shape("kron");
    test::expect_batches_match_references(bc, 0, &raw);
  }
}

TEST(CpuDirectionRuns, ZeroCopyGathersCountTheLinesTheyRead) {
  test::expect_zero_copy_gathers_count_lines(Backend::cpu);
}

// User programs that declare offer() pull too: widest path (combined with max) equals its
// reference, personalised PageRank (summed) the push run's values.
TEST(CpuDirectionRuns, PullingUserProgramsMatch) {
  for (const std::string& policy : test::policy_names()) {
    SCOPED_TRACE(policy);
    OocEngine engine(test::make_symmetric_shape("kron"),
                     test::direction_options(policy, "pull", true, Backend::cpu));
    const vid_t s = engine.internal_id(engine.highest_degree_vertex());
    const auto widest = engine.run(test::WidestPath{s});
    EXPECT_EQ(widest.values, test::in_user_ids(engine, test::widest_reference(engine.graph(), s)));
    EXPECT_GT(widest.stats.pull_iterations(), 0u);
    const auto pulled = engine.run(test::PersonalisedPageRank{s, 0.85f, 1e-9f}).values;
    RunSettings push = engine.settings();
    push.direction = Direction::push;
    engine.configure(push);
    const auto pushed = engine.run(test::PersonalisedPageRank{s, 0.85f, 1e-9f}).values;
    EXPECT_LT(test::l1_distance(pulled, pushed), 1e-4);
  }
}

// User programs, monotone and accumulative, one reading the edge's ids, on every policy.
class CpuUserPrograms : public ::testing::TestWithParam<std::string> {};

TEST_P(CpuUserPrograms, MatchTheirReferences) {
  OocEngine engine(test::make_shape("kron_directed"),
                   test::options_for(GetParam(), true, Backend::cpu));
  test::expect_user_programs(engine);
}

INSTANTIATE_TEST_SUITE_P(EveryPolicy, CpuUserPrograms, ::testing::ValuesIn(test::policy_names()));

}  // namespace
}  // namespace ooc
