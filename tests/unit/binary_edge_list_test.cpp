// Binary edge lists (bin32, bin64, wbin32, wbin64): the same edges written as text and as each
// binary format give the same EdgeList and the same built Graph, and every kind of bad file has
// its one-line message.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <bit>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
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
using test::file_order;
using test::TempDir;

constexpr Format kBinaryFormats[] = {Format::bin32, Format::bin64, Format::wbin32, Format::wbin64};

bool is_weighted(Format f) {
  return f == Format::wbin32 || f == Format::wbin64;
}

template <class T>
void append_le(std::string& bytes, T value) {
  for (std::size_t i = 0; i < sizeof(T); ++i)
    bytes += static_cast<char>((static_cast<std::uint64_t>(value) >> (8 * i)) & 0xff);
}

void append_record(std::string& bytes, Format f, std::uint64_t u, std::uint64_t v,
                   std::uint32_t w = 0) {
  if (f == Format::bin32 || f == Format::wbin32) {
    append_le(bytes, static_cast<std::uint32_t>(u));
    append_le(bytes, static_cast<std::uint32_t>(v));
  } else {
    append_le(bytes, u);
    append_le(bytes, v);
  }
  if (is_weighted(f)) append_le(bytes, w);
}

// `edges` as a binary file of format `f` (weights, when the list has none, are 0).
std::string as_binary(const EdgeList& edges, Format f) {
  std::string bytes;
  for (std::size_t i = 0; i < edges.size(); ++i)
    append_record(bytes, f, edges.sources[i], edges.targets[i],
                  edges.weights.empty() ? 0u : edges.weights[i]);
  return bytes;
}

std::string as_text(const EdgeList& edges, bool weighted) {
  std::string text;
  for (std::size_t i = 0; i < edges.size(); ++i) {
    text += std::to_string(edges.sources[i]) + " " + std::to_string(edges.targets[i]);
    if (weighted) text += " " + std::to_string(edges.weights[i]);
    text += '\n';
  }
  return text;
}

void add_weights(EdgeList& edges) {
  edges.weights = Buffer<std::uint32_t>::allocate(edges.size());
  for (std::size_t i = 0; i < edges.size(); ++i)
    edges.weights[i] = static_cast<std::uint32_t>((i * 2654435761u) >> 7) % 1000;
  edges.weight_type = WeightType::u32;
}

template <class T>
std::vector<T> values(const Buffer<T>& buffer) {
  return {buffer.data(), buffer.data() + buffer.size()};
}

void expect_same_graph(const Graph& a, const Graph& b) {
  EXPECT_EQ(values(a.offsets), values(b.offsets));
  EXPECT_EQ(values(a.targets), values(b.targets));
  EXPECT_EQ(values(a.weights), values(b.weights));
  EXPECT_EQ(values(a.original_ids), values(b.original_ids));
  EXPECT_EQ(a.weight_type, b.weight_type);
  EXPECT_EQ(a.symmetric, b.symmetric);
  EXPECT_EQ(a.hub_count, b.hub_count);
}

std::string message(const std::filesystem::path& path, Format f) {
  return test::message_of<FormatError>([&] { read_binary(path, f); });
}

// --- the same edges as text and as binary --------------------------------------------------------

TEST(BinaryEdgeList, EqualsTheTextEdgeListGraphForGraph) {
  const TempDir dir;
  std::vector<std::pair<std::string, EdgeList>> graphs;
  graphs.emplace_back("small", read_text(data_file("small.wel"), Format::wel));
  graphs.emplace_back("kron", generate_kronecker(12, 8, 3));
  graphs.emplace_back("urand", generate_uniform(12, 8, 5));
  add_weights(graphs.back().second);
  for (const auto& [name, edges] : graphs) {
    for (const Format f : kBinaryFormats) {
      SCOPED_TRACE(name + " as " + std::string(to_string(f)));
      const bool weighted = is_weighted(f) && !edges.weights.empty();
      if (is_weighted(f) && edges.weights.empty()) continue;  // nothing to give the weights
      const Format text_format = weighted ? Format::wel : Format::edge_list;
      const auto text = dir.write(name + ".txt", as_text(edges, weighted));
      const auto binary = dir.write(name + ".bin", as_binary(edges, f));
      ReadOptions options;
      options.read_weights = weighted;
      const EdgeList from_text = read_text(text, text_format, options);
      const EdgeList from_binary = read_binary(binary, f, options);
      ASSERT_EQ(file_order(from_binary), file_order(from_text));
      EXPECT_EQ(from_binary.num_vertices, from_text.num_vertices);
      EXPECT_EQ(from_binary.weight_type, from_text.weight_type);
      // Hub sort, so that the ids (original_ids) are compared too.
      expect_same_graph(hub_sort(build_graph(read_binary(binary, f, options), {}), 0.05),
                        hub_sort(build_graph(read_text(text, text_format, options), {}), 0.05));
    }
  }
}

