// The k-core decomposition (OocEngine::kcore, kcore_program.hpp) on the CPU backend, on one rank
// and across thread ranks, against the serial reference (reference::kcore).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine_cases.hpp"
#include "ooc/engine/engine.hpp"
#include "ooc/engine/kcore_program.hpp"
#include "ooc/engine/reference.hpp"
#include "ooc/partitioner/compress.hpp"
#include "ooc/partitioner/generators.hpp"
#include "ranks.hpp"

namespace ooc {
namespace {

// The symmetric shapes of the batched traversals' tests, and a road-like graph (thousands of
// short shells' levels apart, most vertices of core 1 or 2).
std::vector<std::string> kcore_shapes() {
  std::vector<std::string> shapes = test::bc_shape_names();
  shapes.emplace_back("road");
  return shapes;
}

std::uint32_t largest(const std::vector<std::uint32_t>& cores) {
  std::uint32_t most = 0;
  for (const std::uint32_t c : cores)
    most = std::max(most, c);
  return most;
}

void expect_matches_reference(OocEngine& engine, const Graph& reference_graph) {
  const KCoreResult r = engine.kcore();
  const std::vector<std::uint32_t> expected = reference::kcore(reference_graph);
  EXPECT_EQ(r.values, expected);
  EXPECT_EQ(r.degeneracy, largest(expected));
  EXPECT_TRUE(r.converged);
  EXPECT_EQ(r.stats.algorithm, "kcore");
  EXPECT_NE(r.stats.summary().find(" shell" + std::string(r.shells == 1 ? "" : "s") +
                                   ", degeneracy " + std::to_string(r.degeneracy)),
            std::string::npos)
      << r.stats.summary();
}

// Every shape on every policy (the frontier loop's included), priority on and off: a peeled
// vertex's edges are relaxed once whatever the schedule.
TEST(CpuKCore, MatchesTheReferenceOnEveryShapeAndPolicy) {
  for (const std::string& shape : kcore_shapes()) {
    const Graph reference_graph = test::make_symmetric_shape(shape);
    for (const std::string& policy : test::policy_names()) {
      for (const bool priority : {true, false}) {
        SCOPED_TRACE(shape + ", " + policy + (priority ? ", priority on" : ", priority off"));
        OocEngine engine(test::make_symmetric_shape(shape),
                         test::options_for(policy, priority, Backend::cpu));
        expect_matches_reference(engine, reference_graph);
      }
    }
  }
}

// Compressed lists, with their raw ones and alone, on the policies that read them.
TEST(CpuKCore, MatchesTheReferenceOnCompressedLists) {
  for (const std::string& shape : kcore_shapes()) {
    const Graph reference_graph = test::make_symmetric_shape(shape);
    for (const std::string policy : {"hybrid", "compaction", "zerocopy", "loop"}) {
      for (const bool raw : {true, false}) {
        SCOPED_TRACE(shape + ", " + policy + (raw ? ", compressed" : ", compressed only"));
        Graph g = test::make_symmetric_shape(shape);
        compress(g);
        if (!raw) drop_raw_lists(g);
        OocEngine engine(std::move(g), test::options_for(policy, true, Backend::cpu));
        expect_matches_reference(engine, reference_graph);
      }
    }
  }
}

// Known answers: a clique of 6 is a 5-core; a chain, a star and a tree are 1-cores; a grid is a
// 2-core; an isolated vertex has core 0. A directed graph is refused in one line.
TEST(CpuKCore, GivesKnownCoresAndRefusesADirectedGraph) {
  std::vector<std::pair<vid_t, vid_t>> pairs = test::clique_pairs(6);
  pairs.emplace_back(0, 6);  // vertex 6 hangs off vertex 0
  OocEngine k6(test::build(test::edge_list_of(7, pairs), true, 1, 0.0),
               test::options_for("hybrid", true, Backend::cpu));
  const KCoreResult r = k6.kcore();
  EXPECT_EQ(r.values, (std::vector<std::uint32_t>{5, 5, 5, 5, 5, 5, 1}));
  EXPECT_EQ(r.degeneracy, 5u);
  EXPECT_EQ(r.shells, 2u);  // 1 and 5: the shells no vertex has are skipped
  const auto cores_of = [](const std::string& shape) {
    OocEngine engine(test::make_symmetric_shape(shape),
                     test::options_for("hybrid", true, Backend::cpu));
    return engine.kcore().values;
  };
  const auto all_are = [](const std::vector<std::uint32_t>& cores, std::uint32_t core) {
    return !cores.empty() &&
           std::all_of(cores.begin(), cores.end(), [core](std::uint32_t c) { return c == core; });
  };
  EXPECT_TRUE(all_are(cores_of("grid"), 2));
  EXPECT_TRUE(all_are(cores_of("chain"), 1));
  EXPECT_TRUE(all_are(cores_of("star"), 1));
  EXPECT_TRUE(all_are(cores_of("single"), 0));
  OocEngine directed(test::make_shape("kron_directed"),
                     test::options_for("hybrid", true, Backend::cpu));
  EXPECT_EQ(test::error_of([&] { directed.kcore(); }),
            "kcore needs a symmetric graph, and this one is directed (convert or generate it with "
            "--undirected)");
}

// Across 2 and 3 thread ranks: every rank's cores are the reference's (the edges each rank takes
// away are added up before a vertex is peeled).
TEST(CpuKCore, EveryRankMatchesTheReference) {
  for (const int ranks : {2, 3}) {
    for (const std::string& shape : kcore_shapes()) {
      const Graph reference_graph = test::make_symmetric_shape(shape);
      for (const std::string& policy : test::host_policy_names()) {
        SCOPED_TRACE(shape + ", " + policy + ", " + std::to_string(ranks) + " ranks");
        test::on_ranks(ranks, [&](int, const std::shared_ptr<Communicator>& communicator) {
          OocEngine engine(test::make_symmetric_shape(shape),
                           test::options_for(policy, true, Backend::cpu), communicator);
          expect_matches_reference(engine, reference_graph);
        });
      }
    }
  }
}

}  // namespace
}  // namespace ooc
