// A part of a .oocg file (OocgReadOptions::vertex_ranges), as a rank of a distributed run reads
// it: the lists of its vertices in every section (raw, compressed, packed weights, in-edges) are
// the whole file's, decoded and unpacked as a filter task would, and nothing else of the list
// sections is written.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "ooc/core/codec.hpp"
#include "ooc/core/direct_reads.hpp"
#include "ooc/core/error.hpp"
#include "ooc/partitioner/builder.hpp"
#include "ooc/partitioner/compress.hpp"
#include "ooc/partitioner/generators.hpp"
#include "ooc/partitioner/hub_sort.hpp"
#include "ooc/partitioner/oocg.hpp"

namespace ooc {
namespace {

namespace fs = std::filesystem;
using VertexRanges = std::vector<std::pair<vid_t, vid_t>>;

// Host memory whose every byte starts as 0xab, to see which bytes the reader wrote.
class FilledMemory final : public HostMemory {
 public:
  void* allocate(std::size_t bytes) override {
    return std::memset(default_host_memory().allocate(bytes), kFill, bytes);
  }
  void deallocate(void* p, std::size_t bytes) noexcept override {
    default_host_memory().deallocate(p, bytes);
  }
  std::string_view name() const override { return "filled"; }
  static constexpr std::uint8_t kFill = 0xab;
};

// Host memory whose arrays start on a page, so that a test knows where the pages between two
// ranges' lists fall.
class PageAlignedMemory final : public HostMemory {
 public:
  void* allocate(std::size_t bytes) override {
    void* p = std::aligned_alloc(
        kDirectAlignment, (bytes + kDirectAlignment - 1) / kDirectAlignment * kDirectAlignment);
    if (p == nullptr) throw std::bad_alloc();
    return p;
  }
  void deallocate(void* p, std::size_t /*bytes*/) noexcept override { std::free(p); }
  std::string_view name() const override { return "page-aligned"; }
};

// Directed, weighted 1-64 (packed at 6 bits, so edges start inside bytes), hub sorted,
// compressed, with in-edges: every section a part reads.
Graph with_every_section(EdgeList edges) {
  edges.symmetric_input = false;  // the star's links one way: from the hub
  BuildOptions options;
  options.weights = parse_weight_spec("random:1-64", 7);
  Graph g = hub_sort(build_graph(std::move(edges), options));
  compress(g);
  g.in_edges = in_edges_of(g);
  return g;
}

class OocgPart : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("oocg_part_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    file_ = dir_ / "g.oocg";
  }
  void TearDown() override { fs::remove_all(dir_); }

  Graph read_part(const VertexRanges& ranges, HostMemory* memory = nullptr) const {
    OocgReadOptions options;
    options.vertex_ranges = ranges;
    options.memory = memory;
    return read_oocg(file_, options);
  }

  fs::path dir_, file_;
};

template <class T>
bool same(const Buffer<T>& a, const Buffer<T>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end());
}

template <class T>
std::vector<T> slice(const Buffer<T>& a, std::uint64_t first, std::uint64_t last) {
  return {a.begin() + first, a.begin() + last};
}

// What a part reads whole is the whole read's, and its arrays keep their full length.
void expect_whole_arrays(const Graph& part, const Graph& whole) {
  EXPECT_TRUE(same(part.offsets, whole.offsets));
  EXPECT_TRUE(same(part.original_ids, whole.original_ids));
  EXPECT_TRUE(same(part.compressed.offsets, whole.compressed.offsets));
  EXPECT_TRUE(same(part.in_edges.offsets, whole.in_edges.offsets));
  EXPECT_EQ(part.targets.size(), whole.targets.size());
  EXPECT_EQ(part.weights.size(), whole.weights.size());
  EXPECT_EQ(part.compressed.bytes.size(), whole.compressed.bytes.size());
  EXPECT_EQ(part.compressed.packed_weights.size(), whole.compressed.packed_weights.size());
  EXPECT_EQ(part.in_edges.sources.size(), whole.in_edges.sources.size());
  EXPECT_EQ(part.in_edges.weights.size(), whole.in_edges.weights.size());
  EXPECT_EQ(part.compressed.weight_width, whole.compressed.weight_width);
  EXPECT_EQ(part.compressed.weight_base, whole.compressed.weight_base);
  // The zero padding the decoders may read after each byte stream.
  for (const Buffer<std::uint8_t>* stream :
       {&part.compressed.bytes, &part.compressed.packed_weights})
    EXPECT_TRUE(std::all_of(stream->end() - codec::kPadding, stream->end(),
                            [](std::uint8_t b) { return b == 0; }));
}

