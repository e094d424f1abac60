// Every program x every transfer policy x priority on/off x graph shape x load-balancing
// mapping on the CUDA backend, against the serial references. SKIPPED where there is no GPU.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "engine_cases.hpp"
#include "gpu_test.hpp"
#include "ooc/core/error.hpp"

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
                         ::testing::Combine(test::all_cases(), ::testing::Values("tiled", "warp")),
                         [](const ::testing::TestParamInfo<GpuCase>& param) {
                           return test::case_name({std::get<0>(param.param), param.index}) + "_" +
                                  std::get<1>(param.param);
                         });

// The same engine object runs several programs, and the GPU path keeps the edges pinned and
// reports what it moved.
TEST(CudaBackendRuns, SeveralProgramsOnOneEngineReportTheirBytes) {
  OOC_REQUIRE_GPU();
  EngineOptions o = test::options_for("filter", false, Backend::cuda);
  OocEngine engine(test::make_shape("kron"), o);
  const auto bfs = engine.bfs(engine.highest_degree_vertex());
  const auto cc = engine.cc();
  EXPECT_GT(bfs.stats.bytes(Engine::filter), 0u);
  EXPECT_EQ(bfs.stats.total_bytes(), bfs.stats.bytes(Engine::filter));
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

}  // namespace
}  // namespace ooc
