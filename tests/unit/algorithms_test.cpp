// Every program x every transfer policy x priority on/off x graph shape on the CPU backend,
// against the serial references.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace ooc
