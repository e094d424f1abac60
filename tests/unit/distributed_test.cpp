// Ranks as threads of one process (thread_communicators): every program, on every graph shape
// and transfer policy, gives every rank the serial reference's answer with 2 and 3 ranks, each
// rank processing only its own partitions; a failing rank stops the others.
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <filesystem>
#include <mutex>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "engine_cases.hpp"
#include "ooc/engine/communicator.hpp"
#include "ooc/engine/detail/forest_merge.hpp"
#include "ooc/engine/ownership.hpp"
#include "ooc/engine/programs.hpp"
#include "ooc/partitioner/compress.hpp"
#include "ooc/partitioner/oocg.hpp"
#include "ranks.hpp"

namespace ooc {
namespace {

using RankCase = std::tuple<test::Case, int>;  // the case, the number of ranks

class Distributed : public ::testing::TestWithParam<RankCase> {};

TEST_P(Distributed, EveryRankMatchesTheReference) {
  const auto& [program, shape, policy, priority] = std::get<0>(GetParam());
  const int ranks = std::get<1>(GetParam());
  test::on_ranks(ranks, [&](int r, const std::shared_ptr<Communicator>& communicator) {
    OocEngine engine(test::make_shape(shape), test::options_for(policy, priority, Backend::cpu),
                     communicator);
    EXPECT_EQ(engine.rank(), r);
    EXPECT_EQ(engine.ranks(), ranks);
    test::expect_matches_reference(program, engine);
  });
}

INSTANTIATE_TEST_SUITE_P(AllCases, Distributed,
                         test::all_cases_and(std::vector<int>{2, 3}, test::host_policy_names()),
                         [](const ::testing::TestParamInfo<RankCase>& param) {
                           return test::case_name({std::get<0>(param.param), param.index}) + "_" +
                                  std::to_string(std::get<1>(param.param)) + "_ranks";
                         });

// The pull direction across ranks, forced and chosen per iteration, on the symmetric shapes:
// each rank gathers into its own vertices from every rank's values (and, for PageRank, every
// rank's messages); every rank chooses alike.
using RankDirectionCase = std::tuple<test::DirectionCase, int>;

class DistributedDirection : public ::testing::TestWithParam<RankDirectionCase> {};

TEST_P(DistributedDirection, EveryRankMatchesTheReference) {
  const auto& [shape, policy, direction, priority] = std::get<0>(GetParam());
  const int ranks = std::get<1>(GetParam());
  std::vector<std::vector<std::size_t>> pulls(static_cast<std::size_t>(ranks));
  test::on_ranks(ranks, [&](int r, const std::shared_ptr<Communicator>& communicator) {
    OocEngine engine(test::make_symmetric_shape(shape),
                     test::direction_options(policy, direction, priority, Backend::cpu),
                     communicator);
    for (const std::string& program : test::program_names()) {
      SCOPED_TRACE("rank " + std::to_string(r) + ", " + program);
      const RunStats stats = test::expect_matches_reference(program, engine);
      pulls[static_cast<std::size_t>(r)].push_back(stats.pull_iterations());
      if (direction == "pull" && shape == "kron" && stats.method != "afforest") {
        EXPECT_GT(stats.pull_iterations(), 0u);  // Afforest's one pass pushes
      }
    }
  });
  for (int r = 1; r < ranks; ++r)
    EXPECT_EQ(pulls[static_cast<std::size_t>(r)], pulls[0]) << "rank " << r << " chose otherwise";
}

INSTANTIATE_TEST_SUITE_P(AllCases, DistributedDirection,
                         test::direction_cases_and(std::vector<int>{2, 3},
                                                   test::host_policy_names()),
                         [](const ::testing::TestParamInfo<RankDirectionCase>& param) {
                           return test::direction_case_name(
                                      {std::get<0>(param.param), param.index}) +
                                  "_" + std::to_string(std::get<1>(param.param)) + "_ranks";
                         });

TEST(DistributedRuns, EachRankProcessesOnlyItsOwnPartitions) {
  // Filter moves whole partitions: the ranks' bytes add up to one rank's, none moves them all.
  // Ranks propagate labels, which one rank runs too when asked (its default is Afforest).
  const auto single = [] {
    EngineOptions o = test::options_for("filter", false, Backend::cpu);
    o.cc = CcAlgorithm::labels;
    OocEngine engine(test::make_shape("kron"), o);
    return engine.cc().stats.bytes(TransferEngine::filter);
  }();
  std::vector<std::uint64_t> bytes(2);
  test::on_ranks(2, [&](int r, const std::shared_ptr<Communicator>& communicator) {
    OocEngine engine(test::make_shape("kron"), test::options_for("filter", false, Backend::cpu),
                     communicator);
    const auto result = engine.cc();
    bytes[static_cast<std::size_t>(r)] = result.stats.bytes(TransferEngine::filter);
    EXPECT_GT(result.stats.iterations.front().exchange_bytes, 0u);
  });
  EXPECT_GT(bytes[0], 0u);
  EXPECT_GT(bytes[1], 0u);
  EXPECT_LT(bytes[0], single);
  EXPECT_LT(bytes[1], single);
}

// PageRank's exchange hands the collective the ranks' layout (a reduce-scatter) where its padding
// allows, and all V deltas (an all-reduce) where it does not: three ranks of a star whose hubs
// hold half the edges, one rank the hubs and the others most of the leaves. Either way every rank
// gets the reference's ranks.
TEST(DistributedRuns, PageRanksChangesGoToTheirOwnersWhereTheLayoutAllows) {
  for (const auto& [shape, ranks] : {std::pair{"kron", 2}, std::pair{"big_star", 3}}) {
    SCOPED_TRACE(shape);
    test::on_ranks(ranks, [&](int, const std::shared_ptr<Communicator>& communicator) {
      OocEngine engine(test::make_shape(shape), test::options_for("hybrid", true, Backend::cpu),
                       communicator);
      const vid_t n = engine.graph().num_vertices();
      const auto count = static_cast<std::uint32_t>(ranks);
      const OwnedLayout layout = owned_layout(engine.partitions(), engine.owners(), count);
      const RunStats stats = test::expect_matches_reference("pagerank", engine);
      const bool scatters = layout.scatters(count, n);
      EXPECT_EQ(std::string_view(shape) == "kron", scatters) << layout.block << " of " << n;
      const std::uint64_t handed = scatters ? layout.slots(count) : n;
      for (const IterationStats& it : stats.iterations) {
        EXPECT_EQ(it.exchange_bytes, it.exchange_rounds * handed * sizeof(float))
            << "iteration " << it.iteration;
      }
    });
  }
}

// EngineOptions::exchange_rounds: an iteration with at least a quarter of the graph's edges
// active exchanges that many times, any other once; the values are the reference's with one
// exchange per iteration too.
TEST(DistributedRuns, DenseIterationsExchangeAfterEachRound) {
  for (const std::uint32_t rounds : {1u, 3u}) {
    SCOPED_TRACE(std::to_string(rounds) + " rounds");
    test::on_ranks(2, [&](int, const std::shared_ptr<Communicator>& communicator) {
      EngineOptions o = test::options_for("hybrid", true, Backend::cpu);
      o.exchange_rounds = rounds;
      OocEngine engine(test::make_shape("kron"), o, communicator);
      for (const std::string& program : test::program_names()) {
        SCOPED_TRACE(program);
        test::expect_matches_reference(program, engine);
      }
      const RunStats stats = engine.cc().stats;
      EXPECT_EQ(stats.exchange_rounds, rounds);
      const eid_t edges = engine.graph().num_edges();
      bool dense = false, sparse = false;
      for (const IterationStats& it : stats.iterations) {
        const bool is_dense = 4 * it.active_edges >= edges;
        EXPECT_EQ(it.exchange_rounds, is_dense ? rounds : 1u) << "iteration " << it.iteration;
        (is_dense ? dense : sparse) = true;
      }
      EXPECT_TRUE(dense);  // the first iteration has every vertex active
      EXPECT_TRUE(sparse);
    });
  }
}

// What the rounds are for: a rank's later partitions see the labels the other rank found in its
// earlier ones, so fewer of its vertices change after they were read and fewer partitions are
// read again (filter moves whole partitions, so the bytes count the reads).
TEST(DistributedRuns, ExchangeRoundsCutTheRereadsOfConnectedComponents) {
  std::vector<std::uint64_t> bytes;
  for (const std::uint32_t rounds : {1u, 4u}) {
    std::uint64_t total = 0;
    std::mutex m;
    test::on_ranks(2, [&](int, const std::shared_ptr<Communicator>& communicator) {
      EngineOptions o = test::options_for("filter", true, Backend::cpu);
      o.exchange_rounds = rounds;
      o.cc = CcAlgorithm::labels;  // label propagation, whose iterations reread partitions
      OocEngine engine(test::make_shape("kron"), o, communicator);
      const std::uint64_t b = engine.cc().stats.bytes(TransferEngine::filter);
      const std::lock_guard lock(m);
      total += b;
    });
    bytes.push_back(total);
  }
  EXPECT_LT(bytes[1], bytes[0]);
}

// Afforest's pass on ranks exchanges no values (they are unused; the ranks merge their forests
// after it): its iteration makes no exchange round, and what it records is the merge's V parents
// from the other rank alone, not a dense exchange's 4V bytes besides. The answer is the
// reference's.
TEST(DistributedRuns, AfforestsPassExchangesNoValues) {
  test::on_ranks(2, [&](int r, const std::shared_ptr<Communicator>& communicator) {
    EngineOptions o = test::options_for("hybrid", true, Backend::cpu);
    o.cc = CcAlgorithm::afforest;
    OocEngine engine(test::make_shape("kron"), o, communicator);
    const std::uint64_t n = engine.graph().num_vertices();
    const RunStats stats = engine.cc().stats;
    SCOPED_TRACE("rank " + std::to_string(r));
    ASSERT_EQ(stats.method, "afforest");
    ASSERT_EQ(stats.iterations.size(), 2u);  // the sampling, then the pass
    const IterationStats& pass = stats.iterations[1];
    EXPECT_EQ(pass.exchange_rounds, 0u);
    EXPECT_EQ(pass.exchange_bytes, 4 * n);
    test::expect_matches_reference("cc", engine);
  });
}

// A loaded filter task processed once more takes the marks of the vertices it runs; the exchange
// then marks only the owned vertices another rank moved, so one rank processes exactly the edges
// of a run without ranks. (Marking every vertex changed since the last exchange again ran their
// lists twice: CC by labels 3.2% more edges on kron-18, out of core.)
TEST(DistributedRuns, OneRankProcessesTheEdgesOfARunWithoutRanks) {
  EngineOptions o = test::options_for("filter", true, Backend::cpu);
  o.cc = CcAlgorithm::labels;
  auto communicators = thread_communicators(1);
  OocEngine alone(test::make_shape("kron"), o);
  OocEngine ranked(test::make_shape("kron"), o, std::move(communicators[0]));
  const vid_t source = alone.highest_degree_vertex();
  const std::array<std::pair<const char*, std::pair<RunStats, RunStats>>, 3> runs = {{
      {"bfs", {alone.bfs(source).stats, ranked.bfs(source).stats}},
      {"sssp", {alone.sssp(source).stats, ranked.sssp(source).stats}},
      {"cc", {alone.cc().stats, ranked.cc().stats}},
  }};
  for (const auto& [name, stats] : runs) {
    SCOPED_TRACE(name);
    ASSERT_GT(stats.second.iterations.front().exchange_rounds, 0u);  // it did exchange
    EXPECT_EQ(stats.second.edges_processed(), stats.first.edges_processed());
    EXPECT_EQ(stats.second.iterations.size(), stats.first.iterations.size());
  }
}

TEST(DistributedRuns, ExchangeRoundsOutOfRangeAreRefused) {
  EngineOptions o = test::options_for("hybrid", true, Backend::cpu);
  o.exchange_rounds = kMaxExchangeRounds + 1;
  try {
    OocEngine engine(test::make_shape("kron"), o);
    FAIL() << "accepted " << o.exchange_rounds << " exchange rounds";
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()),
              "exchange rounds must be from 1 to 64, or 0 for the backend's own (got 65)");
  }
  OocEngine engine(test::make_shape("kron"), test::options_for("hybrid", true, Backend::cpu));
  RunSettings bad = engine.settings();
  bad.exchange_rounds = kMaxExchangeRounds + 1;
  EXPECT_THROW(engine.configure(bad), InvalidInput);
  EXPECT_EQ(engine.options().exchange_rounds, 0u);
}

