// Ranks as threads of one process (thread_communicators): every program, on every graph shape
// and transfer policy, gives every rank the serial reference's answer with 2 and 3 ranks, each
// rank processing only its own partitions; a failing rank stops the others.
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "engine_cases.hpp"
#include "ooc/engine/communicator.hpp"
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
                         ::testing::Combine(test::all_cases(), ::testing::Values(2, 3)),
                         [](const ::testing::TestParamInfo<RankCase>& param) {
                           return test::case_name({std::get<0>(param.param), param.index}) + "_" +
                                  std::to_string(std::get<1>(param.param)) + "_ranks";
                         });

TEST(DistributedRuns, EachRankProcessesOnlyItsOwnPartitions) {
  // Filter moves whole partitions: the ranks' bytes add up to one rank's, none moves them all.
  const auto single = [] {
    OocEngine engine(test::make_shape("kron"), test::options_for("filter", false, Backend::cpu));
    return engine.cc().stats.bytes(Engine::filter);
  }();
  std::vector<std::uint64_t> bytes(2);
  test::on_ranks(2, [&](int r, const std::shared_ptr<Communicator>& communicator) {
    OocEngine engine(test::make_shape("kron"), test::options_for("filter", false, Backend::cpu),
                     communicator);
    const auto result = engine.cc();
    bytes[static_cast<std::size_t>(r)] = result.stats.bytes(Engine::filter);
    EXPECT_GT(result.stats.iterations.front().exchange_bytes, 0u);
  });
  EXPECT_GT(bytes[0], 0u);
  EXPECT_GT(bytes[1], 0u);
  EXPECT_LT(bytes[0], single);
  EXPECT_LT(bytes[1], single);
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

}  // namespace
}  // namespace ooc