// The lists of vertices [first, last) in `part`, read every way, are the whole graph's.
void expect_same_lists(const Graph& part, const Graph& whole, vid_t first, vid_t last) {
  const eid_t begin = whole.offsets[first], end = whole.offsets[last];
  EXPECT_EQ(slice(part.targets, begin, end), slice(whole.targets, begin, end));
  EXPECT_EQ(slice(part.weights, begin, end), slice(whole.weights, begin, end));
  std::vector<vid_t> decoded(end - begin);
  decode_lists(part, first, last, decoded.data());
  EXPECT_EQ(decoded, slice(whole.targets, begin, end)) << "the compressed lists";
  std::vector<std::uint32_t> unpacked(end - begin);
  unpack_weights(part.compressed, begin, end - begin, unpacked.data());
  EXPECT_EQ(unpacked, slice(whole.weights, begin, end)) << "the packed weights";
  const eid_t in_begin = whole.in_edges.offsets[first], in_end = whole.in_edges.offsets[last];
  EXPECT_EQ(slice(part.in_edges.sources, in_begin, in_end),
            slice(whole.in_edges.sources, in_begin, in_end));
  EXPECT_EQ(slice(part.in_edges.weights, in_begin, in_end),
            slice(whole.in_edges.weights, in_begin, in_end));
}

// Between the ranges (and before and after them) the list sections still hold the fill: of the
// byte streams, all but the words around the ranges' bytes and the padding after them.
void expect_unread_between(const Graph& part, const VertexRanges& ranges, const Graph& whole) {
  const auto all_fill = [](const auto& array, std::uint64_t first, std::uint64_t last) {
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(array.data());
    const std::size_t size = sizeof(*array.data());
    return std::all_of(bytes + first * size, bytes + std::max(first, last) * size,
                       [](std::uint8_t b) { return b == FilledMemory::kFill; });
  };
  constexpr std::uint64_t kMargin = 16;  // a word before, a word and the padding after
  const std::uint32_t width = whole.compressed.weight_width;
  vid_t from = 0;
  VertexRanges gaps;
  for (const auto& [first, last] : ranges) {
    gaps.emplace_back(from, first);
    from = last;
  }
  gaps.emplace_back(from, whole.num_vertices());
  for (const auto& [first, last] : gaps) {
    if (first >= last) continue;
    SCOPED_TRACE("vertices [" + std::to_string(first) + ", " + std::to_string(last) + ")");
    const eid_t e0 = whole.offsets[first], e1 = whole.offsets[last];
    EXPECT_TRUE(all_fill(part.targets, e0, e1));
    EXPECT_TRUE(all_fill(part.weights, e0, e1));
    const eid_t i0 = whole.in_edges.offsets[first], i1 = whole.in_edges.offsets[last];
    EXPECT_TRUE(all_fill(part.in_edges.sources, i0, i1));
    EXPECT_TRUE(all_fill(part.in_edges.weights, i0, i1));
    const std::uint64_t c0 = whole.compressed.offsets[first], c1 = whole.compressed.offsets[last];
    EXPECT_TRUE(all_fill(part.compressed.bytes, c0 + kMargin, c1 - std::min(c1, kMargin)));
    EXPECT_TRUE(all_fill(part.compressed.packed_weights, e0 * width / 8 + kMargin,
                         e1 * width / 8 - std::min(e1 * width / 8, kMargin)));
  }
}