// EngineOptions::exchange_rounds 0, the default: the CPU's ranks run kCpuExchangeRounds.
TEST(DistributedRuns, CpuRanksTakeTheirOwnExchangeRoundsByDefault) {
  test::on_ranks(2, [&](int, const std::shared_ptr<Communicator>& communicator) {
    const EngineOptions o = test::options_for("hybrid", true, Backend::cpu);
    ASSERT_EQ(o.exchange_rounds, 0u);
    OocEngine engine(test::make_shape("kron"), o, communicator);
    PageRankOptions pr;
    pr.tolerance = 1e-3f;
    const RunStats stats = engine.pagerank(pr).stats;
    EXPECT_EQ(stats.exchange_rounds, kCpuExchangeRounds);
    EXPECT_EQ(stats.iterations.front().exchange_rounds, kCpuExchangeRounds);  // all active: dense
  });
}

TEST(ThreadCommunicator, AllGatherPutsEachRanksWordsAtItsPlace) {
  test::on_ranks(3, [](int r, const std::shared_ptr<Communicator>& ranks) {
    const auto mine = static_cast<std::uint32_t>(r);
    const std::vector<std::uint32_t> send = {10 * mine, 10 * mine + 1};
    std::vector<std::uint32_t> receive(6);
    ranks->all_gather(send, receive);
    EXPECT_EQ(receive, (std::vector<std::uint32_t>{0, 1, 10, 11, 20, 21}));
    std::vector<std::uint32_t> short_of_one(5);
    EXPECT_THROW(
        {
          try {
            ranks->all_gather(send, short_of_one);
          } catch (const Error& e) {
            EXPECT_STREQ(e.what(),
                         "all_gather: the receiving array does not hold every rank's words");
            throw;
          }
        },
        Error);
  });
}

