// The bounded build against the in-memory one: every generator and every reader that it streams,
// under options that change what it does, with memory so small that the edges spill into many
// ranges, must give the same file, byte for byte, its lists raw, compressed beside them or
// compressed only. Then what goes wrong: a temporary folder that
// cannot take files, a disk that fills (a file size limit, so writes fail as on a full disk) in
// the spill and in the output, a malformed line deep in a text file, too little memory.
#include "ooc/partitioner/bounded_build.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "ooc/core/error.hpp"
#include "ooc/partitioner/compress.hpp"
#include "ooc/partitioner/hub_sort.hpp"
#include "ooc/partitioner/oocg.hpp"

namespace ooc {
namespace {

namespace fs = std::filesystem;

// The least memory the bounded build takes for a graph of `vertices` vertices (16 bytes a vertex,
// 48 at hub order's peak, and 256 KiB for the edges): the edges spill into as many ranges as it
// can.
std::uint64_t tiny_memory(std::uint64_t vertices, bool hub_sorted = true) {
  return (hub_sorted ? 48 : 16) * vertices + (std::uint64_t{256} << 10);
}

std::string bytes_of(const fs::path& file) {
  std::string bytes(fs::file_size(file), '\0');
  std::ifstream(file, std::ios::binary)
      .read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return bytes;
}

class BoundedBuild : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("bounded_build_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_ / "tmp");
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path path(const std::string& name) const { return dir_ / name; }

  // Builds both ways and expects the same bytes; returns the ranges the bounded build spilled to
  // (and in `built`, the ranges it built after splitting those too large).
  std::size_t expect_same_file(EdgeList&& whole, const EdgeSource& parts,
                               const BuildOptions& options, double hub_fraction,
                               std::uint64_t memory = 0, std::size_t* built = nullptr) {
    Graph g = build_graph(std::move(whole), options);
    const std::uint64_t vertices = g.num_vertices();
    if (hub_fraction > 0.0) g = hub_sort(std::move(g), hub_fraction);
    if (stored_ != StoredLists::raw) compress(g);
    if (stored_ == StoredLists::compressed_only) drop_raw_lists(g);
    write_oocg(g, path("memory.oocg"));
    BoundedOptions bounded;
    bounded.lists = stored_;
    bounded.memory = memory != 0 ? memory : tiny_memory(vertices, hub_fraction > 0.0);
    bounded.tmp_dir = dir_ / "tmp";
    bounded.hub_fraction = hub_fraction;
    std::size_t spilled = 0;
    bounded.report = [&](const PassReport& pass) {
      const auto ranges = [&](std::string_view prefix, std::size_t* out) {
        if (out != nullptr && pass.pass.starts_with(prefix))
          *out = std::stoul(pass.pass.substr(prefix.size()));
      };
      ranges("spilling edges into ", &spilled);
      ranges("building lists in ", built);
    };
    build_bounded(parts, options, bounded, path("bounded.oocg"));
    EXPECT_EQ(bytes_of(path("bounded.oocg")), bytes_of(path("memory.oocg")));
    EXPECT_TRUE(fs::is_empty(dir_ / "tmp"));
    return spilled;
  }

  std::size_t expect_same_generated(const GeneratorSpec& spec, const BuildOptions& options,
                                    double hub_fraction) {
    return expect_same_file(generate(spec), *generated_edges_source(spec), options, hub_fraction);
  }

  std::size_t expect_same_read(const fs::path& file, Format format, const BuildOptions& options,
                               double hub_fraction) {
    const auto parts = file_edges_source(file, format);
    EXPECT_NE(parts, nullptr);
    return expect_same_file(read_edges(file, format), *parts, options, hub_fraction);
  }

  fs::path dir_;
  StoredLists stored_ = StoredLists::raw;  // what the files hold
};

GeneratorSpec spec(const std::string& kind, unsigned scale = 14) {
  GeneratorSpec s;
  s.kind = kind;
  s.scale = scale;
  s.vertices = 3000;
  return s;
}

BuildOptions undirected_random_weights() {
  BuildOptions options;
  options.undirected = true;
  options.weights = parse_weight_spec("random:1-64", 5);
  return options;
}

TEST_F(BoundedBuild, KroneckerAndUniformAsInMemoryInManyRanges) {
  EXPECT_GE(expect_same_generated(spec("kron"), {}, kDefaultHubFraction), 4u);
  EXPECT_GE(expect_same_generated(spec("kron"), undirected_random_weights(), kDefaultHubFraction),
            8u);
  BuildOptions keep;
  keep.remove_self_loops = false;
  keep.remove_duplicates = false;
  EXPECT_GE(expect_same_generated(spec("kron"), keep, 0.0), 4u);
  EXPECT_GE(expect_same_generated(spec("urand"), undirected_random_weights(), 0.3), 8u);
  EXPECT_GE(expect_same_generated(spec("urand"), {}, 0.0), 4u);
}

TEST_F(BoundedBuild, EveryOtherGeneratorAsInMemory) {
  GeneratorSpec grid = spec("grid");
  grid.rows = 100;
  grid.cols = 300;
  EXPECT_GE(expect_same_generated(grid, undirected_random_weights(), 0.0), 4u);
  EXPECT_GE(expect_same_generated(grid, {}, kDefaultHubFraction), 1u);
  for (const char* kind : {"star", "chain", "empty"})
    expect_same_generated(spec(kind), {}, kDefaultHubFraction);
  GeneratorSpec complete = spec("complete");
  complete.vertices = 300;
  EXPECT_GE(expect_same_generated(complete, {}, kDefaultHubFraction), 2u);
}

// A generator's ranges are cut by vertex count before its degrees are known: a star's centre
// makes its range too large, and it is split by degree, from its spilled records.
TEST_F(BoundedBuild, RangeTooLargeIsSplit) {
  GeneratorSpec star = spec("star");
  star.vertices = 30000;
  std::size_t built = 0;
  const std::size_t spilled =
      expect_same_file(generate(star), *generated_edges_source(star), {}, 0.0, 0, &built);
  EXPECT_GE(spilled, 2u);
  EXPECT_GT(built, spilled);
}

TEST_F(BoundedBuild, GeneratedPartsAreTheWholeListCut) {
  for (const char* kind : {"kron", "urand", "grid", "star", "chain", "complete"}) {
    GeneratorSpec s = spec(kind, 10);
    s.vertices = 50;
    const EdgeList whole = generate(s);
    ASSERT_EQ(generated_edges(s), whole.size()) << kind;
    const std::uint64_t first = whole.size() / 3, count = whole.size() / 2;
    const EdgeList part = generate_part(s, first, count);
    ASSERT_EQ(part.size(), count) << kind;
    EXPECT_EQ(part.num_vertices, whole.num_vertices) << kind;
    EXPECT_EQ(part.symmetric_input, whole.symmetric_input) << kind;
    for (std::uint64_t i = 0; i < count; ++i) {
      ASSERT_EQ(part.sources[i], whole.sources[first + i]) << kind << " edge " << first + i;
      ASSERT_EQ(part.targets[i], whole.targets[first + i]) << kind << " edge " << first + i;
    }
  }
  EXPECT_THROW(generate_part(spec("kron", 10), 16 << 10, 1), InvalidInput);
}

// The edges of a weighted Kronecker graph, for the readers' files.
struct Edges {
  std::vector<std::uint32_t> src, dst, weight;
};

Edges kronecker_edges() {
  const EdgeList list = generate(spec("kron", 13));
  Edges e;
  for (std::uint64_t i = 0; i < list.size(); ++i) {
    e.src.push_back(list.sources[i]);
    e.dst.push_back(list.targets[i]);
    e.weight.push_back(static_cast<std::uint32_t>(i * 2654435761u % 1000));
  }
  return e;
}

template <class Id>
void write_binary(const fs::path& file, const Edges& e, bool weighted) {
  std::ofstream out(file, std::ios::binary);
  for (std::size_t i = 0; i < e.src.size(); ++i) {
    const Id ids[2] = {e.src[i], e.dst[i]};
    out.write(reinterpret_cast<const char*>(ids), sizeof ids);
    if (weighted) out.write(reinterpret_cast<const char*>(&e.weight[i]), 4);
  }
}

TEST_F(BoundedBuild, EveryBinaryFormatAsInMemory) {
  const Edges e = kronecker_edges();
  write_binary<std::uint32_t>(path("g.bin32"), e, false);
  write_binary<std::uint64_t>(path("g.bin64"), e, false);
  write_binary<std::uint32_t>(path("g.wbin32"), e, true);
  write_binary<std::uint64_t>(path("g.wbin64"), e, true);
  BuildOptions undirected;
  undirected.undirected = true;
  EXPECT_GE(expect_same_read(path("g.bin32"), Format::bin32, {}, kDefaultHubFraction), 2u);
  EXPECT_GE(expect_same_read(path("g.bin64"), Format::bin64, undirected, 0.0), 4u);
  EXPECT_GE(expect_same_read(path("g.wbin32"), Format::wbin32, {}, kDefaultHubFraction), 4u);
  BuildOptions keep;
  keep.remove_duplicates = false;
  keep.undirected = true;
  EXPECT_GE(expect_same_read(path("g.wbin64"), Format::wbin64, keep, kDefaultHubFraction), 8u);
}

// Comments first, CRLF and blank lines, float weights (negative zero, exponents) beside integers:
// blocks must end at line ends and the weights be f32 in every block, as in a whole read.
TEST_F(BoundedBuild, TextEdgeListsAsInMemory) {
  const Edges e = kronecker_edges();
  {
    std::ofstream el(path("g.el"), std::ios::binary), wel(path("g.wel"), std::ios::binary);
    el << "# a SNAP header\n% and another comment\n\n";
    for (std::size_t i = 0; i < e.src.size(); ++i) {
      el << e.src[i] << '\t' << e.dst[i] << ' ' << e.weight[i] << (i % 7 == 0 ? "\r\n" : "\n");
      if (i % 1000 == 0) el << "\n# more\n";
      static const char* const kWeights[] = {"1.5", "-0.0", "3", "0.25e1", "-2", "0"};
      wel << e.src[i] << ' ' << e.dst[i] << ' ' << kWeights[i % 6] << '\n';
    }
  }
  EXPECT_GE(expect_same_read(path("g.el"), Format::edge_list, {}, kDefaultHubFraction), 4u);
  EXPECT_GE(expect_same_read(path("g.el"), Format::edge_list, undirected_random_weights(), 0.0),
            8u);
  BuildOptions undirected;
  undirected.undirected = true;
  EXPECT_GE(expect_same_read(path("g.wel"), Format::wel, undirected, kDefaultHubFraction), 8u);
}

// Compressed beside the raw lists and compressed only: the lists renamed by hub sort, sorted
// again and encoded, u32 weights packed (at 6 bits, at 10, at none for a single value; a 32-bit
// range and float weights stay raw), duplicates kept, no edges at all.
TEST_F(BoundedBuild, CompressedAsInMemoryInManyRanges) {
  const Edges e = kronecker_edges();
  write_binary<std::uint32_t>(path("g.wbin32"), e, true);
  Edges wide = e;
  for (std::size_t i = 0; i < wide.weight.size(); ++i)
    wide.weight[i] = i % 2 == 0 ? 0 : 0xFFFFFFFFu;
  write_binary<std::uint32_t>(path("wide.wbin32"), wide, true);
  {
    std::ofstream wel(path("g.wel"), std::ios::binary);
    for (std::size_t i = 0; i < e.src.size(); ++i)
      wel << e.src[i] << ' ' << e.dst[i] << ' ' << (i % 3 == 0 ? "2.5" : "-1") << '\n';
  }
  BuildOptions keep;
  keep.remove_self_loops = false;
  keep.remove_duplicates = false;
  BuildOptions single = undirected_random_weights();
  single.weights = parse_weight_spec("random:7-7", 5);
  for (const StoredLists stored : {StoredLists::raw_and_compressed, StoredLists::compressed_only}) {
    stored_ = stored;
    const bool only = stored == StoredLists::compressed_only;
    EXPECT_GE(expect_same_generated(spec("kron"), undirected_random_weights(), kDefaultHubFraction),
              8u);
    OocgInfo info = read_oocg_info(path("bounded.oocg"));
    EXPECT_TRUE(info.compressed);
    EXPECT_EQ(info.compressed_only, only);
    EXPECT_TRUE(info.packed_weights);
    EXPECT_EQ(info.weight_width, 6u);
    EXPECT_GE(expect_same_generated(spec("kron"), {}, kDefaultHubFraction), 4u);
    EXPECT_GE(expect_same_generated(spec("kron"), keep, 0.0), 4u);
    EXPECT_GE(expect_same_generated(spec("urand"), single, 0.3), 4u);
    EXPECT_EQ(read_oocg_info(path("bounded.oocg")).weight_width, 0u);
    GeneratorSpec grid = spec("grid");
    grid.rows = 100;
    grid.cols = 300;
    EXPECT_GE(expect_same_generated(grid, undirected_random_weights(), kDefaultHubFraction), 4u);
    expect_same_generated(spec("empty"), {}, kDefaultHubFraction);
    EXPECT_FALSE(read_oocg_info(path("bounded.oocg")).compressed_only);  // no edges: kept raw
    EXPECT_GE(expect_same_read(path("g.wbin32"), Format::wbin32, {}, kDefaultHubFraction), 4u);
    EXPECT_EQ(read_oocg_info(path("bounded.oocg")).weight_width, 10u);
    EXPECT_GE(expect_same_read(path("wide.wbin32"), Format::wbin32, keep, 0.0), 4u);
    EXPECT_FALSE(read_oocg_info(path("bounded.oocg")).packed_weights);
    BuildOptions undirected;
    undirected.undirected = true;
    EXPECT_GE(expect_same_read(path("g.wel"), Format::wel, undirected, kDefaultHubFraction), 8u);
    info = read_oocg_info(path("bounded.oocg"));
    EXPECT_EQ(info.weight_type, WeightType::f32);
    EXPECT_FALSE(info.packed_weights);
    EXPECT_EQ(info.compressed_only, only);
  }
}

TEST_F(BoundedBuild, FootprintCountsTheBuiltEdges) {
  const auto kron = generated_edges_source(spec("kron"));  // 2^14 vertices, 2^18 edges
  const Footprint directed = kron->footprint({});
  EXPECT_EQ(directed.spilled, (std::uint64_t{1} << 18) * 8);
  // The edge list and the lists beside it, 12 bytes an edge, and 48 a vertex.
  EXPECT_EQ(directed.in_memory, (std::uint64_t{1} << 18) * 12 + (std::uint64_t{1} << 14) * 48);
  EXPECT_EQ(kron->footprint(undirected_random_weights()).spilled, (std::uint64_t{1} << 18) * 16);
  write_binary<std::uint32_t>(path("g.wbin32"), kronecker_edges(), true);
  const Footprint weighted = file_edges_source(path("g.wbin32"), Format::wbin32)->footprint({});
  EXPECT_EQ(weighted.spilled, (std::uint64_t{1} << 17) * 12);
}

TEST_F(BoundedBuild, WhatIsReadOnlyWholeHasNoParts) {
  std::ofstream(path("g.mtx")) << "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n";
  std::ofstream(path("g.el.gz")) << "0 1\n";
  EXPECT_EQ(file_edges_source(path("g.mtx"), Format::mtx), nullptr);
  EXPECT_EQ(file_edges_source(path("g.el.gz"), Format::edge_list), nullptr);
  EXPECT_EQ(file_edges_source("/dev/null", Format::edge_list), nullptr);
  EXPECT_THROW(file_edges_source(path("missing.el"), Format::edge_list), IoError);
}

// What the build throws for `memory` (default: tiny) and the temporary folder.
std::string bounded_error(const EdgeSource& input, const BuildOptions& options,
                          const fs::path& tmp_dir, const fs::path& out,
                          std::uint64_t memory = tiny_memory(std::uint64_t{1} << 14)) {
  BoundedOptions bounded;
  bounded.memory = memory;
  bounded.tmp_dir = tmp_dir;
  bounded.hub_fraction = kDefaultHubFraction;
  try {
    build_bounded(input, options, bounded, out);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST_F(BoundedBuild, MalformedLineIsNamedAsByAWholeRead) {
  {
    std::ofstream el(path("bad.el"));
    for (int i = 0; i < 60000; ++i)
      el << i % 5000 << ' ' << (i * 7) % 5000 << '\n';
    el << "12 x\n1 2\n";
  }
  std::string whole;
  try {
    read_edges(path("bad.el"), Format::edge_list);
  } catch (const FormatError& e) {
    whole = e.what();
  }
  EXPECT_NE(whole.find(":60001: "), std::string::npos) << whole;
  EXPECT_EQ(bounded_error(*file_edges_source(path("bad.el"), Format::edge_list), {}, dir_ / "tmp",
                          path("g.oocg")),
            whole);
  EXPECT_FALSE(fs::exists(path("g.oocg")));
  EXPECT_TRUE(fs::is_empty(dir_ / "tmp"));
}

TEST_F(BoundedBuild, TemporaryFolderThatIsMissingOrAFile) {
  const auto kron = generated_edges_source(spec("kron"));
  EXPECT_EQ(bounded_error(*kron, {}, path("missing"), path("g.oocg")),
            "cannot create a temporary file in '" + path("missing").string() +
                "': No such file or directory (choose another folder with --tmp-dir)");
  std::ofstream(path("plain")) << "a file";
  EXPECT_EQ(bounded_error(*kron, {}, path("plain"), path("g.oocg")),
            "cannot create a temporary file in '" + path("plain").string() +
                "': Not a directory (choose another folder with --tmp-dir)");
  EXPECT_FALSE(fs::exists(path("g.oocg")));
}

TEST_F(BoundedBuild, ReadOnlyTemporaryFolder) {
  if (::geteuid() == 0) GTEST_SKIP() << "root writes into read-only folders";
  const auto kron = generated_edges_source(spec("kron"));
  fs::create_directories(path("read-only"));
  fs::permissions(path("read-only"), fs::perms::owner_read | fs::perms::owner_exec);
  EXPECT_EQ(bounded_error(*kron, {}, path("read-only"), path("g.oocg")),
            "cannot create a temporary file in '" + path("read-only").string() +
                "': Permission denied (choose another folder with --tmp-dir)");
}

// Files may grow to `bytes` while alive: writes beyond fail with EFBIG, as on a full disk.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) : old_signal_(std::signal(SIGXFSZ, SIG_IGN)) {
    ::getrlimit(RLIMIT_FSIZE, &old_);
    rlimit limit = old_;
    limit.rlim_cur = bytes;
    ::setrlimit(RLIMIT_FSIZE, &limit);
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &old_);
    std::signal(SIGXFSZ, old_signal_);
  }
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;