// The first zero-degree vertex (out and in) at or after v, or n.
vid_t next_isolated(const Graph& g, vid_t v) {
  while (v < g.num_vertices() && (g.degree(v) != 0 || g.in_edges.degree(v) != 0))
    ++v;
  return v;
}

// The range sets a part is read with: the first vertex, the last, the middle, several, one that
// starts and ends with isolated vertices, all of them, and none.
std::vector<VertexRanges> range_sets(const Graph& g) {
  const vid_t n = g.num_vertices();
  std::vector<VertexRanges> sets{{{0, 1}},
                                 {{n - 1, n}},
                                 {{n / 2 - 7, n / 2 + 9}},
                                 {{0, 3}, {n / 8, n / 8 + 1}, {n / 3, n / 2}, {n - 20, n}},
                                 {{0, n}},
                                 {{0, 0}}};
  const vid_t a = next_isolated(g, n / 4);
  const vid_t b = next_isolated(g, a + 10);
  if (b < n) sets.push_back({{a, b + 1}});
  return sets;
}

TEST_F(OocgPart, APartReadsItsVerticesListsInEverySection) {
  // Kronecker (isolated vertices among the rest), and a star whose hub's list is longer than a
  // codec chunk (a chunk table) and has no in-edges while every leaf has one.
  for (const auto& [name, g] : {std::pair{"kron", with_every_section(generate_kronecker(10, 8, 2))},
                                std::pair{"star", with_every_section(generate_star(3000))}}) {
    write_oocg(g, file_);
    const Graph whole = read_oocg(file_);
    ASSERT_TRUE(whole.compressed.packs_weights());
    ASSERT_EQ(whole.compressed.weight_width, 6u);
    ASSERT_TRUE(whole.has_in_edges());
    const std::vector<VertexRanges> sets = range_sets(whole);
    if (std::string(name) == "kron") {
      ASSERT_EQ(sets.size(), 7u) << "no isolated vertices";
    }
    for (const VertexRanges& ranges : sets) {
      std::string text = std::string(name) + ":";
      for (const auto& [first, last] : ranges)
        text += " [" + std::to_string(first) + ", " + std::to_string(last) + ")";
      SCOPED_TRACE(text);
      FilledMemory filled;
      for (HostMemory* memory :
           {static_cast<HostMemory*>(nullptr), static_cast<HostMemory*>(&filled)}) {
        const Graph part = read_part(ranges, memory);
        expect_whole_arrays(part, whole);
        for (const auto& [first, last] : ranges)
          expect_same_lists(part, whole, first, last);
        if (memory == &filled) expect_unread_between(part, ranges, whole);
      }
    }
  }
}

TEST_F(OocgPart, APartAskedForNeitherSkipsTheCompressedListsAndTheInEdges) {
  const Graph g = with_every_section(generate_kronecker(9, 8, 3));
  write_oocg(g, file_);
  OocgReadOptions options;
  options.vertex_ranges = {{10, 200}};
  options.read_compressed = false;
  options.read_in_edges = false;
  const Graph part = read_oocg(file_, options);
  EXPECT_TRUE(part.compressed.empty());
  EXPECT_FALSE(part.compressed.packs_weights());
  EXPECT_FALSE(part.has_in_edges());
  const eid_t begin = g.offsets[10], end = g.offsets[200];
  EXPECT_EQ(slice(part.targets, begin, end), slice(g.targets, begin, end));
  // A part of no vertices still reads the in-offsets, which cut the partitions.
  options.vertex_ranges = {{0, 0}};
  options.read_in_edges = true;
  const Graph none = read_oocg(file_, options);
  EXPECT_TRUE(same(none.in_edges.offsets, g.in_edges.offsets));
  EXPECT_EQ(none.in_edges.sources.size(), g.num_edges());
}

