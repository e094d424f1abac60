// The compressed neighbour lists: the codec on its own (every length around the block and chunk
// sizes, extreme ids, long lists), compress() on graphs, and the .oocg sections that hold them.
#include "ooc/core/codec.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "graph_util.hpp"
#include "ooc/core/error.hpp"
#include "ooc/partitioner/builder.hpp"
#include "ooc/partitioner/compress.hpp"
#include "ooc/partitioner/generators.hpp"
#include "ooc/partitioner/hub_sort.hpp"
#include "ooc/partitioner/oocg.hpp"

namespace ooc {
namespace {

namespace fs = std::filesystem;

// Encodes, checks the size, decodes, and returns the decoded list.
std::vector<vid_t> round_trip(const std::vector<vid_t>& sorted) {
  const std::uint64_t bytes = compressed_list_bytes(sorted);
  std::vector<std::uint8_t> encoded(bytes + codec::kPadding + 4, 0);
  // Start at an odd address, as a list inside a compressed array does.
  std::uint8_t* at = encoded.data() + 1;
  encode_list(sorted, at);
  std::vector<vid_t> out(sorted.size(), 12345);
  decode_list(at, sorted.size(), out.data());
  return out;
}

std::vector<vid_t> random_sorted(std::size_t n, vid_t limit, std::mt19937_64& rng) {
  std::uniform_int_distribution<vid_t> pick(0, limit);
  std::vector<vid_t> v(n);
  for (vid_t& x : v)
    x = pick(rng);
  std::sort(v.begin(), v.end());
  return v;
}

TEST(Codec, EveryLengthAroundTheBlockAndChunkSizes) {
  std::mt19937_64 rng(7);
  std::vector<std::size_t> lengths;
  for (std::size_t n = 0; n <= 100; ++n)
    lengths.push_back(n);
  for (std::size_t n : {1023, 1024, 1025, 2047, 2048, 2049, 3073})
    lengths.push_back(n);
  for (const std::size_t n : lengths) {
    for (const vid_t limit : {vid_t{40}, vid_t{1} << 20, kMaxVertexId}) {
      const std::vector<vid_t> list = random_sorted(n, limit, rng);
      EXPECT_EQ(round_trip(list), list) << "length " << n << ", ids up to " << limit;
    }
  }
}

TEST(Codec, SizesFollowTheFormat) {
  EXPECT_EQ(compressed_list_bytes({}), 0u);
  const std::vector<vid_t> one{4000000000u};
  EXPECT_EQ(compressed_list_bytes(one), 5u);  // first target and width, no deltas
  std::vector<vid_t> run(32);
  for (vid_t i = 0; i < 32; ++i)
    run[i] = 100 + i;
  EXPECT_EQ(compressed_list_bytes(run), 5u + (31 * 1 + 7) / 8);  // deltas of 1: 1 bit each
  std::vector<vid_t> long_run(codec::kChunk + 1);
  for (vid_t i = 0; i < long_run.size(); ++i)
    long_run[i] = i;
  // Two chunks: a 4-byte table, 33 blocks.
  EXPECT_EQ(compressed_list_bytes(long_run), 4u + 32 * (5 + 4) + 5);
  EXPECT_EQ(round_trip(long_run), long_run);
}

TEST(Codec, ExtremeIdsAndDeltas) {
  const vid_t top = 0xffffffffu;
  const std::vector<std::vector<vid_t>> lists{
      {0, top},                          // the widest delta, 32 bits
      {top - 2, top - 1, top},           // ids at the top of the range
      {0, 0, 0, 5, 5, top, top},         // repeated targets (delta 0)
      std::vector<vid_t>(40, top - 1)};  // a block of zero deltas (width 0)
  for (const auto& list : lists)
    EXPECT_EQ(round_trip(list), list);
}

TEST(Codec, ListLongerThanTwoToTheTwenty) {
  std::mt19937_64 rng(11);
  const std::vector<vid_t> list = random_sorted((std::size_t{1} << 20) + 37, kMaxVertexId, rng);
  EXPECT_EQ(round_trip(list), list);
}

Graph weighted_kron() {
  BuildOptions options;
  options.undirected = true;
  options.weights = parse_weight_spec("random:1-64", 5);
  return hub_sort(build_graph(generate_kronecker(10, 8, 2), options));
}

TEST(Compress, SortsListsWithTheirWeightsAndDecodesToThem) {
  Graph g = weighted_kron();
  const auto before = test::edge_set(g);
  compress(g);
  EXPECT_EQ(test::edge_set(g), before);  // the same (source, target, weight) triples
  for (vid_t v = 0; v < g.num_vertices(); ++v) {
    const auto list = g.neighbors(v);
    ASSERT_TRUE(std::is_sorted(list.begin(), list.end())) << "vertex " << v;
    std::vector<vid_t> out(list.size());
    decode_list(g.compressed.bytes.data() + g.compressed.offsets[v], list.size(), out.data());
    ASSERT_TRUE(std::equal(out.begin(), out.end(), list.begin())) << "vertex " << v;
  }
  EXPECT_NO_THROW(validate(g));
  EXPECT_LT(g.compressed.size_bytes(), g.targets.size_bytes());
}

// Lists long enough for the radix sort (and short ones), with and without weights, with
// repeated targets: sorted by target, each weight with its target, repeats in their order.
TEST(Compress, SortListsSortsShortAndLongListsStably) {
  std::mt19937_64 rng(3);
  for (const bool weighted : {false, true}) {
    for (const std::size_t length : {std::size_t{5}, std::size_t{300}, std::size_t{5000}}) {
      Graph g;
      g.offsets = Buffer<eid_t>::copy_of(std::vector<eid_t>{0, length});
      g.targets = Buffer<vid_t>::allocate(length);
      std::vector<std::pair<vid_t, std::uint32_t>> expected(length);
      for (std::size_t i = 0; i < length; ++i)
        expected[i] = {static_cast<vid_t>(rng() % (length / 2 + 1)) * 70001u,
                       weighted ? static_cast<std::uint32_t>(i) : 0u};
      for (std::size_t i = 0; i < length; ++i)
        g.targets[i] = expected[i].first;
      if (weighted) {
        g.weight_type = WeightType::u32;
        g.weights = Buffer<std::uint32_t>::allocate(length);
        for (std::size_t i = 0; i < length; ++i)
          g.weights[i] = expected[i].second;
      }
      std::stable_sort(expected.begin(), expected.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      sort_lists(g);
      for (std::size_t i = 0; i < length; ++i) {
        ASSERT_EQ(g.targets[i], expected[i].first) << length << " at " << i;
        if (weighted) {
          ASSERT_EQ(g.weights[i], expected[i].second) << length << " at " << i;
        }
      }
    }
  }
}

TEST(Compress, ShapesWithEmptyAndSingleLists) {
  for (EdgeList (*make)() :
       {+[] { return generate_star(50); }, +[] { return generate_chain(70); },
        +[] { return generate_empty(9); }, +[] { return generate_grid(7, 9); }}) {
    Graph g = build_graph(make(), {});
    compress(g);
    EXPECT_NO_THROW(check_compressed(g));
  }
}

TEST(Compress, ValidateNamesACorruptedList) {
  Graph g = weighted_kron();
  compress(g);
  vid_t v = 0;
  while (g.degree(v) < 3)
    ++v;
  g.compressed.bytes[g.compressed.offsets[v] + 5] ^= 0x10;  // a delta bit
  try {
    validate(g);
    FAIL() << "a corrupted list was accepted";
  } catch (const FormatError& e) {
    EXPECT_EQ(std::string(e.what()), "the compressed list of vertex " + std::to_string(v) +
                                         " is corrupted: it does not decode to the vertex's "
                                         "targets");
  }
}

TEST(Compress, ValidateNamesAListOfTheWrongLength) {
  Graph g = build_graph(generate_chain(10), {});
  compress(g);
  ++g.compressed.offsets[3];  // list 2 one byte longer, list 3 one shorter
  EXPECT_THROW(
      {
        try {
          check_compressed(g);
        } catch (const FormatError& e) {
          EXPECT_EQ(std::string(e.what()),
                    "the compressed list of vertex 2 is corrupted: it does not decode to the "
                    "vertex's targets");
          throw;
        }
      },
      FormatError);
}

class CompressedFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("codec_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path path(const std::string& name) const { return dir_ / name; }
  static std::string error_of(auto&& action) {
    try {
      action();
    } catch (const Error& e) {
      return e.what();
    }
    return "no error";
  }
  // Writes `g`, whose last section is `section` of `bytes` bytes; a copy with a byte in the middle
  // of it flipped, and one cut 10 bytes short, must each be refused by reading and verifying, with
  // the section named.
  void expect_last_section_checked(const Graph& g, const std::string& section,
                                   std::uint64_t bytes) {
    const fs::path good = path("good.oocg");
    write_oocg(g, good);
    const std::uint64_t size = fs::file_size(good);
    const fs::path flipped = path("flipped.oocg");
    fs::copy_file(good, flipped);
    {
      std::fstream f(flipped, std::ios::in | std::ios::out | std::ios::binary);
      f.seekg(static_cast<std::streamoff>(size - bytes / 2));
      char c = 0;
      f.get(c);
      f.seekp(static_cast<std::streamoff>(size - bytes / 2));
      f.put(static_cast<char>(c ^ 0x40));
    }
    const std::string corrupted =
        flipped.string() + ": checksum mismatch in the " + section +
        " section (the file is corrupted; re-create it with partition-tool)";
    EXPECT_EQ(error_of([&] { read_oocg(flipped); }), corrupted);
    EXPECT_EQ(error_of([&] { verify_oocg(flipped); }), corrupted);
    const fs::path cut = path("cut.oocg");
    fs::copy_file(good, cut);
    fs::resize_file(cut, size - 10);
    const std::string truncated = cut.string() + ": truncated: the " + section +
                                  " section ends at byte " + std::to_string(size) +
                                  " but the file has " + std::to_string(size - 10) + " bytes";
    EXPECT_EQ(error_of([&] { read_oocg(cut); }), truncated);
    EXPECT_EQ(error_of([&] { verify_oocg(cut); }), truncated);
  }
  fs::path dir_;
};

// Packed weights: every edge unpacks to its weight, at the width of the weights' range.
TEST(Compress, PacksIntegerWeightsAtTheWidthOfTheirRange) {
  Graph g = weighted_kron();  // weights 1..64: 63 = 6 bits above the base
  compress(g);
  ASSERT_TRUE(g.compressed.packs_weights());
  EXPECT_EQ(g.compressed.weight_base, 1u);
  EXPECT_EQ(g.compressed.weight_width, 6u);
  EXPECT_EQ(g.compressed.packed_weights.size(),
            codec::packed_bytes(g.num_edges(), 6) + codec::kPadding);
  std::vector<std::uint32_t> out(g.num_edges());
  unpack_weights(g.compressed, 0, g.num_edges(), out.data());
  EXPECT_TRUE(std::equal(out.begin(), out.end(), g.weights.begin()));
  // From an edge inside a byte, as a filter task of a later partition reads them.
  unpack_weights(g.compressed, 3, 10, out.data());
  EXPECT_TRUE(std::equal(out.begin(), out.begin() + 10, g.weights.begin() + 3));
}

// Runs of edges gathered one after another (what compaction and the edge cache ship): every
// weight where its run put it, runs of any length, empty ones, starting inside a byte.
TEST(Compress, GathersRunsOfPackedWeights) {
  Graph g = weighted_kron();
  compress(g);
  const std::vector<std::pair<eid_t, eid_t>> runs{
      {3, 17}, {100, 0}, {40, 5000}, {7, 1}, {9000, 33}};
  std::vector<eid_t> out_begin{0};
  for (const auto& [source, count] : runs)
    out_begin.push_back(out_begin.back() + count);
  const eid_t total = out_begin.back();
  const std::uint32_t width = g.compressed.weight_width;
  std::vector<std::uint8_t> out(codec::packed_bytes(total, width) + codec::kPadding, 0xee);
  const std::uint64_t bytes = gather_packed_weights(
      g.compressed, out_begin, [&](std::size_t i) { return runs[i].first; }, out.data());
  EXPECT_EQ(bytes, codec::packed_bytes(total, width));
  for (std::size_t i = 0; i < runs.size(); ++i) {
    for (eid_t e = 0; e < runs[i].second; ++e) {
      ASSERT_EQ(codec::packed_weight(out.data(), out_begin[i] + e, width, g.compressed.weight_base),
                g.weights[runs[i].first + e])
          << "run " << i << " edge " << e;
    }
  }
  for (std::uint64_t b = 0; b < codec::kPadding; ++b)
    EXPECT_EQ(out[bytes + b], 0);
}

TEST(Compress, WeightsPackOnlyWhereTheyGetSmaller) {
  BuildOptions options;
  options.weights = parse_weight_spec("random:7-7", 1);  // one value: width 0
  Graph same = build_graph(generate_chain(100), options);
  compress(same);
  ASSERT_TRUE(same.compressed.packs_weights());
  EXPECT_EQ(same.compressed.weight_width, 0u);
  EXPECT_EQ(codec::packed_weight(same.compressed.packed_weights.data(), 42, 0, 7), 7u);
  // Weights 0 and 2^32 - 1 need all 32 bits: kept raw.
  Graph wide = build_graph(generate_chain(3), {});
  wide.weight_type = WeightType::u32;
  wide.weights = Buffer<std::uint32_t>::allocate(2);
  wide.weights[0] = 0;
  wide.weights[1] = 0xffffffffu;
  compress(wide);
  EXPECT_FALSE(wide.compressed.packs_weights());
  EXPECT_EQ(wide.compressed.weight_bits(), 32u);
  // Float weights stay raw.
  BuildOptions floats;
  floats.weights = parse_weight_spec("random:1-64", 1);
  Graph f = build_graph(generate_chain(10), floats);
  f.weight_type = WeightType::f32;
  compress(f);
  EXPECT_FALSE(f.compressed.packs_weights());
}

TEST(Compress, ValidateNamesACorruptedPackedWeight) {
  Graph g = weighted_kron();
  compress(g);
  g.compressed.packed_weights[5] ^= 0x01;  // bit 40: edge 6's lowest bit
  try {
    validate(g);
    FAIL() << "a corrupted packed weight was accepted";
  } catch (const FormatError& e) {
    EXPECT_EQ(std::string(e.what()),
              "the packed weights are corrupted: edge 6 does not unpack to its weight");
  }
}

TEST_F(CompressedFile, UnweightedRoundTripsAsVersionTwo) {
  BuildOptions options;
  options.undirected = true;
  Graph g = build_graph(generate_kronecker(10, 8, 2), options);
  compress(g);
  write_oocg(g, path("u.oocg"));
  const OocgInfo info = verify_oocg(path("u.oocg"));
  EXPECT_EQ(info.version, 2u);
  EXPECT_TRUE(info.compressed);
  EXPECT_FALSE(info.packed_weights);
  // What builds before packed weights wrote: weighted, lists compressed, weights raw.
  Graph older = weighted_kron();
  compress(older);
  older.compressed.packed_weights = {};
  write_oocg(older, path("v2.oocg"));
  EXPECT_EQ(verify_oocg(path("v2.oocg")).version, 2u);
  const Graph back = read_oocg(path("v2.oocg"));
  EXPECT_FALSE(back.compressed.packs_weights());
  EXPECT_EQ(back.compressed.weight_bits(), 32u);
  EXPECT_EQ(test::edge_set(back), test::edge_set(older));
}

TEST_F(CompressedFile, RoundTripsAsVersionThreeWithPackedWeights) {
  Graph g = weighted_kron();
  compress(g);
  write_oocg(g, path("c.oocg"));
  const OocgInfo info = verify_oocg(path("c.oocg"));
  EXPECT_EQ(info.version, 3u);
  EXPECT_TRUE(info.packed_weights);
  EXPECT_EQ(info.weight_width, 6u);
  EXPECT_EQ(info.packed_weight_bytes, codec::packed_bytes(g.num_edges(), 6));
  {
    const Graph back = read_oocg(path("c.oocg"));
    ASSERT_EQ(back.compressed.packed_weights.size(), g.compressed.packed_weights.size());
    EXPECT_TRUE(std::equal(back.compressed.packed_weights.begin(),
                           back.compressed.packed_weights.end(),
                           g.compressed.packed_weights.begin()));
    EXPECT_EQ(back.compressed.weight_width, 6u);
    EXPECT_EQ(back.compressed.weight_base, 1u);
  }
  EXPECT_TRUE(info.compressed);
  EXPECT_EQ(info.compressed_bytes, g.compressed.size_bytes());
  const Graph back = read_oocg(path("c.oocg"));
  ASSERT_EQ(back.compressed.offsets.size(), g.compressed.offsets.size());
  EXPECT_TRUE(std::equal(back.compressed.offsets.begin(), back.compressed.offsets.end(),
                         g.compressed.offsets.begin()));
  ASSERT_EQ(back.compressed.bytes.size(), g.compressed.bytes.size());
  EXPECT_TRUE(std::equal(back.compressed.bytes.begin(), back.compressed.bytes.end(),
                         g.compressed.bytes.begin()));
  EXPECT_NO_THROW(validate(back));
  OocgReadOptions raw_only;
  raw_only.read_compressed = false;
  EXPECT_TRUE(read_oocg(path("c.oocg"), raw_only).compressed.empty());
  // Without compression a file stays version 1.
  write_oocg(weighted_kron(), path("raw.oocg"));
  EXPECT_EQ(read_oocg_info(path("raw.oocg")).version, 1u);
  EXPECT_FALSE(read_oocg_info(path("raw.oocg")).compressed);
}

TEST_F(CompressedFile, CorruptedOrTruncatedPackedWeightsAreRefused) {
  Graph g = weighted_kron();  // packed weights come last
  compress(g);
  expect_last_section_checked(g, "packed-weights",
                              codec::packed_bytes(g.num_edges(), g.compressed.weight_width));
}

TEST_F(CompressedFile, CorruptedOrTruncatedSectionIsRefused) {
  BuildOptions options;
  options.undirected = true;
  Graph g = build_graph(generate_kronecker(10, 8, 2), options);  // unweighted: lists come last
  compress(g);
  expect_last_section_checked(g, "compressed-lists", g.compressed.size_bytes());
}

}  // namespace
}  // namespace ooc
