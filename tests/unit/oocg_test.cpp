#include "ooc/partitioner/oocg.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "graph_util.hpp"
#include "ooc/core/error.hpp"
#include "ooc/partitioner/builder.hpp"
#include "ooc/partitioner/generators.hpp"
#include "ooc/partitioner/hub_sort.hpp"
#include "ooc/partitioner/sage_reorder.hpp"

namespace ooc {
namespace {

namespace fs = std::filesystem;
using EdgeRanges = std::vector<std::pair<eid_t, eid_t>>;

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

  // Overwrites bytes at `offset` of a file.
  static void poke(const fs::path& file, std::uint64_t offset, const std::string& bytes) {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(offset));
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }

  std::string read_error(const fs::path& file) {
    try {
      read_oocg(file);
    } catch (const Error& e) {
      return e.what();
    }
    return "no error";
  }

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
      version.string() + ": format version 7 is not supported (this build reads versions 1 to 3)");

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

// Two disjoint ranges, the second ending short of the last edge.
EdgeRanges two_ranges(eid_t edges) {
  return {{3, edges / 3}, {edges / 2 + 1, edges - 1}};
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

TEST_F(Oocg, ReadsOnlyTheEdgeRangesItIsAskedFor) {
  BuildOptions weighted;
  weighted.weights = parse_weight_spec("random:1-64", 5);
  // The fixture's graph, and one whose edge arrays span three 1 MiB blocks, which the ranges
  // start and end inside of.
  for (const Graph& g : {weighted_hub_sorted(), build_graph(generate_chain(700'000), weighted)}) {
    write_oocg(g, path("g.oocg"));
    OocgReadOptions options;
    options.edge_ranges = two_ranges(g.num_edges());
    expect_same_inside(read_oocg(path("g.oocg"), options), read_oocg(path("g.oocg")),
                       options.edge_ranges);
    // An empty range reads just the offsets and original ids: what a rank needs to compute the
    // partitions, and so its ranges, from.
    options.edge_ranges = {{0, 0}};
    expect_same_inside(read_oocg(path("g.oocg"), options), read_oocg(path("g.oocg")), {});
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
  options.edge_ranges = two_ranges(g.num_edges());
  FilledMemory filled;
  options.memory = &filled;
  const Graph part = read_oocg(path("g.oocg"), options);
  expect_same_inside(part, whole, options.edge_ranges);
  // The edges outside the ranges still hold the fill: the reader never wrote them.
  const EdgeRanges& r = options.edge_ranges;
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
  poke(path("g.oocg"), targets_at + (options.edge_ranges[0].second + 5) * sizeof(vid_t),
       "\xff\xff\xff\xff");
  expect_same_inside(read_oocg(path("g.oocg"), options), whole, options.edge_ranges);
  EXPECT_EQ(read_error(path("g.oocg")),
            path("g.oocg").string() +
                ": checksum mismatch in the targets section (the file is corrupted; "
                "re-create it with partition-tool)");
}

TEST_F(Oocg, RefusesEdgeRangesThatAreNotSortedDisjointAndInside) {
  const Graph g = weighted_hub_sorted();
  write_oocg(g, path("g.oocg"));
  const std::string e = std::to_string(g.num_edges());
  const auto error = [&](EdgeRanges ranges) -> std::string {
    OocgReadOptions options;
    options.edge_ranges = std::move(ranges);
    try {
      read_oocg(path("g.oocg"), options);
    } catch (const InvalidInput& refused) {
      return refused.what();
    }
    return "no InvalidInput";
  };
  const std::string at = path("g.oocg").string() + ": edge range ";
  EXPECT_EQ(error({{10, 20}, {0, 5}}),
            at + "[0, 5) starts before [10, 20) ends: ranges must be sorted and disjoint");
  EXPECT_EQ(error({{0, 10}, {5, 20}}),
            at + "[5, 20) starts before [0, 10) ends: ranges must be sorted and disjoint");
  EXPECT_EQ(error({{0, 10}, {10, g.num_edges() + 1}}),
            at + "[10, " + std::to_string(g.num_edges() + 1) + ") goes past the " + e + " edges");
  EXPECT_EQ(error({{7, 3}}), at + "[7, 3) ends before it starts");
  EXPECT_EQ(error({{0, 10}, {10, 20}, {20, 20}, {30, g.num_edges()}}), "no InvalidInput");
}

TEST_F(Oocg, AnEmptyGraphReadsWithAndWithoutRanges) {
  write_oocg(build_graph(generate_empty(3), {}), path("empty.oocg"));
  for (const EdgeRanges& ranges : {EdgeRanges{}, EdgeRanges{{0, 0}}}) {
    OocgReadOptions options;
    options.edge_ranges = ranges;
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

}  // namespace
}  // namespace ooc