// Every rank gets the root's words; the root keeps its own; a rank that is not one is refused.
TEST(ThreadCommunicator, BroadcastHandsTheRootsWordsToEveryRank) {
  test::on_ranks(3, [](int r, const std::shared_ptr<Communicator>& ranks) {
    for (int root = 0; root < 3; ++root) {
      const auto mine = static_cast<std::uint32_t>(r);
      std::vector<std::uint32_t> data = {10 * mine, 10 * mine + 1, 10 * mine + 2};
      ranks->broadcast(data, root);
      const auto theirs = static_cast<std::uint32_t>(root);
      EXPECT_EQ(data, (std::vector<std::uint32_t>{10 * theirs, 10 * theirs + 1, 10 * theirs + 2}))
          << "rank " << r << ", root " << root;
    }
    std::vector<std::uint32_t> data(1);
    EXPECT_EQ(test::error_of([&] { ranks->broadcast(data, 3); }), "broadcast: no rank 3");
  });
}

// Each rank gets the sums of its own block, in its own place; the others' blocks are not its.
TEST(ThreadCommunicator, ReduceScatterSumsEachRanksBlockInItsPlace) {
  test::on_ranks(3, [](int r, const std::shared_ptr<Communicator>& ranks) {
    const auto mine = static_cast<float>(r);
    std::vector<float> data(6);
    for (std::size_t i = 0; i < data.size(); ++i)
      data[i] = mine * 10 + static_cast<float>(i);  // rank r: 10r, 10r + 1, ...
    ranks->reduce_scatter(data, 2);
    const auto at = static_cast<std::size_t>(2 * r);
    // Sum over ranks of 10r + i: 30 + 3i.
    EXPECT_EQ(data[at], 30.0f + 3.0f * static_cast<float>(at));
    EXPECT_EQ(data[at + 1], 30.0f + 3.0f * static_cast<float>(at + 1));
    std::vector<double> wide{1.0, 2.0, 3.0};
    ranks->reduce_scatter(wide, 1);
    EXPECT_EQ(wide[static_cast<std::size_t>(r)], 3.0 * static_cast<double>(r + 1));
    std::vector<float> short_of_one(5);
    EXPECT_THROW(
        {
          try {
            ranks->reduce_scatter(short_of_one, 2);
          } catch (const Error& e) {
            EXPECT_STREQ(e.what(),
                         "reduce_scatter: the array does not hold a block for every rank");
            throw;
          }
        },
        Error);
  });
}

