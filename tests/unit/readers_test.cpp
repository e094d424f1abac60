// The text readers: one small graph stored as .el, .wel, .mtx, .gr and gzip reads the same from
// every reader (as GAP's test/ does), the parsing rules (comments, CRLF, weight types, chunking),
// and the exact message for each kind of bad input.
#include "ooc/partitioner/readers.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <bit>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "ooc/core/error.hpp"
#include "reader_test_util.hpp"

namespace ooc {
namespace {

using test::data_file;
using test::Edge;
using test::file_order;
using test::read_bytes;
using test::sorted_edges;
using test::TempDir;

EdgeList parse(std::string_view text, Format format = Format::edge_list,
               const ReadOptions& options = {}) {
  return parse_text(text, format, options, "g.el");
}

// The message of the FormatError that parsing `text` throws, under the name "g.<ext>".
std::string format_error(std::string_view text, Format format = Format::edge_list,
                         const ReadOptions& options = {}) {
  const std::string name = "g." + std::string(to_string(format));
  return test::message_of<FormatError>([&] { parse_text(text, format, options, name); });
}

float as_float(std::uint32_t bits) {
  return std::bit_cast<float>(bits);
}

// --- formats ---------------------------------------------------------------------------------

TEST(Formats, NamesRoundTripAndAliasesAreAccepted) {
  for (Format f : {Format::edge_list, Format::wel, Format::mtx, Format::gr, Format::oocg})
    EXPECT_EQ(parse_format(to_string(f)), f);
  EXPECT_EQ(parse_format("dimacs"), Format::gr);
  EXPECT_EQ(parse_format("GR"), Format::gr);
  EXPECT_EQ(to_string(Format::gr), "gr");
  EXPECT_EQ(parse_format("edgelist"), Format::edge_list);
  EXPECT_EQ(parse_format("txt"), Format::edge_list);
  EXPECT_EQ(parse_format("snap"), Format::edge_list);
  EXPECT_EQ(parse_format("MTX"), Format::mtx);
  EXPECT_EQ(to_string(Format::edge_list), "el");  // the canonical name, not an alias
  EXPECT_EQ(to_string(Format::wbin64), "wbin64");
}

TEST(Formats, UnknownNameListsTheAcceptedOnes) {
  EXPECT_EQ(test::message_of<InvalidInput>([] { parse_format("csv"); }),
            "unknown format 'csv' (accepted: el, edgelist, txt, snap, wel, mtx, gr, dimacs, oocg, "
            "bin32, bin64, wbin32, wbin64)");
}

TEST(Formats, DetectedFromTheNameIgnoringGz) {
  EXPECT_EQ(detect_format("dir/g.el"), Format::edge_list);
  EXPECT_EQ(detect_format("g.txt.gz"), Format::edge_list);
  EXPECT_EQ(detect_format("g.edges"), Format::edge_list);
  EXPECT_EQ(detect_format("g.snap"), Format::edge_list);
  EXPECT_EQ(detect_format("g.wel"), Format::wel);
  EXPECT_EQ(detect_format("G.MTX.gz"), Format::mtx);
  EXPECT_EQ(detect_format("USA-road-d.USA.gr"), Format::gr);
  EXPECT_EQ(detect_format("dir/USA-road-d.NY.gr.gz"), Format::gr);
  EXPECT_EQ(detect_format("g.oocg"), Format::oocg);
  EXPECT_EQ(test::message_of<InvalidInput>([] { detect_format("dir/graph.csv"); }),
            "cannot tell the format of 'dir/graph.csv'; use --format");
  EXPECT_EQ(test::message_of<InvalidInput>([] { detect_format("graph.gz"); }),
            "cannot tell the format of 'graph.gz'; use --format");
}

TEST(Formats, OocgIsNotReadAsText) {
  EXPECT_EQ(test::message_of<InvalidInput>([] { parse_text("0 1\n", Format::oocg, {}, "g.oocg"); }),
            "g.oocg: .oocg is a binary format; load it with read_oocg, not as text");
}

// --- the small graph in every format -----------------------------------------------------------

TEST(SmallGraph, WelHasTheExpectedShape) {
  const EdgeList wel = read_text(data_file("small.wel"), Format::wel);
  EXPECT_EQ(wel.size(), 25u);
  EXPECT_EQ(wel.num_vertices, 12u);
  EXPECT_EQ(wel.weight_type, WeightType::u32);
  EXPECT_FALSE(wel.symmetric_input);
  const std::vector<Edge> edges = file_order(wel);
  EXPECT_EQ(edges.front(), Edge(0, 1, 8));
  EXPECT_EQ(edges.back(), Edge(11, 1, 63));
  for (const auto& [u, v, w] : edges) {
    EXPECT_NE(u, 7u) << "vertex 7 is isolated";
    EXPECT_NE(v, 7u) << "vertex 7 is isolated";
  }
}

TEST(SmallGraph, EveryReaderGivesTheSameEdges) {
  const EdgeList reference = read_text(data_file("small.wel"), Format::wel);
  for (const char* file : {"small.el", "small.mtx", "small.gr", "small.txt.gz", "small.gr.gz"}) {
    SCOPED_TRACE(file);
    const EdgeList edges = read_text(data_file(file), detect_format(file));
    EXPECT_EQ(sorted_edges(edges), sorted_edges(reference));
    EXPECT_EQ(edges.num_vertices, reference.num_vertices);
    EXPECT_EQ(edges.weight_type, WeightType::u32);
  }
}

TEST(SmallGraph, MatrixMarketEntriesKeepTheirFileOrder) {
  const EdgeList mtx = read_text(data_file("small.mtx"), Format::mtx);
  // The file lists entries by column: (4, 1, 39) is its first, 1-based.
  EXPECT_EQ(file_order(mtx).front(), Edge(3, 0, 39));
}

TEST(SmallGraph, DimacsArcsKeepTheirFileOrderAndAreDirected) {
  const EdgeList gr = read_text(data_file("small.gr"), Format::gr);
  EXPECT_EQ(file_order(gr), file_order(read_text(data_file("small.wel"), Format::wel)));
  EXPECT_FALSE(gr.symmetric_input);
}

TEST(SmallGraph, GzipIsRecognisedByItsMagicBytesWithoutTheSuffix) {
  const TempDir dir;
  const auto path = dir.write("small_copy.el", read_bytes(data_file("small.txt.gz")));
  EXPECT_EQ(sorted_edges(read_text(path, Format::edge_list)),
            sorted_edges(read_text(data_file("small.el"), Format::edge_list)));
}

TEST(SmallGraph, PipesAreReadToTheirEnd) {
  const TempDir dir;
  const auto fifo = dir.path() / "small.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer(
      [&] { std::ofstream(fifo, std::ios::binary) << read_bytes(data_file("small.el")); });
  const EdgeList edges = read_text(fifo, Format::edge_list);
  writer.join();
  EXPECT_EQ(sorted_edges(edges), sorted_edges(read_text(data_file("small.el"), Format::edge_list)));
}

TEST(SmallGraph, ConcatenatedGzipMembersAreAllRead) {
  const TempDir dir;
  const std::string member = read_bytes(data_file("small.txt.gz"));
  const EdgeList twice = read_text(dir.write("twice.el.gz", member + member), Format::edge_list);
  EXPECT_EQ(twice.size(), 50u);
}

TEST(SmallGraph, SymmetricMatrixMarketFlagsBothDirections) {
  const EdgeList sym = read_text(data_file("small_sym.mtx"), Format::mtx);
  EXPECT_TRUE(sym.symmetric_input);
  EXPECT_EQ(sym.num_vertices, 9u);  // declared; the last vertex has no edge
  EXPECT_EQ(sym.weight_type, WeightType::none);
  EXPECT_EQ(sym.size(), 10u);
  std::vector<Edge> both;
  for (const auto& [u, v, w] : file_order(sym)) {
    both.emplace_back(u, v, w);
    if (u != v) both.emplace_back(v, u, w);
  }
  std::sort(both.begin(), both.end());
  const EdgeList expanded = read_text(data_file("small_sym_expanded.el"), Format::edge_list);
  EXPECT_FALSE(expanded.symmetric_input);
  EXPECT_EQ(expanded.num_vertices, 8u);  // an edge list cannot keep a trailing isolated vertex
  EXPECT_EQ(sorted_edges(expanded), both);
}

TEST(SmallGraph, WithoutReadWeightsTheColumnIsDropped) {
  ReadOptions options;
  options.read_weights = false;
  const EdgeList edges = read_text(data_file("small.el"), Format::edge_list, options);
  EXPECT_EQ(edges.weight_type, WeightType::none);
  EXPECT_TRUE(edges.weights.empty());
  EXPECT_EQ(edges.size(), 25u);
  EXPECT_EQ(file_order(edges).front(), Edge(0, 1, 0));
}

TEST(SmallGraph, DroppedWeightsAreStillValidated) {
  ReadOptions options;
  options.read_weights = false;
  EXPECT_EQ(format_error("0 1 2\n1 2 x\n", Format::edge_list, options),
            "g.el:2: expected a weight, found 'x'");
}

// --- parsing rules -----------------------------------------------------------------------------

TEST(Parsing, SpacesTabsBlankLinesCommentsAndCrlf) {
  const EdgeList edges = parse("# snap\n0 1\r\n\n  2\t3  \r\n% mtx-style\n \t# indented\n\t4 5");
  EXPECT_EQ(file_order(edges), (std::vector<Edge>{{0, 1, 0}, {2, 3, 0}, {4, 5, 0}}));
  EXPECT_EQ(edges.num_vertices, 6u);
  EXPECT_EQ(edges.weight_type, WeightType::none);
}

TEST(Parsing, CrlfWeightedLines) {
  const EdgeList edges = parse("0 1 5\r\n1 2 6\r\n", Format::wel);
  EXPECT_EQ(file_order(edges), (std::vector<Edge>{{0, 1, 5}, {1, 2, 6}}));
}

TEST(Parsing, EmptyInputIsAnEmptyGraph) {
  for (const Format f : {Format::edge_list, Format::wel, Format::mtx, Format::gr}) {
    for (std::string_view text : {"", "\n \r\n", "# only\n% comments\n\n"}) {
      // A header is required once there is more than blank space: a banner, a problem line.
      const bool header = f == Format::mtx || f == Format::gr;
      if (header && text.find('#') != std::string_view::npos) continue;
      const EdgeList edges = parse(text, f);
      EXPECT_EQ(edges.size(), 0u);
      EXPECT_EQ(edges.num_vertices, 0u);
      EXPECT_EQ(edges.weight_type, WeightType::none);
    }
  }
}

TEST(Parsing, MatrixMarketWithoutEntriesKeepsItsSize) {
  const EdgeList edges =
      parse("%%MatrixMarket matrix coordinate integer general\n% none\n5 7 0\n", Format::mtx);
  EXPECT_EQ(edges.size(), 0u);
  EXPECT_EQ(edges.num_vertices, 7u);
  EXPECT_EQ(edges.weight_type, WeightType::none);
}

TEST(Parsing, MatrixMarketBannerIsCaseInsensitiveAndValuesAreTyped) {
  const EdgeList real =
      parse("%%MatrixMarket MATRIX Coordinate REAL General\n3 3 2\n1 2 2\n3 1 -0.5\n", Format::mtx);
  EXPECT_EQ(real.weight_type, WeightType::f32);
  EXPECT_EQ(as_float(real.weights[0]), 2.0f);
  EXPECT_EQ(as_float(real.weights[1]), -0.5f);
  EXPECT_EQ(file_order(real)[1], Edge(2, 0, real.weights[1]));
}

TEST(Parsing, DimacsWithoutArcsKeepsItsVertexCount) {
  const EdgeList edges = parse("c nothing yet\np sp 5 0\nc still nothing\n", Format::gr);
  EXPECT_EQ(edges.size(), 0u);
  EXPECT_EQ(edges.num_vertices, 5u);
  EXPECT_EQ(edges.weight_type, WeightType::none);
}

TEST(Parsing, DimacsCommentsBlankLinesTabsAndCrlf) {
  const EdgeList edges = parse(
      "c\r\n\nc\tx\n  p\tsp 7 3\r\na 1 2 5\r\n\nc between\n\ta\t7 1\t0 \n% other\n# comments\n"
      "a 3 3 4294967295",
      Format::gr);
  EXPECT_EQ(file_order(edges), (std::vector<Edge>{{0, 1, 5}, {6, 0, 0}, {2, 2, 4294967295u}}));
  EXPECT_EQ(edges.num_vertices, 7u);  // from the problem line, not the largest id
  EXPECT_EQ(edges.weight_type, WeightType::u32);
}

TEST(Parsing, DimacsWeightsFollowTheReadOptions) {
  const std::string text = "p sp 3 2\na 1 2 7\na 2 3 9\n";
  ReadOptions f32;
  f32.force_weight_type = WeightType::f32;
  const EdgeList floats = parse(text, Format::gr, f32);
  EXPECT_EQ(floats.weight_type, WeightType::f32);
  EXPECT_EQ(as_float(floats.weights[1]), 9.0f);
  ReadOptions dropped;
  dropped.read_weights = false;
  EXPECT_EQ(parse(text, Format::gr, dropped).weight_type, WeightType::none);
  EXPECT_EQ(format_error("p sp 3 1\na 1 2 -7\n", Format::gr, dropped),
            "g.gr:2: weight '-7' is not an integer from 0 to 4294967295 (DIMACS arc weights are "
            "non-negative integers)");
}

TEST(Parsing, LargestIdIsAccepted) {
  const EdgeList edges = parse("4294967294 0\n");
  EXPECT_EQ(edges.num_vertices, 4294967295u);
  EXPECT_EQ(edges.sources[0], kMaxVertexId);
}

TEST(Parsing, LeadingZerosAreDecimal) {
  EXPECT_EQ(file_order(parse("010 007 0000000000003\n")), (std::vector<Edge>{{10, 7, 3}}));
}

// --- weight types ------------------------------------------------------------------------------

TEST(Weights, IntegersAreU32) {
  const EdgeList edges = parse("0 1 0\n1 2 4294967295\n");
  EXPECT_EQ(edges.weight_type, WeightType::u32);
  EXPECT_EQ(edges.weights[1], 4294967295u);
}

TEST(Weights, AnyWeightU32CannotHoldMakesTheFileF32) {
  for (std::string_view last : {"0.5", "1e3", "-3", "4294967296", "2.5E-1"}) {
    SCOPED_TRACE(last);
    const EdgeList edges = parse("0 1 2\n1 2 " + std::string(last) + "\n");
    EXPECT_EQ(edges.weight_type, WeightType::f32);
    EXPECT_EQ(as_float(edges.weights[0]), 2.0f);
    EXPECT_EQ(as_float(edges.weights[1]), std::stof(std::string(last)));
  }
}

TEST(Weights, ForcedTypesOverrideTheText) {
  ReadOptions f32;
  f32.force_weight_type = WeightType::f32;
  const EdgeList floats = parse("0 1 2\n", Format::edge_list, f32);
  EXPECT_EQ(floats.weight_type, WeightType::f32);
  EXPECT_EQ(as_float(floats.weights[0]), 2.0f);

  ReadOptions u32;
  u32.force_weight_type = WeightType::u32;
  const EdgeList real =
      parse("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 7\n", Format::mtx, u32);
  EXPECT_EQ(real.weight_type, WeightType::u32);
  EXPECT_EQ(real.weights[0], 7u);
  EXPECT_EQ(format_error("0 1 2\n1 0 2.5\n", Format::edge_list, u32),
            "g.el:2: weight '2.5' is not an unsigned 32-bit integer (the weight type is forced to "
            "u32)");
}

TEST(Weights, ForcingIsIgnoredWithoutAWeightColumn) {
  ReadOptions f32;
  f32.force_weight_type = WeightType::f32;
  EXPECT_EQ(parse("0 1\n", Format::edge_list, f32).weight_type, WeightType::none);
}

TEST(Weights, BadWeightsAreNamed) {
  EXPECT_EQ(format_error("0 1 abc\n"), "g.el:1: expected a weight, found 'abc'");
  EXPECT_EQ(format_error("0 1 +5\n"), "g.el:1: expected a weight, found '+5'");
  EXPECT_EQ(format_error("0 1 nan\n"), "g.el:1: weight 'nan' is not a finite number");
  EXPECT_EQ(format_error("0 1 -inf\n"), "g.el:1: weight '-inf' is not a finite number");
  EXPECT_EQ(format_error("0 1 1e99\n"), "g.el:1: weight '1e99' does not fit in a 32-bit float");
}

// --- large inputs: many chunks -----------------------------------------------------------------

// "i (i*7 mod 1000003) (i mod 100)" for i < lines: several MB, so many chunks.
std::string big_text(std::size_t lines) {
  std::string text = "# generated\n";
  for (std::size_t i = 0; i < lines; ++i) {
    text += std::to_string(i) + ' ' + std::to_string(i * 7 % 1000003) + ' ' +
            std::to_string(i % 100) + '\n';
  }
  return text;
}

TEST(LargeInput, ChunksConcatenateInFileOrderWhateverTheThreadCount) {
  const std::string text = big_text(300000);
  ReadOptions one;
  one.threads = 1;
  ReadOptions two;
  two.threads = 2;
  const EdgeList a = parse(text, Format::edge_list, one);
  const EdgeList b = parse(text, Format::edge_list, two);
  ASSERT_EQ(a.size(), 300000u);
  EXPECT_EQ(file_order(a), file_order(b));
  const std::vector<Edge> edges = file_order(b);
  vid_t max_id = 0;
  for (std::size_t i = 0; i < edges.size(); ++i) {
    const Edge expected(static_cast<vid_t>(i), static_cast<vid_t>(i * 7 % 1000003),
                        static_cast<std::uint32_t>(i % 100));
    ASSERT_EQ(edges[i], expected);
    max_id = std::max({max_id, std::get<0>(expected), std::get<1>(expected)});
  }
  EXPECT_EQ(a.num_vertices, max_id + 1);
}

TEST(LargeInput, AFloatInTheLastChunkMakesEveryChunkF32) {
  const std::string text = big_text(300000) + "7 8 0.25\n";
  const EdgeList edges = parse(text);
  EXPECT_EQ(edges.weight_type, WeightType::f32);
  EXPECT_EQ(as_float(edges.weights[99]), 99.0f);
  EXPECT_EQ(as_float(edges.weights[300000]), 0.25f);
}

TEST(LargeInput, ErrorLineNumbersAreExactAcrossChunks) {
  std::string text = big_text(300000);  // line 1 is the comment, edge i is on line i + 2
  const std::size_t line_of_edge = 250000 + 2;
  const std::size_t at = text.find("\n250000 ") + 1;
  text.insert(at, "x 1 2\n");
  EXPECT_EQ(format_error(text),
            "g.el:" + std::to_string(line_of_edge) + ": expected a vertex id, found 'x'");
  text.insert(text.find("\n1000 ") + 1, "1 2\n");  // an earlier error wins
  EXPECT_EQ(format_error(text),
            "g.el:1002: missing weight (the first edge line had a weight column, this one does "
            "not)");
}

// --- bad input: exact messages -----------------------------------------------------------------

TEST(BadInput, MalformedIds) {
  EXPECT_EQ(format_error("# c\n0 1\nx 2\n"), "g.el:3: expected a vertex id, found 'x'");
  EXPECT_EQ(format_error("0 12x\n"), "g.el:1: expected a vertex id, found '12x'");
  EXPECT_EQ(format_error("0\n"), "g.el:1: expected a vertex id, found the end of the line");
  EXPECT_EQ(format_error("0 -\n"), "g.el:1: expected a vertex id, found '-'");
  EXPECT_EQ(format_error("0 \x01\xff\n"), "g.el:1: expected a vertex id, found '\\x01\\xff'");
  EXPECT_EQ(format_error("0 1 # trailing comment\n"), "g.el:1: expected a weight, found '#'");
}

TEST(BadInput, IdsOutOfRange) {
  EXPECT_EQ(format_error("0 1\n1 2\n2 3\n3 4\n4 5\n5 6\n4294967296 1\n"),
            "g.el:7: vertex id 4294967296 is above the largest allowed (4294967294)");
  EXPECT_EQ(format_error("0 4294967295\n"),
            "g.el:1: vertex id 4294967295 is above the largest allowed (4294967294)");
  EXPECT_EQ(format_error("0 99999999999999999999999\n"),
            "g.el:1: vertex id 99999999999999999999999 is above the largest allowed "
            "(4294967294)");
}

TEST(BadInput, NegativeIds) {
  EXPECT_EQ(format_error("0 1\n-1 2\n"), "g.el:2: negative vertex id '-1'");
  EXPECT_EQ(format_error("0 -17\n"), "g.el:1: negative vertex id '-17'");
}

TEST(BadInput, ColumnsThatDoNotMatchTheFirstEdgeLine) {
  EXPECT_EQ(format_error("0 1 2\n1 0 2\n"
                         "1 2 3\n2 3 4\n3 4\n",
                         Format::edge_list),
            "g.el:5: missing weight (the first edge line had a weight column, this one does not)");
  EXPECT_EQ(format_error("0 1 2\n1 2 3\n3 0 1\n3 4\n", Format::wel),
            "g.wel:4: missing weight (every line of a .wel file has three columns)");
  EXPECT_EQ(format_error("0 1\n1 2 3\n"),
            "g.el:2: unexpected third column '3' (the first edge line had two columns)");
  EXPECT_EQ(format_error("0 1 2 3\n"),
            "g.el:1: unexpected fourth column '3' (a line has at most three: source, target, "
            "weight)");
  EXPECT_EQ(format_error("0 1 2 x\n", Format::wel),
            "g.wel:1: unexpected fourth column 'x' (a .wel line has three columns: source, "
            "target, weight)");
}

constexpr std::string_view kIntegerBanner = "%%MatrixMarket matrix coordinate integer general\n";

TEST(BadInput, MatrixMarketBanner) {
  EXPECT_EQ(format_error("1 2\n", Format::mtx),
            "g.mtx:1: not a Matrix Market file (expected '%%MatrixMarket matrix coordinate ...')");
  EXPECT_EQ(format_error("%%MatrixMarket matrix coordinate real\n", Format::mtx),
            "g.mtx:1: expected '%%MatrixMarket matrix coordinate <field> <symmetry>' on the "
            "first line");
  EXPECT_EQ(format_error("%%MatrixMarket matrix array real general\n3 3\n", Format::mtx),
            "g.mtx:1: storage 'array' is not supported (a graph needs 'coordinate')");
  EXPECT_EQ(format_error("%%MatrixMarket matrix coordinate complex general\n", Format::mtx),
            "g.mtx:1: field 'complex' is not supported (use pattern, integer or real)");
  EXPECT_EQ(format_error("%%MatrixMarket matrix coordinate real hermitian\n", Format::mtx),
            "g.mtx:1: symmetry 'hermitian' is not supported (use general or symmetric)");
  EXPECT_EQ(format_error("%%MatrixMarket matrix coordinate integer skew-symmetric\n", Format::mtx),
            "g.mtx:1: symmetry 'skew-symmetric' is not supported (use general or symmetric)");
}

TEST(BadInput, MatrixMarketSizeLine) {
  EXPECT_EQ(format_error(std::string(kIntegerBanner) + "% c\n12 12\n", Format::mtx),
            "g.mtx:3: expected the size line 'rows columns entries', found '12 12'");
  EXPECT_EQ(format_error(std::string(kIntegerBanner) + "3 -3 1\n", Format::mtx),
            "g.mtx:2: expected the size line 'rows columns entries', found '3 -3 1'");
  EXPECT_EQ(format_error(std::string(kIntegerBanner) + "4294967296 1 0\n", Format::mtx),
            "g.mtx:2: matrix size 4294967296 is above the largest vertex count allowed "
            "(4294967295)");
  EXPECT_EQ(format_error(std::string(kIntegerBanner) + "% only comments\n", Format::mtx),
            "g.mtx: missing the size line 'rows columns entries' after the header");
}

TEST(BadInput, MatrixMarketEntries) {
  const std::string header = std::string(kIntegerBanner) + "12 12 3\n";
  EXPECT_EQ(format_error(header + "1 2 3\n0 2 3\n", Format::mtx),
            "g.mtx:4: vertex id 0 is below 1 (Matrix Market ids start at 1)");
  EXPECT_EQ(format_error(header + "1 13 3\n", Format::mtx),
            "g.mtx:3: vertex id 13 is above the matrix size (12)");
  EXPECT_EQ(format_error(header + "1 2\n", Format::mtx),
            "g.mtx:3: missing value (entries of a 'integer' matrix have three columns: row, "
            "column, value)");
  EXPECT_EQ(format_error("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 1\n2 1 5\n",
                         Format::mtx),
            "g.mtx:3: unexpected third column '5' (a 'pattern' matrix has no values)");
}

TEST(BadInput, MatrixMarketEntryCount) {
  std::string text = std::string(kIntegerBanner) + "12 12 12\n";
  for (int i = 1; i <= 11; ++i)
    text += std::to_string(i) + " " + std::to_string(i + 1) + " 1\n";
  EXPECT_EQ(format_error(text, Format::mtx),
            "g.mtx: expected 12 entries, found 11 (file truncated?)");
  text += "12 1 1\n1 1 1\n";
  EXPECT_EQ(format_error(text, Format::mtx),
            "g.mtx: expected 12 entries, found 13 (is the size line wrong?)");
}

TEST(BadInput, DimacsProblemLine) {
  EXPECT_EQ(format_error("c no problem line\n\nc at all\n", Format::gr),
            "g.gr: missing the problem line 'p sp <vertices> <arcs>'");
  EXPECT_EQ(format_error("c comment\na 1 2 3\np sp 2 1\n", Format::gr),
            "g.gr:2: arc before the problem line 'p sp <vertices> <arcs>'");
  EXPECT_EQ(format_error("p sp 3 1\na 1 2 3\np sp 3 1\n", Format::gr),
            "g.gr:3: a second problem line (the first is line 1)");
  EXPECT_EQ(format_error("c\np max 3 2\n", Format::gr),
            "g.gr:2: problem 'max' is not supported (a graph is 'p sp <vertices> <arcs>', a "
            "shortest-path problem)");
  EXPECT_EQ(format_error("p sp 3\n", Format::gr),
            "g.gr:1: expected the problem line 'p sp <vertices> <arcs>', found 'p sp 3'");
  EXPECT_EQ(format_error("p sp 3 2 1\n", Format::gr),
            "g.gr:1: expected the problem line 'p sp <vertices> <arcs>', found 'p sp 3 2 1'");
  EXPECT_EQ(format_error("p sp -3 2\n", Format::gr),
            "g.gr:1: expected the problem line 'p sp <vertices> <arcs>', found 'p sp -3 2'");
  EXPECT_EQ(format_error("p\n", Format::gr),
            "g.gr:1: expected the problem line 'p sp <vertices> <arcs>', found 'p'");
  EXPECT_EQ(format_error("p sp 4294967296 0\n", Format::gr),
            "g.gr:1: vertex count 4294967296 is above the largest allowed (4294967295)");
}

TEST(BadInput, DimacsLineTypes) {
  EXPECT_EQ(format_error("x 1 2\np sp 3 1\n", Format::gr),
            "g.gr:1: unknown line type 'x' (DIMACS lines start with c, p or a)");
  EXPECT_EQ(format_error("p sp 3 2\na 1 2 3\ne 2 3\n", Format::gr),
            "g.gr:3: unknown line type 'e' (DIMACS lines start with c, p or a)");
  EXPECT_EQ(format_error("p sp 3 1\nc fine\ncomment 1\n", Format::gr),
            "g.gr:3: unknown line type 'comment' (DIMACS lines start with c, p or a)");
  EXPECT_EQ(format_error("p sp 3 1\na1 2 3\n", Format::gr),
            "g.gr:2: unknown line type 'a1' (DIMACS lines start with c, p or a)");
  EXPECT_EQ(format_error("p sp 3 1\n1 2 3\n", Format::gr),
            "g.gr:2: unknown line type '1' (DIMACS lines start with c, p or a)");
}

TEST(BadInput, DimacsArcs) {
  const std::string header = "c header\np sp 12 3\n";
  EXPECT_EQ(format_error(header + "a 1 2 3\na 0 2 3\n", Format::gr),
            "g.gr:4: vertex id 0 is below 1 (DIMACS vertex ids start at 1)");
  EXPECT_EQ(format_error(header + "a 1 13 3\n", Format::gr),
            "g.gr:3: vertex id 13 is above the problem line's vertex count (12)");
  EXPECT_EQ(format_error(header + "a 1 2\n", Format::gr),
            "g.gr:3: missing weight (an arc line is 'a <from> <to> <weight>')");
  EXPECT_EQ(format_error(header + "a 1\n", Format::gr),
            "g.gr:3: expected a vertex id, found the end of the line");
  EXPECT_EQ(format_error(header + "a\n", Format::gr),
            "g.gr:3: expected a vertex id, found the end of the line");
  EXPECT_EQ(format_error(header + "a 1 2 3 4\n", Format::gr),
            "g.gr:3: unexpected fifth column '4' (an arc line has four: a, from, to, weight)");
  EXPECT_EQ(format_error(header + "a -1 2 3\n", Format::gr), "g.gr:3: negative vertex id '-1'");
}

TEST(BadInput, DimacsWeights) {
  const std::string header = "p sp 12 3\n";
  const std::string why =
      " is not an integer from 0 to 4294967295 (DIMACS arc weights are non-negative integers)";
  for (std::string_view weight : {"-3", "2.5", "1e3", "4294967296", "+5", "x"}) {
    EXPECT_EQ(format_error(header + "a 1 2 " + std::string(weight) + "\n", Format::gr),
              "g.gr:2: weight '" + std::string(weight) + "'" + why);
  }
  ReadOptions u32;
  u32.force_weight_type = WeightType::u32;
  EXPECT_EQ(format_error(header + "a 1 2 0.5\n", Format::gr, u32), "g.gr:2: weight '0.5'" + why);
}

TEST(BadInput, DimacsArcCount) {
  std::string text = "p sp 12 12\n";
  for (int i = 1; i <= 11; ++i)
    text += "a " + std::to_string(i) + " " + std::to_string(i + 1) + " 1\n";
  EXPECT_EQ(format_error(text, Format::gr),
            "g.gr: the problem line declares 12 arcs, but the file has 11 (fewer: file "
            "truncated?)");
  text += "a 12 1 1\na 1 1 1\n";
  EXPECT_EQ(format_error(text, Format::gr),
            "g.gr: the problem line declares 12 arcs, but the file has 13 (more: is the problem "
            "line wrong?)");
}

TEST(BadInput, FilesThatCannotBeRead) {
  const TempDir dir;
  const auto missing = dir.path() / "missing.el";
  EXPECT_EQ(test::message_of<IoError>([&] { read_text(missing, Format::edge_list); }),
            "cannot open '" + missing.string() + "': No such file or directory");
  EXPECT_EQ(test::message_of<IoError>([&] { read_text(dir.path(), Format::edge_list); }),
            "cannot read '" + dir.path().string() + "': Is a directory");
}

TEST(BadInput, CorruptOrTruncatedGzip) {
  const TempDir dir;
  const std::string gz = read_bytes(data_file("small.txt.gz"));
  const auto junk = dir.write("junk.el.gz", "\x1f\x8b not deflate data at all");
  const auto truncated = dir.write("truncated.el", gz.substr(0, gz.size() / 2));
  const auto no_trailer = dir.write("no_trailer.el.gz", gz.substr(0, gz.size() - 4));
  const auto empty = dir.write("empty.el.gz", "");
  for (const auto& path : {junk, truncated, no_trailer, empty}) {
    EXPECT_EQ(test::message_of<IoError>([&] { read_text(path, Format::edge_list); }),
              path.string() + ": corrupt or truncated gzip data");
  }
}

TEST(BadInput, FileNameIsUsedInMessages) {
  const TempDir dir;
  const auto path = dir.write("bad.wel", "0 1 2\n3 4\n");
  EXPECT_EQ(test::message_of<FormatError>([&] { read_text(path, Format::wel); }),
            path.string() + ":2: missing weight (every line of a .wel file has three columns)");
}

}  // namespace
}  // namespace ooc
