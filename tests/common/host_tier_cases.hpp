#pragma once
// Graphs beyond host memory (EngineOptions::host_memory, host_tier.hpp), as both backends' tests
// run them (host_tier_test.cpp on the CPU, host_tier_gpu_test.cpp on the GPU): a file loaded
// with a budget its lists exceed keeps the partitions that fit, reads the others for each task
// that needs them, and every program gives the serial reference's values.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "engine_cases.hpp"
#include "ooc/engine/engine.hpp"
#include "ooc/partitioner/compress.hpp"
#include "ooc/partitioner/oocg.hpp"

namespace ooc::test {

// The case's options on `backend`, with `host_memory` for the lists.
inline EngineOptions tiered(const std::string& policy, std::uint64_t host_memory,
                            Backend backend = Backend::cpu) {
  EngineOptions o = options_for(policy, true, backend);
  o.host_memory = host_memory;
  return o;
}

// Every program of `programs` on every shape (but the edgeless one), raw and compressed lists,
// every policy that host memory serves, host memory for no partition and for about half: the full
// product, or pairwise in the sanitizer build. The files go to `dir`.
inline void expect_tiered_runs_match(const std::filesystem::path& dir,
                                     const std::vector<std::string>& programs, Backend backend) {
  std::vector<std::string> shapes;
  for (const std::string& shape : shape_names()) {
    if (shape != "single") shapes.push_back(shape);  // no edges, no file of them
  }
  for (const auto& [shape, lists, policy, share] :
       cases(shapes, std::vector<std::string>{"raw", "compressed"},
             std::vector<std::string>{"hybrid", "filter", "compaction", "zerocopy"},
             std::vector<std::string>{"none", "half"})) {
    Graph g = make_shape(shape);
    if (lists == "compressed") compress(g);
    const std::filesystem::path file = dir / (shape + "-" + lists + ".oocg");
    write_oocg(g, file);
    const std::uint64_t budget =
        share == "half" ? g.num_edges() * g.bytes_per_edge() / 2 : std::uint64_t{1};
    SCOPED_TRACE(shape + ", " + lists + ", " + policy + ", host memory " + std::to_string(budget));
    EngineOptions o = tiered(policy, budget, backend);
    // About eight partitions, whatever the shape's size: each read of one costs a read's latency
    // (O_DIRECT), and kron's and urand's 60-120 partitions of 512 bytes made the PageRanks' runs
    // most of the sanitizer stage's tail.
    o.partition_bytes = std::max(kPartitionBytes, g.num_edges() * g.bytes_per_edge() / 8);
    OocEngine engine = OocEngine::load(file, o);
    ASSERT_EQ(engine.backend(), backend);
    EXPECT_FALSE(engine.lists_in_memory());
    for (const std::string& program : programs) {
      SCOPED_TRACE(program);
      const RunStats stats = expect_matches_reference(program, engine, &g);
      if (stats.algorithm.empty()) continue;  // cc refused a directed graph
      EXPECT_EQ(stats.host_memory, budget);
      EXPECT_GT(stats.storage_bytes(), 0u);  // every shape's source has edges in the file
      EXPECT_NE(stats.summary().find("; host memory "), std::string::npos);
      // Nothing reads a partition in the file by zero-copy: with none in host memory, nothing
      // is (the CPU backend's forced zero-copy reads its lists into host memory first).
      if (share == "none" && (policy == "hybrid" || backend == Backend::cuda)) {
        EXPECT_EQ(stats.bytes(TransferEngine::zerocopy), 0u);
      }
    }
  }
}

}  // namespace ooc::test