// Each rank's own forest over random links, merged in chunks of several sizes: every rank ends
// with the forest of all the links, each vertex pointing at the least vertex of its tree.
TEST(ForestMerge, EveryRankGetsTheJoinOfTheRanksForests) {
  constexpr vid_t n = 500;
  constexpr int links = 150;  // a rank's: its forest has many trees, which the others' links join
  for (const int ranks : {2, 3}) {
    std::vector<std::vector<std::pair<vid_t, vid_t>>> edges(static_cast<std::size_t>(ranks));
    std::vector<vid_t> joined(n);
    std::iota(joined.begin(), joined.end(), vid_t{0});
    for (int r = 0; r < ranks; ++r) {
      std::mt19937 random(static_cast<unsigned>(r) + 1);
      std::uniform_int_distribution<vid_t> any(0, n - 1);
      for (int e = 0; e < links; ++e) {
        const vid_t u = any(random), v = any(random);
        edges[static_cast<std::size_t>(r)].emplace_back(u, v);
        union_link(joined.data(), u, v);
      }
    }
    for (vid_t v = 0; v < n; ++v)
      union_compress(joined.data(), v);
    for (const vid_t chunk : {vid_t{1}, vid_t{7}, vid_t{64}, n}) {
      SCOPED_TRACE("ranks " + std::to_string(ranks) + ", chunk " + std::to_string(chunk));
      test::on_ranks(ranks, [&](int r, const std::shared_ptr<Communicator>& communicator) {
        std::vector<vid_t> parent(n);
        std::iota(parent.begin(), parent.end(), vid_t{0});
        for (const auto& [u, v] : edges[static_cast<std::size_t>(r)])
          union_link(parent.data(), u, v);
        for (vid_t v = 0; v < n; ++v)
          union_compress(parent.data(), v);
        std::vector<vid_t> gathered(static_cast<std::size_t>(ranks) * chunk);
        detail::merge_forests(*communicator, parent.data(), n, chunk, gathered);
        EXPECT_EQ(parent, joined);
      });
    }
  }
}

