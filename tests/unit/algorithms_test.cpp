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

}  // namespace
}  // namespace ooc
