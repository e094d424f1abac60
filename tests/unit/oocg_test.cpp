#include "ooc/partitioner/oocg.hpp"

#include <gtest/gtest.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "graph_util.hpp"
#include "ooc/core/error.hpp"
#include "ooc/partitioner/builder.hpp"
#include "ooc/partitioner/compress.hpp"
#include "ooc/partitioner/generators.hpp"
#include "ooc/partitioner/hub_sort.hpp"
#include "ooc/partitioner/sage_reorder.hpp"

namespace ooc {
namespace {

namespace fs = std::filesystem;
using EdgeRanges = std::vector<std::pair<eid_t, eid_t>>;
using VertexRanges = std::vector<std::pair<vid_t, vid_t>>;

class Oocg : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("oocg_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path path(const std::string& name) const { return dir_ / name; }

  static Graph weighted_hub_sorted() {
    BuildOptions options;
    options.undirected = true;
    options.weights = parse_weight_spec("random:1-64", 5);
    return hub_sort(build_graph(generate_kronecker(10, 8, 2), options));
  }

  // A directed graph, hub sorted, weighted or not, with its in-edges.
  static Graph directed_with_in_edges(bool weighted) {
    BuildOptions options;
    if (weighted) options.weights = parse_weight_spec("random:1-64", 5);
    Graph g = hub_sort(build_graph(generate_kronecker(10, 8, 2), options));
    g.in_edges = in_edges_of(g);
    return g;
  }

  // Overwrites bytes at `offset` of a file.
  static void poke(const fs::path& file, std::uint64_t offset, const std::string& bytes) {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(offset));
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }

  static std::string peek(const fs::path& file, std::uint64_t offset, std::uint64_t bytes) {
    std::string out(bytes, '\0');
    std::ifstream f(file, std::ios::binary);
    f.seekg(static_cast<std::streamoff>(offset));
    f.read(out.data(), static_cast<std::streamsize>(bytes));
    return out;
  }

  // An (offset, length, checksum) entry, as the header and the section table hold them.
  struct Entry {
    std::uint64_t offset, bytes, checksum;
  };
  static constexpr std::uint64_t kTableSlot = 224;  // the header's entry for the section table
  enum TableEntry { kInOffsets, kInSources, kInWeights };

  static Entry entry_at(const fs::path& file, std::uint64_t at) {
    Entry e{};
    std::memcpy(&e, peek(file, at, sizeof e).data(), sizeof e);
    return e;
  }
  // Where entry i of the section table is in the file: after the table's count.
  static std::uint64_t table_entry_at(const fs::path& file, int i) {
    return entry_at(file, kTableSlot).offset + 8 + static_cast<std::uint64_t>(i) * sizeof(Entry);
  }
  static Entry table_entry(const fs::path& file, int i) {
    return entry_at(file, table_entry_at(file, i));
  }

  static std::string u64(std::uint64_t x) { return {reinterpret_cast<const char*>(&x), 8}; }
  static std::uint64_t u64_at(const fs::path& file, std::uint64_t at) {
    std::uint64_t x = 0;
    std::memcpy(&x, peek(file, at, 8).data(), 8);
    return x;
  }
  // Flips every bit of the byte at `at`.
  static void flip(const fs::path& file, std::uint64_t at) {
    poke(file, at, std::string(1, static_cast<char>(~peek(file, at, 1)[0])));
  }

  // XXH3-64 of the XXH3-64 digests of the 1 MiB blocks (docs/file-format.md, Checksums).
  static std::uint64_t tree_checksum(const std::string& bytes) {
    constexpr std::size_t kBlock = std::size_t{1} << 20;
    std::vector<std::uint64_t> digests;
    for (std::size_t at = 0; at < bytes.size(); at += kBlock)
      digests.push_back(XXH3_64bits(bytes.data() + at, std::min(kBlock, bytes.size() - at)));
    return XXH3_64bits(digests.data(), digests.size() * sizeof(std::uint64_t));
  }