TEST(DistributedRuns, AFailingRankStopsTheOthersWithItsReason) {
  std::string seen;
  std::vector<std::unique_ptr<Communicator>> communicators = thread_communicators(2);
  std::thread failing([&] { communicators[1]->abort("its graph is missing on this host"); });
  try {
    OocEngine engine(test::make_shape("kron"), test::options_for("hybrid", true, Backend::cpu),
                     std::move(communicators[0]));
    engine.bfs(0);
  } catch (const Error& e) {
    seen = e.what();
  }
  failing.join();
  EXPECT_EQ(seen, "rank 1 failed: its graph is missing on this host");
}

// EngineOptions::devices: one engine object drives a rank per listed device from this process
// (the CPU backend here, so CI runs it); runs return the first rank's values.
TEST(DistributedRuns, OneEngineOverSeveralDevicesMatchesTheReference) {
  EngineOptions o = test::options_for("hybrid", true, Backend::cpu);
  o.devices = {0, 1, 2};
  OocEngine engine(test::make_shape("kron"), o);
  EXPECT_EQ(engine.ranks(), 3);
  for (const std::string& program : test::program_names()) {
    SCOPED_TRACE(program);
    test::expect_matches_reference(program, engine);
  }
  RunSettings filter = engine.settings();
  filter.transfer = TransferPolicy::filter;
  engine.configure(filter);
  test::expect_matches_reference("cc", engine);
}

TEST(DistributedRuns, ABadRequestToSeveralDevicesLeavesTheEngineUsable) {
  EngineOptions o = test::options_for("hybrid", true, Backend::cpu);
  o.devices = {0, 1};
  OocEngine engine(test::make_shape("kron_directed"), o);
  EXPECT_THROW(engine.cc(), InvalidInput);
  EXPECT_THROW(engine.bfs(engine.graph().num_vertices()), InvalidInput);
  const std::vector<vid_t> sources{engine.highest_degree_vertex(), 1};
  EXPECT_THROW(engine.bc(sources), InvalidInput);  // bc needs a symmetric graph
  EXPECT_THROW(engine.bfs(std::vector<vid_t>{1, 1}), InvalidInput);
  test::expect_matches_reference("bfs", engine);
}

// A program that settles its vertices from arrays of its own without handing them over
// (shared()) is refused across ranks, with the reason; the engine runs on afterwards.
struct SettlesAlone {
  using Value = std::uint32_t;
  static constexpr ProgramKind kind = ProgramKind::monotone;
  static constexpr Reduction combine = Reduction::min;
  static constexpr bool needs_weights = false;
  static constexpr bool needs_symmetric = false;
  Value init(vid_t) const { return 0; }
  bool active_at_start(vid_t) const { return false; }
  bool relax(Value, std::uint32_t, Value*, vid_t, vid_t) const { return false; }
  bool settle(vid_t, std::uint32_t) const { return false; }
};

TEST(DistributedRuns, SettlingProgramsWithoutSharedSlotsAreRefusedAcrossRanks) {
  EngineOptions o = test::options_for("hybrid", true, Backend::cpu);
  o.devices = {0, 1};
  OocEngine engine(test::make_shape("kron"), o);
  EXPECT_EQ(test::error_of([&] { engine.run(SettlesAlone{}); }),
            "user program settles its vertices from arrays of its own, which the ranks cannot "
            "combine: it runs on one GPU or the CPU, or across ranks once it hands them over "
            "with shared() (program_contract.hpp)");
  test::expect_matches_reference("bfs", engine);
}

// The batched traversals across ranks (their slots, SharedSlots, combined after each level):
// bc, closeness and bfs from many sources give every rank the serial references, on every shape
// and policy, in batches of 1, 5 and the chosen width.
using RankBatchCase = std::tuple<test::BatchCase, int>;

class DistributedBatches : public ::testing::TestWithParam<RankBatchCase> {};

