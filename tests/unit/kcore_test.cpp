// The k-core decomposition (OocEngine::kcore, kcore_program.hpp) on the CPU backend, on one rank
// and across thread ranks, against the serial reference (kcore_cases.hpp; the GPU's are in
// engine_gpu_test.cpp and distributed_gpu_test.cpp).
#include <gtest/gtest.h>

#include "kcore_cases.hpp"

namespace ooc {
namespace {

TEST(CpuKCore, MatchesTheReferenceOnEveryShapeAndPolicy) {
  test::expect_kcore_on_every_shape_and_policy(Backend::cpu);
}

TEST(CpuKCore, MatchesTheReferenceOnCompressedLists) {
  test::expect_kcore_on_compressed_lists(Backend::cpu);
}

TEST(CpuKCore, GivesKnownCoresAndRefusesADirectedGraph) {
  test::expect_known_kcores(Backend::cpu);
}

TEST(CpuKCore, EveryRankMatchesTheReference) {
  for (const int ranks : {2, 3})
    test::expect_kcore_on_ranks(ranks, Backend::cpu, test::host_policy_names(),
                                [](int) { return 0; });
}

}  // namespace
}  // namespace ooc