  static void reseal_header(const fs::path& file) {
    poke(file, 248, u64(XXH3_64bits(peek(file, 0, 248).data(), 248)));
  }

  // Recomputes the checksums a writer would after an edit: those of the section table's sections
  // and of the table itself (when the header's slot points at one inside the file), then the
  // header's. The edit then reaches the checks behind the checksums.
  static void reseal(const fs::path& file) {
    Entry slot = entry_at(file, kTableSlot);
    if (slot.bytes >= 8 && slot.offset + slot.bytes <= fs::file_size(file)) {
      std::string table = peek(file, slot.offset, slot.bytes);
      for (std::size_t at = 8; at + sizeof(Entry) <= table.size(); at += sizeof(Entry)) {
        Entry e{};
        std::memcpy(&e, table.data() + at, sizeof e);
        if (e.offset + e.bytes > fs::file_size(file)) continue;
        e.checksum = tree_checksum(peek(file, e.offset, e.bytes));
        std::memcpy(table.data() + at, &e, sizeof e);
      }
      poke(file, slot.offset, table);
      slot.checksum = tree_checksum(table);
      poke(file, kTableSlot, {reinterpret_cast<const char*>(&slot), sizeof slot});
    }
    reseal_header(file);
  }

  // What reading (or verifying) the file throws, or "no error".
  std::string read_error(const fs::path& file, bool verify = false) {
    try {
      verify ? (void)verify_oocg(file) : (void)read_oocg(file);
    } catch (const Error& e) {
      return e.what();
    }
    return "no error";
  }
  std::string verify_error(const fs::path& file) { return read_error(file, true); }