TEST_P(DistributedBatches, EveryRankMatchesTheReferences) {
  const auto& [shape, policy, batch] = std::get<0>(GetParam());
  const int ranks = std::get<1>(GetParam());
  test::on_ranks(ranks, [&](int r, const std::shared_ptr<Communicator>& communicator) {
    SCOPED_TRACE("rank " + std::to_string(r));
    OocEngine engine(test::make_symmetric_shape(shape),
                     test::options_for(policy, true, Backend::cpu), communicator);
    test::expect_batches_match_references(engine, batch);
  });
}

INSTANTIATE_TEST_SUITE_P(AllCases, DistributedBatches,
                         test::batch_cases_and(std::vector<int>{2, 3}),
                         [](const ::testing::TestParamInfo<RankBatchCase>& param) {
                           return test::batch_case_name({std::get<0>(param.param), param.index}) +
                                  "_" + std::to_string(std::get<1>(param.param)) + "_ranks";
                         });

// Several devices of one engine (a group of thread ranks) run the batches too, on compressed
// lists.
TEST(DistributedRuns, SeveralDevicesRunBatchesOnCompressedLists) {
  Graph g = test::make_symmetric_shape("kron");
  compress(g);
  EngineOptions o = test::options_for("hybrid", true, Backend::cpu);
  o.devices = {0, 1};
  OocEngine engine(std::move(g), o);
  test::expect_batches_match_references(engine, 7);
}

// RunOptions::cancelled: a rank asked to stop stops every rank at the same iteration, and the
// engine runs again afterwards.
TEST(DistributedRuns, ACancelledRunStopsEveryRankAndLeavesTheEngineUsable) {
  EngineOptions o = test::options_for("hybrid", true, Backend::cpu);
  o.devices = {0, 1};
  OocEngine engine(test::make_shape("grid"), o);
  std::atomic<int> asked{0};
  RunOptions run;
  run.cancelled = [&] { return ++asked > 4; };  // the third iteration's second question
  try {
    engine.bfs(0, run);
    FAIL() << "no exception";
  } catch (const Cancelled& e) {
    EXPECT_STREQ(e.what(), "the run was cancelled after 2 iterations");
  }
  test::expect_matches_reference("bfs", engine);
}

TEST(DistributedRuns, SeveralDevicesLoadEachRanksShareOfAFile) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("distributed_test_" + std::to_string(::getpid()) + ".oocg");
  write_oocg(test::make_shape("urand"), path);
  EngineOptions o = test::options_for("hybrid", true, Backend::cpu);
  o.devices = {0, 1};
  OocEngine engine = OocEngine::load(path, o);
  const Graph whole = read_oocg(path);
  const vid_t source = whole.original_id(0);
  const auto c = reference::compare_exact(engine.bfs(source).values, reference::bfs(whole, source));
  EXPECT_TRUE(c.equal) << c.message;
  std::filesystem::remove(path);
}

// The values of bfs, sssp and (on a symmetric graph) cc from one engine, and the filter bytes
// each run moved.
struct Runs {
  std::vector<std::uint32_t> bfs;
  std::vector<double> sssp;
  std::vector<vid_t> cc;
  std::vector<std::uint64_t> filter_bytes;
  bool compressed = true;  // every run read compressed lists
};

Runs run_all(OocEngine& engine, vid_t source) {
  Runs runs;
  const auto note = [&](const RunStats& stats) {
    runs.filter_bytes.push_back(stats.bytes(TransferEngine::filter));
    runs.compressed = runs.compressed && stats.compressed;
  };
  auto bfs = engine.bfs(source);
  runs.bfs = bfs.values;
  note(bfs.stats);
  auto sssp = engine.sssp(source);
  runs.sssp = sssp.values;
  note(sssp.stats);
  if (engine.graph().symmetric) {
    auto cc = engine.cc();
    runs.cc = cc.values;
    note(cc.stats);
  }
  return runs;
}

// Rank r's runs give the values of one rank's and read compressed lists.
void expect_one_ranks_values(const Runs& runs, const Runs& one, int r) {
  EXPECT_EQ(runs.bfs, one.bfs) << "rank " << r;
  EXPECT_EQ(runs.sssp, one.sssp) << "rank " << r;
  EXPECT_EQ(runs.cc, one.cc) << "rank " << r;
  EXPECT_TRUE(runs.compressed) << "rank " << r;
}

