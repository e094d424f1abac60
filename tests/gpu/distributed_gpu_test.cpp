// Ranks on GPUs, as threads of one process with a GPU each, agreeing over NCCL: every program
// under every transfer policy (priority on and off), every exchange (dense, sparse, auto) and
// four exchanges in a dense iteration (EngineOptions::exchange_rounds; one too, with auto) gives
// every rank the serial reference's answer on every graph shape, with 1 rank (NCCL of one) and 2
// ranks (two GPUs; SKIPPED where there are fewer); so does the pull direction, forced and auto.
// A rank that cannot start stops the others with its reason. NCCL is warmed up and timed when a
// rank is made, and auto chooses by those times. The batched traversals run on GPU ranks too.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <vector>

#include "engine_cases.hpp"
#include "gpu_test.hpp"
#include "kcore_cases.hpp"
#include "ooc/engine/communicator.hpp"
#include "ooc/partitioner/compress.hpp"
#include "ooc/partitioner/generators.hpp"
#include "ooc/partitioner/oocg.hpp"
#include "ranks.hpp"

namespace ooc {
namespace {

using RankShape = std::tuple<std::string, int>;  // the graph shape, the number of ranks

class CudaRanks : public ::testing::TestWithParam<RankShape> {};

TEST_P(CudaRanks, EveryRankMatchesTheReference) {
  OOC_REQUIRE_GPU();
  const auto& [shape, ranks] = GetParam();
  if (list_devices().size() < static_cast<std::size_t>(ranks))
    GTEST_SKIP() << "needs " << ranks << " GPUs: " << describe_devices();
  test::on_ranks(ranks, [&](int r, const std::shared_ptr<Communicator>& communicator) {
    EngineOptions o = test::options_for("hybrid", true, Backend::cuda);
    o.device = r;
    OocEngine engine(test::make_shape(shape), o, communicator);
    ASSERT_EQ(engine.backend(), Backend::cuda);
    RunSettings s = engine.settings();
    for (const char* policy : {"hybrid", "filter", "compaction", "zerocopy"}) {
      s.transfer = parse_transfer_policy(policy);
      for (const bool priority : {true, false}) {
        s.priority = priority ? Priority::on : Priority::off;
        for (const char* exchange : {"dense", "sparse", "auto"}) {
          s.exchange = parse_exchange(exchange);
          // One exchange per iteration once (auto), the default rounds with every exchange.
          for (const std::uint32_t rounds : {1u, 4u}) {
            if (rounds == 1 && std::string_view(exchange) != "auto") continue;
            s.exchange_rounds = rounds;
            engine.configure(s);
            for (const std::string& program : test::program_names()) {
              SCOPED_TRACE("rank " + std::to_string(r) + ", " + program + ", " + policy +
                           (priority ? ", priority, " : ", plain, ") + exchange + ", " +
                           std::to_string(rounds) + " rounds");
              test::expect_matches_reference(program, engine);
            }
          }
        }
      }
    }
  });
}

INSTANTIATE_TEST_SUITE_P(Shapes, CudaRanks,
                         ::testing::Combine(::testing::ValuesIn(test::shape_names()),
                                            ::testing::Values(1, 2)),
                         [](const ::testing::TestParamInfo<RankShape>& param) {
                           return std::get<0>(param.param) + "_" +
                                  std::to_string(std::get<1>(param.param)) + "_ranks";
                         });

// k-core across GPU ranks (the edges each rank takes away summed over NCCL before a vertex is
// peeled): one rank (NCCL of one), and two where there are two GPUs.
class CudaRankKCore : public ::testing::TestWithParam<int> {};

TEST_P(CudaRankKCore, EveryRankMatchesTheReference) {
  OOC_REQUIRE_GPU();
  const int ranks = GetParam();
  if (list_devices().size() < static_cast<std::size_t>(ranks))
    GTEST_SKIP() << "needs " << ranks << " GPUs: " << describe_devices();
  test::expect_kcore_on_ranks(ranks, Backend::cuda, {"hybrid", "filter", "compaction", "zerocopy"},
                              [](int r) { return r; });
}

INSTANTIATE_TEST_SUITE_P(Ranks, CudaRankKCore, ::testing::Values(1, 2),
                         [](const ::testing::TestParamInfo<int>& param) {
                           return std::to_string(param.param) + "_ranks";
                         });

// The batched traversals across GPU ranks (their slots combined over NCCL after each level): bc,
// closeness and bfs from many sources give every rank the serial references on every shape,
// under every policy a rank runs, the dense and the sparse exchange of the values, in batches of
// 1, 5 and the chosen width; compressed lists too.
class CudaRankBatches : public ::testing::TestWithParam<RankShape> {};

TEST_P(CudaRankBatches, EveryRankMatchesTheReferences) {
  OOC_REQUIRE_GPU();
  const auto& [shape, ranks] = GetParam();
  if (list_devices().size() < static_cast<std::size_t>(ranks))
    GTEST_SKIP() << "needs " << ranks << " GPUs: " << describe_devices();
  test::on_ranks(ranks, [&](int r, const std::shared_ptr<Communicator>& communicator) {
    for (const bool compressed : {false, true}) {
      Graph g = test::make_symmetric_shape(shape);
      if (compressed) compress(g);
      EngineOptions o = test::options_for("hybrid", true, Backend::cuda);
      o.device = r;
      OocEngine engine(std::move(g), o, communicator);
      ASSERT_EQ(engine.backend(), Backend::cuda);
      RunSettings s = engine.settings();
      for (const char* policy : {"hybrid", "filter", "compaction", "zerocopy"}) {
        s.transfer = parse_transfer_policy(policy);
        for (const char* exchange : {"dense", "sparse"}) {
          s.exchange = parse_exchange(exchange);
          engine.configure(s);
          for (const std::uint32_t batch : {1u, 5u, 0u}) {
            if (compressed && batch != 5) continue;
            SCOPED_TRACE("rank " + std::to_string(r) + ", " + policy + ", " + exchange +
                         (compressed ? ", compressed" : ", raw") + ", batch " +
                         std::to_string(batch));
            test::expect_batches_match_references(engine, batch);
          }
        }
      }
    }
  });
}

INSTANTIATE_TEST_SUITE_P(Shapes, CudaRankBatches,
                         ::testing::Combine(::testing::ValuesIn(test::bc_shape_names()),
                                            ::testing::Values(1, 2)),
                         [](const ::testing::TestParamInfo<RankShape>& param) {
                           return std::get<0>(param.param) + "_" +
                                  std::to_string(std::get<1>(param.param)) + "_ranks";
                         });

// The pull direction across GPU ranks, forced and chosen per iteration, on the symmetric shapes:
// every policy, priority on and off, the dense and the sparse exchange; every rank chooses alike.
class CudaRankDirections : public ::testing::TestWithParam<RankShape> {};

TEST_P(CudaRankDirections, EveryRankMatchesTheReference) {
  OOC_REQUIRE_GPU();
  const auto& [shape, ranks] = GetParam();
  if (list_devices().size() < static_cast<std::size_t>(ranks))
    GTEST_SKIP() << "needs " << ranks << " GPUs: " << describe_devices();
  std::vector<std::vector<std::size_t>> pulls(static_cast<std::size_t>(ranks));
  test::on_ranks(ranks, [&](int r, const std::shared_ptr<Communicator>& communicator) {
    EngineOptions o = test::options_for("hybrid", true, Backend::cuda);
    o.device = r;
    OocEngine engine(test::make_symmetric_shape(shape), o, communicator);
    RunSettings s = engine.settings();
    for (const char* direction : {"pull", "auto"}) {
      s.direction = parse_direction(direction);
      for (const char* policy : {"hybrid", "filter", "compaction", "zerocopy"}) {
        s.transfer = parse_transfer_policy(policy);
        for (const bool priority : {true, false}) {
          s.priority = priority ? Priority::on : Priority::off;
          for (const char* exchange : {"dense", "sparse"}) {
            s.exchange = parse_exchange(exchange);
            engine.configure(s);
            for (const std::string& program : test::program_names()) {
              SCOPED_TRACE("rank " + std::to_string(r) + ", " + program + ", " + direction + ", " +
                           policy + (priority ? ", priority, " : ", plain, ") + exchange);
              const RunStats stats = test::expect_matches_reference(program, engine);
              pulls[static_cast<std::size_t>(r)].push_back(stats.pull_iterations());
            }
          }
        }
      }
    }
  });
  for (int r = 1; r < ranks; ++r)
    EXPECT_EQ(pulls[static_cast<std::size_t>(r)], pulls[0]) << "rank " << r << " chose otherwise";
}

INSTANTIATE_TEST_SUITE_P(Shapes, CudaRankDirections,
                         ::testing::Combine(::testing::ValuesIn(test::bc_shape_names()),
                                            ::testing::Values(1, 2)),
                         [](const ::testing::TestParamInfo<RankShape>& param) {
                           return std::get<0>(param.param) + "_" +
                                  std::to_string(std::get<1>(param.param)) + "_ranks";
                         });

// A rank that reads its share from a file holds it in otherwise unbacked address space and pins
// it in place, range by range (arrays of 64 MiB and more; smaller ones are copied into pinned
// memory): kron-20's 33 M edges (134 MB of targets) take that path. With host memory for about a
// third of the lists (the ranks' share of it), each rank keeps and pins part of its share and
// reads the rest from the file (the host tier), with the same values.
TEST(CudaRankRuns, ARankPinsItsShareOfALargeFileInPlace) {
  OOC_REQUIRE_GPU();
  const int ranks = list_devices().size() >= 2 ? 2 : 1;
  const auto path = std::filesystem::temp_directory_path() /
                    ("distributed_gpu_test_" + std::to_string(::getpid()) + ".oocg");
  const Graph g = test::build(generate_kronecker(20, 16, 11), true, 12);
  ASSERT_GE(g.targets.size_bytes(), std::size_t{64} << 20);
  write_oocg(g, path);
  const vid_t source = g.original_id(0);
  const auto expected_levels = reference::bfs(g, source);
  const auto expected_labels = reference::cc(g);
  for (const std::uint64_t host_memory : {std::uint64_t{0}, g.targets.size_bytes() * 2 / 3}) {
    test::on_ranks(ranks, [&](int r, const std::shared_ptr<Communicator>& communicator) {
      EngineOptions o;
      o.backend = Backend::cuda;
      o.device = r;
      o.partition_bytes = std::uint64_t{4} << 20;
      o.host_memory = host_memory;
      OocEngine engine = OocEngine::load(path, o, communicator);
      EXPECT_EQ(engine.lists_in_memory(), host_memory == 0);
      for (const char* policy : {"hybrid", "filter", "zerocopy"}) {
        SCOPED_TRACE(std::string("rank ") + std::to_string(r) + ", host memory " +
                     std::to_string(host_memory) + ", " + policy);
        RunSettings s = engine.settings();
        s.transfer = parse_transfer_policy(policy);
        engine.configure(s);
        const auto bfs = reference::compare_exact(engine.bfs(source).values, expected_levels);
        EXPECT_TRUE(bfs.equal) << bfs.message;
        const auto cc = reference::compare_exact(engine.cc().values, expected_labels);
        EXPECT_TRUE(cc.equal) << cc.message;
      }
    });
  }
  std::filesystem::remove(path);
}

// The same for a rank's compressed lists and in-lists, read in part and pinned by its vertex
// ranges: kron-22, directed, has 116 MB of compressed lists and 261 MB of in-sources (pinned in
// place) and 49 MB of packed weights (copied into pinned memory whole).
TEST(CudaRankRuns, ARankPinsItsShareOfCompressedListsAndInEdgesInPlace) {
  OOC_REQUIRE_GPU();
  const int ranks = list_devices().size() >= 2 ? 2 : 1;
  const auto path = std::filesystem::temp_directory_path() /
                    ("distributed_gpu_compressed_" + std::to_string(::getpid()) + ".oocg");
  Graph g = test::build(generate_kronecker(22, 16, 11), false, 12);
  compress(g);
  g.in_edges = in_edges_of(g);
  ASSERT_GE(g.compressed.size_bytes(), std::size_t{64} << 20);
  ASSERT_GE(g.in_edges.sources.size_bytes(), std::size_t{64} << 20);
  write_oocg(g, path);
  const vid_t source = g.original_id(0);
  const auto expected_levels = reference::bfs(g, source);
  const auto expected_distances = reference::sssp(g, source);
  test::on_ranks(ranks, [&](int r, const std::shared_ptr<Communicator>& communicator) {
    EngineOptions o;
    o.backend = Backend::cuda;
    o.device = r;
    o.partition_bytes = std::uint64_t{4} << 20;
    OocEngine engine = OocEngine::load(path, o, communicator);
    EXPECT_FALSE(engine.graph().compressed.empty());
    EXPECT_TRUE(engine.graph().has_in_edges());
    for (const char* policy : {"hybrid", "filter", "compaction", "zerocopy"}) {
      SCOPED_TRACE(std::string("rank ") + std::to_string(r) + ", " + policy);
      RunSettings s = engine.settings();
      s.transfer = parse_transfer_policy(policy);
      engine.configure(s);
      const auto bfs = engine.bfs(source);
      EXPECT_TRUE(bfs.stats.compressed);
      const auto levels = reference::compare_exact(bfs.values, expected_levels);
      EXPECT_TRUE(levels.equal) << levels.message;
      const auto distances =
          reference::compare_exact(engine.sssp(source).values, expected_distances);
      EXPECT_TRUE(distances.equal) << distances.message;
    }
  });
  std::filesystem::remove(path);
}

// A compressed-only file (kron-22, directed, with in-edges): each rank pins its share of the
// compressed lists and raw in-lists and no raw out-lists, so fewer bytes than from the full file
// by at least its share of the raw targets, and gives the reference's values.
TEST(CudaRankRuns, ARankPinsNoRawListsOfACompressedOnlyFile) {
  OOC_REQUIRE_GPU();
  const int ranks = list_devices().size() >= 2 ? 2 : 1;
  const auto dir = std::filesystem::temp_directory_path() /
                   ("distributed_gpu_compressed_only_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  Graph g = test::build(generate_kronecker(22, 16, 11), false, 12);
  compress(g);
  g.in_edges = in_edges_of(g);
  const vid_t source = g.original_id(0);
  const auto expected_levels = reference::bfs(g, source);
  const auto expected_distances = reference::sssp(g, source);
  const std::uint64_t targets = g.targets.size_bytes();
  write_oocg(g, dir / "full.oocg");
  drop_raw_lists(g);
  write_oocg(g, dir / "only.oocg");
  test::on_ranks(ranks, [&](int r, const std::shared_ptr<Communicator>& communicator) {
    EngineOptions o;
    o.backend = Backend::cuda;
    o.device = r;
    o.partition_bytes = std::uint64_t{4} << 20;
    o.transfer = TransferPolicy::filter;
    std::uint64_t pinned[2] = {};
    for (const int only : {0, 1}) {
      OocEngine engine = OocEngine::load(dir / (only ? "only.oocg" : "full.oocg"), o, communicator);
      const auto bfs = engine.bfs(source);
      pinned[only] = bfs.stats.host_pinned_bytes;
      const auto levels = reference::compare_exact(bfs.values, expected_levels);
      EXPECT_TRUE(levels.equal) << "rank " << r << ": " << levels.message;
      const auto distances =
          reference::compare_exact(engine.sssp(source).values, expected_distances);
      EXPECT_TRUE(distances.equal) << "rank " << r << ": " << distances.message;
    }
    EXPECT_GT(pinned[1], 0u) << "rank " << r;
    EXPECT_GE(pinned[0] - pinned[1], targets / 4) << "rank " << r;
  });
  std::filesystem::remove_all(dir);
}

TEST(CudaRankRuns, EachRankMovesOnlyItsOwnPartitions) {
  OOC_REQUIRE_GPU();
  if (list_devices().size() < 2) GTEST_SKIP() << "needs 2 GPUs: " << describe_devices();
  const auto single = [] {  // label propagation, as the ranks below run it
    EngineOptions o = test::options_for("filter", false, Backend::cuda);
    o.cc = CcAlgorithm::labels;
    OocEngine engine(test::make_shape("kron"), o);
    return engine.cc().stats.bytes(TransferEngine::filter);
  }();
  std::vector<std::uint64_t> bytes(2);
  test::on_ranks(2, [&](int r, const std::shared_ptr<Communicator>& communicator) {
    EngineOptions o = test::options_for("filter", false, Backend::cuda);
    o.device = r;
    o.exchange = Exchange::dense;
    o.exchange_rounds = 4;  // GPU ranks exchange once an iteration unless told
    o.cc = CcAlgorithm::labels;
    OocEngine engine(test::make_shape("kron"), o, communicator);
    const auto result = engine.cc();
    bytes[static_cast<std::size_t>(r)] = result.stats.bytes(TransferEngine::filter);
    // Every vertex is active in the first iteration: dense, so it exchanges after each round.
    const IterationStats& first = result.stats.iterations.front();
    EXPECT_EQ(first.exchange_rounds, o.exchange_rounds);
    EXPECT_EQ(first.exchange_bytes,
              o.exchange_rounds * std::uint64_t{engine.graph().num_vertices()} * sizeof(vid_t));
  });
  EXPECT_GT(bytes[0], 0u);
  EXPECT_GT(bytes[1], 0u);
  EXPECT_LT(bytes[0], single);
  EXPECT_LT(bytes[1], single);
}

TEST(CudaRankRuns, ARankOnAMissingGpuStopsTheOthers) {
  OOC_REQUIRE_GPU();
  const int missing = static_cast<int>(list_devices().size()) + 7;
  std::vector<std::string> seen(2);
  std::vector<std::unique_ptr<Communicator>> communicators = thread_communicators(2);
  std::vector<std::thread> threads;
  for (int r = 0; r < 2; ++r) {
    threads.emplace_back([&, r] {
      std::shared_ptr<Communicator> communicator = std::move(communicators[r]);
      EngineOptions o = test::options_for("hybrid", true, Backend::cuda);
      o.device = r == 0 ? 0 : missing;
      try {
        OocEngine engine(test::make_shape("kron"), o, communicator);
        engine.bfs(0);
      } catch (const Error& e) {
        seen[static_cast<std::size_t>(r)] = e.what();
        communicator->abort(e.what());
      }
    });
  }
  for (std::thread& t : threads)
    t.join();
  const std::string cause = "GPU " + std::to_string(missing) +
                            " does not exist (this machine has " +
                            std::to_string(list_devices().size()) + ")";
  EXPECT_EQ(seen[1], cause);
  EXPECT_EQ(seen[0], "rank 1 failed: " + cause);
}

// EngineOptions::devices on GPUs: one engine object, a rank per GPU (every GPU there is, up to
// 2), the same values as the reference.
TEST(CudaRankRuns, OneEngineOverSeveralGpusMatchesTheReference) {
  OOC_REQUIRE_GPU();
  EngineOptions o = test::options_for("hybrid", true, Backend::cuda);
  o.devices = {0};
  if (list_devices().size() >= 2) o.devices = {0, 1};
  OocEngine engine(test::make_shape("kron"), o);
  EXPECT_EQ(engine.ranks(), static_cast<int>(o.devices.size()));
  for (const std::string& program : test::program_names()) {
    SCOPED_TRACE(program);
    test::expect_matches_reference(program, engine);
  }
}

// NCCL is joined, warmed up with a run's collectives and timed when a rank's engine is made
// (exchange_calibration.cu): every rank holds the same times, from 4 KiB to the dense array's
// size, and the first run finds NCCL connected (under mpirun it paid 0.91 s in NCCL before).
TEST(CudaRankRuns, NcclIsWarmedUpAndCalibratedWhenTheEngineIsMade) {
  OOC_REQUIRE_GPU();
  if (list_devices().size() < 2) GTEST_SKIP() << "needs 2 GPUs: " << describe_devices();
  std::vector<ExchangeCalibration> seen(2);
  test::on_ranks(2, [&](int r, const std::shared_ptr<Communicator>& communicator) {
    EngineOptions o = test::options_for("hybrid", true, Backend::cuda);
    o.device = r;
    o.exchange = Exchange::dense;
    o.cc = CcAlgorithm::labels;  // every iteration exchanges through NCCL
    OocEngine engine(test::build(generate_kronecker(16, 8, 3), true, 1), o, communicator);
    const std::optional<ExchangeCalibration> c = engine.exchange_calibration();
    ASSERT_TRUE(c.has_value());
    seen[static_cast<std::size_t>(r)] = *c;
    EXPECT_GT(c->setup_seconds, 0.0);
    EXPECT_EQ(c->all_reduce.at.front().bytes, kSmallestExchangeBytes);
    EXPECT_EQ(c->all_reduce.at.back().bytes, 4 * std::uint64_t{engine.graph().num_vertices()});
    for (const SizeTimes* t : {&c->all_reduce, &c->all_gather, &c->apply_pairs}) {
      for (const TimedSize& at : t->at)
        EXPECT_GT(at.seconds, 0.0) << at.bytes << " bytes";
    }
    EXPECT_GT(c->change_seconds, 0.0);
    const auto run = engine.cc();
    EXPECT_EQ(run.stats.exchange_calibration.setup_seconds, c->setup_seconds);
    for (const IterationStats& it : run.stats.iterations) {
      EXPECT_GT(it.nccl_seconds, 0.0) << "iteration " << it.iteration;
      EXPECT_LT(it.nccl_seconds, 0.1) << "iteration " << it.iteration << ": NCCL connected late?";
    }
  });
  // Each figure is the slowest rank's, so both ranks price alike; the set-up is each rank's own.
  for (std::size_t i = 0; i < kExchangeSizes; ++i) {
    EXPECT_EQ(seen[0].all_reduce.at[i].seconds, seen[1].all_reduce.at[i].seconds);
    EXPECT_EQ(seen[0].all_gather.at[i].seconds, seen[1].all_gather.at[i].seconds);
    EXPECT_EQ(seen[0].apply_pairs.at[i].seconds, seen[1].apply_pairs.at[i].seconds);
  }
  EXPECT_EQ(seen[0].change_seconds, seen[1].change_seconds);
}

// Exchange::automatic takes, in every iteration, the form that prefer_sparse prices lower from the
// run's calibration and the busiest rank's changes, where the pairs fit its V/N capacity (one
// exchange per iteration, so that the iteration's figures are its exchange's).
TEST(CudaRankRuns, AutoExchangeTakesTheFormTheCalibrationPricesLower) {
  OOC_REQUIRE_GPU();
  if (list_devices().size() < 2) GTEST_SKIP() << "needs 2 GPUs: " << describe_devices();
  test::on_ranks(2, [&](int r, const std::shared_ptr<Communicator>& communicator) {
    EngineOptions o = test::options_for("hybrid", true, Backend::cuda);
    o.device = r;
    o.exchange = Exchange::automatic;
    o.exchange_rounds = 1;
    o.cc = CcAlgorithm::labels;  // an exchange per iteration (Afforest merges its forests)
    OocEngine engine(test::build(generate_kronecker(16, 8, 3), true, 1), o, communicator);
    const std::uint64_t n = engine.graph().num_vertices();
    const auto expect_priced = [&](const RunStats& s, bool accumulative) {
      SCOPED_TRACE(s.algorithm + ", rank " + std::to_string(r));
      ASSERT_TRUE(s.exchange_calibration.measured());
      for (const IterationStats& it : s.iterations) {
        const ExchangeShape shape{n, 2, it.busiest_changes, 4, accumulative};
        const bool fits = it.busiest_changes <= (n + 1) / 2;
        EXPECT_EQ(it.sparse_exchange, fits && prefer_sparse(s.exchange_calibration, shape))
            << "iteration " << it.iteration << ", " << it.busiest_changes << " changes";
      }
    };
    expect_priced(engine.bfs(engine.highest_degree_vertex()).stats, false);
    expect_priced(engine.cc().stats, false);
    expect_priced(engine.pagerank().stats, true);
  });
}

// An exchange's time holds its parts: the wait for the slowest rank's count (the host's
// all-reduce of it) and the collective in NCCL, each measured in every iteration that exchanged,
// and the summary line names both. One rank (NCCL of one) here; two where there are two GPUs.
class CudaRankWaits : public ::testing::TestWithParam<int> {};

TEST_P(CudaRankWaits, TheExchangeTimeHoldsTheWaitAndTheCollective) {
  OOC_REQUIRE_GPU();
  const int ranks = GetParam();
  if (list_devices().size() < static_cast<std::size_t>(ranks))
    GTEST_SKIP() << "needs " << ranks << " GPUs: " << describe_devices();
  test::on_ranks(ranks, [&](int r, const std::shared_ptr<Communicator>& communicator) {
    EngineOptions o = test::options_for("hybrid", true, Backend::cuda);
    o.device = r;
    o.exchange = Exchange::dense;  // every exchange enters NCCL
    o.cc = CcAlgorithm::labels;
    OocEngine engine(test::build(generate_kronecker(14, 8, 5), true, 1), o, communicator);
    for (const RunStats& s : {engine.bfs(engine.highest_degree_vertex()).stats, engine.cc().stats,
                              engine.pagerank().stats}) {
      SCOPED_TRACE(s.algorithm + ", rank " + std::to_string(r));
      for (const IterationStats& it : s.iterations) {
        ASSERT_GT(it.exchange_rounds, 0u) << "iteration " << it.iteration;
        EXPECT_GT(it.wait_seconds, 0.0) << "iteration " << it.iteration;
        EXPECT_GT(it.nccl_seconds, 0.0) << "iteration " << it.iteration;
        EXPECT_LE(it.wait_seconds + it.nccl_seconds, it.exchange_seconds)
            << "iteration " << it.iteration;
      }
      EXPECT_NE(s.summary().find(" s in NCCL, "), std::string::npos) << s.summary();
      EXPECT_NE(s.summary().find(" s waiting for the other ranks)"), std::string::npos)
          << s.summary();
    }
  });
}

INSTANTIATE_TEST_SUITE_P(Ranks, CudaRankWaits, ::testing::Values(1, 2),
                         [](const ::testing::TestParamInfo<int>& param) {
                           return std::to_string(param.param) + "_ranks";
                         });

TEST(CudaRankRuns, TheUnifiedPolicyIsRefusedWithRanks) {
  OOC_REQUIRE_GPU();
  auto communicators = thread_communicators(1);
  EngineOptions o = test::options_for("unified", false, Backend::cuda);
  try {
    OocEngine engine(test::make_shape("chain"), o, std::move(communicators[0]));
    FAIL() << "a rank with the unified policy was accepted";
  } catch (const Unsupported& e) {
    EXPECT_STREQ(e.what(),
                 "the unified policy runs on one GPU only: use another --transfer policy with "
                 "ranks");
  }
}

// Triangles across GPU ranks (each rank's lists against the turn's on its GPU): one rank (NCCL of
// one), and two where there are two GPUs, on every symmetric shape and a road-like graph.
class CudaRankTriangles : public ::testing::TestWithParam<int> {};

TEST_P(CudaRankTriangles, EveryRankMatchesTheReference) {
  OOC_REQUIRE_GPU();
  const int ranks = GetParam();
  if (list_devices().size() < static_cast<std::size_t>(ranks))
    GTEST_SKIP() << "needs " << ranks << " GPUs: " << describe_devices();
  for (const std::string& shape : test::triangle_shapes()) {
    SCOPED_TRACE(shape);
    const std::vector<std::uint64_t> expected =
        reference::triangles(test::make_symmetric_shape(shape));
    test::on_ranks(ranks, [&](int r, const std::shared_ptr<Communicator>& communicator) {
      EngineOptions o = test::options_for("hybrid", true, Backend::cuda);
      o.device = r;
      OocEngine engine(test::make_symmetric_shape(shape), o, communicator);
      EXPECT_EQ(engine.triangles().values, expected) << "rank " << r;
    });
  }
}

INSTANTIATE_TEST_SUITE_P(Ranks, CudaRankTriangles, ::testing::Values(1, 2),
                         [](const ::testing::TestParamInfo<int>& param) {
                           return std::to_string(param.param) + "_ranks";
                         });

}  // namespace
}  // namespace ooc
