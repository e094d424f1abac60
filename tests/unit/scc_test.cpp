// Strongly connected components (OocEngine::scc) on the CPU backend, against the serial Tarjan
// (reference::scc): directed graphs with their in-edges, a giant component or thousands of small
// ones, raw, compressed and compressed-only lists; and what it refuses.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "engine_cases.hpp"
#include "ranks.hpp"
#include "scc_cases.hpp"

namespace ooc {
namespace {

// FW-BW's searches are runs of the engine: every shape on every policy, priority on and off, and
// compressed out-lists with their raw ones and alone.
TEST(CpuScc, MatchesTheReferenceOnEveryShapeAndPolicy) {
  test::expect_scc_on_every_shape_and_policy(Backend::cpu);
}

TEST(CpuScc, MatchesTheReferenceOnCompressedLists) {
  test::expect_scc_on_compressed_lists(Backend::cpu);
}

TEST(CpuScc, FindsTheShapesKnownComponents) {
  test::expect_known_sccs(Backend::cpu);
}

TEST(CpuScc, OnASymmetricGraphAreTheConnectedComponents) {
  test::expect_symmetric_sccs(Backend::cpu);
}

// A directed graph without in-edges is refused in one line that says how to write them; ranks
// refuse it for now.
TEST(CpuScc, RefusesWhatItCannotRun) {
  OocEngine directed(test::make_shape("kron_directed"),
                     test::options_for("hybrid", true, Backend::cpu));
  EXPECT_EQ(test::error_of([&] { directed.scc(); }),
            "scc needs the graph's in-edges, and this directed graph has none (write it with "
            "partition-tool --in-edges)");
  test::on_ranks(2, [](int, const std::shared_ptr<Communicator>& communicator) {
    OocEngine engine(test::make_scc_shape("cycle"), test::options_for("hybrid", true, Backend::cpu),
                     communicator);
    EXPECT_EQ(test::error_of([&] { engine.scc(); }),
              "scc runs on one rank for now: run it without --devices or mpirun");
  });
}

}  // namespace
}  // namespace ooc