// A file written with compressed lists and packed weights (and, directed, in-edges), loaded by
// each rank (OocEngine::load with a communicator): every rank reads its share of the compressed
// lists and in-edges, its filter tasks move compressed bytes (fewer than the raw lists of the same
// runs), and 2 and 3 ranks give one rank's values, which are the reference's.
TEST(DistributedRuns, RanksReadTheirShareOfCompressedListsAndInEdges) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("distributed_compressed_" + std::to_string(::getpid()) + ".oocg");
  for (const std::string shape : {"kron", "kron_directed"}) {
    SCOPED_TRACE(shape);
    Graph g = test::make_compressed_shape(shape);
    if (!g.symmetric) g.in_edges = in_edges_of(g);
    ASSERT_TRUE(g.compressed.packs_weights());
    write_oocg(g, path);
    const vid_t source = g.original_id(0);  // hub sort puts the highest degree first
    const EngineOptions o = test::options_for("filter", false, Backend::cpu);
    std::vector<Runs> one(1);
    test::on_ranks(1, [&](int, const std::shared_ptr<Communicator>& communicator) {
      OocEngine engine = OocEngine::load(path, o, communicator);
      one[0] = run_all(engine, source);
    });
    for (const auto& c : {reference::compare_exact(one[0].bfs, reference::bfs(g, source)),
                          reference::compare_exact(one[0].sssp, reference::sssp(g, source)),
                          reference::compare_exact(
                              one[0].cc, g.symmetric ? reference::cc(g) : std::vector<vid_t>{})})
      EXPECT_TRUE(c.equal) << c.message;
    for (const int ranks : {2, 3}) {
      SCOPED_TRACE(std::to_string(ranks) + " ranks");
      test::on_ranks(ranks, [&](int r, const std::shared_ptr<Communicator>& communicator) {
        OocEngine engine = OocEngine::load(path, o, communicator);
        EXPECT_FALSE(engine.graph().compressed.empty()) << "rank " << r;
        EXPECT_EQ(engine.graph().has_in_edges(), !g.symmetric) << "rank " << r;
        const Runs runs = run_all(engine, source);
        expect_one_ranks_values(runs, one[0], r);
        EngineOptions raw_options = o;
        raw_options.compressed = false;
        OocEngine raw = OocEngine::load(path, raw_options, communicator);
        EXPECT_TRUE(raw.graph().compressed.empty()) << "rank " << r;
        const Runs raw_runs = run_all(raw, source);
        EXPECT_EQ(raw_runs.bfs, one[0].bfs) << "rank " << r;
        for (std::size_t i = 0; i < runs.filter_bytes.size(); ++i) {
          EXPECT_GT(runs.filter_bytes[i], 0u) << "rank " << r << ", run " << i;
          EXPECT_LT(runs.filter_bytes[i], raw_runs.filter_bytes[i])
              << "rank " << r << ", run " << i;
        }
      });
    }
  }
  std::filesystem::remove(path);
}

// A compressed-only file: each rank reads its share of the compressed lists (and of the raw
// in-edges), and 2 and 3 ranks give the full file's values; a rank asked to leave the
// compressed lists out refuses the file. Several devices over one compressed-only Graph do too.
TEST(DistributedRuns, RanksRunFromTheirShareOfACompressedOnlyFile) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("distributed_compressed_only_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  for (const std::string shape : {"kron", "kron_directed"}) {
    SCOPED_TRACE(shape);
    Graph g = test::make_compressed_shape(shape);
    if (!g.symmetric) g.in_edges = in_edges_of(g);
    write_oocg(g, dir / "full.oocg");
    drop_raw_lists(g);
    write_oocg(g, dir / "only.oocg");
    const vid_t source = g.original_id(0);
    EngineOptions o = test::options_for("hybrid", true, Backend::cpu);
    o.direction = Direction::automatic;
    std::vector<Runs> one(1);
    test::on_ranks(1, [&](int, const std::shared_ptr<Communicator>& communicator) {
      OocEngine engine = OocEngine::load(dir / "full.oocg", o, communicator);
      one[0] = run_all(engine, source);
    });
    for (const int ranks : {2, 3}) {
      SCOPED_TRACE(std::to_string(ranks) + " ranks");
      test::on_ranks(ranks, [&](int r, const std::shared_ptr<Communicator>& communicator) {
        OocEngine engine = OocEngine::load(dir / "only.oocg", o, communicator);
        EXPECT_TRUE(engine.graph().targets.empty()) << "rank " << r;
        const Runs runs = run_all(engine, source);
        expect_one_ranks_values(runs, one[0], r);
        EngineOptions off = o;
        off.compressed = false;
        EXPECT_THROW(OocEngine::load(dir / "only.oocg", off, communicator), InvalidInput)
            << "rank " << r;
      });
    }
    o.devices = {0, 1};
    OocEngine group(read_oocg(dir / "only.oocg"), o);
    const Runs runs = run_all(group, source);
    EXPECT_EQ(runs.bfs, one[0].bfs);
    EXPECT_EQ(runs.cc, one[0].cc);
  }
  std::filesystem::remove_all(dir);
}