// Without checksums an index section is read on trust: one that runs backwards at a part's range
// is refused, not followed past its section.
TEST_F(OocgPart, ACorruptedIndexIsRefusedNotFollowed) {
  const Graph g = with_every_section(generate_kronecker(9, 8, 3));
  write_oocg(g, file_);
  const vid_t v = 100;
  const std::uint64_t huge = std::uint64_t{1} << 40;
  {
    std::fstream f(file_, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(4096 + v * sizeof(eid_t)));  // offsets[v]
    f.write(reinterpret_cast<const char*>(&huge), sizeof huge);
  }
  OocgReadOptions options;
  options.vertex_ranges = {{v, v + 5}};
  options.verify_checksums = false;
  try {
    read_oocg(file_, options);
    FAIL() << "read a corrupted index";
  } catch (const FormatError& e) {
    EXPECT_EQ(std::string(e.what()),
              file_.string() + ": counts do not add up: the offsets of vertex range [100, 105) " +
                  "give [" + std::to_string(huge) + ", " + std::to_string(g.offsets[v + 5]) +
                  "), which runs backwards or past " + std::to_string(g.num_edges()) +
                  " (the file is corrupted; re-create it with partition-tool)");
  }
  options.verify_checksums = true;
  EXPECT_THROW(read_oocg(file_, options), FormatError);  // the offsets' checksum
}

// OocgLists: a part's other lists fetched into it are the whole file's, in every section;
// released, the pages wholly inside them read 0 again (sparse memory) while the part's own lists
// stay, and fetched again they are back.
TEST_F(OocgPart, ListsFetchedIntoAPartAreTheFilesAndReleasedGiveTheirPagesBack) {
  const Graph g = with_every_section(generate_kronecker(12, 8, 2));
  write_oocg(g, file_);
  const Graph whole = read_oocg(file_);
  const vid_t n = whole.num_vertices();
  const VertexRanges resident{{n / 2, n}};
  const VertexRanges fetched{{0, n / 8}, {n / 4, n / 2}};  // the hubs' lists, and others
  Graph part = read_part(resident);
  OocgLists lists(file_, OocgReadOptions{});
  const std::uint64_t bytes = lists.fetch(part, fetched);
  EXPECT_GT(bytes, whole.offsets[n / 8] * sizeof(vid_t));
  expect_same_lists(part, whole, n / 2, n);
  for (const auto& [first, last] : fetched)
    expect_same_lists(part, whole, first, last);
  lists.release(part);
  expect_same_lists(part, whole, n / 2, n);
  const eid_t begin = 2048, end = whole.offsets[n / 8];
  ASSERT_GT(end, 3 * begin);
  const std::vector<vid_t> released = slice(part.targets, begin + 2048, end - 2048);
  EXPECT_TRUE(std::all_of(released.begin(), released.end(), [](vid_t v) { return v == 0; }));
  EXPECT_EQ(lists.fetch(part, fetched), bytes);
  for (const auto& [first, last] : fetched)
    expect_same_lists(part, whole, first, last);
  lists.release(part);
  // A short run read: released as it is, the pages at its ends (which hold other lists too) stay;
  // read with its range held, they go back with the rest of the range.
  const VertexRanges run{{n / 16, n / 16 + 2}};
  ASSERT_GT(whole.offsets[n / 16], begin + 2048);
  ASSERT_LT(whole.offsets[n / 16 + 2], end - 2048);
  ASSERT_GT(whole.offsets[n / 16 + 2], whole.offsets[n / 16]);
  const auto zero = [&] {
    const std::vector<vid_t> middle = slice(part.targets, begin + 2048, end - 2048);
    return std::all_of(middle.begin(), middle.end(), [](vid_t v) { return v == 0; });
  };
  const std::uint64_t run_bytes = lists.fetch(part, run);
  EXPECT_LT(run_bytes, bytes / 4);
  // Past the page cache (where the file system allows it), a read takes the aligned 4 KiB pages
  // that hold the lists: at least their bytes.
  std::uint64_t run_lists = 0;
  for (vid_t v = n / 16; v < n / 16 + 2; ++v)
    run_lists += whole.degree(v) * sizeof(vid_t);
  EXPECT_GE(run_bytes, run_lists);
  if (lists.direct()) {
    EXPECT_EQ(run_bytes % kDirectAlignment, 0u);
  }
  expect_same_lists(part, whole, n / 16, n / 16 + 2);
  lists.release(part);
  EXPECT_FALSE(zero());
  const VertexRanges held{{0, n / 8}};
  EXPECT_EQ(lists.fetch(part, run, false, &held), run_bytes);
  expect_same_lists(part, whole, n / 16, n / 16 + 2);
  lists.release(part);
  EXPECT_TRUE(zero());
  expect_same_lists(part, whole, n / 2, n);
}

