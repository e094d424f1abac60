#include "ooc/transfer/compaction.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "graph_util.hpp"
#include "ooc/core/codec.hpp"
#include "ooc/core/error.hpp"
#include "ooc/core/units.hpp"
#include "ooc/partitioner/builder.hpp"
#include "ooc/partitioner/compress.hpp"
#include "ooc/partitioner/generators.hpp"
#include "ooc/partitioner/hub_sort.hpp"

namespace ooc {
namespace {

// 0: {1,2,3}, 1: {}, 2: {0,3}, 3: {0,1,2,4}, 4: {} with weights 10*u + v.
Graph example() {
  std::vector<std::pair<vid_t, vid_t>> pairs{{0, 1}, {0, 2}, {0, 3}, {2, 0}, {2, 3},
                                             {3, 0}, {3, 1}, {3, 2}, {3, 4}};
  std::vector<std::uint32_t> weights;
  for (auto [u, v] : pairs)
    weights.push_back(10 * u + v);
  return build_graph(test::edge_list(5, pairs, weights), {});
}

struct Staging {
  std::vector<vid_t> vertices, targets;
  std::vector<eid_t> offsets;
  std::vector<std::uint32_t> weights;
  CompactionBuffer buffer(std::size_t vertex_capacity, eid_t edge_capacity) {
    vertices.assign(vertex_capacity, 0);
    offsets.assign(vertex_capacity + 1, 0);
    targets.assign(edge_capacity, 0);
    weights.assign(edge_capacity, 0);
    return {vertices.data(), offsets.data(),  targets.data(),
            weights.data(),  vertex_capacity, edge_capacity};
  }
};

TEST(Compaction, GathersActiveListsWithNewOffsets) {
  const Graph g = example();
  Staging s;
  const std::vector<vid_t> active{3, 1, 0};
  const CompactedBatch batch = compact(g, active, s.buffer(8, 16));
  EXPECT_EQ(batch.vertices, 3u);
  EXPECT_EQ(batch.edges, 7u);
  EXPECT_EQ(std::vector<eid_t>(s.offsets.begin(), s.offsets.begin() + 4),
            (std::vector<eid_t>{0, 4, 4, 7}));
  EXPECT_EQ(std::vector<vid_t>(s.targets.begin(), s.targets.begin() + 7),
            (std::vector<vid_t>{0, 1, 2, 4, 1, 2, 3}));
  EXPECT_EQ(std::vector<std::uint32_t>(s.weights.begin(), s.weights.begin() + 7),
            (std::vector<std::uint32_t>{30, 31, 32, 34, 1, 2, 3}));
  EXPECT_EQ(std::vector<vid_t>(s.vertices.begin(), s.vertices.begin() + 3), active);
}

TEST(Compaction, StopsWhereTheBufferIsFullAndRefusesAListThatCannotFit) {
  const Graph g = example();
  Staging s;
  const std::vector<vid_t> active{0, 2, 3};
  const CompactedBatch first =
      compact(g, active, s.buffer(8, 5));  // 3 + 2 edges fit, then 4 do not
  EXPECT_EQ(first.vertices, 2u);
  EXPECT_EQ(first.edges, 5u);
  const CompactedBatch by_vertices = compact(g, active, s.buffer(1, 16));
  EXPECT_EQ(by_vertices.vertices, 1u);
  try {
    compact(g, std::vector<vid_t>{3}, s.buffer(8, 3));
    FAIL() << "no exception";
  } catch (const OutOfMemory& e) {
    EXPECT_STREQ(e.what(),
                 "compaction staging holds 12 B of edges, but vertex 3 alone has 4 edges");
  }
}

// Compaction over compressed lists: what the GPU receives decodes to the active lists and their
// weights, batch after batch, whatever capacity cuts the batches.
Graph weighted_kron(const char* weights) {
  BuildOptions options;
  options.undirected = true;
  options.weights = parse_weight_spec(weights, 5);
  Graph g = hub_sort(build_graph(generate_kronecker(10, 8, 2), options));
  compress(g);
  return g;
}

struct CompressedStaging {
  std::vector<vid_t> vertices;
  std::vector<eid_t> offsets, list_offsets;
  std::vector<std::uint8_t> lists, packed;
  std::vector<std::uint32_t> weights;
  CompressedBuffer buffer(const Graph& g, std::size_t vertex_capacity, eid_t edge_capacity,
                          std::uint64_t list_capacity) {
    vertices.assign(vertex_capacity, 0);
    offsets.assign(vertex_capacity + 1, 0);
    list_offsets.assign(vertex_capacity + 1, 0);
    lists.assign(list_capacity + codec::kPadding, 0xee);
    const bool packs = g.compressed.packs_weights();
    packed.assign(codec::packed_bytes(edge_capacity, g.compressed.weight_width) + codec::kPadding,
                  0xee);
    weights.assign(edge_capacity, 0);
    return {vertices.data(),
            offsets.data(),
            list_offsets.data(),
            lists.data(),
            packs ? packed.data() : nullptr,
            packs ? nullptr : weights.data(),
            vertex_capacity,
            edge_capacity,
            list_capacity};
  }
};

// Gathers `active` batch by batch and checks every list and weight the batches carry.
void expect_gathered(const Graph& g, const std::vector<vid_t>& active, std::size_t vertex_capacity,
                     eid_t edge_capacity, std::uint64_t list_capacity) {
  CompressedStaging s;
  const CompressedBuffer out = s.buffer(g, vertex_capacity, edge_capacity, list_capacity);
  std::size_t batches = 0;
  for (std::size_t done = 0; done < active.size(); ++batches) {
    const CompressedBatch batch =
        compact_compressed(g, std::span<const vid_t>(active).subspan(done), out);
    ASSERT_GT(batch.vertices, 0u);
    EXPECT_LE(batch.edges, edge_capacity);
    EXPECT_LE(batch.list_bytes, list_capacity);
    for (std::uint64_t b = 0; b < codec::kPadding; ++b)
      ASSERT_EQ(s.lists[batch.list_bytes + b], 0) << "padding byte " << b;
    for (std::size_t i = 0; i < batch.vertices; ++i) {
      const vid_t v = active[done + i];
      ASSERT_EQ(s.vertices[i], v);
      const eid_t degree = s.offsets[i + 1] - s.offsets[i];
      ASSERT_EQ(degree, g.degree(v));
      ASSERT_EQ(s.list_offsets[i + 1] - s.list_offsets[i],
                g.compressed.offsets[v + 1] - g.compressed.offsets[v]);
      std::vector<vid_t> targets(degree);
      if (degree > 0) decode_list(s.lists.data() + s.list_offsets[i], degree, targets.data());
      const auto list = g.neighbors(v);
      ASSERT_TRUE(std::equal(targets.begin(), targets.end(), list.begin())) << "vertex " << v;
      for (eid_t e = 0; e < degree; ++e) {
        const std::uint32_t weight =
            out.packed_weights != nullptr
                ? codec::packed_weight(s.packed.data(), s.offsets[i] + e, g.compressed.weight_width,
                                       g.compressed.weight_base)
                : s.weights[s.offsets[i] + e];
        ASSERT_EQ(weight, g.weights[g.offsets[v] + e]) << "vertex " << v << " edge " << e;
      }
    }
    EXPECT_EQ(batch.weight_bytes, out.packed_weights != nullptr
                                      ? codec::packed_bytes(batch.edges, g.compressed.weight_width)
                                      : batch.edges * sizeof(std::uint32_t));
    done += batch.vertices;
  }
  EXPECT_GE(batches, 1u);
}

std::vector<vid_t> every_third(const Graph& g) {
  std::vector<vid_t> active;
  for (vid_t v = 0; v < g.num_vertices(); v += 3)
    active.push_back(v);
  return active;
}

TEST(CompressedCompaction, GathersCompressedListsAndPackedWeightsInOneBatch) {
  const Graph g = weighted_kron("random:1-64");
  ASSERT_TRUE(g.compressed.packs_weights());
  expect_gathered(g, every_third(g), g.num_vertices(), g.num_edges(), g.compressed.size_bytes());
}

TEST(CompressedCompaction, CutsBatchesByVerticesEdgesOrBytes) {
  const Graph g = weighted_kron("random:1-64");
  const std::vector<vid_t> active = every_third(g);
  expect_gathered(g, active, 7, g.num_edges(), g.compressed.size_bytes());        // by vertices
  expect_gathered(g, active, g.num_vertices(), 5000, g.compressed.size_bytes());  // by edges
  expect_gathered(g, active, g.num_vertices(), g.num_edges(), 3000);  // by compressed bytes
}

TEST(CompressedCompaction, GathersRawWeightsWhereTheyDoNotPack) {
  const Graph g = weighted_kron("random:1-4000000000");  // 32 bits: packing saves nothing
  ASSERT_FALSE(g.compressed.packs_weights());
  expect_gathered(g, every_third(g), 100, 4000, 6000);
}

TEST(CompressedCompaction, RefusesAListThatCannotFit) {
  const Graph g = weighted_kron("random:1-64");
  const vid_t hub = 0;  // hub sorted: vertex 0 has the longest list
  const eid_t bytes = g.compressed.offsets[1];
  CompressedStaging s;
  const CompressedBuffer out = s.buffer(g, 4, g.num_edges(), bytes - 1);
  try {
    compact_compressed(g, std::vector<vid_t>{hub}, out);
    FAIL() << "no exception";
  } catch (const OutOfMemory& e) {
    EXPECT_EQ(std::string(e.what()),
              "compaction staging holds " + format_bytes(bytes - 1) + " of compressed lists and " +
                  std::to_string(g.num_edges()) + " edges, but vertex 0 alone has " +
                  format_bytes(bytes) + " and " + std::to_string(g.degree(0)) + " edges");
  }
}

}  // namespace
}  // namespace ooc
