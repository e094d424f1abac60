// Every program x every transfer policy x priority on/off x graph shape x load-balancing
// mapping (pushing) on the CUDA backend, against the serial references. SKIPPED where there is no
// GPU.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <numeric>
#include <string>
#include <string_view>
#include <tuple>

#include "engine_cases.hpp"
#include "gpu_test.hpp"
#include "kcore_cases.hpp"
#include "ooc/core/error.hpp"
#include "ooc/engine/calibration.hpp"
#include "ooc/engine/detail/cuda_backend.hpp"
#include "ooc/engine/detail/triangles.hpp"
#include "ooc/engine/frontier_loop.hpp"
#include "ooc/engine/memory_plan.hpp"
#include "ooc/engine/ownership.hpp"
#include "ooc/partitioner/oocg.hpp"
#include "ooc/partitioner/partition.hpp"
#include "ooc/transfer/pinned_memory.hpp"
#include "scc_cases.hpp"

namespace ooc {
namespace {

using GpuCase = std::tuple<test::Case, std::string>;  // the case, the load balance

class CudaBackend : public ::testing::TestWithParam<GpuCase> {};

TEST_P(CudaBackend, MatchesTheReference) {
  OOC_REQUIRE_GPU();
  const auto& [program, shape, policy, priority] = std::get<0>(GetParam());
  EngineOptions o = test::options_for(policy, priority, Backend::cuda);
  o.load_balance = parse_load_balance(std::get<1>(GetParam()));
  OocEngine engine(test::make_shape(shape), o);
  ASSERT_EQ(engine.backend(), Backend::cuda);
  test::expect_matches_reference(program, engine);
}

INSTANTIATE_TEST_SUITE_P(AllCases, CudaBackend,
                         test::all_cases_and(std::vector<std::string>{"tiled", "warp", "ordered",
                                                                      "decompose", "hierarchical"}),
                         [](const ::testing::TestParamInfo<GpuCase>& param) {
                           return test::case_name({std::get<0>(param.param), param.index}) + "_" +
                                  std::get<1>(param.param);
                         });

// The ordered mapping walks a warp's short lists in vertex order and takes each delta when it
// gets there, so PageRank's deltas carry along a grid's rows as far as a warp reaches in one
// iteration, where the tiled mapping, which takes its block's deltas at once, moves them a vertex
// or two: fewer iterations. The grid keeps its ids in order (no hub sort), so a warp's lanes hold
// a row's vertices.
TEST(CudaOrderedMapping, PassesDeltasAlongAGridWithinAnIteration) {
  OOC_REQUIRE_GPU();
  std::size_t iterations[2] = {};
  for (const LoadBalance balance : {LoadBalance::tiled, LoadBalance::ordered}) {
    SCOPED_TRACE(to_string(balance));
    EngineOptions o = test::options_for("resident", true, Backend::cuda);
    o.load_balance = balance;
    o.resident_slices = 1;  // the mapping's effect alone
    OocEngine engine(test::build(generate_grid(64, 64), false, 4, 0.0), o);
    iterations[balance == LoadBalance::ordered] =
        test::expect_matches_reference("pagerank", engine).iterations.size();
  }
  // H200: 72 against 135. Tiled's count varies from run to run (blocks run in any order).
  EXPECT_LT(iterations[1] * 4, iterations[0] * 3)
      << "ordered " << iterations[1] << ", tiled " << iterations[0];
}

// The pull direction (advance_pull.cuh), forced and chosen per iteration, on the symmetric
// shapes, in both mappings; the big star's hub gathers through the heavy queue.
using DirectionGpuCase = std::tuple<test::DirectionCase, std::string>;  // the case, load balance

std::string direction_gpu_case_name(const ::testing::TestParamInfo<DirectionGpuCase>& param) {
  return test::direction_case_name({std::get<0>(param.param), param.index}) + "_" +
         std::get<1>(param.param);
}

// An engine on the CUDA backend over `g` with the case's options.
OocEngine direction_engine(Graph g, const DirectionGpuCase& c) {
  const auto& [shape, policy, direction, priority] = std::get<0>(c);
  EngineOptions o = test::direction_options(policy, direction, priority, Backend::cuda);
  o.load_balance = parse_load_balance(std::get<1>(c));
  return OocEngine(std::move(g), o);
}

// Priority auto for PageRank: in GPU memory on where hubs hold many edges (kron, the big star,
// per-edge pushing too), off on graphs of even degrees (urand, the grid); off out of core.
TEST(CudaPageRank, PriorityAutoInGpuMemoryFollowsTheHubs) {
  OOC_REQUIRE_GPU();
  for (const auto& [shape, on] : {std::pair{"kron", true}, std::pair{"big_star", true},
                                  std::pair{"urand", false}, std::pair{"grid", false}}) {
    EngineOptions o = test::options_for("resident", true, Backend::cuda);
    o.priority = Priority::automatic;
    OocEngine engine(test::make_shape(shape), o);
    const auto in_memory = engine.pagerank();
    ASSERT_TRUE(in_memory.stats.in_memory) << shape;
    EXPECT_EQ(in_memory.stats.priority, on) << shape;
    o.in_memory = false;
    EXPECT_FALSE(OocEngine(test::make_shape(shape), o).pagerank().stats.priority) << shape;
  }
}

TEST(CudaPageRank, AnAccuracyAskedForIsKeptAndItsBoundReported) {
  OOC_REQUIRE_GPU();
  test::expect_l1_runs_keep_their_bound(Backend::cuda);
}

TEST(CudaPageRank, AnAccuracyAskedForEndsOnceEnoughPends) {
  OOC_REQUIRE_GPU();
  test::expect_l1_runs_end_once_enough_pends(Backend::cuda);
}

// k-core's shells on the GPU: one executor started again per shell, the peeling's arrays and the
// step between shells in device memory (kcore.cpp).
TEST(CudaKCore, MatchesTheReferenceOnEveryShapeAndPolicy) {
  OOC_REQUIRE_GPU();
  test::expect_kcore_on_every_shape_and_policy(Backend::cuda);
}

TEST(CudaKCore, MatchesTheReferenceOnCompressedLists) {
  OOC_REQUIRE_GPU();
  test::expect_kcore_on_compressed_lists(Backend::cuda);
}

TEST(CudaKCore, GivesKnownCoresAndRefusesADirectedGraph) {
  OOC_REQUIRE_GPU();
  test::expect_known_kcores(Backend::cuda);
}

// Strongly connected components on the GPU: the trims and Tarjan on the host, FW-BW's searches as
// CUDA runs, the backward one on an engine of the in-lists (scc.cpp).
TEST(CudaScc, MatchesTheReferenceOnEveryShapeAndPolicy) {
  OOC_REQUIRE_GPU();
  test::expect_scc_on_every_shape_and_policy(Backend::cuda);
}

TEST(CudaScc, MatchesTheReferenceOnCompressedLists) {
  OOC_REQUIRE_GPU();
  test::expect_scc_on_compressed_lists(Backend::cuda);
}

TEST(CudaScc, FindsKnownComponentsAndASymmetricGraphsConnectedOnes) {
  OOC_REQUIRE_GPU();
  test::expect_known_sccs(Backend::cuda);
  test::expect_symmetric_sccs(Backend::cuda);
}

// Triangles on the GPU (triangles_gpu.cpp) on every symmetric shape and a road-like graph, raw
// and compressed-only: in GPU memory, the oriented lists in one block copied once; out of core,
// with a budget that holds the counts and two slots of about a sixth of the lists (at least the
// longest list), in several blocks that cross the link more than once. Every vertex's count and
// the total are the serial reference's either way.
TEST(CudaTriangles, MatchTheReferenceInOneBlockAndInMany) {
  OOC_REQUIRE_GPU();
  for (const std::string& shape : test::triangle_shapes()) {
    const Graph reference_graph = test::make_symmetric_shape(shape);
    const std::vector<std::uint64_t> expected = reference::triangles(reference_graph);
    const std::uint64_t sum = std::accumulate(expected.begin(), expected.end(), std::uint64_t{0});
    const std::uint64_t n = reference_graph.num_vertices();
    // The oriented lists hold at most half of the symmetric graph's edges.
    const std::uint64_t lists = 8 * (n + 1) + 4 * (reference_graph.num_edges() / 2);
    std::uint64_t longest = 0;
    for (vid_t v = 0; v < n; ++v)
      longest = std::max<std::uint64_t>(longest, reference_graph.degree(v));
    const std::uint64_t slot = std::max<std::uint64_t>(lists / 6, 16 + 4 * longest);
    for (const bool compressed_only : {false, true}) {
      for (const bool in_memory : {true, false}) {
        SCOPED_TRACE(shape + (compressed_only ? ", compressed only" : ", raw") +
                     (in_memory ? ", in GPU memory" : ", out of core"));
        Graph g = test::make_symmetric_shape(shape);
        if (compressed_only) {
          compress(g);
          drop_raw_lists(g);
        }
        EngineOptions o = test::options_for("hybrid", false, Backend::cuda);
        o.in_memory = in_memory;
        if (!in_memory) o.device_budget = 8 * (n + 1) + 2 * slot;  // the counts and the total
        OocEngine engine(std::move(g), o);
        const TriangleResult r = engine.triangles();
        EXPECT_EQ(r.values, expected);
        EXPECT_EQ(r.total * 3, sum);
        EXPECT_EQ(r.stats.backend, "cuda");
        EXPECT_EQ(r.stats.in_memory, in_memory);
        EXPECT_NE(r.stats.summary().find(std::to_string(r.total) + " triangles"),
                  std::string::npos);
        if (in_memory) {
          EXPECT_EQ(r.stats.iterations.size(), 1u);
          EXPECT_EQ(r.stats.setup_bytes, r.stats.edge_bytes);
          EXPECT_EQ(r.stats.total_bytes(), 0u);
        } else if (r.stats.edge_bytes > slot) {
          EXPECT_GT(r.stats.iterations.size(), 1u);
          EXPECT_GT(r.stats.total_bytes(), r.stats.edge_bytes);
          EXPECT_NE(r.stats.summary().find(" blocks of oriented lists: "), std::string::npos)
              << r.stats.summary();
        } else {
          EXPECT_EQ(r.stats.total_bytes(), r.stats.edge_bytes);
        }
      }
    }
  }
}

// What GPU ranks count in their turns (triangles.cpp's count_on_ranks) on one GPU: the vertices
// split among 2 and 3 ranks by assign_partitions, each rank's own oriented lists counted against
// every rank's in turn (count_on_gpu over two graphs), in GPU memory and in blocks. The counts
// summed over the ranks and turns are the serial reference's on kron, urand and a road-like graph.
TEST(CudaTriangles, OwnListsAgainstEachRanksInTurnAddUpToTheReference) {
  OOC_REQUIRE_GPU();
  for (const std::string shape : {"kron", "urand", "road"}) {
    Graph g = test::make_symmetric_shape(shape);
    const std::vector<std::uint64_t> expected = reference::triangles(g);
    const vid_t n = g.num_vertices();
    const EngineOptions o = test::options_for("hybrid", false, Backend::cuda);
    const std::vector<Partition> parts =
        partition_by_edges(g, o.partition_bytes, g.bytes_per_edge());
    const std::shared_ptr<detail::DeviceGraph> device = detail::make_device_graph(g, parts, o);
    for (const std::uint32_t ranks : {2u, 3u}) {
      const std::vector<std::uint32_t> owners = assign_partitions(parts, g.hub_count, ranks);
      std::vector<detail::Oriented> own;
      for (std::uint32_t r = 0; r < ranks; ++r) {
        Bitmap owned(n);
        for (const auto& [first, last] : owned_vertex_ranges(parts, owners, r))
          for (vid_t v = first; v < last; ++v)
            owned.set(v);
        own.push_back(detail::orient(g, pinned_memory(0), &owned));
      }
      const std::uint64_t lists =
          detail::oriented_bytes(own[0].offsets.span(), 0, n) + 4 * g.num_edges();
      for (const bool in_memory : {true, false}) {
        SCOPED_TRACE(shape + ", " + std::to_string(ranks) + " ranks" +
                     (in_memory ? ", in GPU memory" : ", in blocks"));
        const std::uint64_t budget = in_memory ? 0 : 8 * (std::uint64_t{n} + 1) + lists / 3;
        std::vector<std::uint64_t> counted(n, 0);
        std::uint64_t total = 0;
        for (std::uint32_t r = 0; r < ranks; ++r) {
          for (std::uint32_t t = 0; t < ranks; ++t) {
            RunStats stats;
            const detail::TriangleCounts c =
                detail::count_on_gpu(*device, own[r], own[t], budget, in_memory, stats);
            EXPECT_EQ(stats.in_memory, in_memory);
            total += c.total;
            for (vid_t v = 0; v < n; ++v)
              counted[v] += c.per_vertex[v];
          }
        }
        std::vector<std::uint64_t> by_user(n);
        for (vid_t v = 0; v < n; ++v)
          by_user[g.original_id(v)] = counted[v];
        EXPECT_EQ(by_user, expected);
        EXPECT_EQ(total * 3, std::accumulate(expected.begin(), expected.end(), std::uint64_t{0}));
      }
    }
  }
}

// A clique of n has n choose 3 triangles, each vertex in (n-1 choose 2): after a BFS that left
// its edges in GPU memory (whose memory tc takes back), and out of core with a budget whose slots
// hold the longest oriented list and little more.
TEST(CudaTriangles, CountACliqueAfterAnotherRunAndInSmallBlocks) {
  OOC_REQUIRE_GPU();
  const vid_t n = 40;
  EngineOptions o = test::options_for("resident", false, Backend::cuda);
  OocEngine clique(test::build(test::edge_list_of(n, test::clique_pairs(n)), true, 1, 0.0), o);
  EXPECT_TRUE(clique.bfs(0).stats.in_memory);
  EXPECT_EQ(clique.triangles().total, std::uint64_t{n} * (n - 1) * (n - 2) / 6);
  o.in_memory = false;
  // Two slots of the longest oriented list (n - 1 targets) and two offsets.
  o.device_budget = 8 * (n + 1) + 2 * (16 + 4 * (n - 1));
  OocEngine blocks(test::build(test::edge_list_of(n, test::clique_pairs(n)), true, 1, 0.0), o);
  const TriangleResult r = blocks.triangles();
  EXPECT_EQ(r.total, std::uint64_t{n} * (n - 1) * (n - 2) / 6);
  EXPECT_EQ(r.values, std::vector<std::uint64_t>(n, std::uint64_t{n - 1} * (n - 2) / 2));
  EXPECT_GT(r.stats.iterations.size(), 2u);
}

// A budget without room for the counts (8 bytes a vertex and the total's 8), or whose half of
// what they leave cannot hold the longest oriented list, is refused in one line.
TEST(CudaTriangles, RefuseABudgetTooSmallInOneLine) {
  OOC_REQUIRE_GPU();
  const vid_t n = 40;
  EngineOptions o = test::options_for("hybrid", false, Backend::cuda);
  o.in_memory = false;
  o.device_budget = 8 * (n + 1) - 1;
  OocEngine counts(test::build(test::edge_list_of(n, test::clique_pairs(n)), true, 1, 0.0), o);
  EXPECT_EQ(test::error_of([&] { counts.triangles(); }),
            "tc's counts take 328 B of device memory, and the budget is 327 B: give it more "
            "(--budget)");
  o.device_budget = 8 * (n + 1) + 2 * (16 + 4 * (n - 1)) - 2;
  OocEngine lists(test::build(test::edge_list_of(n, test::clique_pairs(n)), true, 1, 0.0), o);
  EXPECT_EQ(test::error_of([&] { lists.triangles(); }),
            "tc's oriented list of 39 vertices takes 172 B with its offsets, more than half of "
            "what the counts leave of the budget (171 B): give it more (--budget)");
}

TEST(CudaFrontierLoop, RunsAGridsLevelsAndSavesSsspsWork) {
  OOC_REQUIRE_GPU();
  test::expect_frontier_loop_on_a_grid(Backend::cuda);
}

TEST(CudaFrontierLoop, HandsTheFrontierBackAndForth) {
  OOC_REQUIRE_GPU();
  test::expect_frontier_loop_hands_back(Backend::cuda);
}

// A list longer than one warp relaxes in a level (kLoopHeavyEdges) goes to the next level, whose
// warps share it a chunk each. On a star of 9,999 leaves, with a threshold that lets the loop take
// the hub and no hops (a level of the loop is a level of the BFS), the level that took the hub
// relaxed none of its edges and the next relaxed them all; BFS, SSSP, label propagation and
// kcore (which peels the hub inside the loop) give the references' values, in GPU memory and out
// of core, raw and compressed.
TEST(CudaFrontierLoop, SpreadsALongListOverTheNextLevel) {
  OOC_REQUIRE_GPU();
  const Graph reference_graph = test::make_shape("big_star");
  const eid_t hub_edges = reference_graph.num_vertices() - 1;
  ASSERT_GT(hub_edges, 9 * kLoopHeavyEdges);
  for (const auto& [policy, compressed] :
       {std::pair{"loop", false}, std::pair{"loop", true}, std::pair{"loop_resident", false}}) {
    SCOPED_TRACE(std::string(policy) + (compressed ? ", compressed" : ""));
    EngineOptions o = test::options_for(policy, false, Backend::cuda);
    o.frontier_loop_edges = std::uint64_t{1} << 16;
    o.frontier_loop_hops = 0;
    o.direction = Direction::push;
    OocEngine engine(
        compressed ? test::make_compressed_shape("big_star") : test::make_shape("big_star"), o);
    const vid_t hub = engine.highest_degree_vertex(), leaf = hub == 0 ? 1 : 0;
    const auto bfs = engine.bfs(leaf);
    EXPECT_TRUE(reference::compare_exact(bfs.values, reference::bfs(reference_graph, leaf)).equal);
    const std::vector<IterationStats>& its = bfs.stats.iterations;
    const auto took = std::find_if(its.begin(), its.end(), [&](const IterationStats& it) {
      return it.frontier_loop && it.frontier_edges == hub_edges;
    });
    ASSERT_NE(took, its.end());
    EXPECT_EQ(took->edges_processed, 0u);
    ASSERT_NE(took + 1, its.end());
    EXPECT_TRUE((took + 1)->frontier_loop);
    EXPECT_EQ((took + 1)->frontier_edges, 0u);
    EXPECT_EQ((took + 1)->edges_processed, hub_edges);
    for (const char* program : {"sssp", "cc_labels"}) {
      SCOPED_TRACE(program);
      test::expect_matches_reference(program, engine, &reference_graph);
    }
    test::expect_kcore_matches_reference(engine, reference_graph);
  }
}

// A loop that hands back before the level that would relax a heavy list leaves it to the host: a
// source's neighbours are a hub of 2,000 leaves and four vertices of ten neighbours each, whose
// 200 neighbours each make the level after the hub's more than the loop takes. The hub's level
// relaxed the four short lists alone, was the stretch's last, and BFS reaches every leaf.
TEST(CudaFrontierLoop, HandsALongListBackWhenItStopsBeforeIt) {
  OOC_REQUIRE_GPU();
  const vid_t hub = 1, leaves = 2000, first_short = hub + 1 + leaves, shorts = 4;
  const vid_t first_mid = first_short + shorts, mids = 10 * shorts, first_far = first_mid + mids;
  std::vector<std::pair<vid_t, vid_t>> pairs{{vid_t{0}, hub}};
  for (vid_t i = 0; i < leaves; ++i)
    pairs.emplace_back(hub, hub + 1 + i);
  for (vid_t b = 0; b < shorts; ++b) {
    pairs.emplace_back(vid_t{0}, first_short + b);
    for (vid_t c = 0; c < 10; ++c)
      pairs.emplace_back(first_short + b, first_mid + 10 * b + c);
  }
  for (vid_t c = 0; c < mids; ++c)
    for (vid_t d = 0; d < 200; ++d)
      pairs.emplace_back(first_mid + c, first_far + 200 * c + d);
  const vid_t n = first_far + 200 * mids;
  for (const char* policy : {"loop", "loop_resident"}) {
    SCOPED_TRACE(policy);
    EngineOptions o = test::options_for(policy, false, Backend::cuda);
    o.frontier_loop_edges = 4096;
    o.frontier_loop_hops = 0;
    o.direction = Direction::push;
    OocEngine engine(test::build(test::edge_list_of(n, pairs), true, 31, 0.0), o);
    const auto bfs = engine.bfs(0);
    EXPECT_TRUE(reference::compare_exact(bfs.values, reference::bfs(engine.graph(), 0)).equal);
    const std::vector<IterationStats>& its = bfs.stats.iterations;
    const eid_t short_edges = shorts * 11;
    const auto took = std::find_if(its.begin(), its.end(), [&](const IterationStats& it) {
      return it.frontier_loop && it.frontier_edges == leaves + 1 + short_edges;
    });
    ASSERT_NE(took, its.end());
    EXPECT_EQ(took->edges_processed, short_edges);
    ASSERT_NE(took + 1, its.end());
    EXPECT_FALSE((took + 1)->frontier_loop);
  }
}

TEST(CudaDeltaWindows, MatchTheReference) {
  OOC_REQUIRE_GPU();
  test::expect_delta_windows_match(Backend::cuda);
}

class CudaDirection : public ::testing::TestWithParam<DirectionGpuCase> {};

TEST_P(CudaDirection, MatchesTheReference) {
  OOC_REQUIRE_GPU();
  OocEngine engine = direction_engine(
      test::make_symmetric_shape(std::get<0>(std::get<0>(GetParam()))), GetParam());
  ASSERT_EQ(engine.backend(), Backend::cuda);
  for (const std::string& program : test::program_names()) {
    SCOPED_TRACE(program);
    test::expect_matches_reference(program, engine);
  }
}

INSTANTIATE_TEST_SUITE_P(AllCases, CudaDirection,
                         test::direction_cases_and(std::vector<std::string>{"tiled", "warp"}),
                         direction_gpu_case_name);

// The pull direction over a directed graph's in-lists (DeviceGraph::in_lists), in both mappings.
class CudaInEdges : public ::testing::TestWithParam<DirectionGpuCase> {};

TEST_P(CudaInEdges, MatchTheReference) {
  OOC_REQUIRE_GPU();
  const auto& [shape, policy, direction, priority] = std::get<0>(GetParam());
  OocEngine engine = direction_engine(test::make_in_edge_shape(shape), GetParam());
  ASSERT_EQ(engine.backend(), Backend::cuda);
  test::expect_in_edge_runs_match(engine, direction);
}

INSTANTIATE_TEST_SUITE_P(AllCases, CudaInEdges,
                         test::in_edge_cases_and(std::vector<std::string>{"tiled", "warp"}),
                         direction_gpu_case_name);

// Compressed lists gathered: decoded from staging (filter, compaction) or read in place
// (zero-copy, pull_compressed_kernel; the big star's hub chunk by chunk).
TEST(CudaDirectionRuns, CompressedListsGiveTheReference) {
  OOC_REQUIRE_GPU();
  for (const char* shape : {"kron", "big_star"}) {
    for (const std::string& policy : test::moving_policy_names()) {
      for (const LoadBalance balance : {LoadBalance::tiled, LoadBalance::warp}) {
        Graph g = test::make_symmetric_shape(shape);
        compress(g);
        EngineOptions o = test::direction_options(policy, "pull", true, Backend::cuda);
        o.load_balance = balance;
        OocEngine engine(std::move(g), o);
        for (const std::string& program : test::program_names()) {
          SCOPED_TRACE(std::string(shape) + " " + policy + " " + program);
          test::expect_matches_reference(program, engine);
        }
      }
    }
  }
}

// GraphCage's cache blocking (group_lists.cuh): in GPU memory, the gathers range by range of
// source ids, from 3 ranges to one per vertex (64 on the small shapes: most lists then fall in
// many groups, some of them empty), in both mappings, pulling always and when auto chooses to.
// Every program's values match the reference, and the run reports the ranges it gathered by.
class CudaCacheBlocks : public ::testing::TestWithParam<std::string> {};

TEST_P(CudaCacheBlocks, MatchTheReference) {
  OOC_REQUIRE_GPU();
  const std::string& shape = GetParam();
  for (const std::uint32_t blocks : {3u, kMaxPullBlocks}) {
    for (const char* direction : {"pull", "auto"}) {
      for (const LoadBalance balance : {LoadBalance::tiled, LoadBalance::warp}) {
        EngineOptions o = test::direction_options("resident", direction, true, Backend::cuda);
        o.load_balance = balance;
        o.pull_blocks = blocks;
        OocEngine engine(test::make_symmetric_shape(shape), o);
        const std::uint32_t expected = std::min(blocks, engine.graph().num_vertices());
        for (const std::string& program : test::program_names()) {
          SCOPED_TRACE(program + " " + direction + " " + std::string(to_string(balance)) + " " +
                       std::to_string(blocks) + " blocks");
          const RunStats stats = test::expect_matches_reference(program, engine);
          EXPECT_TRUE(stats.in_memory);
          // Afforest's pass pushes, and so does PageRank under auto (run_setup.cpp): they gather
          // by no ranges.
          const bool pushes = stats.method == "afforest" ||
                              (std::string(direction) == "auto" && program.starts_with("pagerank"));
          EXPECT_EQ(stats.pull_blocks, pushes ? 1u : expected);
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryShape, CudaCacheBlocks, ::testing::ValuesIn(test::bc_shape_names()));

// Blocked and unblocked runs on one engine: the lists stay grouped, and a later run with other
// ranges, or none, regroups them or reads them as they lie.
TEST(CudaCacheBlocksRuns, RunsWithOtherRangesOnOneEngineGiveTheReference) {
  OOC_REQUIRE_GPU();
  EngineOptions o = test::direction_options("resident", "pull", false, Backend::cuda);
  OocEngine engine(test::make_symmetric_shape("kron"), o);
  RunSettings settings = engine.settings();
  for (const std::uint32_t blocks : {5u, 1u, 9u, 5u}) {
    settings.pull_blocks = blocks;
    engine.configure(settings);
    for (const std::string& program : test::program_names()) {
      SCOPED_TRACE(program + " " + std::to_string(blocks) + " blocks");
      const RunStats stats = test::expect_matches_reference(program, engine);
      EXPECT_EQ(stats.pull_blocks, stats.method == "afforest" ? 1u : blocks);
    }
  }
}

TEST(CudaDirectionRuns, ZeroCopyGathersCountTheLinesTheyRead) {
  OOC_REQUIRE_GPU();
  test::expect_zero_copy_gathers_count_lines(Backend::cuda);
}

class CudaBatches : public ::testing::TestWithParam<test::BatchCase> {};

TEST_P(CudaBatches, MatchTheReferences) {
  OOC_REQUIRE_GPU();
  const auto& [shape, policy, batch] = GetParam();
  OocEngine engine(test::make_symmetric_shape(shape),
                   test::options_for(policy, true, Backend::cuda));
  ASSERT_EQ(engine.backend(), Backend::cuda);
  test::expect_batches_match_references(engine, batch);
}

INSTANTIATE_TEST_SUITE_P(AllCases, CudaBatches, test::batch_cases(), test::batch_case_name);

TEST(CudaBatchRuns, CompressedListsAndTheWarpMappingGiveTheReferences) {
  OOC_REQUIRE_GPU();
  for (const std::string& policy : test::moving_policy_names()) {
    Graph g = test::make_symmetric_shape("kron");
    compress(g);
    EngineOptions o = test::options_for(policy, true, Backend::cuda);
    o.load_balance = LoadBalance::warp;
    OocEngine engine(std::move(g), o);
    test::expect_batches_match_references(engine, 7);
  }
}

TEST(CudaBatchRuns, EverySourceGivesExactValuesInSeveralBatches) {
  OOC_REQUIRE_GPU();
  OocEngine engine(test::make_symmetric_shape("urand"),
                   test::options_for("hybrid", true, Backend::cuda));
  std::vector<vid_t> all(engine.graph().num_vertices());
  std::iota(all.begin(), all.end(), vid_t{0});
  test::expect_batches_match_references(engine, 96, all);
}

// This file is compiled by the host compiler: its user programs have no GPU code, and a CUDA
// engine says how to give them some.
TEST(CudaUserProgramRuns, HostCompiledProgramsAreRefusedWithTheWayOut) {
  OOC_REQUIRE_GPU();
  static_assert(!OOC_PROGRAMS_ON_GPU);
  OocEngine engine(test::make_shape("kron"), test::options_for("hybrid", true, Backend::cuda));
  try {
    engine.run(test::UphillHops{0});
    ADD_FAILURE() << "a host-compiled program ran on the CUDA backend";
  } catch (const Unsupported& e) {
    EXPECT_STREQ(e.what(), detail::kHostCompiledProgram);
  }
  EXPECT_EQ(engine.bfs(0).values.size(), engine.graph().num_vertices());  // still usable
}

// The same engine object runs several programs, and the GPU path keeps the edges pinned and
// reports what it moved.
TEST(CudaBackendRuns, SeveralProgramsOnOneEngineReportTheirBytes) {
  OOC_REQUIRE_GPU();
  EngineOptions o = test::options_for("filter", false, Backend::cuda);
  OocEngine engine(test::make_shape("kron"), o);
  const auto bfs = engine.bfs(engine.highest_degree_vertex());
  const auto cc = engine.cc();
  EXPECT_GT(bfs.stats.bytes(TransferEngine::filter), 0u);
  EXPECT_EQ(bfs.stats.total_bytes(), bfs.stats.bytes(TransferEngine::filter));
  EXPECT_EQ(bfs.stats.backend, "cuda");
  EXPECT_TRUE(reference::compare_exact(cc.values, reference::cc(engine.graph())).equal);
}

TEST(CudaBackendRuns, InMemoryModeCopiesTheEdgesOnce) {
  OOC_REQUIRE_GPU();
  OocEngine engine(test::make_shape("urand"), test::options_for("resident", true, Backend::cuda));
  const auto result = engine.bfs(0);
  EXPECT_TRUE(result.stats.in_memory);
  EXPECT_EQ(result.stats.setup_bytes, engine.graph().num_edges() * engine.graph().bytes_per_edge());
  EXPECT_EQ(result.stats.total_bytes(), 0u);
}

// Automatic direction, the default, on a directed graph with in-edges: the pull side keeps the
// in-lists in GPU memory beside the out-lists; where they would not fit and the out-lists would,
// the run pushes in GPU memory and says why.
TEST(CudaBackendRuns, AutoPushesInGpuMemoryWhereTheInListsWouldNotFit) {
  OOC_REQUIRE_GPU();
  const auto bfs_with = [](Direction direction, std::uint64_t budget) {
    EngineOptions o = test::options_for("resident", true, Backend::cuda);
    o.direction = direction;
    o.device_budget = budget;
    OocEngine engine(test::make_in_edge_shape("urand_directed"), o);
    return engine.bfs(0);
  };
  // The least budget, to 1 KiB, at which a push keeps the edges in GPU memory.
  std::uint64_t low = 0, high = std::uint64_t{1} << 30;
  while (high - low > 1024) {
    const std::uint64_t mid = low + (high - low) / 2;
    bool in_memory = false;
    try {
      in_memory = bfs_with(Direction::push, mid).stats.in_memory;
    } catch (const Error&) {  // too small for the vertex arrays
    }
    (in_memory ? high : low) = mid;
  }
  const std::string why =
      "push: the in-lists would take the run out of GPU memory, which the out-lists fit";
  const auto pulled = bfs_with(Direction::automatic, std::uint64_t{1} << 30);
  EXPECT_TRUE(pulled.stats.in_memory);
  EXPECT_EQ(std::ranges::count(pulled.stats.choices, why), 0);
  const auto pushed = bfs_with(Direction::automatic, high);
  EXPECT_TRUE(pushed.stats.in_memory);
  EXPECT_EQ(pushed.stats.pull_iterations(), 0u);
  EXPECT_EQ(pushed.values, pulled.values);
  EXPECT_EQ(std::ranges::count(pushed.stats.choices, why), 1) << pushed.stats.summary();
}

TEST(CudaBackendRuns, ABudgetAboveTheFreeMemoryIsRefused) {
  OOC_REQUIRE_GPU();
  EngineOptions o = test::options_for("hybrid", false, Backend::cuda);
  o.device_budget = std::uint64_t{1} << 50;  // 1 PiB
  OocEngine engine(test::make_shape("kron"), o);
  try {
    engine.bfs(0);
    FAIL() << "ran with a budget the GPU cannot give";
  } catch (const OutOfMemory& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind("device memory budget 1024.0 TiB is more than the ", 0), 0u) << message;
    EXPECT_NE(message.find("lower --budget, or give 0 for 90% of the free memory"),
              std::string::npos)
        << message;
  }
}

// The edge cache. A budget of vertex data and staging (planned for the largest program, PageRank)
// plus `edge_share` of the graph's edge bytes: out of core, with room in the cache for part of
// the edges.
EngineOptions cache_options(const std::string& policy) {
  EngineOptions o = test::options_for(policy, true, Backend::cuda);
  o.in_memory = true;  // options_for keeps edges in host memory, which leaves no cache
  o.cache = true;
  return o;
}

OocEngine with_budget(Graph g, EngineOptions o, double edge_share) {
  const auto parts = partition_by_edges(g, o.partition_bytes, g.bytes_per_edge());
  // The larger of an accumulative program's vertex data (deltas) and a monotone one's (the
  // frontier loop's buffers, where it serves), with Afforest's forest, which cc keeps beside it.
  // An accumulative program pushes under auto (run_setup.cpp), so its plan has no pull arrays.
  std::uint64_t needed = 0;
  for (const bool accumulative : {true, false}) {
    EngineOptions as_run = o;
    if (accumulative && as_run.direction == Direction::automatic)
      as_run.direction = Direction::push;
    const MemoryPlan plan = plan_memory(g, parts, 4, accumulative, as_run, 0);
    needed = std::max(needed, plan.vertex_bytes + plan.staging_bytes +
                                  (accumulative ? 0 : std::uint64_t{g.num_vertices()} * 4));
  }
  const MemoryPlan plan = plan_memory(g, parts, 4, true, o, 0);
  o.device_budget =
      needed + static_cast<std::uint64_t>(static_cast<double>(plan.edge_bytes) * edge_share);
  return OocEngine(std::move(g), o);
}

std::uint32_t partitions_with_edges(const OocEngine& engine) {
  std::uint32_t n = 0;
  for (const Partition& p : engine.partitions())
    n += p.num_edges() > 0 ? 1 : 0;
  return n;
}

using CacheCase = std::tuple<std::string, std::string, std::string>;  // program, shape, policy

class CudaEdgeCache : public ::testing::TestWithParam<CacheCase> {};

std::string cache_case_name(const ::testing::TestParamInfo<CacheCase>& c) {
  return std::get<0>(c.param) + "_" + std::get<1>(c.param) + "_" + std::get<2>(c.param);
}

TEST_P(CudaEdgeCache, MatchesTheReferenceWithPartOfTheEdgesCached) {
  OOC_REQUIRE_GPU();
  const auto& [program, shape, policy] = GetParam();
  OocEngine engine = with_budget(test::make_shape(shape), cache_options(policy), 0.25);
  test::expect_matches_reference(program, engine);
}

INSTANTIATE_TEST_SUITE_P(EveryPolicy, CudaEdgeCache,
                         ::testing::Combine(::testing::ValuesIn(test::program_names()),
                                            ::testing::Values("kron", "kron_directed", "grid",
                                                              "big_star", "disconnected"),
                                            ::testing::Values("hybrid", "filter", "compaction",
                                                              "zerocopy", "loop")),
                         cache_case_name);

// The same with compressed lists: the cache keeps them compressed and its tasks decode them in
// place, zero-copy tasks read them from host memory, filter tasks decode them in staging.
class CudaCompressedCache : public ::testing::TestWithParam<CacheCase> {};

TEST_P(CudaCompressedCache, MatchesTheReferenceWithPartOfTheListsCached) {
  OOC_REQUIRE_GPU();
  const auto& [program, shape, policy] = GetParam();
  OocEngine engine = with_budget(test::make_compressed_shape(shape), cache_options(policy), 0.1);
  test::expect_matches_reference(program, engine);
}

INSTANTIATE_TEST_SUITE_P(
    EveryPolicy, CudaCompressedCache,
    ::testing::Combine(::testing::ValuesIn(test::program_names()),
                       ::testing::Values("kron", "kron_directed", "grid", "big_star"),
                       ::testing::Values("hybrid", "filter", "compaction", "zerocopy", "loop")),
    cache_case_name);

// The frontier loop out of core with part of a grid's lists in the edge cache, raw and
// compressed: after the first survey every level runs in the loop, and its levels read the cached
// partitions' lists in GPU memory and the others from host memory by zero-copy, both in the same
// run, and BFS and SSSP give the reference's values.
TEST(CudaEdgeCacheRuns, TheFrontierLoopReadsTheCacheAndHostMemoryBoth) {
  OOC_REQUIRE_GPU();
  for (const bool compressed : {false, true}) {
    SCOPED_TRACE(compressed ? "compressed" : "raw");
    Graph g = test::weighted_grid(64);
    if (compressed) compress(g);
    EngineOptions o = cache_options("loop");
    o.frontier_loop_edges = kFrontierLoopEdges;
    // Room for part of the lists either way: the share is of the raw targets and weights, BFS
    // caches the targets alone, and compressed with packed weights they take about a third.
    OocEngine engine = with_budget(std::move(g), o, compressed ? 0.1 : 0.2);
    for (const std::string program : {"bfs", "sssp"}) {
      SCOPED_TRACE(program);
      const RunStats stats = test::expect_matches_reference(program, engine);
      EXPECT_EQ(stats.compressed, compressed);
      EXPECT_GT(stats.cache_partitions, 0u);
      EXPECT_LT(stats.cache_partitions, partitions_with_edges(engine));
      std::uint64_t cached = 0, zerocopy = 0;
      for (const IterationStats& it : stats.iterations) {
        if (!it.frontier_loop) continue;
        cached += it.cached_bytes;
        zerocopy += it.bytes[static_cast<std::size_t>(TransferEngine::zerocopy)];
      }
      EXPECT_EQ(stats.loop_iterations(), stats.iterations.size());
      EXPECT_GT(cached, 0u);
      EXPECT_GT(zerocopy, 0u);
    }
  }
}

// A run asked for in GPU memory that goes out of core says why in its summary: the budget, or a
// compressed-only file, which in-memory mode does not copy.
TEST(CudaEdgeCacheRuns, TheSummarySaysWhyARunWentOutOfCore) {
  OOC_REQUIRE_GPU();
  OocEngine small = with_budget(test::make_shape("kron"), cache_options("hybrid"), 0.5);
  const auto bfs = small.bfs(small.highest_degree_vertex());
  EXPECT_FALSE(bfs.stats.in_memory);
  ASSERT_FALSE(bfs.stats.choices.empty());
  EXPECT_TRUE(bfs.stats.choices.front().starts_with("out of core: the edges ("))
      << bfs.stats.choices.front();
  EXPECT_NE(bfs.stats.choices.front().find(") exceed the budget ("), std::string::npos);
  EngineOptions roomy = cache_options("hybrid");
  roomy.device_budget = std::uint64_t{1} << 30;
  OocEngine only(test::make_compressed_only_shape("kron"), roomy);
  const auto run = only.bfs(only.highest_degree_vertex());
  EXPECT_FALSE(run.stats.in_memory);
  ASSERT_FALSE(run.stats.choices.empty());
  EXPECT_EQ(run.stats.choices.front(),
            "out of core: the file has compressed lists only, which in-memory mode does not copy "
            "(the edge cache keeps them)");
  OocEngine whole(test::make_compressed_shape("kron"), roomy);
  const auto in_memory = whole.bfs(whole.highest_degree_vertex());
  EXPECT_TRUE(in_memory.stats.in_memory);
  EXPECT_TRUE(in_memory.stats.choices.empty()) << in_memory.stats.summary();
}

TEST(CudaEdgeCacheRuns, CompressedListsFitMorePartitionsForTheSameValues) {
  OOC_REQUIRE_GPU();
  const EngineOptions o = cache_options("hybrid");
  OocEngine raw = with_budget(test::make_shape("kron"), o, 0.2);
  OocEngine packed = with_budget(test::make_compressed_shape("kron"), o, 0.2);
  const vid_t source = raw.highest_degree_vertex();
  const auto bfs_raw = raw.bfs(source), bfs_packed = packed.bfs(source);
  EXPECT_EQ(bfs_packed.values, bfs_raw.values);
  EXPECT_TRUE(bfs_packed.stats.compressed);
  EXPECT_GT(bfs_packed.stats.cache_partitions, bfs_raw.stats.cache_partitions);
  EXPECT_GT(bfs_packed.stats.cached_bytes(), bfs_raw.stats.cached_bytes());
  EXPECT_LT(bfs_packed.stats.total_bytes(), bfs_raw.stats.total_bytes());
  // SSSP refills the cache with weights beside the lists, packed (6 bits: weights 1..64), which
  // its resident tasks read in place.
  ASSERT_TRUE(packed.graph().compressed.packs_weights());
  const auto sssp_raw = raw.sssp(source), sssp_packed = packed.sssp(source);
  EXPECT_EQ(sssp_packed.values, sssp_raw.values);
  EXPECT_GT(sssp_packed.stats.cache_partitions, sssp_raw.stats.cache_partitions);
}

// Compressed lists in the edge cache, pushed and pulled, decoded a thread per short list (the
// tiled mapping, advance_compressed_tiled.cuh) and a warp per list, out of core with room in the
// cache for 0.6 of the raw edge bytes (kron's and the grid's compressed lists all fit) and for
// 0.2. Kron's lists of more than one block go to the warp in turn, the big star's hub to the heavy
// queue, the grid's are all short. The big star runs at 0.2 only: its lists of one target are no
// smaller compressed, and at 0.6 its BFS and SSSP pulling fit in GPU memory whole (memory_plan).
// Every program gives the reference's values from the cache's compressed lists.
TEST(CudaEdgeCacheRuns, CompressedListsDecodedAThreadOrAWarpAListGiveTheReference) {
  OOC_REQUIRE_GPU();
  for (const char* shape : {"kron", "big_star", "grid"}) {
    for (const double share : {0.6, 0.2}) {
      if (std::string_view(shape) == "big_star" && share > 0.2) continue;
      for (const char* direction : {"push", "pull", "auto"}) {
        for (const LoadBalance balance : {LoadBalance::tiled, LoadBalance::warp}) {
          Graph g = test::make_symmetric_shape(shape);
          compress(g);
          EngineOptions o = cache_options("hybrid");
          o.direction = parse_direction(direction);
          o.load_balance = balance;
          OocEngine engine = with_budget(std::move(g), o, share);
          for (const std::string& program : test::program_names()) {
            SCOPED_TRACE(std::string(shape) + ", cache share " + std::to_string(share) + ", " +
                         direction + ", " + (balance == LoadBalance::tiled ? "tiled" : "warp") +
                         ", " + program);
            const RunStats stats = test::expect_matches_reference(program, engine);
            if (program == "bfs" || program == "sssp" || program == "pagerank") {
              EXPECT_FALSE(stats.in_memory);
              EXPECT_TRUE(stats.compressed);
              EXPECT_GT(stats.cache_partitions, 0u);
            }
          }
        }
      }
    }
  }
}

// Resident slices (EngineOptions::resident_slices): PageRank's and CC's resident partitions, in
// GPU memory or in the edge cache (raw or compressed lists), run as several tasks in turn, each
// processed once more over the vertices it activated. Every count gives the references' values;
// in GPU memory every task is a slice, so the iterations show them. BFS and SSSP, priority off,
// and iterations with fewer active edges than two slices' minimum keep one task.
class CudaResidentSlices : public ::testing::TestWithParam<std::string> {};

TEST_P(CudaResidentSlices, PageRankAndCcMatchTheReferences) {
  OOC_REQUIRE_GPU();
  const std::string& shape = GetParam();
  for (const std::uint32_t slices : {1u, 3u, 16u}) {
    for (const std::string where : {"memory", "cache", "compressed cache"}) {
      for (const std::string program : {"pagerank", "cc_labels"}) {
        if (program == "cc_labels" && shape == "kron_directed")
          continue;  // needs a symmetric graph
        SCOPED_TRACE(program + ", " + where + ", " + std::to_string(slices) + " slices");
        EngineOptions o = where == "memory" ? test::options_for("resident", true, Backend::cuda)
                                            : cache_options("hybrid");
        o.resident_slices = slices;
        o.min_slice_edges = 0;  // these graphs are far smaller than a slice's default minimum
        OocEngine engine = where == "memory" ? OocEngine(test::make_shape(shape), o)
                           : where == "cache"
                               ? with_budget(test::make_shape(shape), o, 0.25)
                               : with_budget(test::make_compressed_shape(shape), o, 0.1);
        const RunStats s = test::expect_matches_reference(program, engine);
        EXPECT_EQ(s.resident_slices, slices);
        if (where == "memory") {
          EXPECT_TRUE(s.in_memory);
          std::uint32_t most = 0;
          for (const IterationStats& it : s.iterations)
            most = std::max(most, it.tasks);
          EXPECT_LE(most, slices);
          EXPECT_GE(most, std::min(slices, 2u));
        } else {
          EXPECT_GT(s.cache_partitions, 0u);
        }
      }
    }
  }
  EngineOptions o = test::options_for("resident", true, Backend::cuda);
  o.resident_slices = 4;
  const RunStats small = [&] {
    OocEngine engine(test::make_shape(shape), o);  // the default minimum
    return test::expect_matches_reference("pagerank", engine);
  }();
  for (const IterationStats& it : small.iterations)
    EXPECT_EQ(it.tasks, 1u);
  o.min_slice_edges = 0;
  OocEngine engine(test::make_shape(shape), o);
  EXPECT_EQ(test::expect_matches_reference("bfs", engine).resident_slices, 1u);
  EXPECT_EQ(test::expect_matches_reference("sssp", engine).resident_slices, 1u);
  RunSettings plain = engine.settings();
  plain.priority = Priority::off;
  engine.configure(plain);
  EXPECT_EQ(test::expect_matches_reference("pagerank", engine).resident_slices, 1u);
}

INSTANTIATE_TEST_SUITE_P(Shapes, CudaResidentSlices,
                         ::testing::Values("kron", "kron_directed", "grid", "big_star"));

// Compressed lists: filter tasks copy them and decode_kernel expands them on the GPU.
class CudaCompressed : public ::testing::TestWithParam<test::CompressedCase> {};

TEST_P(CudaCompressed, MatchesTheReference) {
  OOC_REQUIRE_GPU();
  const auto& [program, shape, policy] = GetParam();
  OocEngine engine(test::make_compressed_shape(shape),
                   test::options_for(policy, true, Backend::cuda));
  test::expect_matches_reference(program, engine);
}

INSTANTIATE_TEST_SUITE_P(EveryMovingPolicy, CudaCompressed, test::compressed_cases(),
                         test::compressed_case_name);

// Compressed-only graphs (partition-tool --compress-only): every task reads the compressed
// lists; under `resident` (a budget that holds every raw edge) they go to the edge cache.
class CudaCompressedOnly : public ::testing::TestWithParam<test::CompressedCase> {};

TEST_P(CudaCompressedOnly, MatchesTheReference) {
  OOC_REQUIRE_GPU();
  const auto& [program, shape, policy] = GetParam();
  test::expect_compressed_only_matches(program, shape,
                                       test::options_for(policy, true, Backend::cuda));
}

INSTANTIATE_TEST_SUITE_P(EveryPolicyButUnified, CudaCompressedOnly, test::compressed_only_cases(),
                         test::compressed_case_name);

// Loaded from a compressed-only file, the engine pins no raw lists: the full file's pinned bytes
// less its raw targets and weights. A budget that would hold the raw lists in GPU memory holds
// all the compressed ones in the edge cache.
TEST(CudaCompressedRuns, ACompressedOnlyFilePinsNoRawListsAndIsCachedWhole) {
  OOC_REQUIRE_GPU();
  const auto dir = std::filesystem::temp_directory_path() /
                   ("engine_gpu_compressed_only_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  Graph g = test::make_compressed_shape("kron");
  ASSERT_TRUE(g.compressed.packs_weights());
  const std::uint64_t raw_bytes = g.targets.size_bytes() + g.weights.size_bytes();
  write_oocg(g, dir / "full.oocg");
  drop_raw_lists(g);
  write_oocg(g, dir / "only.oocg");
  const EngineOptions o = test::options_for("resident", true, Backend::cuda);
  OocEngine full = OocEngine::load(dir / "full.oocg", o);
  OocEngine only = OocEngine::load(dir / "only.oocg", o);
  const vid_t source = full.highest_degree_vertex();
  const auto from_full = full.sssp(source), from_only = only.sssp(source);
  EXPECT_EQ(from_only.values, from_full.values);
  EXPECT_TRUE(from_full.stats.in_memory);
  EXPECT_FALSE(from_only.stats.in_memory);
  const auto with_edges = std::count_if(only.partitions().begin(), only.partitions().end(),
                                        [](const Partition& p) { return p.num_edges() > 0; });
  EXPECT_EQ(from_only.stats.cache_partitions, static_cast<std::uint32_t>(with_edges));
  EXPECT_GT(from_only.stats.host_pinned_bytes, 0u);
  EXPECT_EQ(from_full.stats.host_pinned_bytes - from_only.stats.host_pinned_bytes, raw_bytes);
  std::filesystem::remove_all(dir);
}

// Filter and compaction tasks decode in device memory (compaction's lists gathered by the CPU);
// zero-copy tasks decode lines read in place (advance_compressed_kernel), heavy lists (big_star's
// hub) chunk by chunk; all three read SSSP's weights packed.
TEST(CudaCompressedRuns, GiveTheRawValuesWithFewerBytes) {
  OOC_REQUIRE_GPU();
  for (const TransferEngine engine :
       {TransferEngine::filter, TransferEngine::compaction, TransferEngine::zerocopy})
    test::expect_compressed_like_raw(
        test::options_for(std::string(to_string(engine)), true, Backend::cuda), engine);
}

TEST(CudaEdgeCacheRuns, ServesPartOfTheEdgesAndMovesTheRest) {
  OOC_REQUIRE_GPU();
  OocEngine engine = with_budget(test::make_shape("kron"), cache_options("filter"), 0.25);
  const auto result = engine.sssp(engine.highest_degree_vertex());
  const RunStats& s = result.stats;
  EXPECT_FALSE(s.in_memory);
  EXPECT_GT(s.cache_partitions, 0u);
  EXPECT_LT(s.cache_partitions, partitions_with_edges(engine));
  EXPECT_EQ(s.setup_bytes, s.cache_bytes);  // filled now, with targets and weights
  // The budget's edge share, and the deltas that SSSP does not keep (the budget is PageRank's).
  EXPECT_LE(s.cache_bytes, engine.graph().num_edges() * 8 / 4 + engine.graph().num_vertices() * 4);
  EXPECT_GT(s.cached_bytes(), 0u);
  EXPECT_GT(s.bytes(TransferEngine::filter), 0u);
  EXPECT_NE(s.summary().find("; cache "), std::string::npos) << s.summary();
}

TEST(CudaEdgeCacheRuns, ACacheOfEveryPartitionMovesNothingAndIsFilledOnce) {
  OOC_REQUIRE_GPU();
  // Half the edge bytes with weights is every target: BFS reads no weights.
  OocEngine engine = with_budget(test::make_shape("kron"), cache_options("hybrid"), 0.5);
  const vid_t source = engine.highest_degree_vertex();
  const auto first = engine.bfs(source);
  EXPECT_FALSE(first.stats.in_memory);
  EXPECT_EQ(first.stats.cache_partitions, partitions_with_edges(engine));
  EXPECT_EQ(first.stats.setup_bytes, engine.graph().num_edges() * sizeof(vid_t));
  EXPECT_EQ(first.stats.total_bytes(), 0u);
  EXPECT_GT(first.stats.cached_bytes(), 0u);
  const auto second = engine.bfs(source);
  EXPECT_EQ(second.stats.setup_bytes, 0u);
  EXPECT_EQ(second.stats.cache_bytes, first.stats.cache_bytes);
  EXPECT_EQ(second.values, first.values);
}

TEST(CudaEdgeCacheRuns, OffOrWithEdgesInHostMemoryNothingIsCached) {
  OOC_REQUIRE_GPU();
  for (const bool in_memory : {true, false}) {
    EngineOptions o = cache_options("hybrid");
    o.cache = !in_memory;  // cache off, or edges in host memory with the cache on
    o.in_memory = in_memory;
    OocEngine engine = with_budget(test::make_shape("kron"), o, 0.25);
    const auto result = engine.bfs(engine.highest_degree_vertex());
    EXPECT_EQ(result.stats.cache_partitions, 0u);
    EXPECT_EQ(result.stats.cache_bytes, 0u);
    EXPECT_EQ(result.stats.cached_bytes(), 0u);
    EXPECT_EQ(result.stats.setup_bytes, 0u);
  }
}

// EngineOptions::adapt_costs: the constants move with the run's timings (whole-graph zero-copy
// PageRank iterations on kron-20 take a few ms, above kMinTimedSeconds), and hybrid's values
// stay the references' whatever the constants become.
TEST(CudaAdaptedCosts, MoveWithTheRunsTimingsAndKeepTheValues) {
  OOC_REQUIRE_GPU();
  EngineOptions o;
  o.backend = Backend::cuda;
  o.in_memory = false;
  o.adapt_costs = true;
  o.transfer = TransferPolicy::zerocopy;
  {
    OocEngine engine(test::build(generate_kronecker(20, 16, 3), true, 3), o);
    const auto pr = engine.pagerank();
    ASSERT_GT(pr.stats.iterations.size(), 2u);
    EXPECT_TRUE(pr.stats.adapt_costs);
    EXPECT_EQ(pr.stats.iterations.front().zerocopy_round_trip, o.cost.zerocopy_round_trip);
    EXPECT_NE(pr.stats.iterations.back().zerocopy_round_trip, o.cost.zerocopy_round_trip);
    EXPECT_NE(pr.stats.summary().find("; costs adapted to link "), std::string::npos);
  }
  for (const char* shape : {"kron", "grid", "big_star"}) {
    EngineOptions hybrid = test::options_for("hybrid", true, Backend::cuda);
    hybrid.adapt_costs = true;
    OocEngine engine(test::make_shape(shape), hybrid);
    for (const std::string& program : test::program_names())
      test::expect_matches_reference(program, engine);
  }
}

// The probe's figures are ones the cost model can hold (a fixed plus a per-byte cost per
// request), short lists deliver less than whole lines, and the copy is a PCIe link's.
TEST(LinkProbe, MeasuresFiguresTheModelCanUse) {
  OOC_REQUIRE_GPU();
  const LinkMeasurements m = probe_link(0);
  EXPECT_GT(m.copy_gbps, 1.0);
  EXPECT_LT(m.copy_gbps, 1000.0);
  EXPECT_LT(m.list8_gbps, m.list32_gbps);
  const CostConstants c = calibrated({}, m);
  EXPECT_GT(c.gamma, 0.0);
  EXPECT_LT(c.gamma, 1.0);
  EXPECT_DOUBLE_EQ(c.link_bandwidth, m.copy_gbps * 1e9);
}

}  // namespace
}  // namespace ooc
