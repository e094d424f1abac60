#pragma once
// Strongly connected components' checks (OocEngine::scc) on either backend, against the serial
// Tarjan (reference::scc): directed graphs with their in-edges, a giant component or thousands of
// small ones. Shared by the CPU tests (scc_test.cpp) and the GPU tests (engine_gpu_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "engine_cases.hpp"
#include "ooc/engine/engine.hpp"
#include "ooc/engine/reference.hpp"
#include "ooc/partitioner/compress.hpp"

namespace ooc::test {

// A road-like grid: each street one way, the other or both (by a hash of its cell), so that most
// components are small; with a self-loop and a repeated edge on every seventh cell, kept.
inline EdgeList one_way_grid(vid_t rows, vid_t cols) {
  std::vector<std::pair<vid_t, vid_t>> pairs;
  const auto street = [&](vid_t u, vid_t v) {
    const vid_t way = (u * 2654435761u >> 7) % 3;
    if (way != 1) pairs.emplace_back(u, v);
    if (way != 0) pairs.emplace_back(v, u);
    if (u % 7 == 0) pairs.emplace_back(u, u);
    if (u % 7 == 3) {
      const std::pair<vid_t, vid_t> last = pairs.back();
      pairs.push_back(last);
    }
  };
  for (vid_t r = 0; r < rows; ++r) {
    for (vid_t c = 0; c < cols; ++c) {
      const vid_t u = r * cols + c;
      if (c + 1 < cols) street(u, u + 1);
      if (r + 1 < rows) street(u, u + cols);
    }
  }
  return edge_list_of(rows * cols, pairs);
}

// n vertices in one directed cycle, ids scattered by hub sort.
inline EdgeList cycle(vid_t n) {
  std::vector<std::pair<vid_t, vid_t>> pairs;
  for (vid_t v = 0; v < n; ++v)
    pairs.emplace_back(v, (v + 1) % n);
  return edge_list_of(n, pairs);
}

inline Graph with_in_edges(Graph g) {
  g.in_edges = in_edges_of(g);
  return g;
}

inline Graph make_scc_shape(const std::string& name) {
  if (name == "grid") {
    BuildOptions options;
    options.remove_self_loops = false;
    options.remove_duplicates = false;
    return with_in_edges(hub_sort(build_graph(one_way_grid(40, 50), options), 0.05));
  }
  if (name == "cycle") return with_in_edges(build(cycle(300), false, 31));
  return make_in_edge_shape(name);  // kron and urand directed, a chain (a DAG), stars
}

inline const std::vector<std::string>& scc_shape_names() {
  static const std::vector<std::string> names{"kron_directed", "urand_directed", "grid",
                                              "cycle",         "chain_directed", "in_big_star"};
  return names;
}

inline std::size_t components_of(std::vector<vid_t> labels) {
  std::sort(labels.begin(), labels.end());
  return static_cast<std::size_t>(std::unique(labels.begin(), labels.end()) - labels.begin());
}

inline void expect_scc_matches_reference(OocEngine& engine, const std::vector<vid_t>& expected) {
  std::vector<vid_t> sizes(expected.size(), 0);
  for (const vid_t label : expected)
    ++sizes[label];
  const SccResult r = engine.scc();
  EXPECT_EQ(r.values, expected);
  EXPECT_EQ(r.components, components_of(expected));
  EXPECT_EQ(r.largest, *std::max_element(sizes.begin(), sizes.end()));
  EXPECT_EQ(r.stats.algorithm, "scc");
  EXPECT_NE(r.stats.summary().find(std::to_string(r.components) + " components, the largest " +
                                   std::to_string(r.largest)),
            std::string::npos);
}

// Every shape on every policy (the frontier loop's included), priority on and off: FW-BW's
// searches are runs of the engine, the backward one on an engine of the in-lists.
inline void expect_scc_on_every_shape_and_policy(Backend backend) {
  for (const std::string& shape : scc_shape_names()) {
    const std::vector<vid_t> expected = reference::scc(make_scc_shape(shape));
    for (const std::string& policy : policy_names()) {
      for (const bool priority : {true, false}) {
        SCOPED_TRACE(shape + ", " + policy + (priority ? ", priority on" : ", priority off"));
        OocEngine engine(make_scc_shape(shape), options_for(policy, priority, backend));
        ASSERT_EQ(engine.backend(), backend);
        expect_scc_matches_reference(engine, expected);
      }
    }
  }
}

// Compressed out-lists, with their raw ones and alone (the in-lists are raw in every file), on
// the policies that read them.
inline void expect_scc_on_compressed_lists(Backend backend) {
  for (const std::string& shape : scc_shape_names()) {
    const std::vector<vid_t> expected = reference::scc(make_scc_shape(shape));
    for (const std::string policy : {"hybrid", "compaction", "zerocopy", "loop", "resident"}) {
      for (const bool raw : {true, false}) {
        SCOPED_TRACE(shape + ", " + policy + (raw ? ", compressed" : ", compressed only"));
        Graph g = make_scc_shape(shape);
        compress(g);
        if (!raw) drop_raw_lists(g);
        OocEngine engine(std::move(g), options_for(policy, true, backend));
        expect_scc_matches_reference(engine, expected);
      }
    }
  }
}

// The shapes' structure, known without the reference: a cycle is one component, a chain (a DAG)
// all singletons, trimmed; kron has a giant, found by FW-BW; the grid has hundreds of components,
// most found by Tarjan.
inline void expect_known_sccs(Backend backend) {
  const auto run = [&](const std::string& shape) {
    OocEngine engine(make_scc_shape(shape), options_for("hybrid", true, backend));
    return engine.scc();
  };
  const SccResult cycle = run("cycle");
  EXPECT_EQ(cycle.components, 1u);
  EXPECT_EQ(cycle.values, std::vector<vid_t>(300, 0));
  const SccResult chain = run("chain_directed");
  EXPECT_EQ(chain.components, 200u);
  EXPECT_EQ(chain.largest, 1u);
  EXPECT_NE(chain.stats.method.find("(trimmed 200, FW-BW 0, "), std::string::npos)
      << chain.stats.method;
  const SccResult kron = run("kron_directed");
  EXPECT_GT(kron.largest, 500u);
  EXPECT_NE(kron.stats.method.find(", FW-BW " + std::to_string(kron.largest) + ", "),
            std::string::npos)
      << kron.stats.method;
  const SccResult grid = run("grid");
  EXPECT_GT(grid.components, 100u);
  EXPECT_EQ(grid.stats.method.find(", Tarjan 0)"), std::string::npos) << grid.stats.method;
}

// A symmetric graph's lists are its in-lists: its SCCs are its connected components.
inline void expect_symmetric_sccs(Backend backend) {
  for (const std::string shape : {"kron", "disconnected"}) {
    SCOPED_TRACE(shape);
    OocEngine engine(make_shape(shape), options_for("hybrid", true, backend));
    EXPECT_EQ(engine.scc().values, reference::cc(engine.graph()));
  }
}

}  // namespace ooc::test
