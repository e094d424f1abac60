// write_edge_list: the exact text it writes (the user's ids, rows in source order, weights that
// read back bit for bit), its temporary-file discipline, and round trips through the builder
// and hub sort: read -> build_graph -> hub_sort -> write_edge_list -> read gives the same edges.
#include <gtest/gtest.h>
#include <unistd.h>

#include <bit>
#include <filesystem>
#include <string>
#include <vector>

#include "ooc/core/error.hpp"
#include "ooc/partitioner/builder.hpp"
#include "ooc/partitioner/generators.hpp"
#include "ooc/partitioner/hub_sort.hpp"
#include "ooc/partitioner/readers.hpp"
#include "reader_test_util.hpp"

namespace ooc {
namespace {

using test::data_file;
using test::edge_set;
using test::read_bytes;
using test::sorted_edges;
using test::TempDir;

Graph make_graph(const std::vector<eid_t>& offsets, const std::vector<vid_t>& targets,
                 const std::vector<std::uint32_t>& weights = {},
                 WeightType type = WeightType::none) {
  Graph g;
  g.offsets = Buffer<eid_t>::copy_of(offsets);
  g.targets = Buffer<vid_t>::copy_of(targets);
  g.weights = Buffer<std::uint32_t>::copy_of(weights);
  g.weight_type = type;
  return g;
}

std::vector<std::uint32_t> float_bits(const std::vector<float>& values) {
  std::vector<std::uint32_t> bits;
  for (const float v : values)
    bits.push_back(std::bit_cast<std::uint32_t>(v));
  return bits;
}

std::string written(const Graph& g, const TempDir& dir) {
  const auto path = dir.path() / "out.el";
  write_edge_list(g, path);
  return read_bytes(path);
}

TEST(WriteEdgeList, UserIdsInTheOrderOfUserSources) {
  // internal 0, 1, 2 are the user's 2, 0, 1
  Graph g = make_graph({0, 2, 2, 3}, {1, 2, 0}, float_bits({1.5f, 2.0f, -0.25f}), WeightType::f32);
  g.original_ids = Buffer<vid_t>::copy_of(std::vector<vid_t>{2, 0, 1});
  const TempDir dir;
  EXPECT_EQ(written(g, dir), "1 2 -0.25\n2 0 1.5\n2 1 2.0\n");
}

TEST(WriteEdgeList, IntegerWeightsAndNoWeights) {
  const TempDir dir;
  EXPECT_EQ(written(make_graph({0, 1, 3}, {1, 0, 1}, {7, 0, 4294967295u}, WeightType::u32), dir),
            "0 1 7\n1 0 0\n1 1 4294967295\n");
  EXPECT_EQ(written(make_graph({0, 1, 3}, {1, 0, 1}), dir), "0 1\n1 0\n1 1\n");
  EXPECT_EQ(written(make_graph({0, 0, 0}, {}), dir), "");
}

TEST(WriteEdgeList, FloatWeightsReadBackBitForBit) {
  const std::vector<float> values{0.1f,        1.0f / 3.0f, 1e-45f, 3.4028235e38f, -1.1754944e-38f,
                                  16777216.0f, -0.0f,       2.0f};
  std::vector<eid_t> offsets{0};
  std::vector<vid_t> targets;
  for (std::size_t i = 0; i < values.size(); ++i) {
    offsets.push_back(i + 1);
    targets.push_back(0);
  }
  const Graph g = make_graph(offsets, targets, float_bits(values), WeightType::f32);
  const TempDir dir;
  const auto path = dir.path() / "floats.wel";
  write_edge_list(g, path);
  const EdgeList back = read_text(path, Format::wel);
  ASSERT_EQ(back.weight_type, WeightType::f32);
  ASSERT_EQ(back.size(), values.size());
  for (std::size_t i = 0; i < values.size(); ++i)
    EXPECT_EQ(back.weights[i], std::bit_cast<std::uint32_t>(values[i])) << values[i];
}

TEST(WriteEdgeList, ReplacesTheFileAndLeavesNoTemporary) {
  const TempDir dir;
  const auto path = dir.write("g.el", "old contents\n");
  write_edge_list(make_graph({0, 1, 1}, {1}), path);
  EXPECT_EQ(read_bytes(path), "0 1\n");
  EXPECT_FALSE(std::filesystem::exists(path.string() + ".tmp-" + std::to_string(::getpid())));
}

TEST(WriteEdgeList, MissingFolderIsAnIoError) {
  const TempDir dir;
  const auto path = dir.path() / "no" / "such" / "g.el";
  EXPECT_EQ(test::message_of<IoError>([&] {
              write_edge_list(make_graph({0, 0}, {}), path);
            }),
            "cannot write '" + path.string() + "': No such file or directory");
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(RoundTrip, SmallGraphThroughTheBuilderAndHubSort) {
  const EdgeList original = read_text(data_file("small.el"), Format::edge_list);
  Graph g = hub_sort(build_graph(read_text(data_file("small.el"), Format::edge_list), {}), 0.25);
  ASSERT_FALSE(g.original_ids.empty());
  const TempDir dir;
  const auto path = dir.path() / "small_again.el";
  write_edge_list(g, path);
  const EdgeList back = read_text(path, Format::edge_list);
  EXPECT_EQ(sorted_edges(back), sorted_edges(original));
  EXPECT_EQ(back.weight_type, WeightType::u32);
  EXPECT_EQ(back.num_vertices, original.num_vertices);
}

TEST(RoundTrip, SymmetricMatrixMarketIsWrittenWithBothDirections) {
  BuildOptions keep_loops;
  keep_loops.remove_self_loops = false;
  const Graph g = build_graph(read_text(data_file("small_sym.mtx"), Format::mtx), keep_loops);
  EXPECT_TRUE(g.symmetric);
  const TempDir dir;
  const auto path = dir.path() / "sym.el";
  write_edge_list(g, path);
  EXPECT_EQ(sorted_edges(read_text(path, Format::edge_list)),
            sorted_edges(read_text(data_file("small_sym_expanded.el"), Format::edge_list)));
}

// A million edges: many blocks of the writer's pipeline and many chunks of the parser.
TEST(RoundTrip, GeneratedGraphWithAPermutationSurvivesTheText) {
  BuildOptions options;
  options.weights = parse_weight_spec("random:1-64", 3);
  const Graph g = hub_sort(build_graph(generate_uniform(17, 8, 5), options));
  ASSERT_FALSE(g.original_ids.empty());
  const TempDir dir;
  const auto path = dir.path() / "uniform.wel";
  write_edge_list(g, path);
  const Graph back = build_graph(read_text(path, Format::wel), BuildOptions{});
  EXPECT_EQ(edge_set(back), edge_set(g));
}

}  // namespace
}  // namespace ooc
