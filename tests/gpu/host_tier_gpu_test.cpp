// Graphs beyond host memory on the CUDA backend (host_tier.hpp): the lists host memory holds are
// pinned in place, the edge cache takes partitions in the file first, a filter task reads the
// others' lists from the file into their places and copies them from there, a compaction task
// gathers its active lists once read, and a zero-copy task over the file compacts instead. SKIPPED
// where there is no GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "engine_cases.hpp"
#include "gpu_test.hpp"
#include "host_tier_cases.hpp"
#include "ooc/engine/engine.hpp"
#include "ooc/partitioner/compress.hpp"
#include "ooc/partitioner/generators.hpp"
#include "ooc/partitioner/oocg.hpp"
#include "temp_dir.hpp"

namespace ooc {
namespace {

class CudaHostTier : public test::TempDirTest {
 protected:
  CudaHostTier() : TempDirTest("ooc-cuda-host-tier") {}
};

// The matrix of host_tier_cases.hpp, the CPU backend's (host_tier_test.cpp) on the GPU.
TEST_F(CudaHostTier, EveryMonotoneProgramMatchesTheReferenceOnEveryShapeAndPolicy) {
  OOC_REQUIRE_GPU();
  test::expect_tiered_runs_match(dir_, {"bfs", "sssp", "cc_labels"}, Backend::cuda);
}

TEST_F(CudaHostTier, PageRankMatchesTheReferenceOnEveryShapeAndPolicy) {
  OOC_REQUIRE_GPU();
  test::expect_tiered_runs_match(dir_, {"pagerank"}, Backend::cuda);
}

// The bytes of the arrays under 64 MiB among `g`'s lists: the device graph pins those whole
// (device_graph.cu, kPinInPlace), the larger ones by the ranges host memory holds.
std::uint64_t small_arrays(const Graph& g) {
  std::uint64_t bytes = 0;
  const auto add = [&](std::uint64_t size) {
    if (size < (std::uint64_t{64} << 20)) bytes += size;
  };
  add(g.targets.size_bytes());
  add(g.weights.size_bytes());
  add(g.compressed.bytes.size_bytes());
  add(g.compressed.packed_weights.size_bytes());
  return bytes;
}

// Kron-20, weighted (33 M edges: 134 MB of targets, pinned in place), raw and compressed lists,
// with host memory for about half of them. Only the partitions host memory keeps are pinned. With
// a GPU budget that caches the whole graph, the edge cache takes the partitions in the file too,
// read from it when a run fills the cache, and no iteration reads the file; with room for an
// eighth of the graph's lists, it takes partitions in the file and the iterations read the
// others. BFS and SSSP give the reference's values under every policy.
TEST_F(CudaHostTier, OnlyKeptListsArePinnedAndTheCacheTakesPartitionsFromTheFile) {
  OOC_REQUIRE_GPU();
  for (const bool compressed : {false, true}) {
    SCOPED_TRACE(compressed ? "compressed" : "raw");
    Graph g = test::build(generate_kronecker(20, 16, 11), true, 12);
    ASSERT_GE(g.targets.size_bytes(), std::size_t{64} << 20);
    if (compressed) compress(g);
    const std::filesystem::path file = dir_ / "kron20.oocg";
    write_oocg(g, file);
    const std::uint64_t lists = g.targets.size_bytes() + g.weights.size_bytes() +
                                g.compressed.bytes.size_bytes() +
                                g.compressed.packed_weights.size_bytes();
    EngineOptions o;
    o.backend = Backend::cuda;
    o.partition_bytes = std::uint64_t{4} << 20;
    o.host_memory = lists / 2;
    o.device_budget = std::uint64_t{2} << 30;
    // The most vertex data and staging of the runs below, and the least cache (the whole graph's
    // lists as the run reads them).
    std::uint64_t plan_bytes = 0, whole_cache = ~std::uint64_t{0};
    {
      OocEngine engine = OocEngine::load(file, o);
      EXPECT_FALSE(engine.lists_in_memory());
      std::uint64_t filled = 0;
      for (const char* policy : {"hybrid", "filter", "compaction", "zerocopy"}) {
        SCOPED_TRACE(policy);
        RunSettings s = engine.settings();
        s.transfer = parse_transfer_policy(policy);
        engine.configure(s);
        const RunStats bfs = test::expect_matches_reference("bfs", engine, &g);
        const RunStats sssp = test::expect_matches_reference("sssp", engine, &g);
        for (const RunStats* stats : {&bfs, &sssp}) {
          EXPECT_FALSE(stats->in_memory);
          EXPECT_GT(stats->host_resident_partitions, 0u);
          EXPECT_LT(stats->host_resident_partitions, stats->partitions);
          EXPECT_GT(stats->cache_partitions, stats->host_resident_partitions);
          EXPECT_EQ(stats->storage_bytes(), 0u);  // every list is in the cache
          filled += stats->setup_storage_bytes;
          plan_bytes = std::max(plan_bytes, stats->vertex_bytes + stats->staging_bytes);
          whole_cache = std::min(whole_cache, stats->cache_bytes);
          // The kept lists' pages (a page more at each end of a range) and the small arrays.
          EXPECT_LE(stats->host_pinned_bytes,
                    stats->host_resident_bytes + small_arrays(g) + (std::uint64_t{1} << 20));
          EXPECT_LT(stats->host_pinned_bytes, lists);
        }
        // The first BFS filled the cache, SSSP again with weights; later runs keep it.
        if (std::string(policy) == "hybrid") {
          EXPECT_GT(bfs.setup_storage_bytes, 0u);
          EXPECT_GT(sssp.setup_storage_bytes, 0u);
          EXPECT_NE(bfs.summary().find(" into the edge cache before the first iteration in "),
                    std::string::npos)
              << bfs.summary();
        }
      }
      EXPECT_GT(filled, 0u);
    }
    // Room for an eighth of the smallest cache: under a quarter of the lists in the file.
    o.device_budget = plan_bytes + whole_cache / 8;
    OocEngine engine = OocEngine::load(file, o);
    for (const char* policy : {"hybrid", "filter", "compaction"}) {
      SCOPED_TRACE(policy);
      RunSettings s = engine.settings();
      s.transfer = parse_transfer_policy(policy);
      engine.configure(s);
      for (const char* program : {"bfs", "sssp"}) {
        SCOPED_TRACE(program);
        const RunStats stats = test::expect_matches_reference(program, engine, &g);
        EXPECT_GT(stats.cache_partitions, 0u);
        EXPECT_GT(stats.storage_bytes(), 0u);  // the partitions in the file beyond the cache
      }
    }
  }
}

// The unified policy would copy every list into managed memory: refused, on load and on a run
// reconfigured to it.
TEST_F(CudaHostTier, TheUnifiedPolicyIsRefused) {
  OOC_REQUIRE_GPU();
  const Graph g = test::make_shape("kron");
  const std::filesystem::path file = dir_ / "kron.oocg";
  write_oocg(g, file);
  const std::string refusal =
      "the unified policy copies every list into managed memory, and host memory holds only part "
      "of this graph's (--host-memory): use another --transfer policy";
  EXPECT_EQ(
      test::error_of([&] { OocEngine::load(file, test::tiered("unified", 1, Backend::cuda)); }),
      refusal);
  OocEngine engine = OocEngine::load(file, test::tiered("hybrid", 1, Backend::cuda));
  RunSettings s = engine.settings();
  s.transfer = TransferPolicy::unified;
  engine.configure(s);
  EXPECT_EQ(test::error_of([&] { engine.bfs(0); }), refusal);
}

}  // namespace
}  // namespace ooc
