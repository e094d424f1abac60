// Graphs beyond host memory (EngineOptions::host_memory, host_tier.hpp) on the CPU backend: a
// file loaded with a budget its lists exceed keeps the partitions that fit, reads the others for
// each task that needs them, and every program gives the serial reference's values, on every
// shape and host policy, raw and compressed lists, at budgets holding no partition and some; on
// ranks too, each tiering its own partitions.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "engine_cases.hpp"
#include "host_tier_cases.hpp"
#include "ooc/engine/engine.hpp"
#include "ooc/partitioner/compress.hpp"
#include "ooc/partitioner/oocg.hpp"
#include "temp_dir.hpp"

namespace ooc {
namespace {

namespace fs = std::filesystem;

class HostTierTest : public test::TempDirTest {
 protected:
  HostTierTest() : TempDirTest("ooc-host-tier") {}

  fs::path write(const Graph& g, const std::string& name) const {
    const fs::path file = dir_ / (name + ".oocg");
    write_oocg(g, file);
    return file;
  }
  // The kron shape, its lists raw or compressed (into g), and its file.
  fs::path write_kron(bool compressed, Graph& g) const {
    g = test::make_shape("kron");
    if (compressed) compress(g);
    return write(g, compressed ? "kron-compressed" : "kron");
  }
  // Every program of `programs` on every case (below).
  void expect_every_case_matches(const std::vector<std::string>& programs) const;
};

using test::tiered;

// Every shape, list kind, host policy and share (host_tier_cases.hpp); the programs in three
// tests, which gtest's shards (OOC_TEST_SHARDS) then run side by side.
void HostTierTest::expect_every_case_matches(const std::vector<std::string>& programs) const {
  test::expect_tiered_runs_match(dir_, programs, Backend::cpu);
}

TEST_F(HostTierTest, EveryMonotoneProgramMatchesTheReferenceOnEveryShapeAndPolicy) {
  expect_every_case_matches({"bfs", "sssp", "cc_labels"});
}

TEST_F(HostTierTest, PageRankMatchesTheReferenceOnEveryShapeAndPolicy) {
  expect_every_case_matches({"pagerank"});
}

TEST_F(HostTierTest, PerVertexPageRankMatchesTheReferenceOnEveryShapeAndPolicy) {
  expect_every_case_matches({"pagerank_per_vertex"});
}

// Ranks of one process (EngineOptions::devices) split the budget: each keeps those of its own
// partitions that its share holds and reads its others from the file, and the group's runs give
// the serial references, their stats telling every rank's tier (the shares add up to the budget,
// the resident partitions to fewer than the graph's), on raw lists and compressed ones (priced
// by their offsets).
TEST_F(HostTierTest, EachRankTiersItsOwnPartitionsWithItsShareOfTheBudget) {
  struct RankCase {
    std::string shape;
    int ranks;
    bool compressed;
  };
  // One case of kron, whose runs take most of the test's time (urand's as long), and small shapes.
  const std::vector<RankCase> cases{
      {"kron", 3, true}, {"grid", 2, false}, {"chain", 3, false}, {"disconnected", 2, false}};
  for (const auto& [shape, ranks, compressed] : cases) {
    Graph g = test::make_shape(shape);
    if (compressed) compress(g);
    const fs::path file = write(g, shape + "-" + std::to_string(ranks));
    const auto count = static_cast<std::uint64_t>(ranks);
    for (const std::uint64_t budget : {std::uint64_t{3}, g.num_edges() * g.bytes_per_edge() / 2}) {
      SCOPED_TRACE(shape + (compressed ? ", compressed, " : ", raw, ") + std::to_string(ranks) +
                   " ranks, host memory " + std::to_string(budget));
      EngineOptions o = tiered("hybrid", budget);
      o.devices = ranks == 2 ? std::vector<int>{0, 1} : std::vector<int>{0, 1, 2};
      OocEngine engine = OocEngine::load(file, o);
      EXPECT_FALSE(engine.lists_in_memory());
      for (const std::string program : {"bfs", "sssp", "cc_labels", "pagerank"}) {
        SCOPED_TRACE(program);
        const RunStats stats = test::expect_matches_reference(program, engine, &g);
        EXPECT_EQ(stats.host_memory, budget / count * count);
        EXPECT_LE(stats.host_resident_bytes, budget);
        EXPECT_LT(stats.host_resident_partitions, stats.partitions);
        if (budget == 3) {
          EXPECT_EQ(stats.host_resident_bytes, 0u);  // a share of a byte holds no list
        }
        EXPECT_GT(stats.storage_bytes(), 0u);
        EXPECT_NE(stats.summary().find("; host memory "), std::string::npos);
      }
    }
  }
}

// A graph that fits its budget loads as it would without one; cc takes label propagation on a
// graph beyond it and says why; tc refuses it in one line.
TEST_F(HostTierTest, AGraphThatFitsIsWholeAndTheRestSayWhatTheyChose) {
  const Graph g = test::make_shape("kron");
  const fs::path file = write(g, "kron");
  OocEngine whole = OocEngine::load(file, tiered("hybrid", std::uint64_t{1} << 30));
  EXPECT_TRUE(whole.lists_in_memory());
  EXPECT_EQ(whole.bfs(0).stats.host_memory, 0u);
  OocEngine beyond = OocEngine::load(file, tiered("hybrid", 1));
  const Result<vid_t> cc = beyond.cc();
  EXPECT_EQ(cc.values, reference::cc(g));
  EXPECT_EQ(cc.stats.method, "labels");
  EXPECT_NE(cc.stats.summary().find(
                "labels: Afforest reads every list's head outside the host tier's tasks"),
            std::string::npos)
      << cc.stats.summary();
  EXPECT_EQ(test::error_of([&] { beyond.triangles(); }),
            "tc reads every list from host memory, and this graph's exceed it: give it more "
            "(--host-memory), or run on a larger machine");
}

// A filter task reads its partitions whole; a zero-copy or compaction task only its active
// vertices' lists: on a chain, whose levels are a vertex each, the zero-copy run reads a list or
// two an iteration where the filter run reads its whole partition, and both give the
// reference's levels. Past the page cache a read takes whole 4 KiB pages: a page an iteration
// against three for the filter run.
TEST_F(HostTierTest, ATaskThatReadsItsActiveListsAloneReadsOnlyThose) {
  const Graph g = build_graph(generate_chain(3000), {});  // unweighted: 4 bytes an edge
  const fs::path file = write(g, "chain");
  std::uint64_t whole = 0;
  for (const std::string policy : {"filter", "zerocopy", "compaction"}) {
    SCOPED_TRACE(policy);
    EngineOptions o = tiered(policy, 1);
    o.partition_bytes = 32 << 10;
    OocEngine engine = OocEngine::load(file, o);
    // From an end: one vertex a level. The chain keeps its ids (no hub sort).
    const auto levels = engine.bfs(0);
    EXPECT_TRUE(reference::compare_exact(levels.values, reference::bfs(g, 0)).equal);
    const RunStats& stats = levels.stats;
    if (policy == "filter") {
      whole = stats.storage_bytes();
    } else {
      EXPECT_GT(stats.storage_bytes(), 0u);
      EXPECT_LT(stats.storage_bytes() * 2, whole) << stats.storage_bytes() << " of " << whole;
    }
  }
}

// A run of filter tasks reads each task's partitions while the task before it runs: PageRank
// over filter tasks of one partition each, none kept in memory, reads some of its bytes ahead,
// never more than it reads, and gives the reference's ranks; the summary says how much.
TEST_F(HostTierTest, FilterTasksReadTheNextTasksListsWhileTheyRun) {
  for (const bool compressed : {false, true}) {
    SCOPED_TRACE(compressed ? "compressed" : "raw");
    Graph g;
    const fs::path file = write_kron(compressed, g);
    EngineOptions o = tiered("filter", 1);
    o.partition_bytes = 4 << 10;
    o.filter_merge = 1;
    OocEngine engine = OocEngine::load(file, o);
    const RunStats stats = test::expect_matches_reference("pagerank", engine, &g);
    std::uint64_t ahead = 0;
    for (const IterationStats& it : stats.iterations) {
      EXPECT_LE(it.storage_ahead_bytes, it.storage_bytes);
      ahead += it.storage_ahead_bytes;
    }
    EXPECT_GT(ahead, 0u);
    EXPECT_LT(ahead, stats.storage_bytes());  // each iteration's first task reads when it starts
    EXPECT_NE(stats.summary().find(" while the task before ran, "), std::string::npos)
        << stats.summary();
  }
}

// The hybrid policy prices a partition in the file by its storage (cost_model.hpp): measured when
// the graph loads with a tier, or as given, and said in the stats and the summary. Such a
// partition comes by a read into host memory, never by zero-copy: BFS on kron, which reads some
// partitions by zero-copy with its lists in memory, reads none so with every list in the file.
TEST_F(HostTierTest, StorageIsPricedAndAPartitionInTheFileIsNeverReadByZeroCopy) {
  for (const bool compressed : {false, true}) {
    SCOPED_TRACE(compressed ? "compressed" : "raw");
    Graph g;
    const fs::path file = write_kron(compressed, g);
    OocEngine whole = OocEngine::load(file, test::options_for("hybrid", true, Backend::cpu));
    EXPECT_GT(test::expect_matches_reference("bfs", whole, &g).bytes(TransferEngine::zerocopy), 0u);
    OocEngine engine = OocEngine::load(file, tiered("hybrid", 1));
    const CostConstants& measured = engine.options().cost;
    EXPECT_GT(measured.storage_bandwidth, 0.0);
    EXPECT_GT(measured.storage_latency, 0.0);
    const RunStats stats = test::expect_matches_reference("bfs", engine, &g);
    EXPECT_EQ(stats.bytes(TransferEngine::zerocopy), 0u);
    EXPECT_GT(stats.storage_bytes(), 0u);
    EXPECT_EQ(stats.storage_bandwidth, measured.storage_bandwidth);
    EXPECT_EQ(stats.storage_latency, measured.storage_latency);
    EXPECT_NE(stats.summary().find(" a read)"), std::string::npos) << stats.summary();
    EngineOptions given = tiered("hybrid", 1);
    given.cost.storage_bandwidth = 1e9;
    given.cost.storage_latency = 1e-3;
    OocEngine priced = OocEngine::load(file, given);
    EXPECT_EQ(priced.options().cost.storage_bandwidth, 1e9);
    EXPECT_EQ(priced.options().cost.storage_latency, 1e-3);
  }
}

}  // namespace
}  // namespace ooc