// EngineOptions::devices over one Graph: the ranks' views of it (detail::share) carry its
// compressed lists and in-edges, and each rank's runs read the compressed lists.
TEST(DistributedRuns, SeveralDevicesShareTheCompressedListsAndInEdgesOfAGraph) {
  for (const std::string shape : {"kron", "kron_directed"}) {
    SCOPED_TRACE(shape);
    Graph g = test::make_compressed_shape(shape);
    if (!g.symmetric) g.in_edges = in_edges_of(g);
    EngineOptions o = test::options_for("filter", false, Backend::cpu);
    o.devices = {0, 1};
    const vid_t source = g.original_id(0);
    const auto bfs = reference::bfs(g, source);
    const auto sssp = reference::sssp(g, source);
    OocEngine engine(std::move(g), o);
    EXPECT_FALSE(engine.graph().compressed.empty());
    EXPECT_EQ(engine.graph().has_in_edges(), shape == "kron_directed");
    const Runs runs = run_all(engine, source);
    for (const auto& c :
         {reference::compare_exact(runs.bfs, bfs), reference::compare_exact(runs.sssp, sssp)})
      EXPECT_TRUE(c.equal) << c.message;
    EXPECT_TRUE(runs.compressed);
  }
}

// Triangles across 2 and 3 thread ranks: each rank orients its own vertices' lists and the ranks
// hand theirs to each other in turn. Every rank gets the serial reference's counts on every
// symmetric shape and a road-like graph, from raw and compressed-only lists, a turn (iteration)
// per rank, each with its broadcast counted; a rank intersects only its own vertices' edges, so
// the ranks' edges add up to one rank's. The group of EngineOptions::devices over a compressed-only
// file reads each rank's share of it and counts the same.
TEST(DistributedRuns, EveryRankCountsTheReferencesTriangles) {
  for (const std::string& shape : test::triangle_shapes()) {
    const Graph reference_graph = test::make_symmetric_shape(shape);
    const std::vector<std::uint64_t> expected = reference::triangles(reference_graph);
    OocEngine one(test::make_symmetric_shape(shape),
                  test::options_for("hybrid", true, Backend::cpu));
    const std::uint64_t one_edges = one.triangles().stats.edges_processed();
    for (const bool only : {false, true}) {
      for (const int ranks : {2, 3}) {
        SCOPED_TRACE(shape + (only ? ", compressed only, " : ", raw, ") + std::to_string(ranks) +
                     " ranks");
        std::vector<std::uint64_t> edges(static_cast<std::size_t>(ranks));
        test::on_ranks(ranks, [&](int r, const std::shared_ptr<Communicator>& communicator) {
          Graph g = test::make_symmetric_shape(shape);
          if (only) {
            compress(g);
            drop_raw_lists(g);
          }
          OocEngine engine(std::move(g), test::options_for("hybrid", true, Backend::cpu),
                           communicator);
          const TriangleResult t = engine.triangles();
          EXPECT_EQ(t.values, expected) << "rank " << r;
          EXPECT_EQ(t.total * 3,
                    std::accumulate(expected.begin(), expected.end(), std::uint64_t{0}))
              << "rank " << r;
          ASSERT_EQ(t.stats.iterations.size(), static_cast<std::size_t>(ranks)) << "rank " << r;
          // A turn hands over each of its rank's vertices' degree and oriented list; the last
          // sums the counts too.
          std::uint64_t exchanged = 0;
          for (const IterationStats& it : t.stats.iterations)
            exchanged += it.exchange_bytes;
          const std::uint64_t n = engine.graph().num_vertices();
          EXPECT_EQ(exchanged,
                    (n + one_edges) * sizeof(std::uint32_t) + (n + 1) * sizeof(std::uint64_t))
              << "rank " << r;
          edges[static_cast<std::size_t>(r)] = t.stats.edges_processed();
        });
        EXPECT_EQ(std::accumulate(edges.begin(), edges.end(), std::uint64_t{0}), one_edges);
      }
    }
  }
  const auto dir = std::filesystem::temp_directory_path() /
                   ("distributed_triangles_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  Graph g = test::make_compressed_shape("kron");
  const std::vector<std::uint64_t> expected = reference::triangles(g);
  drop_raw_lists(g);
  write_oocg(g, dir / "only.oocg");
  EngineOptions o = test::options_for("hybrid", true, Backend::cpu);
  o.devices = {0, 1};
  OocEngine group = OocEngine::load(dir / "only.oocg", o);
  EXPECT_EQ(group.triangles().values, expected);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace ooc
