// Compressed-only graphs and files (partition-tool --compress-only, format version 5): the raw
// targets (and packed weights' raw copy) left out, everything else as a compressed file holds it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <bit>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "ooc/core/error.hpp"
#include "ooc/partitioner/builder.hpp"
#include "ooc/partitioner/compress.hpp"
#include "ooc/partitioner/generators.hpp"
#include "ooc/partitioner/hub_sort.hpp"
#include "ooc/partitioner/oocg.hpp"

namespace ooc {
namespace {

namespace fs = std::filesystem;

class CompressedOnly : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("compressed_only_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path path(const std::string& name) const { return dir_ / name; }

  // A hub-sorted Kronecker graph, compressed, with weights of `spec` and optionally in-edges.
  static Graph compressed_graph(const std::string& spec, bool undirected, bool in_edges = false) {
    BuildOptions options;
    options.undirected = undirected;
    options.weights = parse_weight_spec(spec, 5);
    Graph g = hub_sort(build_graph(generate_kronecker(10, 8, 2), options));
    compress(g);
    if (in_edges) g.in_edges = in_edges_of(g);
    return g;
  }

  // Writes the graph whole as "full.oocg" and compressed-only as "only.oocg".
  void write_both(Graph& g) {
    write_oocg(g, path("full.oocg"));
    drop_raw_lists(g);
    write_oocg(g, path("only.oocg"));
  }

  // Flips every bit of the byte at `at` of a file.
  static void flip(const fs::path& file, std::uint64_t at) {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(static_cast<std::streamoff>(at));
    char c = 0;
    f.get(c);
    f.seekp(static_cast<std::streamoff>(at));
    f.put(static_cast<char>(~c));
  }

  fs::path dir_;
};

template <class T>
std::vector<T> values(const Buffer<T>& b) {
  return {b.begin(), b.end()};
}

// The file is version 5 with flag bit 6, smaller than the full one by the raw targets and
// weights (within the sections' 4 KiB alignment), and decodes to the full file's lists.
TEST_F(CompressedOnly, LeavesOutTheRawListsAndDecodesToThem) {
  Graph g = compressed_graph("random:1-64", true);
  ASSERT_TRUE(g.compressed.packs_weights());
  const eid_t m = g.num_edges();
  write_both(g);
  EXPECT_FALSE(g.has_raw_lists());
  EXPECT_EQ(g.num_edges(), m);
  const OocgInfo full = verify_oocg(path("full.oocg"));
  const OocgInfo only = verify_oocg(path("only.oocg"));
  EXPECT_EQ(full.version, 3u);
  EXPECT_FALSE(full.compressed_only);
  EXPECT_EQ(only.version, 5u);
  EXPECT_TRUE(only.compressed_only);
  EXPECT_EQ(only.num_edges, m);
  const std::uint64_t raw = m * 8;  // targets and weights
  EXPECT_GE(full.file_bytes - only.file_bytes + 2 * 4096, raw);
  EXPECT_LE(full.file_bytes - only.file_bytes, raw + 2 * 4096);

  Graph back = read_oocg(path("only.oocg"));
  EXPECT_FALSE(back.has_raw_lists());
  EXPECT_TRUE(back.targets.empty());
  EXPECT_TRUE(back.weights.empty());
  EXPECT_EQ(back.num_edges(), m);
  decode_raw_lists(back);
  const Graph whole = read_oocg(path("full.oocg"));
  EXPECT_TRUE(back.has_raw_lists());
  EXPECT_EQ(values(back.targets), values(whole.targets));
  EXPECT_EQ(values(back.weights), values(whole.weights));
  EXPECT_EQ(values(back.original_ids), values(whole.original_ids));
}

// Float weights are not packed: they stay raw beside the compressed lists; in-edges stay raw.
TEST_F(CompressedOnly, KeepsFloatWeightsAndInEdgesRaw) {
  Graph g = compressed_graph("none", false);
  g.weights = Buffer<std::uint32_t>::allocate(g.num_edges());
  for (eid_t e = 0; e < g.num_edges(); ++e)
    g.weights[e] = std::bit_cast<std::uint32_t>(0.5f + static_cast<float>(e % 7));
  g.weight_type = WeightType::f32;
  g.in_edges = in_edges_of(g);
  compress(g);
  ASSERT_FALSE(g.compressed.packs_weights());
  write_both(g);
  EXPECT_EQ(g.weights.size(), g.num_edges());
  const OocgInfo info = verify_oocg(path("only.oocg"));
  EXPECT_EQ(info.version, 5u);
  EXPECT_TRUE(info.in_edges);
  const Graph back = read_oocg(path("only.oocg"));
  const Graph whole = read_oocg(path("full.oocg"));
  EXPECT_TRUE(back.targets.empty());
  EXPECT_EQ(values(back.weights), values(whole.weights));
  EXPECT_EQ(values(back.in_edges.sources), values(whole.in_edges.sources));
  EXPECT_EQ(values(back.in_edges.weights), values(whole.in_edges.weights));
}

// verify compares the in-edges with the decoded lists and unpacked weights.
TEST_F(CompressedOnly, VerifyChecksTheInEdgesAgainstTheDecodedLists) {
  Graph g = compressed_graph("random:1-64", false, true);
  ASSERT_TRUE(g.compressed.packs_weights());
  write_both(g);
  EXPECT_TRUE(verify_oocg(path("only.oocg")).in_edges);
  std::swap(g.in_edges.weights[0], g.in_edges.weights[g.in_edges.degree(0)]);
  g.in_edges.weights[0] += 1;
  EXPECT_THROW(validate(g), FormatError);
}

// A read that leaves the compressed lists out would have no lists: refused, naming the flags;
// a part of no vertices (the partitions' skeleton) reads just the offsets and is not.
TEST_F(CompressedOnly, AReadWithoutTheCompressedListsIsRefused) {
  Graph g = compressed_graph("random:1-64", true);
  write_both(g);
  OocgReadOptions raw;
  raw.read_compressed = false;
  try {
    read_oocg(path("only.oocg"), raw);
    FAIL() << "no exception";
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()),
              path("only.oocg").string() +
                  ": this file has compressed lists only, and --compressed off reads the raw "
                  "lists: run with --compressed on, or rebuild the file without --compress-only");
  }
  raw.vertex_ranges = {{0, 0}};
  const Graph skeleton = read_oocg(path("only.oocg"), raw);
  EXPECT_EQ(skeleton.num_edges(), g.num_edges());
  raw.vertex_ranges = {{0, 10}};
  EXPECT_THROW(read_oocg(path("only.oocg"), raw), InvalidInput);
}

