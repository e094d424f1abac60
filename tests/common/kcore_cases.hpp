#pragma once
// The k-core decomposition's checks (OocEngine::kcore, kcore_program.hpp) on either backend,
// against the serial reference (reference::kcore): shared by the CPU tests (kcore_test.cpp) and
// the GPU tests (engine_gpu_test.cpp, distributed_gpu_test.cpp).
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
#include "ranks.hpp"

namespace ooc::test {

// The symmetric shapes of the batched traversals' tests, and a road-like graph (thousands of
// short shells' levels apart, most vertices of core 1 or 2).
inline std::vector<std::string> kcore_shapes() {
  std::vector<std::string> shapes = bc_shape_names();
  shapes.emplace_back("road");
  return shapes;
}

inline void expect_kcore_matches_reference(OocEngine& engine, const Graph& reference_graph) {
  const KCoreResult r = engine.kcore();
  const std::vector<std::uint32_t> expected = reference::kcore(reference_graph);
  EXPECT_EQ(r.values, expected);
  EXPECT_EQ(r.degeneracy,
            expected.empty() ? 0u : *std::max_element(expected.begin(), expected.end()));
  EXPECT_TRUE(r.converged);
  EXPECT_EQ(r.stats.algorithm, "kcore");
  EXPECT_NE(r.stats.summary().find(" shell" + std::string(r.shells == 1 ? "" : "s") +
                                   ", degeneracy " + std::to_string(r.degeneracy)),
            std::string::npos)
      << r.stats.summary();
}

// Every shape on every policy (the frontier loop's included), priority on and off: a peeled
// vertex's edges are relaxed once whatever the schedule.
inline void expect_kcore_on_every_shape_and_policy(Backend backend) {
  for (const std::string& shape : kcore_shapes()) {
    const Graph reference_graph = make_symmetric_shape(shape);
    for (const std::string& policy : policy_names()) {
      for (const bool priority : {true, false}) {
        SCOPED_TRACE(shape + ", " + policy + (priority ? ", priority on" : ", priority off"));
        OocEngine engine(make_symmetric_shape(shape), options_for(policy, priority, backend));
        ASSERT_EQ(engine.backend(), backend);
        expect_kcore_matches_reference(engine, reference_graph);
      }
    }
  }
}

// Compressed lists, with their raw ones and alone, on the policies that read them.
inline void expect_kcore_on_compressed_lists(Backend backend) {
  for (const std::string& shape : kcore_shapes()) {
    const Graph reference_graph = make_symmetric_shape(shape);
    for (const std::string policy : {"hybrid", "compaction", "zerocopy", "loop"}) {
      for (const bool raw : {true, false}) {
        SCOPED_TRACE(shape + ", " + policy + (raw ? ", compressed" : ", compressed only"));
        Graph g = make_symmetric_shape(shape);
        compress(g);
        if (!raw) drop_raw_lists(g);
        OocEngine engine(std::move(g), options_for(policy, true, backend));
        expect_kcore_matches_reference(engine, reference_graph);
      }
    }
  }
}

// Known answers: a clique of 6 is a 5-core; a chain, a star and a tree are 1-cores; a grid is a
// 2-core; an isolated vertex has core 0. A directed graph is refused in one line. One engine
// runs kcore twice and another program between: its runs start from the graph each time.
inline void expect_known_kcores(Backend backend) {
  std::vector<std::pair<vid_t, vid_t>> pairs = clique_pairs(6);
  pairs.emplace_back(0, 6);  // vertex 6 hangs off vertex 0
  OocEngine k6(build(edge_list_of(7, pairs), true, 1, 0.0), options_for("hybrid", true, backend));
  const std::vector<std::uint32_t> cores{5, 5, 5, 5, 5, 5, 1};
  for (int again = 0; again < 2; ++again) {
    const KCoreResult r = k6.kcore();
    EXPECT_EQ(r.values, cores);
    EXPECT_EQ(r.degeneracy, 5u);
    EXPECT_EQ(r.shells, 2u);  // 1 and 5: the shells no vertex has are skipped
    EXPECT_EQ(k6.bfs(6).values, (std::vector<std::uint32_t>{1, 2, 2, 2, 2, 2, 0}));
  }
  const auto cores_of = [backend](const std::string& shape) {
    OocEngine engine(make_symmetric_shape(shape), options_for("hybrid", true, backend));
    return engine.kcore().values;
  };
  const auto all_are = [](const std::vector<std::uint32_t>& found, std::uint32_t core) {
    return !found.empty() &&
           std::all_of(found.begin(), found.end(), [core](std::uint32_t c) { return c == core; });
  };
  EXPECT_TRUE(all_are(cores_of("grid"), 2));
  EXPECT_TRUE(all_are(cores_of("chain"), 1));
  EXPECT_TRUE(all_are(cores_of("star"), 1));
  EXPECT_TRUE(all_are(cores_of("single"), 0));
  OocEngine directed(make_shape("kron_directed"), options_for("hybrid", true, backend));
  EXPECT_EQ(error_of([&] { directed.kcore(); }),
            "kcore needs a symmetric graph, and this one is directed (convert or generate it with "
            "--undirected)");
}

// Across `ranks` ranks on `policies`: every rank's cores are the reference's (the edges each rank
// takes away are added up before a vertex is peeled). `device`: a rank's GPU, from its number.
template <class Device>
void expect_kcore_on_ranks(int ranks, Backend backend, const std::vector<std::string>& policies,
                           Device&& device) {
  for (const std::string& shape : kcore_shapes()) {
    const Graph reference_graph = make_symmetric_shape(shape);
    for (const std::string& policy : policies) {
      SCOPED_TRACE(shape + ", " + policy + ", " + std::to_string(ranks) + " ranks");
      on_ranks(ranks, [&](int r, const std::shared_ptr<Communicator>& communicator) {
        EngineOptions o = options_for(policy, true, backend);
        o.device = device(r);
        OocEngine engine(make_symmetric_shape(shape), o, communicator);
        expect_kcore_matches_reference(engine, reference_graph);
      });
    }
  }
}

}  // namespace ooc::test