  fs::path dir_;
};

TEST_F(Oocg, RoundTripKeepsEverything) {
  const Graph g = weighted_hub_sorted();
  write_oocg(g, path("g.oocg"));
  EXPECT_FALSE(fs::exists(path("g.oocg.tmp-" + std::to_string(::getpid()))));
  for (HostMemory* memory : {static_cast<HostMemory*>(nullptr), &default_host_memory()}) {
    OocgReadOptions options;
    options.memory = memory;
    const Graph back = read_oocg(path("g.oocg"), options);
    EXPECT_EQ(test::edge_set(back), test::edge_set(g));
    EXPECT_EQ(back.hub_count, g.hub_count);
    EXPECT_TRUE(back.symmetric);
    EXPECT_FALSE(back.sage_ordered);
    EXPECT_EQ(back.weight_type, WeightType::u32);
    ASSERT_EQ(back.original_ids.size(), g.original_ids.size());
    EXPECT_TRUE(
        std::equal(back.original_ids.begin(), back.original_ids.end(), g.original_ids.begin()));
  }
  const OocgInfo info = verify_oocg(path("g.oocg"));
  EXPECT_EQ(info.num_vertices, g.num_vertices());
  EXPECT_EQ(info.num_edges, g.num_edges());
  EXPECT_TRUE(info.permuted);
}

TEST_F(Oocg, TheSageOrderIsAFlagBit) {
  const Graph g = sage_reorder(build_graph(generate_kronecker(9, 8, 2), {}));
  write_oocg(g, path("sage.oocg"));
  EXPECT_TRUE(read_oocg(path("sage.oocg")).sage_ordered);
  const OocgInfo info = verify_oocg(path("sage.oocg"));
  EXPECT_TRUE(info.sage_ordered);
  EXPECT_EQ(info.version, 1u);  // a flag in the header, no new version
  EXPECT_EQ(info.hub_count, g.hub_count);
}

TEST_F(Oocg, EmptyGraphRoundTrips) {
  const Graph g = build_graph(generate_empty(0), {});
  write_oocg(g, path("empty.oocg"));
  const Graph back = read_oocg(path("empty.oocg"));
  EXPECT_EQ(back.num_vertices(), 0u);
  EXPECT_EQ(back.num_edges(), 0u);
}

TEST_F(Oocg, NamesEachKindOfDamage) {
  const Graph g = weighted_hub_sorted();
  const fs::path good = path("good.oocg");
  write_oocg(g, good);
  const auto copy = [&](const std::string& name) {
    fs::copy_file(good, path(name));
    return path(name);
  };

  const fs::path magic = copy("magic.oocg");
  poke(magic, 0, "NOTGRAPH");
  EXPECT_EQ(read_error(magic), magic.string() + ": not an OocGraph file (bad magic)");

  const fs::path version = copy("version.oocg");
  poke(version, 8, std::string("\x07\0\0\0", 4));
  EXPECT_EQ(
      read_error(version),
      version.string() + ": format version 7 is not supported (this build reads versions 1 to 5)");

  const fs::path header = copy("header.oocg");
  poke(header, 24, "\x01");  // the vertex count
  EXPECT_EQ(read_error(header),
            header.string() + ": header checksum mismatch (the header is corrupted)");

  const fs::path truncated = copy("truncated.oocg");
  fs::resize_file(truncated, fs::file_size(good) - 100);
  EXPECT_EQ(read_error(truncated).rfind(
                truncated.string() + ": truncated: the original-ids section ends at byte ", 0),
            0u)
      << read_error(truncated);

  const fs::path corrupt = copy("corrupt.oocg");
  // Sections start at 4 KiB boundaries: the header, then the offsets, then the targets.
  const std::uint64_t targets_at = (4096 + (g.num_vertices() + 1) * 8 + 4095) / 4096 * 4096;
  poke(corrupt, targets_at + 17, "\xff\xff");
  EXPECT_EQ(read_error(corrupt),
            corrupt.string() +
                ": checksum mismatch in the targets section (the file is corrupted; "
                "re-create it with partition-tool)");

  const fs::path tiny = path("tiny.oocg");
  std::ofstream(tiny) << "OOCG";
  EXPECT_EQ(read_error(tiny),
            tiny.string() + ": truncated: 4 bytes, shorter than the 256-byte header");

  EXPECT_EQ(read_error(path("missing.oocg")),
            "cannot open '" + path("missing.oocg").string() + "': No such file or directory");
}

// Two disjoint vertex ranges, the second ending short of the last vertex.
VertexRanges two_ranges(vid_t vertices) {
  return {{3, vertices / 3}, {vertices / 2 + 1, vertices - 1}};
}

// The edges of the vertex ranges' lists.
EdgeRanges edges_of(const Graph& g, const VertexRanges& ranges) {
  EdgeRanges edges;
  for (const auto& [first, last] : ranges)
    edges.emplace_back(g.offsets[first], g.offsets[last]);
  return edges;
}

// The arrays of `part` that read_oocg reads whole, and its edges inside `ranges`, are `whole`'s.
void expect_same_inside(const Graph& part, const Graph& whole, const EdgeRanges& ranges) {
  ASSERT_EQ(part.num_edges(), whole.num_edges());
  ASSERT_EQ(part.weights.size(), whole.weights.size());
  EXPECT_TRUE(std::equal(part.offsets.begin(), part.offsets.end(), whole.offsets.begin(),
                         whole.offsets.end()));
  EXPECT_TRUE(std::equal(part.original_ids.begin(), part.original_ids.end(),
                         whole.original_ids.begin(), whole.original_ids.end()));
  for (const auto& [first, last] : ranges) {
    EXPECT_TRUE(std::equal(part.targets.begin() + first, part.targets.begin() + last,
                           whole.targets.begin() + first));
    EXPECT_TRUE(std::equal(part.weights.begin() + first, part.weights.begin() + last,
                           whole.weights.begin() + first));
  }
}

TEST_F(Oocg, ReadsOnlyTheListsOfTheVertexRangesItIsAskedFor) {
  BuildOptions weighted;
  weighted.weights = parse_weight_spec("random:1-64", 5);
  // The fixture's graph, and one whose edge arrays span three 1 MiB blocks, which the ranges'
  // edges start and end inside of.
  for (const Graph& g : {weighted_hub_sorted(), build_graph(generate_chain(700'000), weighted)}) {
    write_oocg(g, path("g.oocg"));
    const Graph whole = read_oocg(path("g.oocg"));
    OocgReadOptions options;
    options.vertex_ranges = two_ranges(g.num_vertices());
    expect_same_inside(read_oocg(path("g.oocg"), options), whole,
                       edges_of(whole, options.vertex_ranges));
    // A part of no vertices reads just the offsets and original ids: what a rank needs to
    // compute the partitions, and so its ranges, from.
    options.vertex_ranges = {{0, 0}};
    expect_same_inside(read_oocg(path("g.oocg"), options), whole, {});
  }
}

// Host memory whose every byte starts as 0xab, to see which bytes the reader wrote.
class FilledMemory final : public HostMemory {
 public:
  void* allocate(std::size_t bytes) override {
    return std::memset(default_host_memory().allocate(bytes), 0xab, bytes);
  }
  void deallocate(void* p, std::size_t bytes) noexcept override {
    default_host_memory().deallocate(p, bytes);
  }
  std::string_view name() const override { return "filled"; }
};

TEST_F(Oocg, EdgesOutsideTheRangesAreNotRead) {
  const Graph g = weighted_hub_sorted();
  write_oocg(g, path("g.oocg"));
  const Graph whole = read_oocg(path("g.oocg"));
  OocgReadOptions options;
  options.vertex_ranges = two_ranges(g.num_vertices());
  const EdgeRanges r = edges_of(whole, options.vertex_ranges);
  FilledMemory filled;
  options.memory = &filled;
  const Graph part = read_oocg(path("g.oocg"), options);
  expect_same_inside(part, whole, r);
  // The edges outside the ranges still hold the fill: the reader never wrote them.
  for (const auto* array : {&part.targets, &part.weights}) {
    for (const auto& [first, last] :
         EdgeRanges{{0, r[0].first}, {r[0].second, r[1].first}, {r[1].second, g.num_edges()}}) {
      EXPECT_TRUE(std::all_of(array->begin() + first, array->begin() + last,
                              [](std::uint32_t x) { return x == 0xabababab; }));
    }
  }
  options.memory = nullptr;
  // Corrupt the targets between the two ranges: a read of the ranges never sees it (and cannot
  // check the section's checksum), a read of the whole file does.
  const std::uint64_t targets_at = (4096 + (g.num_vertices() + 1) * 8 + 4095) / 4096 * 4096;
  ASSERT_LT(r[0].second + 5, r[1].first);
  poke(path("g.oocg"), targets_at + (r[0].second + 5) * sizeof(vid_t), "\xff\xff\xff\xff");
  expect_same_inside(read_oocg(path("g.oocg"), options), whole, r);
  EXPECT_EQ(read_error(path("g.oocg")),
            path("g.oocg").string() +
                ": checksum mismatch in the targets section (the file is corrupted; "
                "re-create it with partition-tool)");
}

TEST_F(Oocg, RefusesVertexRangesThatAreNotSortedDisjointAndInside) {
  const Graph g = weighted_hub_sorted();
  write_oocg(g, path("g.oocg"));
  const vid_t n = g.num_vertices();
  const auto error = [&](VertexRanges ranges) -> std::string {
    OocgReadOptions options;
    options.vertex_ranges = std::move(ranges);
    try {
      read_oocg(path("g.oocg"), options);
    } catch (const InvalidInput& refused) {
      return refused.what();
    }
    return "no InvalidInput";
  };
  const std::string at = path("g.oocg").string() + ": vertex range ";
  EXPECT_EQ(error({{10, 20}, {0, 5}}),
            at + "[0, 5) starts before [10, 20) ends: ranges must be sorted and disjoint");
  EXPECT_EQ(error({{0, 10}, {5, 20}}),
            at + "[5, 20) starts before [0, 10) ends: ranges must be sorted and disjoint");
  EXPECT_EQ(
      error({{0, 10}, {10, n + 1}}),
      at + "[10, " + std::to_string(n + 1) + ") goes past the " + std::to_string(n) + " vertices");
  EXPECT_EQ(error({{7, 3}}), at + "[7, 3) ends before it starts");
  EXPECT_EQ(error({{0, 10}, {10, 20}, {20, 20}, {30, n}}), "no InvalidInput");
}

TEST_F(Oocg, AnEmptyGraphReadsWithAndWithoutRanges) {
  write_oocg(build_graph(generate_empty(3), {}), path("empty.oocg"));
  for (const VertexRanges& ranges : {VertexRanges{}, VertexRanges{{0, 0}}, VertexRanges{{0, 3}}}) {
    OocgReadOptions options;
    options.vertex_ranges = ranges;
    const Graph back = read_oocg(path("empty.oocg"), options);
    EXPECT_EQ(back.num_vertices(), 3u);
    EXPECT_EQ(back.num_edges(), 0u);
  }
}

// Host memory that cuts the file to its header when the reader asks for its first array: the
// file shrinks after it was opened and checked, as when another program truncates it.
class TruncatingMemory final : public HostMemory {
 public:
  explicit TruncatingMemory(fs::path file) : file_(std::move(file)) {}
  void* allocate(std::size_t bytes) override {
    fs::resize_file(file_, 256);
    return default_host_memory().allocate(bytes);
  }
  void deallocate(void* p, std::size_t bytes) noexcept override {
    default_host_memory().deallocate(p, bytes);
  }
  std::string_view name() const override { return "truncating"; }

 private:
  fs::path file_;
};

TEST_F(Oocg, AFileTruncatedWhileBeingReadIsAnErrorNotACrash) {
  write_oocg(weighted_hub_sorted(), path("g.oocg"));
  TruncatingMemory memory(path("g.oocg"));
  OocgReadOptions options;
  options.memory = &memory;
  try {
    read_oocg(path("g.oocg"), options);
    FAIL() << "read a truncated file";
  } catch (const FormatError& e) {
    EXPECT_EQ(std::string(e.what()).substr(0, std::string(e.what()).find(": byte")),
              path("g.oocg").string() + ": truncated while being read");
    EXPECT_NE(std::string(e.what()).find("(it now has 256 bytes)"), std::string::npos) << e.what();
  }
}

TEST_F(Oocg, ALoadedGraphDoesNotDependOnItsFile) {
  const Graph g = weighted_hub_sorted();
  write_oocg(g, path("g.oocg"));
  const Graph loaded = read_oocg(path("g.oocg"));
  fs::resize_file(path("g.oocg"), 0);  // a mapping of it would now raise SIGBUS on access
  EXPECT_EQ(test::edge_set(loaded), test::edge_set(g));
  EXPECT_TRUE(std::equal(loaded.original_ids.begin(), loaded.original_ids.end(),
                         g.original_ids.begin(), g.original_ids.end()));
}

TEST_F(Oocg, RefusesToWriteAnInvalidGraph) {
  Graph g = build_graph(generate_chain(3), {});
  g.targets[0] = 9;
  EXPECT_THROW(write_oocg(g, path("bad.oocg")), FormatError);
  EXPECT_FALSE(fs::exists(path("bad.oocg")));
}

template <class T>
std::vector<T> values(const Buffer<T>& b) {
  return {b.begin(), b.end()};
}

// Every array read back is the one written, and a file takes version 4 only when it holds the
// in-edges: without them it keeps the version it had before there were any.
TEST_F(Oocg, InEdgesRoundTripAndAloneMakeVersion4) {
  const auto plain = [](bool weighted) {
    Graph g = directed_with_in_edges(weighted);
    g.in_edges = {};
    return g;
  };
  const auto compressed = [](bool in_edges) {
    BuildOptions options;
    options.weights = parse_weight_spec("random:1-64", 5);
    Graph g = build_graph(generate_kronecker(10, 8, 2), options);
    compress(g);
    if (in_edges) g.in_edges = in_edges_of(g);
    return g;
  };
  const auto no_edges = [](vid_t vertices) {
    Graph g = build_graph(generate_empty(vertices), {});
    g.in_edges = in_edges_of(g);
    return g;
  };
  const std::vector<std::tuple<std::string, std::function<Graph()>, std::uint32_t>> cases{
      {"unweighted", [] { return directed_with_in_edges(false); }, 4},
      {"weighted", [] { return directed_with_in_edges(true); }, 4},
      {"compressed, packed weights", [&] { return compressed(true); }, 4},
      {"no edges", [&] { return no_edges(5); }, 4},
      {"no vertices", [&] { return no_edges(0); }, 4},
      {"unweighted, no in-edges", [&] { return plain(false); }, 1},
      {"weighted, no in-edges", [&] { return plain(true); }, 1},
      {"compressed, no in-edges", [&] { return compressed(false); }, 3}};
  for (const auto& [name, make, version] : cases) {
    SCOPED_TRACE(name);
    const Graph g = make();
    write_oocg(g, path("g.oocg"));
    const OocgInfo info = verify_oocg(path("g.oocg"));
    EXPECT_EQ(info.version, version);
    EXPECT_EQ(info.in_edges, g.has_in_edges());
    const Graph back = read_oocg(path("g.oocg"));
    EXPECT_EQ(values(back.offsets), values(g.offsets));
    EXPECT_EQ(values(back.targets), values(g.targets));
    EXPECT_EQ(values(back.weights), values(g.weights));
    EXPECT_EQ(values(back.original_ids), values(g.original_ids));
    EXPECT_EQ(back.compressed.empty(), g.compressed.empty());
    ASSERT_EQ(back.has_in_edges(), g.has_in_edges());
    EXPECT_EQ(values(back.in_edges.offsets), values(g.in_edges.offsets));
    EXPECT_EQ(values(back.in_edges.sources), values(g.in_edges.sources));
    EXPECT_EQ(values(back.in_edges.weights), values(g.in_edges.weights));
    // Files without a section table leave its slot as versions 1 to 3 did: zero.
    EXPECT_EQ(peek(path("g.oocg"), kTableSlot, sizeof(Entry)) == std::string(sizeof(Entry), '\0'),
              !g.has_in_edges());
  }
}

// A flipped byte in any of the in-edge sections or in the section table is caught by its
// checksum, the message naming the section. read_oocg_info reads the table, so it checks the
// table's checksum too, and not the sections'.
TEST_F(Oocg, NamesEachInEdgeSectionThatIsDamaged) {
  const fs::path good = path("good.oocg"), bad = path("bad.oocg");
  write_oocg(directed_with_in_edges(true), good);
  for (const auto& [name, at] : std::vector<std::pair<std::string, std::uint64_t>>{
           {"in-offsets section", table_entry(good, kInOffsets).offset + 1000},
           {"in-sources section", table_entry(good, kInSources).offset + 17},
           {"in-weights section", table_entry(good, kInWeights).offset + 4095},
           {"section table", table_entry_at(good, kInSources) + 8}}) {
    SCOPED_TRACE(name);
    fs::copy_file(good, bad, fs::copy_options::overwrite_existing);
    flip(bad, at);
    const std::string expected = bad.string() + ": checksum mismatch in the " + name +
                                 " (the file is corrupted; re-create it with partition-tool)";
    EXPECT_EQ(read_error(bad), expected);
    EXPECT_EQ(verify_error(bad), expected);
    if (name == "section table") {
      EXPECT_THROW(read_oocg_info(bad), FormatError);
    } else {
      EXPECT_TRUE(read_oocg_info(bad).in_edges);
    }
  }
}

TEST_F(Oocg, AFileCutInsideItsInEdgesIsTruncated) {
  write_oocg(directed_with_in_edges(true), path("g.oocg"));
  const Entry table = entry_at(path("g.oocg"), kTableSlot);
  const std::uint64_t cut = table_entry(path("g.oocg"), kInSources).offset + 100;
  fs::resize_file(path("g.oocg"), cut);
  const std::string expected = path("g.oocg").string() +
                               ": truncated: the section table ends at byte " +
                               std::to_string(table.offset + table.bytes) + " but the file has " +
                               std::to_string(cut) + " bytes";
  EXPECT_EQ(read_error(path("g.oocg")), expected);
  EXPECT_EQ(verify_error(path("g.oocg")), expected);
}

// Edits that keep every checksum right (the file resealed as a writer would) reach the checks
// of the table's place, length and count, and the per-section checks that cover the table's
// sections as they cover the header's.
TEST_F(Oocg, RefusesSectionTablesThatDoNotAddUp) {
  const Graph g = directed_with_in_edges(true);
  write_oocg(g, path("good.oocg"));
  const fs::path good = path("good.oocg");
  const Entry slot = entry_at(good, kTableSlot);
  const Entry sources = table_entry(good, kInSources);
  const std::string counts = " for " + std::to_string(g.num_vertices()) + " vertices and " +
                             std::to_string(g.num_edges()) + " edges";
  using Edit = std::function<void(const fs::path&)>;
  const std::vector<std::tuple<std::string, Edit, std::string>> cases{
      {"count", [&](const fs::path& f) { poke(f, slot.offset, u64(4)); },
       "counts do not add up: the section table's count is 4, expected 3 (in-offsets, "
       "in-sources, in-weights)"},
      {"table length", [&](const fs::path& f) { poke(f, kTableSlot + 8, u64(88)); },
       "counts do not add up: the section table holds 88 bytes, expected 80 (a count and 3 "
       "entries)"},
      {"table offset", [&](const fs::path& f) { poke(f, kTableSlot, u64(slot.offset + 8)); },
       "the section table starts at a bad offset"},
      {"in-sources length",
       [&](const fs::path& f) {
         poke(f, table_entry_at(f, kInSources) + 8, u64(sources.bytes - 4));
       },
       "counts do not add up: the in-sources section holds " + std::to_string(sources.bytes - 4) +
           " bytes, expected " + std::to_string(sources.bytes) + counts},
      {"in-weights over in-sources",
       [&](const fs::path& f) { poke(f, table_entry_at(f, kInWeights), u64(sources.offset)); },
       "the in-weights section starts at a bad offset"},
      {"flag bit 5 cleared", [&](const fs::path& f) { poke(f, 16, u64(u64_at(f, 16) & ~32ull)); },
       "counts do not add up: the in-offsets section holds " +
           std::to_string((g.num_vertices() + 1) * 8) + " bytes, expected 0" + counts},
      {"version 3", [&](const fs::path& f) { poke(f, 8, std::string("\x03\0\0\0", 4)); },
       "a version 3 file cannot hold in-edges (they need format version 4)"}};
  for (const auto& [name, edit, message] : cases) {
    SCOPED_TRACE(name);
    const fs::path bad = path("bad.oocg");
    fs::copy_file(good, bad, fs::copy_options::overwrite_existing);
    edit(bad);
    reseal(bad);
    EXPECT_EQ(read_error(bad), bad.string() + ": " + message);
  }
  // The resealing alone changes nothing.
  const fs::path same = path("same.oocg");
  fs::copy_file(good, same);
  reseal(same);
  EXPECT_EQ(read_error(same), "no error");
}

// Versions 1 to 3 never read the slot where version 4 keeps the section table's place: a file
// with something there reads as it always did.
TEST_F(Oocg, OldVersionsIgnoreTheSectionTableSlot) {
  const Graph g = weighted_hub_sorted();
  write_oocg(g, path("g.oocg"));
  poke(path("g.oocg"), kTableSlot, u64(4096) + u64(80) + u64(12345));
  reseal_header(path("g.oocg"));
  const Graph back = read_oocg(path("g.oocg"));
  EXPECT_EQ(test::edge_set(back), test::edge_set(g));
  EXPECT_FALSE(back.has_in_edges());
  EXPECT_EQ(verify_oocg(path("g.oocg")).version, 1u);
}

// In-edges the checksums vouch for but that are not the transpose: read_oocg takes them (it
// checks the format, not the graph), verify_oocg's validate() does not.
TEST_F(Oocg, VerifyComparesTheInEdgesWithTheOutEdges) {
  const Graph g = directed_with_in_edges(false);
  write_oocg(g, path("g.oocg"));
  vid_t v = 0;
  while (g.in_edges.degree(v) == 0)
    ++v;
  const vid_t other = (g.in_edges.sources[g.in_edges.offsets[v]] + 1) % g.num_vertices();
  poke(path("g.oocg"),
       table_entry(path("g.oocg"), kInSources).offset + g.in_edges.offsets[v] * sizeof(vid_t),
       {reinterpret_cast<const char*>(&other), sizeof other});
  reseal(path("g.oocg"));
  EXPECT_EQ(read_error(path("g.oocg")), "no error");
  EXPECT_EQ(verify_error(path("g.oocg")),
            path("g.oocg").string() +
                ": the in-edges are not the graph's edges grouped by target: vertex " +
                std::to_string(v) + "'s in-list differs");
}

// read_in_edges = false skips the in-edges, whole or in part: a damaged in-edge section goes
// unread. A part that reads them checks no checksum of theirs, and reads only its own: one whose
// vertices' in-lists miss the damage reads them as they were written.
TEST_F(Oocg, ReadsThatDoNotAskForTheInEdgesSkipThem) {
  const Graph g = directed_with_in_edges(true);
  write_oocg(g, path("g.oocg"));
  flip(path("g.oocg"), table_entry(path("g.oocg"), kInSources).offset + 5);  // in-edge 1
  EXPECT_EQ(
      read_error(path("g.oocg")),
      path("g.oocg").string() +
          ": checksum mismatch in the in-sources section (the file is corrupted; re-create it "
          "with partition-tool)");
  OocgReadOptions skip;
  skip.read_in_edges = false;
  const Graph whole = read_oocg(path("g.oocg"), skip);
  EXPECT_FALSE(whole.has_in_edges());
  EXPECT_EQ(test::edge_set(whole), test::edge_set(g));
  for (const VertexRanges& ranges : {two_ranges(g.num_vertices()), VertexRanges{{0, 0}}}) {
    OocgReadOptions part = skip;
    part.vertex_ranges = ranges;
    const Graph read = read_oocg(path("g.oocg"), part);
    EXPECT_FALSE(read.has_in_edges());
    expect_same_inside(read, whole, edges_of(whole, ranges));
  }
  vid_t past = 0;  // the first vertex whose in-list starts past the damaged in-edge
  while (g.in_edges.offsets[past] <= 1)
    ++past;
  OocgReadOptions part;
  part.vertex_ranges = {{past, g.num_vertices()}};
  const Graph read = read_oocg(path("g.oocg"), part);
  ASSERT_TRUE(read.has_in_edges());
  const eid_t from = g.in_edges.offsets[past];
  EXPECT_TRUE(std::equal(read.in_edges.sources.begin() + from, read.in_edges.sources.end(),
                         g.in_edges.sources.begin() + from));
  EXPECT_TRUE(std::equal(read.in_edges.weights.begin() + from, read.in_edges.weights.end(),
                         g.in_edges.weights.begin() + from));
}

}  // namespace
}  // namespace ooc