// A part reads its vertices' compressed lists and packed weights, which decode to theirs.
TEST_F(CompressedOnly, APartDecodesItsOwnLists) {
  Graph g = compressed_graph("random:1-64", true);
  write_both(g);
  const Graph whole = read_oocg(path("full.oocg"));
  OocgReadOptions part;
  part.vertex_ranges = {{3, 40}, {500, 700}};
  const Graph read = read_oocg(path("only.oocg"), part);
  for (const auto& [first, last] : part.vertex_ranges) {
    const eid_t begin = read.offsets[first], edges = read.offsets[last] - begin;
    std::vector<vid_t> targets(edges);
    std::vector<std::uint32_t> weights(edges);
    decode_lists(read, first, last, targets.data());
    unpack_weights(read.compressed, begin, edges, weights.data());
    EXPECT_EQ(targets, std::vector<vid_t>(
                           whole.targets.begin() + static_cast<std::ptrdiff_t>(begin),
                           whole.targets.begin() + static_cast<std::ptrdiff_t>(begin + edges)));
    EXPECT_EQ(weights, std::vector<std::uint32_t>(
                           whole.weights.begin() + static_cast<std::ptrdiff_t>(begin),
                           whole.weights.begin() + static_cast<std::ptrdiff_t>(begin + edges)));
  }
}

// verify decodes every list within its bytes: a damaged one is named though there is no raw
// list to compare it with.
TEST_F(CompressedOnly, VerifyNamesADamagedList) {
  Graph g = compressed_graph("random:1-64", true);
  write_both(g);
  const Graph back = read_oocg(path("only.oocg"));
  vid_t v = 0;
  while (back.degree(v) < 40)
    ++v;
  // The width byte of the vertex's first block, within the compressed-lists section.
  const std::uint64_t lists = 48 + 5 * 24;  // the header's entry of compressed-lists
  std::uint64_t at = 0;
  {
    std::ifstream f(path("only.oocg"), std::ios::binary);
    f.seekg(static_cast<std::streamoff>(lists));
    f.read(reinterpret_cast<char*>(&at), 8);
  }
  flip(path("only.oocg"), at + back.compressed.offsets[v] + 4);
  OocgReadOptions unchecked;
  unchecked.verify_checksums = false;
  const Graph damaged = read_oocg(path("only.oocg"), unchecked);
  try {
    validate(damaged);
    FAIL() << "no exception";
  } catch (const FormatError& e) {
    EXPECT_EQ(std::string(e.what()),
              "the compressed list of vertex " + std::to_string(v) +
                  " is corrupted: it does not decode to a sorted list of vertices");
  }
}

TEST_F(CompressedOnly, NeedsACompressedCopy) {
  BuildOptions options;
  Graph g = build_graph(generate_kronecker(8, 4, 1), options);
  EXPECT_THROW(drop_raw_lists(g), InvalidInput);
  EXPECT_TRUE(g.has_raw_lists());
}

}  // namespace
}  // namespace ooc