TEST(BinaryEdgeList, SmallGraphDataFilesMatchTheText) {
  const EdgeList wel = read_text(data_file("small.wel"), Format::wel);
  const EdgeList wbin32 = read_binary(data_file("small.wbin32"), Format::wbin32);
  EXPECT_EQ(file_order(wbin32), file_order(wel));
  EXPECT_EQ(wbin32.weight_type, WeightType::u32);
  ReadOptions no_weights;
  no_weights.read_weights = false;
  const EdgeList bin64 = read_binary(data_file("small.bin64"), Format::bin64);
  EXPECT_EQ(file_order(bin64),
            file_order(read_text(data_file("small.el"), Format::edge_list, no_weights)));
  EXPECT_EQ(bin64.weight_type, WeightType::none);
  EXPECT_EQ(bin64.num_vertices, 12u);
}

TEST(BinaryEdgeList, ManyBlocksLandInFileOrderWhateverTheThreadCount) {
  const TempDir dir;
  EdgeList edges = generate_uniform(16, 12, 9);  // 786432 edges: three blocks and a bit
  add_weights(edges);
  const auto path = dir.write("g.wbin64", as_binary(edges, Format::wbin64));
  for (const unsigned threads : {1u, 2u}) {
    ReadOptions options;
    options.threads = threads;
    const EdgeList back = read_binary(path, Format::wbin64, options);
    EXPECT_EQ(file_order(back), file_order(edges));
  }
}

TEST(BinaryEdgeList, WeightsCanBeDroppedOrForcedToF32) {
  const TempDir dir;
  std::string bytes;
  append_record(bytes, Format::wbin32, 0, 1, 5);
  const auto path = dir.write("g.wbin32", bytes);
  ReadOptions drop;
  drop.read_weights = false;
  const EdgeList dropped = read_binary(path, Format::wbin32, drop);
  EXPECT_TRUE(dropped.weights.empty());
  EXPECT_EQ(dropped.weight_type, WeightType::none);
  ReadOptions as_f32;
  as_f32.force_weight_type = WeightType::f32;
  const EdgeList floats = read_binary(path, Format::wbin32, as_f32);
  EXPECT_EQ(floats.weight_type, WeightType::f32);
  EXPECT_EQ(std::bit_cast<float>(floats.weights[0]), 5.0f);
}

TEST(BinaryEdgeList, LargestIdIsAccepted) {
  const TempDir dir;
  for (const Format f : {Format::bin32, Format::bin64}) {
    std::string bytes;
    append_record(bytes, f, kMaxVertexId, 0);
    const EdgeList edges = read_binary(dir.write("g", bytes), f);
    EXPECT_EQ(edges.sources[0], kMaxVertexId);
    EXPECT_EQ(edges.num_vertices, kMaxVertexId + 1);
  }
}

TEST(BinaryEdgeList, EmptyFileIsAnEmptyGraphAsForText) {
  const TempDir dir;
  const auto path = dir.write("empty", "");
  const EdgeList text = read_text(path, Format::edge_list);
  for (const Format f : kBinaryFormats) {
    const EdgeList edges = read_binary(path, f);
    EXPECT_EQ(edges.size(), text.size());
    EXPECT_EQ(edges.num_vertices, text.num_vertices);
    EXPECT_EQ(edges.weight_type, text.weight_type);
    EXPECT_EQ(edges.num_vertices, 0u);
    EXPECT_EQ(edges.weight_type, WeightType::none);
  }
}

TEST(BinaryEdgeList, PipesAreReadToTheirEnd) {
  const TempDir dir;
  const EdgeList edges = generate_kronecker(8, 4, 1);
  const auto fifo = dir.path() / "g.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer(
      [&] { std::ofstream(fifo, std::ios::binary) << as_binary(edges, Format::bin64); });
  const EdgeList back = read_binary(fifo, Format::bin64);
  writer.join();
  EXPECT_EQ(file_order(back), file_order(edges));
}

TEST(BinaryEdgeList, ReadEdgesPicksTheReaderByFormat) {
  const TempDir dir;
  const EdgeList edges = read_text(data_file("small.el"), Format::edge_list);
  const auto path = dir.write("g.wbin32", as_binary(edges, Format::wbin32));
  EXPECT_EQ(file_order(read_edges(path, detect_format(path))), file_order(edges));
  EXPECT_EQ(file_order(read_edges(data_file("small.el"), Format::edge_list)), file_order(edges));
}

// --- names -------------------------------------------------------------------------------------