// OocgLists::release gives back no page that holds a byte of the lists the part keeps. A read of
// a byte stream's lists takes the 8-byte words around them and the padding after them: at a split
// v where those run past a page boundary that v's own bytes start before, the page ending there
// lies wholly inside what the read of [0, v) took, and used to go back, zeroing the first lists
// of [v, n) (compressed targets, or packed weights: a run's shortest paths then came out shorter).
TEST_F(OocgPart, ReleasingTheListsBeforeAPartsRangeKeepsThatRangesLists) {
  const Graph g = with_every_section(generate_kronecker(12, 8, 2));
  write_oocg(g, file_);
  const Graph whole = read_oocg(file_);
  const vid_t n = whole.num_vertices();
  const std::uint32_t width = whole.compressed.weight_width;
  const std::uint64_t lists_bytes = whole.compressed.offsets[n];
  const std::uint64_t weight_bytes = codec::packed_bytes(whole.num_edges(), width);
  // Whether the read of a range whose own bytes end at `end` (where the next range's start, or
  // from `first` on when it shares a byte) reaches past a page boundary after `first`.
  const auto crosses = [](std::uint64_t first, std::uint64_t end, std::uint64_t section) {
    const std::uint64_t read_end = std::min(section, (end + 7) / 8 * 8 + codec::kPadding);
    return read_end / kDirectAlignment > first / kDirectAlignment;
  };
  // A few such splits of each byte stream.
  std::vector<vid_t> splits;
  int in_lists = 0, in_weights = 0;
  for (vid_t v = 1; v < n; ++v) {
    const std::uint64_t at = whole.compressed.offsets[v];
    const std::uint64_t bit = std::uint64_t{whole.offsets[v]} * width;
    const bool lists = in_lists < 3 && at < lists_bytes && crosses(at, at, lists_bytes);
    const bool weights = in_weights < 3 && whole.offsets[v] < whole.num_edges() &&
                         crosses(bit / 8, (bit + 7) / 8, weight_bytes);
    in_lists += lists ? 1 : 0;
    in_weights += weights ? 1 : 0;
    if (lists || weights) splits.push_back(v);
  }
  ASSERT_GT(in_lists, 0);
  ASSERT_GT(in_weights, 0);
  PageAlignedMemory memory;
  for (const vid_t v : splits) {
    SCOPED_TRACE("split at vertex " + std::to_string(v));
    Graph part = read_part({{v, n}}, &memory);
    ASSERT_EQ(reinterpret_cast<std::uintptr_t>(part.compressed.bytes.data()) % kDirectAlignment,
              0u);
    OocgLists lists(file_, OocgReadOptions{});
    const VertexRanges before{{0, v}};
    lists.fetch(part, before);
    lists.release(part);
    expect_same_lists(part, whole, v, n);
    // A run of the range read, the range held: its pages go back the same way.
    const VertexRanges run{{v - 1, v}};
    lists.fetch(part, run, false, &before);
    lists.release(part);
    expect_same_lists(part, whole, v, n);
  }
}

}  // namespace
}  // namespace ooc
