// User programs on the GPU: this file is compiled with nvcc and links ooc::engine_cuda, as an
// application's would (oocgraph_gpu_sources), so engine.hpp instantiates the CUDA executor for
// the programs in engine_cases.hpp. Each runs on every policy and every load-balancing mapping
// and must give the CPU backend's values. SKIPPED where there is no GPU.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "engine_cases.hpp"
#include "gpu_test.hpp"

namespace ooc {
namespace {

static_assert(OOC_PROGRAMS_ON_GPU, "this test must be compiled with nvcc and ooc::engine_cuda");

using UserCase = std::tuple<std::string, std::string>;  // policy, load balance

class CudaUserPrograms : public ::testing::TestWithParam<UserCase> {};

TEST_P(CudaUserPrograms, GiveTheCpuBackendsValues) {
  OOC_REQUIRE_GPU();
  const auto& [policy, balance] = GetParam();
  EngineOptions o = test::options_for(policy, true, Backend::cuda);
  o.load_balance = parse_load_balance(balance);
  OocEngine cpu(test::make_shape("kron_directed"), test::options_for(policy, true, Backend::cpu));
  const std::vector<float> expected = test::expect_user_programs(cpu);
  OocEngine gpu(test::make_shape("kron_directed"), o);
  ASSERT_EQ(gpu.backend(), Backend::cuda);
  test::expect_user_programs(gpu, expected);
  const auto stats = gpu.run(test::UphillHops{gpu.internal_id(gpu.highest_degree_vertex())}).stats;
  EXPECT_EQ(stats.backend, "cuda");
  EXPECT_EQ(stats.in_memory, test::in_memory_policy(policy));
}

INSTANTIATE_TEST_SUITE_P(EveryPolicy, CudaUserPrograms,
                         ::testing::Combine(::testing::ValuesIn(test::policy_names()),
                                            ::testing::Values("tiled", "warp", "ordered",
                                                              "decompose", "hierarchical")),
                         [](const ::testing::TestParamInfo<UserCase>& param) {
                           return std::get<0>(param.param) + "_" + std::get<1>(param.param);
                         });

// User programs that declare offer() gather in the pull direction on a symmetric graph: widest
// path (combined with max) and personalised PageRank (summed), the CPU backend's values.
TEST(CudaUserProgramRuns, PullingProgramsGiveTheCpuValues) {
  OOC_REQUIRE_GPU();
  for (const char* shape : {"kron", "big_star"}) {
    for (const std::string& policy : test::policy_names()) {
      SCOPED_TRACE(std::string(shape) + " " + policy);
      OocEngine cpu(test::make_symmetric_shape(shape),
                    test::direction_options(policy, "pull", true, Backend::cpu));
      OocEngine gpu(test::make_symmetric_shape(shape),
                    test::direction_options(policy, "pull", true, Backend::cuda));
      const vid_t s = cpu.internal_id(cpu.highest_degree_vertex());
      const auto widest = gpu.run(test::WidestPath{s});
      EXPECT_EQ(widest.values, test::in_user_ids(gpu, test::widest_reference(gpu.graph(), s)));
      EXPECT_GT(widest.stats.pull_iterations(), 0u);
      const auto expected = cpu.run(test::PersonalisedPageRank{s, 0.85f, 1e-9f}).values;
      const auto ppr = gpu.run(test::PersonalisedPageRank{s, 0.85f, 1e-9f}).values;
      EXPECT_LT(test::l1_distance(ppr, expected), 1e-4);
    }
  }
}

// Compressed lists, and the big star's hub, which goes through the heavy-list queue (whose
// items carry the source vertex for programs that take the edge's ids).
TEST(CudaUserProgramRuns, CompressedListsAndHeavyListsGiveTheCpuValues) {
  OOC_REQUIRE_GPU();
  for (const char* shape : {"kron", "big_star"}) {
    for (const std::string& policy : test::moving_policy_names()) {
      OocEngine cpu(test::make_compressed_shape(shape),
                    test::options_for(policy, true, Backend::cpu));
      const std::vector<float> expected = test::expect_user_programs(cpu);
      OocEngine gpu(test::make_compressed_shape(shape),
                    test::options_for(policy, true, Backend::cuda));
      test::expect_user_programs(gpu, expected);
    }
  }
}

}  // namespace
}  // namespace ooc