TEST(BinaryEdgeList, NamesAndSuffixes) {
  for (const Format f : kBinaryFormats) {
    EXPECT_EQ(parse_format(to_string(f)), f);
    EXPECT_TRUE(is_binary_edge_list(f));
    EXPECT_EQ(detect_format("dir/g." + std::string(to_string(f))), f);
  }
  EXPECT_EQ(parse_format("BIN64"), Format::bin64);
  EXPECT_EQ(detect_format("g.WBIN32"), Format::wbin32);
  EXPECT_FALSE(is_binary_edge_list(Format::oocg));
  EXPECT_FALSE(is_binary_edge_list(Format::edge_list));
}

// --- bad input ---------------------------------------------------------------------------------

TEST(BinaryEdgeList, SizeThatIsNotAWholeNumberOfRecords) {
  const TempDir dir;
  const auto path = dir.write("g.bin32", std::string(13, '\0'));
  EXPECT_EQ(message(path, Format::bin32),
            path.string() +
                ": holds 13 bytes, not a whole number of 8-byte records (bin32: u32 source, u32 "
                "target)");
  EXPECT_EQ(message(path, Format::wbin64),
            path.string() +
                ": holds 13 bytes, not a whole number of 20-byte records (wbin64: u64 source, u64 "
                "target, u32 weight)");
}

TEST(BinaryEdgeList, IdsAbove32BitsNameTheRecordAndTheId) {
  const TempDir dir;
  std::string bytes;
  append_record(bytes, Format::bin64, 0, 1);
  append_record(bytes, Format::bin64, 2, 3);
  append_record(bytes, Format::bin64, 4, std::uint64_t{1} << 32);
  const auto path = dir.write("g.bin64", bytes);
  EXPECT_EQ(message(path, Format::bin64),
            path.string() +
                ": record 2 (at byte 32) has vertex id 4294967296, above the largest allowed "
                "(4294967294; vertex ids are 32-bit)");
  // 2^32-1 fits in a u32 field but is the engine's "no vertex".
  std::string u32;
  append_record(u32, Format::wbin32, 4294967295u, 0, 1);
  const auto path32 = dir.write("g.wbin32", u32);
  EXPECT_EQ(message(path32, Format::wbin32),
            path32.string() +
                ": record 0 (at byte 0) has vertex id 4294967295, above the largest allowed "
                "(4294967294; vertex ids are 32-bit)");
}

TEST(BinaryEdgeList, TheFirstBadRecordIsReportedAcrossBlocks) {
  const TempDir dir;
  std::string bytes;
  for (std::uint64_t i = 0; i < 700000; ++i)
    append_record(bytes, Format::bin64, i, (i == 300001 || i == 600000) ? ~std::uint64_t{0} : i);
  const auto path = dir.write("g.bin64", bytes);
  for (const unsigned threads : {1u, 2u}) {
    ReadOptions options;
    options.threads = threads;
    EXPECT_EQ(test::message_of<FormatError>([&] { read_binary(path, Format::bin64, options); }),
              path.string() +
                  ": record 300001 (at byte 4800016) has vertex id 18446744073709551615, above "
                  "the largest allowed (4294967294; vertex ids are 32-bit)");
  }
}

TEST(BinaryEdgeList, GzipIsRefused) {
  const TempDir dir;
  const auto path = dir.write("g.bin32.gz", std::string(16, '\0'));
  EXPECT_EQ(test::message_of<IoError>([&] { read_binary(path, Format::bin32); }),
            path.string() + ": gzip-compressed binary edge lists are not read; gunzip it first");
  EXPECT_EQ(detect_format(path), Format::bin32);  // the name still tells the format
}

TEST(BinaryEdgeList, FilesThatCannotBeRead) {
  const TempDir dir;
  const auto missing = dir.path() / "missing.bin32";
  EXPECT_EQ(test::message_of<IoError>([&] { read_binary(missing, Format::bin32); }),
            "cannot open '" + missing.string() + "': No such file or directory");
  EXPECT_EQ(test::message_of<IoError>([&] { read_binary(dir.path(), Format::bin32); }),
            "cannot read '" + dir.path().string() + "': Is a directory");
}

TEST(BinaryEdgeList, TextAndBinaryReadersRefuseEachOthersFormats) {
  EXPECT_EQ(test::message_of<InvalidInput>([] { parse_text("", Format::bin32, {}, "g.bin32"); }),
            "g.bin32: bin32 is a binary edge list; read it with read_binary, not as text");
  EXPECT_EQ(test::message_of<InvalidInput>([] { read_binary("g.el", Format::edge_list); }),
            "g.el: el is not a binary edge list (bin32, bin64, wbin32, wbin64)");
}

}  // namespace
}  // namespace ooc