 private:
  rlimit old_{};
  void (*old_signal_)(int);
};

TEST_F(BoundedBuild, FullDiskLeavesNothingBehind) {
  const auto kron = generated_edges_source(spec("kron"));
  const std::string out_tmp = path("g.oocg").string() + ".tmp-" + std::to_string(::getpid());
  const std::string full = "': File too large (choose another folder with --tmp-dir)";
  {
    const FileSizeLimit limit(64 << 10);  // the spilled edges are more
    EXPECT_EQ(bounded_error(*kron, {}, dir_ / "tmp", path("g.oocg")),
              "cannot write a temporary file in '" + (dir_ / "tmp").string() + full);
  }
  EXPECT_FALSE(fs::exists(path("g.oocg")));
  EXPECT_FALSE(fs::exists(out_tmp));
  EXPECT_TRUE(fs::is_empty(dir_ / "tmp"));

  // Room for every temporary file, but not for the output: it fails in the last pass.
  write_oocg(build_graph(generate(spec("kron")), {}), path("whole.oocg"));
  const OocgInfo info = read_oocg_info(path("whole.oocg"));
  {
    const FileSizeLimit limit(info.num_edges * 4 + 4096);
    EXPECT_EQ(bounded_error(*kron, {}, dir_ / "tmp", path("g.oocg")),
              "cannot write '" + path("g.oocg").string() + "': File too large");
  }
  EXPECT_FALSE(fs::exists(path("g.oocg")));
  EXPECT_FALSE(fs::exists(out_tmp));
  EXPECT_TRUE(fs::is_empty(dir_ / "tmp"));
}

TEST_F(BoundedBuild, TooLittleMemoryAndCompactIdsAreRefused) {
  const auto kron = generated_edges_source(spec("kron"));
  EXPECT_EQ(bounded_error(*kron, {}, dir_ / "tmp", path("g.oocg"), 1 << 19),
            "--memory 512.0 KiB is too small for 16384 vertices: a bounded build needs at least "
            "1.00 MiB");
  BuildOptions compact;
  compact.compact_ids = true;
  EXPECT_EQ(bounded_error(*kron, compact, dir_ / "tmp", path("g.oocg")),
            "--compact-ids is not available in a bounded build (give --memory enough for an "
            "in-memory one)");
  EXPECT_FALSE(fs::exists(path("g.oocg")));
}

}  // namespace
}  // namespace ooc
