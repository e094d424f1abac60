// The tools as a user runs them: real command lines, their output, their exit codes. Each
// reader's weights survive `partition-tool convert` with no flags, `info` reports them and
// `ooc-run sssp` gives the distances worked out by hand; command-line mistakes get one line and
// exit code 64; --version says what was built.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "tool_runner.hpp"

namespace {

namespace fs = std::filesystem;

using tools_test::Ran;
using tools_test::slurp;
using tools_test::Tools;

constexpr double kInf = std::numeric_limits<double>::infinity();

// How many times `part` occurs in `text`.
std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
    ++count;
  return count;
}

// tests/data/small.*: from vertex 0, 0->1 (8), 0->8 (27), 0->9 (64), 1->3 (55), 1->6 (41),
// 8->2 (16), 3->5 (24), 6->10 (37); 4 and 11 have only out-edges, 7 none.
const std::vector<double> kSmallDistances{0, 8, 43, 63, kInf, 87, 49, kInf, 27, 64, 86, kInf};

class ToolsEachReader : public Tools, public ::testing::WithParamInterface<std::string> {};

TEST_P(ToolsEachReader, ConvertKeepsTheFilesWeightsWithNoFlag) {
  const fs::path graph = path("small.oocg");
  const Ran convert = partition_tool(
      {"convert", std::string(OOC_TEST_DATA_DIR) + "/" + GetParam(), "-o", graph.string()});
  ASSERT_EQ(convert.exit_code, 0) << convert.err;
  EXPECT_NE(convert.out.find("weights u32"), std::string::npos) << convert.out;
  const nlohmann::json described = info(graph);
  EXPECT_EQ(described["weights"], "u32") << described.dump();
  EXPECT_EQ(described["edges"], 25);
  EXPECT_EQ(sssp(graph, "0"), kSmallDistances);
}

INSTANTIATE_TEST_SUITE_P(Formats, ToolsEachReader,
                         ::testing::Values("small.el", "small.wel", "small.mtx", "small.gr",
                                           "small.txt.gz", "small.gr.gz", "small.wbin32"),
                         [](const auto& p) {
                           std::string name = p.param;
                           for (char& c : name)
                             if (c == '.') c = '_';
                           return name;
                         });

// The same edges as a binary and as a text edge list make the same .oocg file, byte for byte.
TEST_F(Tools, BinaryEdgeListConvertsToTheSameFileAsText) {
  const std::string data = std::string(OOC_TEST_DATA_DIR) + "/";
  const fs::path from_text = path("text.oocg");
  const fs::path from_binary = path("binary.oocg");
  ASSERT_EQ(partition_tool(
                {"convert", data + "small.el", "--weights", "none", "-q", "-o", from_text.string()})
                .exit_code,
            0);
  // --format wins over the name; bin64 holds no weights, so "file" gives none.
  fs::copy_file(data + "small.bin64", path("small.dat"));
  const Ran r = partition_tool({"convert", path("small.dat").string(), "--format", "bin64", "-q",
                                "-o", from_binary.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(slurp(from_binary), slurp(from_text));
}

// Under --memory a graph too large for it is built in bounded memory, with a line per pass, into
// the same file; what a bounded build cannot do is refused under --memory, and a temporary
// folder that cannot take files is named.
TEST_F(Tools, BoundedBuildWritesTheSameFile) {
  const Ran whole = partition_tool({"generate", "kron", "--scale", "13", "--undirected",
                                    "--weights", "random:1-9", "-o", path("whole.oocg").string()});
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  EXPECT_EQ(whole.out.rfind("memory: ", 0), 0u) << whole.out;
  EXPECT_NE(whole.out.find(" this machine has available (--memory to change)"), std::string::npos)
      << whole.out;
  EXPECT_EQ(whole.out.find("bounded"), std::string::npos) << whole.out;
  const std::vector<std::string> bounded{"generate",   "kron",         "--scale",
                                         "13",         "--undirected", "--weights",
                                         "random:1-9", "--memory",     "2MiB"};
  std::vector<std::string> args = bounded;
  args.insert(args.end(), {"-o", path("bounded.oocg").string()});
  const Ran r = partition_tool(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("building in bounded memory (2.00 MiB; in memory: about ", 0), 0u) << r.out;
  for (const char* pass : {"\n  spilling edges into ", "\n  building lists in ",
                           "\n  ordering vertices: 8,192 vertices in ", "\n  writing: "}) {
    EXPECT_NE(r.out.find(pass), std::string::npos) << pass << " in " << r.out;
  }
  EXPECT_EQ(r.out.find("counting edges"), std::string::npos) << r.out;  // a generator: read once
  EXPECT_NE(r.out.find("\n  compressing lists: "), std::string::npos) << r.out;  // the default
  EXPECT_NE(r.out.find(", weights packed at 4 bits"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" M/s\nwrote "), std::string::npos) << r.out;
  EXPECT_EQ(slurp(path("bounded.oocg")), slurp(path("whole.oocg")));

  // A file is read twice, counted first.
  ASSERT_EQ(partition_tool({"export", path("whole.oocg").string(), "-o", path("g.wel").string()})
                .exit_code,
            0);
  ASSERT_EQ(
      partition_tool({"convert", path("g.wel").string(), "-q", "-o", path("wel.oocg").string()})
          .exit_code,
      0);
  const Ran wel = partition_tool({"convert", path("g.wel").string(), "--memory", "2MiB", "-o",
                                  path("wel-bounded.oocg").string()});
  ASSERT_EQ(wel.exit_code, 0) << wel.err;
  EXPECT_NE(wel.out.find("\n  counting edges: 203,824 input edges in "), std::string::npos)
      << wel.out;
  EXPECT_EQ(slurp(path("wel-bounded.oocg")), slurp(path("wel.oocg")));

  // Raw only, or compressed only, as in memory.
  for (const std::string lists : {"--raw-only", "--compress-only"}) {
    ASSERT_EQ(partition_tool({"generate", "kron", "--scale", "13", "--undirected", "--weights",
                              "random:1-9", lists, "-q", "-o", path("whole-c.oocg").string()})
                  .exit_code,
              0);
    args = bounded;
    args.insert(args.end(), {lists, "-o", path("bounded-c.oocg").string()});
    const Ran c = partition_tool(args);
    ASSERT_EQ(c.exit_code, 0) << c.err;
    const bool compressed = lists == "--compress-only";
    EXPECT_EQ(c.out.find("\n  compressing lists: ") != std::string::npos, compressed) << c.out;
    EXPECT_EQ(c.out.find(", weights packed at 4 bits") != std::string::npos, compressed) << c.out;
    EXPECT_EQ(slurp(path("bounded-c.oocg")), slurp(path("whole-c.oocg"))) << lists;
  }

  // What a bounded build does not stream is refused.
  args = bounded;
  args.insert(args.end(), {"--reorder", "sage", "-o", path("sage.oocg").string()});
  const Ran sage = partition_tool(args);
  EXPECT_EQ(sage.exit_code, 1);
  EXPECT_NE(sage.err.find("partition-tool: --memory: this graph's in-memory build needs about "),
            std::string::npos)
      << sage.err;
  EXPECT_NE(sage.err.find(", more than 2.00 MiB, but --reorder sage is not available in a "
                          "bounded build (give more, or leave it out)\n"),
            std::string::npos)
      << sage.err;

  args = bounded;
  args.insert(args.end(), {"--tmp-dir", path("missing").string(), "-o", path("g.oocg").string()});
  const Ran missing = partition_tool(args);
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(missing.err,
            "partition-tool: cannot create a temporary file in '" + path("missing").string() +
                "': No such file or directory (choose another folder with --tmp-dir)\n");
  EXPECT_FALSE(fs::exists(path("g.oocg")));
  EXPECT_FALSE(fs::exists(path("sage.oocg")));
}

// Killed in the middle of a bounded build, partition-tool leaves no file at the output's name and
// nothing in its temporary folder, whose files never had names.
TEST_F(Tools, KilledBoundedBuildLeavesNothing) {
  fs::create_directories(path("tmp"));
  const std::string out = path("g.oocg").string(), log = path("log").string();
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    if (std::freopen(log.c_str(), "w", stdout) == nullptr) ::_exit(126);
    ::execl(OOC_PARTITION_TOOL, "partition-tool", "generate", "kron", "--scale", "19", "--memory",
            "32MiB", "--tmp-dir", path("tmp").c_str(), "-o", out.c_str(), nullptr);
    ::_exit(127);
  }
  // Once the edges are spilled, kill it.
  for (int i = 0; i < 6000 && slurp(log).find("spilling edges") == std::string::npos; ++i)
    ::usleep(10000);
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "it ended before it was killed: " << slurp(log);
  EXPECT_NE(slurp(log).find("spilling edges"), std::string::npos) << slurp(log);
  EXPECT_FALSE(fs::exists(out));
  EXPECT_TRUE(fs::is_empty(path("tmp")));
}

TEST_F(Tools, BadBinaryEdgeListGetsOneLine) {
  const fs::path input = path("g.bin32");
  std::ofstream(input, std::ios::binary) << std::string(13, '\0');
  const Ran r = partition_tool({"convert", input.string(), "-o", path("g.oocg").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "partition-tool: " + input.string() +
                       ": holds 13 bytes, not a whole number of 8-byte records (bin32: u32 "
                       "source, u32 target)\n");
  EXPECT_FALSE(fs::exists(path("g.oocg")));
}

TEST_F(Tools, ConvertKeepsRealWeights) {
  const fs::path graph = path("real.oocg");
  const Ran convert = partition_tool(
      {"convert", std::string(OOC_TEST_DATA_DIR) + "/small_real.mtx", "-o", graph.string()});
  ASSERT_EQ(convert.exit_code, 0) << convert.err;
  EXPECT_EQ(info(graph)["weights"], "f32");
  // 0->1 (0.5), then 1->2 (1.25) beats 0->2 (2.25), then 2->3 (0.125) beats 1->3 (3).
  EXPECT_EQ(sssp(graph, "0"), (std::vector<double>{0, 0.5, 1.75, 1.875}));
}

TEST_F(Tools, WeightsNoneDropsThemAndSsspSaysWhy) {
  const fs::path graph = path("plain.oocg");
  ASSERT_EQ(partition_tool({"convert", std::string(OOC_TEST_DATA_DIR) + "/small.wel", "-o",
                            graph.string(), "--weights", "none", "-q"})
                .exit_code,
            0);
  EXPECT_EQ(info(graph)["weights"], "none");
  const Ran r = ooc_run({"sssp", "--graph", graph.string(), "--backend", "cpu", "-q"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err,
            "ooc-run: sssp needs edge weights, and this graph has none (convert or generate it "
            "with --weights file or --weights random:1-64)\n");
}

TEST_F(Tools, GenerateStillDefaultsToNoWeights) {
  const fs::path graph = path("grid.oocg");
  ASSERT_EQ(
      partition_tool({"generate", "grid", "--rows", "3", "--cols", "3", "-o", graph.string(), "-q"})
          .exit_code,
      0);
  EXPECT_EQ(info(graph)["weights"], "none");
}

// generate road keeps its own weights with no flag (as convert keeps a file's) and makes a
// connected, symmetric graph of about 2.5 edges a vertex; --weights none drops them; built in
// bounded memory (counted first, since it has weights), it is the same file.
TEST_F(Tools, GenerateRoadKeepsItsOwnWeights) {
  const fs::path graph = path("road.oocg");
  const Ran r = partition_tool(
      {"generate", "road", "--vertices", "5000", "--seed", "3", "-o", graph.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("wrote " + graph.string() + ": 5,000 vertices, "), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(" edges (symmetric, weights u32, "), std::string::npos) << r.out;
  const nlohmann::json described = info(graph);
  EXPECT_EQ(described["vertices"], 5000);
  EXPECT_EQ(described["symmetric"], true);
  EXPECT_EQ(described["weights"], "u32");
  EXPECT_GE(described["edges"].get<double>(), 2.3 * 5000) << described.dump();
  EXPECT_LE(described["edges"].get<double>(), 2.7 * 5000) << described.dump();
  const std::vector<double> distances = sssp(graph, "0");
  ASSERT_EQ(distances.size(), 5000u);
  EXPECT_EQ(std::count(distances.begin(), distances.end(), kInf), 0);

  ASSERT_EQ(partition_tool({"generate", "road", "--vertices", "5000", "--seed", "3", "--weights",
                            "none", "-q", "-o", path("plain.oocg").string()})
                .exit_code,
            0);
  EXPECT_EQ(info(path("plain.oocg"))["weights"], "none");

  const std::vector<std::string> road{"generate", "road", "--vertices", "50000", "--seed", "3"};
  std::vector<std::string> args = road;
  args.insert(args.end(), {"-q", "-o", path("whole.oocg").string()});
  ASSERT_EQ(partition_tool(args).exit_code, 0);
  args = road;
  args.insert(args.end(), {"--memory", "3MiB", "-o", path("bounded.oocg").string()});
  const Ran bounded = partition_tool(args);
  ASSERT_EQ(bounded.exit_code, 0) << bounded.err;
  EXPECT_NE(bounded.out.find("\n  counting edges: "), std::string::npos) << bounded.out;
  EXPECT_EQ(slurp(path("bounded.oocg")), slurp(path("whole.oocg")));
}

// --compact-ids drops the vertices without edges and numbers the others 0..n-1 in their order:
// the file is valid, every edge survives, and ooc-run runs on it (it used to fail validation).
TEST_F(Tools, CompactIdsRenumberTheVerticesWithEdges) {
  const fs::path whole = path("whole.oocg"), compact = path("compact.oocg");
  for (const auto& [file, extra] : {std::pair{whole, ""}, std::pair{compact, "--compact-ids"}}) {
    std::vector<std::string> args{"generate",     "kron", "--scale",     "9",
                                  "--undirected", "-o",   file.string(), "-q"};
    if (*extra != '\0') args.emplace_back(extra);
    const Ran r = partition_tool(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  const nlohmann::json all = info(whole), kept = info(compact);
  EXPECT_EQ(kept["edges"], all["edges"]);
  EXPECT_GT(all["out_degree"]["isolated"], 0);
  EXPECT_EQ(kept["out_degree"]["isolated"], 0);  // symmetric: every kept vertex has out-edges
  EXPECT_EQ(
      kept["vertices"].get<std::uint64_t>(),
      all["vertices"].get<std::uint64_t>() - all["out_degree"]["isolated"].get<std::uint64_t>());
  const Ran r = ooc_run({"bfs,cc", "--graph", compact.string(), "--backend", "cpu", "--verify"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("verify bfs hybrid, priority on: ok"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("verify cc hybrid, priority on, afforest: ok"), std::string::npos) << r.out;
}

// The lines of an edge list in order, to compare the edges of two files whatever their order.
std::vector<std::string> sorted_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  return lines;
}

// With no flag the lists are stored raw and compressed (--compress, still accepted, writes the
// same file): info gives the bytes per edge, verify decodes every list, export gives the edges of
// the --raw-only file and converts back to the same edge list, and ooc-run's filter tasks move
// the compressed lists (or the raw ones with --compressed off) to the same distances.
TEST_F(Tools, DefaultFilesAreCompressedDescribedVerifiedExportedAndRun) {
  const fs::path graph = path("small.oocg");
  const std::string input = std::string(OOC_TEST_DATA_DIR) + "/small.wel";
  const Ran wrote = partition_tool({"convert", input, "-o", graph.string()});
  ASSERT_EQ(wrote.exit_code, 0) << wrote.err;
  EXPECT_NE(wrote.out.find(", lists compressed to "), std::string::npos) << wrote.out;
  EXPECT_EQ(wrote.out.find(", compressed only"), std::string::npos) << wrote.out;
  ASSERT_EQ(partition_tool({"convert", input, "-o", path("flag.oocg").string(), "--compress", "-q"})
                .exit_code,
            0);
  EXPECT_EQ(slurp(path("flag.oocg")), slurp(graph));

  const fs::path raw_file = path("raw.oocg");
  const Ran raw_only = partition_tool({"convert", input, "-o", raw_file.string(), "--raw-only"});
  ASSERT_EQ(raw_only.exit_code, 0) << raw_only.err;
  EXPECT_EQ(raw_only.out.find("compressed"), std::string::npos) << raw_only.out;
  EXPECT_EQ(info(raw_file)["format_version"], 1);
  EXPECT_TRUE(info(raw_file)["compressed"].is_null());
  EXPECT_NE(partition_tool({"info", raw_file.string()})
                .out.find("\ncompressed  no (partition-tool writes them unless --raw-only)\n"),
            std::string::npos);
  EXPECT_LT(fs::file_size(raw_file), fs::file_size(graph));
  EXPECT_EQ(sssp(raw_file, "0"), kSmallDistances);

  // export, and convert of the export: the same edges as the raw file's, and the same edge list.
  ASSERT_EQ(partition_tool({"export", graph.string(), "-o", path("g.wel").string()}).exit_code, 0);
  ASSERT_EQ(partition_tool({"export", raw_file.string(), "-o", path("raw.wel").string()}).exit_code,
            0);
  EXPECT_EQ(sorted_lines(slurp(path("g.wel"))), sorted_lines(slurp(path("raw.wel"))));
  EXPECT_EQ(sorted_lines(slurp(path("g.wel"))).size(), 25u);
  ASSERT_EQ(
      partition_tool({"convert", path("g.wel").string(), "-q", "-o", path("again.oocg").string()})
          .exit_code,
      0);
  EXPECT_EQ(partition_tool({"verify", path("again.oocg").string()}).exit_code, 0);
  ASSERT_EQ(
      partition_tool({"export", path("again.oocg").string(), "-o", path("again.wel").string()})
          .exit_code,
      0);
  EXPECT_EQ(slurp(path("again.wel")), slurp(path("g.wel")));

  const nlohmann::json described = info(graph);
  EXPECT_EQ(described["format_version"], 3);  // its integer weights are packed too
  ASSERT_TRUE(described["compressed"].is_object());
  EXPECT_GT(described["compressed"]["bytes_per_edge"].get<double>(), 0.0);
  ASSERT_TRUE(described["compressed"]["weights"].is_object());
  EXPECT_LT(described["compressed"]["weights"]["bits"].get<int>(), 32);
  const Ran text = partition_tool({"info", graph.string()});
  EXPECT_NE(text.out.find("bytes per edge (raw targets: 4)"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("packed at "), std::string::npos) << text.out;
  const Ran verified = partition_tool({"verify", graph.string()});
  EXPECT_EQ(verified.exit_code, 0) << verified.err;
  EXPECT_NE(verified.out.find("compressed lists decoded"), std::string::npos) << verified.out;
  EXPECT_EQ(sssp(graph, "0"), kSmallDistances);
  const Ran filtered = ooc_run({"sssp", "--graph", graph.string(), "--backend", "cpu", "--source",
                                "0", "--transfer", "filter", "--in-memory", "off"});
  EXPECT_EQ(filtered.exit_code, 0) << filtered.err;
  EXPECT_NE(filtered.out.find("(compressed lists)"), std::string::npos) << filtered.out;
  const Ran raw = ooc_run({"sssp", "--graph", graph.string(), "--backend", "cpu", "--source", "0",
                           "--transfer", "filter", "--in-memory", "off", "--compressed", "off"});
  EXPECT_EQ(raw.exit_code, 0) << raw.err;
  EXPECT_EQ(raw.out.find("(compressed lists)"), std::string::npos) << raw.out;
  const Ran in_place = ooc_run({"sssp", "--graph", graph.string(), "--backend", "cpu", "--source",
                                "0", "--transfer", "zerocopy", "--in-memory", "off", "--verify"});
  EXPECT_EQ(in_place.exit_code, 0) << in_place.err;
  EXPECT_NE(in_place.out.find("(compressed lists)"), std::string::npos) << in_place.out;
}

// --cc afforest,labels runs cc both ways, each verified and named in its summary and its --json.
TEST_F(Tools, CcRunsEachAlgorithmAskedForAndNamesIt) {
  const fs::path json = path("cc.json");
  const Ran ran = ooc_run({"cc", "--generate", "kron:10", "--backend", "cpu", "--in-memory", "off",
                           "--cc", "afforest,labels", "--verify", "--json", json.string()});
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  EXPECT_NE(ran.out.find("; afforest"), std::string::npos) << ran.out;
  EXPECT_NE(ran.out.find("; labels"), std::string::npos) << ran.out;
  EXPECT_NE(ran.out.find("verify cc hybrid, priority on, afforest: ok"), std::string::npos)
      << ran.out;
  EXPECT_NE(ran.out.find("verify cc hybrid, priority on, labels: ok"), std::string::npos)
      << ran.out;
  std::ifstream in(json);
  const nlohmann::json runs = nlohmann::json::parse(in);
  EXPECT_NE(runs.dump().find("\"method\":\"afforest\""), std::string::npos);
  EXPECT_NE(runs.dump().find("\"method\":\"labels\""), std::string::npos);
}

// --push auto,per-vertex runs pagerank with each rule, each verified against the L1 bound, the
// rule asked for and the one taken (auto's, per-edge on kron) in its summary and its --json.
TEST_F(Tools, PageRankRunsEachPushRuleAskedForAndNamesIt) {
  const fs::path json = path("pagerank.json");
  const Ran ran = ooc_run({"pagerank", "--generate", "kron:10", "--backend", "cpu", "--in-memory",
                           "off", "--tolerance", "1e-4", "--push", "auto,per-vertex", "--verify",
                           "--json", json.string()});
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  // The rule taken, then (after what the run chose otherwise: raw lists) the rule asked for.
  EXPECT_NE(ran.out.find("; per-edge; "), std::string::npos) << ran.out;
  EXPECT_NE(ran.out.find("; push auto\n"), std::string::npos) << ran.out;
  EXPECT_NE(ran.out.find("; per-vertex; "), std::string::npos) << ran.out;
  EXPECT_NE(ran.out.find("; push per-vertex\n"), std::string::npos) << ran.out;
  std::ifstream in(json);
  const nlohmann::json runs = nlohmann::json::parse(in)["runs"];
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0]["push"], "auto");
  EXPECT_EQ(runs[0]["method"], "per-edge");
  EXPECT_EQ(runs[1]["push"], "per-vertex");
  EXPECT_EQ(runs[1]["method"], "per-vertex");
}

// --compress-only: the file (version 5) leaves out the raw targets and weights, info and verify
// say so, ooc-run runs and verifies from it, exports the same edges, and refuses --compressed off
// with one line; --json gives the host bytes pinned (none on the CPU backend).
TEST_F(Tools, CompressedOnlyFilesAreSmallerDescribedVerifiedAndRun) {
  const fs::path full = path("full.oocg"), only = path("only.oocg");
  const std::string input = std::string(OOC_TEST_DATA_DIR) + "/small.wel";
  ASSERT_EQ(partition_tool({"convert", input, "-o", full.string(), "--compress", "-q"}).exit_code,
            0);
  const Ran wrote = partition_tool({"convert", input, "-o", only.string(), "--compress-only"});
  ASSERT_EQ(wrote.exit_code, 0) << wrote.err;
  EXPECT_NE(wrote.out.find(", compressed only)"), std::string::npos) << wrote.out;
  EXPECT_LT(fs::file_size(only), fs::file_size(full));
  const nlohmann::json described = info(only);
  EXPECT_EQ(described["format_version"], 5);
  EXPECT_EQ(described["compressed"]["only"], true);
  EXPECT_EQ(info(full)["compressed"]["only"], false);
  const Ran text = partition_tool({"info", only.string()});
  EXPECT_NE(text.out.find("(compressed only: no raw targets)"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("(packed only)"), std::string::npos) << text.out;
  const Ran verified = partition_tool({"verify", only.string()});
  EXPECT_EQ(verified.exit_code, 0) << verified.err;
  EXPECT_NE(verified.out.find("compressed-only lists decoded and checked"), std::string::npos)
      << verified.out;
  EXPECT_EQ(sssp(only, "0"), kSmallDistances);
  const std::string json = path("runs.json").string();
  const Ran verify =
      ooc_run({"bfs,sssp,pagerank", "--graph", only.string(), "--backend", "cpu", "--transfer",
               "hybrid,filter,compaction,zerocopy", "--verify", "--json", json});
  EXPECT_EQ(verify.exit_code, 0) << verify.err << verify.out;
  const nlohmann::json runs = nlohmann::json::parse(std::ifstream(json))["runs"];
  ASSERT_EQ(runs.size(), 12u);
  for (const nlohmann::json& run : runs) {
    EXPECT_EQ(run["compressed"], true);
    EXPECT_EQ(run["memory"]["host_pinned_bytes"], 0);
  }
  const Ran off =
      ooc_run({"bfs", "--graph", only.string(), "--backend", "cpu", "--compressed", "off"});
  EXPECT_EQ(off.exit_code, 1);
  EXPECT_EQ(off.err, "ooc-run: " + only.string() +
                         ": this file has compressed lists only, and --compressed off reads the "
                         "raw lists: run with --compressed on, or rebuild the file without "
                         "--compress-only\n");
  ASSERT_EQ(partition_tool({"export", full.string(), "-o", path("full.el").string()}).exit_code, 0);
  ASSERT_EQ(partition_tool({"export", only.string(), "-o", path("only.el").string()}).exit_code, 0);
  EXPECT_EQ(slurp(path("only.el")), slurp(path("full.el")));
}

// --in-edges: the in-lists are stored (file version 4) after every step that moves the lists
// (hub sort, SAGE's reordering, compression), verify checks them against the out-edges, and info
// says they are there.
TEST_F(Tools, InEdgesAreStoredVerifiedAndDescribed) {
  const std::vector<std::string> kron{"generate", "kron", "--scale", "10", "--in-edges"};
  for (const std::vector<std::string>& more :
       {std::vector<std::string>{"--raw-only"},
        std::vector<std::string>{"--weights", "random:1-64", "--reorder", "sage"}}) {
    const fs::path graph = path("kron.oocg");
    auto args = kron;
    args.insert(args.end(), more.begin(), more.end());
    args.insert(args.end(), {"-o", graph.string()});
    const Ran made = partition_tool(args);
    ASSERT_EQ(made.exit_code, 0) << made.err;
    EXPECT_NE(made.out.find(", with in-edges), "), std::string::npos) << made.out;
    const Ran verified = partition_tool({"verify", graph.string()});
    EXPECT_EQ(verified.exit_code, 0) << verified.err;
    EXPECT_NE(verified.out.find(" checked; in-edges match the out-edges)\n"), std::string::npos)
        << verified.out;
    const nlohmann::json described = info(graph);
    EXPECT_EQ(described["in_edges"], true) << described.dump();
    EXPECT_EQ(described["format_version"], 4);
    const Ran text = partition_tool({"info", graph.string()});
    EXPECT_NE(text.out.find("\nin-edges    yes: each vertex's in-neighbours, for the pull "
                            "direction\n"),
              std::string::npos)
        << text.out;
    // Partitions of 4 KiB: several, their in-edges adding up to the graph's.
    const Ran small =
        partition_tool({"info", graph.string(), "--partition-bytes", "4KiB", "--json"});
    ASSERT_EQ(small.exit_code, 0) << small.err;
    const nlohmann::json parts = nlohmann::json::parse(small.out)["partitions"];
    const nlohmann::json& in = parts["in_edges"];
    ASSERT_TRUE(in.is_object()) << parts.dump();
    EXPECT_GT(parts["count"].get<std::uint64_t>(), 1u);
    EXPECT_DOUBLE_EQ(in["mean"].get<double>() * parts["count"].get<double>(),
                     described["edges"].get<double>());
    EXPECT_LE(in["min"].get<std::uint64_t>(), in["max"].get<std::uint64_t>());
    EXPECT_NE(partition_tool({"info", graph.string(), "--partition-bytes", "4KiB"})
                  .out.find("in-edges per partition min "),
              std::string::npos);
  }
  const fs::path plain = path("plain.oocg");
  ASSERT_EQ(
      partition_tool({"generate", "kron", "--scale", "10", "-q", "-o", plain.string()}).exit_code,
      0);
  EXPECT_EQ(info(plain)["in_edges"], false);
  EXPECT_TRUE(info(plain)["partitions"]["in_edges"].is_null());
  EXPECT_EQ(info(plain)["format_version"], 2);  // compressed lists, no weights to pack
  EXPECT_NE(partition_tool({"info", plain.string()})
                .out.find("\nin-edges    no (partition-tool --in-edges adds them, which the pull "
                          "direction needs)\n"),
            std::string::npos);
}

// A symmetric graph's in-lists are its out-lists: --in-edges is refused, with --undirected before
// the graph is built, and on a shape that is symmetric once it is.
TEST_F(Tools, InEdgesOfASymmetricGraphAreRefused) {
  const std::string refused = "partition-tool: --in-edges is for directed graphs, and ";
  const std::string because =
      ": its in-lists are its out-lists, which the pull direction reads instead (leave out "
      "--in-edges)\n";
  const fs::path graph = path("g.oocg");
  for (const auto& [args, why] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"generate", "kron", "--scale", "10", "--undirected", "--in-edges"},
            "--undirected makes this one symmetric"},
           {{"generate", "grid", "--rows", "3", "--cols", "3", "--in-edges"},
            "this one is symmetric (its input declares it, or its shape is)"}}) {
    auto with_output = args;
    with_output.insert(with_output.end(), {"-o", graph.string()});
    const Ran r = partition_tool(with_output);
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err, refused + why + because);
    EXPECT_FALSE(fs::exists(graph));
  }
  ASSERT_EQ(partition_tool({"generate", "grid", "--rows", "3", "--cols", "3", "-o", graph.string()})
                .exit_code,
            0);
  EXPECT_NE(partition_tool({"info", graph.string()})
                .out.find("\nin-edges    not needed (symmetric: the out-lists are the in-lists)\n"),
            std::string::npos);
}

// --reorder sage: the summary line names the order and its time, info says it (and measures its
// locality), and every transfer policy gives the answers it gives in hub order, in users' ids.
TEST_F(Tools, SageOrderIsDescribedAndGivesTheSameAnswersOnEveryPolicy) {
  const fs::path hub = path("hub.oocg"), sage = path("sage.oocg");
  const std::vector<std::string> kron{"generate",     "kron",      "--scale",     "10",
                                      "--undirected", "--weights", "random:1-64", "--compress"};
  auto args = kron;
  args.insert(args.end(), {"-o", hub.string()});
  const Ran by_hub = partition_tool(args);
  ASSERT_EQ(by_hub.exit_code, 0) << by_hub.err;
  EXPECT_NE(by_hub.out.find(" hubs, hub order in "), std::string::npos) << by_hub.out;
  args = kron;
  args.insert(args.end(), {"-o", sage.string(), "--reorder", "sage", "--reorder-rounds", "3"});
  const Ran by_sage = partition_tool(args);
  ASSERT_EQ(by_sage.exit_code, 0) << by_sage.err;
  EXPECT_NE(by_sage.out.find(" hubs, sage order (3 rounds) in "), std::string::npos) << by_sage.out;
  EXPECT_EQ(partition_tool({"verify", sage.string()}).exit_code, 0);  // compressed lists decode

  const auto locality = [&](const fs::path& graph) {
    const Ran r = partition_tool({"info", graph.string(), "--json", "--locality"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(r.out);
  };
  const nlohmann::json hub_info = locality(hub), sage_info = locality(sage);
  EXPECT_EQ(hub_info["order"], "hub");
  EXPECT_EQ(sage_info["order"], "sage");
  EXPECT_EQ(sage_info["hubs"]["count"], hub_info["hubs"]["count"]);
  EXPECT_LT(sage_info["locality"]["sectors_per_tile"].get<double>(),
            hub_info["locality"]["sectors_per_tile"].get<double>());
  EXPECT_TRUE(info(hub)["locality"].is_null());  // measured only when asked
  EXPECT_NE(partition_tool({"info", sage.string()}).out.find("\norder       sage: "),
            std::string::npos);

  const Ran all = ooc_run({"bfs,sssp,cc,pagerank", "--graph", sage.string(), "--backend", "cpu",
                           "--transfer", "hybrid,filter,compaction,zerocopy,unified", "--in-memory",
                           "off", "--partition-bytes", "16KiB", "--verify", "-q"});
  EXPECT_EQ(all.exit_code, 0) << all.err;
  EXPECT_EQ(occurrences(all.out, "ok, matches the serial reference"), 4u * 5u) << all.out;
  EXPECT_EQ(sssp(sage, "5"), sssp(hub, "5"));
}

TEST_F(Tools, ReorderNoneTakesNoHubFraction) {
  const Ran r = partition_tool({"generate", "grid", "--rows", "3", "--cols", "3", "-o",
                                path("g.oocg").string(), "--reorder", "none", "--hub-sort", "0.1"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err,
            "partition-tool: --reorder none keeps the input's order and moves no hubs: leave out "
            "--hub-sort 0.1 or use --reorder hub\n");
  const Ran off = partition_tool({"generate", "grid", "--rows", "3", "--cols", "3", "-o",
                                  path("g.oocg").string(), "--reorder", "none"});
  EXPECT_EQ(off.exit_code, 0) << off.err;
  EXPECT_NE(off.out.find(" 0 hubs, natural order, lists compressed to "), std::string::npos)
      << off.out;
  EXPECT_EQ(info(path("g.oocg"))["order"], "none");
}

TEST_F(Tools, VersionSaysWhatWasBuilt) {
  std::vector<std::string> tools{OOC_PARTITION_TOOL, OOC_RUN};
#ifdef OOC_PCIE_BENCH
  tools.emplace_back(OOC_PCIE_BENCH);  // built with CUDA only; --version needs no GPU
#endif
  for (const std::string& tool : tools) {
    const Ran r = run(tool, {"--version"});
    EXPECT_EQ(r.exit_code, 0) << tool;
    const std::string name = fs::path(tool).filename().string();
    EXPECT_EQ(r.out.rfind(name + " " + OOC_VERSION + "\ncommit: ", 0), 0u) << r.out;
    EXPECT_NE(r.out.find("\nbackends: cpu"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\nbuild: "), std::string::npos) << r.out;
  }
}

#ifdef OOC_PCIE_BENCH
// pcie-bench --storage FILE (built with CUDA only) needs no GPU: it reads the file from its
// storage, the figures on three lines; a missing file gets one line.
TEST_F(Tools, PcieBenchMeasuresAFilesStorageWithoutAGpu) {
  const std::string file = path("g.oocg").string();
  ASSERT_EQ(partition_tool({"generate", "grid", "--rows", "64", "--cols", "64", "-q", "-o", file})
                .exit_code,
            0);
  const Ran r = run(OOC_PCIE_BENCH, {"--storage", file, "--quick"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("storage: " + file + " (", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("\nsequential reads: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" in 4.00 MiB blocks, 8 in flight: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nrandom 4KiB reads: median "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" us over 64 reads\n"), std::string::npos) << r.out;
  const Ran missing = run(OOC_PCIE_BENCH, {"--storage", path("missing.oocg").string()});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(missing.err, "pcie-bench: cannot open '" + path("missing.oocg").string() +
                             "': No such file or directory\n");
}
#endif

TEST_F(Tools, CommandLineMistakesGetOneLineAndExitCode64) {
  const auto expect_usage = [](const Ran& r, const std::string& line) {
    EXPECT_EQ(r.exit_code, 64) << r.err;
    EXPECT_EQ(r.err, line + "\n");
    EXPECT_EQ(r.out, "");
  };
  expect_usage(ooc_run({"bfs", "--generate", "grid:3x3", "--source", "-1"}),
               "ooc-run: --source: '-1' is not a vertex id (see ooc-run --help)");
  expect_usage(ooc_run({"bfs", "--generate", "grid:3x3", "--max-iterations", "many"}),
               "ooc-run: --max-iterations: 'many' is not a non-negative integer (see ooc-run "
               "--help)");
  expect_usage(ooc_run({"pagerank", "--generate", "grid:3x3", "--damping", "high"}),
               "ooc-run: --damping: 'high' is not a number (see ooc-run --help)");
  expect_usage(ooc_run({"pagerank", "--generate", "grid:3x3", "--damping", "0.85,x"}),
               "ooc-run: --damping: 'x' is not a number (see ooc-run --help)");
  expect_usage(ooc_run({"pagerank", "--generate", "grid:3x3", "--damping", "0.85,1"}),
               "ooc-run: --damping: '1' is not strictly between 0 and 1 (see ooc-run --help)");
  expect_usage(ooc_run({"pagerank", "--generate", "grid:3x3", "--damping", "0"}),
               "ooc-run: --damping: '0' is not strictly between 0 and 1 (see ooc-run --help)");
  expect_usage(ooc_run({"bfs", "--generate", "grid:3x3", "--threads", "0"}),
               "ooc-run: --threads: Value 0 not in range 1 to 4096 (see ooc-run --help)");
  expect_usage(ooc_run({"bfs", "--generate", "grid:3x3", "--cache", "maybe"}),
               "ooc-run: --cache: maybe not in {on,off} (see ooc-run --help)");
  expect_usage(ooc_run({"pagerank", "--generate", "grid:3x3", "--tolerance", "1e-2,high"}),
               "ooc-run: --tolerance: 'high' is not a number (see ooc-run --help)");
  // Values that must be above 0 are refused before the graph is read: the file does not exist.
  const std::string missing = path("missing.oocg").string();
  for (const std::string tolerance : {"0", "-1e-3", "1e-2,0"}) {
    const std::string bad = tolerance == "1e-2,0" ? "0" : tolerance;
    expect_usage(ooc_run({"pagerank", "--graph", missing, "--tolerance", tolerance}),
                 "ooc-run: --tolerance: '" + bad + "' is not above 0 (see ooc-run --help)");
  }
  expect_usage(ooc_run({"bfs", "--graph", missing, "--partition-bytes", "0KiB"}),
               "ooc-run: --partition-bytes: '0KiB' is not above 0 bytes (see ooc-run --help)");
  expect_usage(partition_tool({"info", missing, "--partition-bytes", "0"}),
               "partition-tool: --partition-bytes: '0' is not above 0 bytes (see partition-tool "
               "--help)");
  expect_usage(
      partition_tool({"convert", path("missing.el").string(), "-o", "x.oocg", "--memory", "0"}),
      "partition-tool: --memory: '0' is not above 0 bytes (see partition-tool --help)");
  for (const std::string l1 : {"2", "0", "-1e-3", "1e-7", "1e-2,5"}) {
    const std::string bad = l1 == "1e-2,5" ? "5" : l1;
    expect_usage(ooc_run({"pagerank", "--generate", "grid:3x3", "--l1", l1}),
                 "ooc-run: --l1: '" + bad +
                     "' is not between 1.02e-06 (float ranks' rounding) and 2 (ranks that sum to 1 "
                     "are at most 2 apart) (see ooc-run --help)");
  }
  expect_usage(ooc_run({"pagerank", "--generate", "grid:3x3", "--l1", "tight"}),
               "ooc-run: --l1: 'tight' is not a number (see ooc-run --help)");
  expect_usage(
      ooc_run({"pagerank", "--generate", "grid:3x3", "--l1", "1e-3", "--tolerance", "1e-4"}),
      "ooc-run: --tolerance excludes --l1 (see ooc-run --help)");
  expect_usage(ooc_run({"bfs", "--generate", "grid:3x3", "--compressed", "on,maybe"}),
               "ooc-run: --compressed: maybe not in {on,off} (see ooc-run --help)");
  expect_usage(ooc_run({"sssp", "--generate", "grid:3x3", "--priority-delta", "-2"}),
               "ooc-run: --priority-delta: '-2' is neither auto nor a number of at least 0 (see "
               "ooc-run --help)");
  expect_usage(ooc_run({"bfs", "--generate", "grid:3x3", "--frontier-loop", "64,0"}),
               "ooc-run: --frontier-loop: '0' is neither off nor a whole number of edges of at "
               "least 1 (see ooc-run --help)");
  const std::string shapes = "expected kron:SCALE[:EF], urand:SCALE[:EF] or grid:ROWSxCOLS";
  for (const auto& [spec, why] : std::vector<std::pair<std::string, std::string>>{
           {"grid:0x3", "a grid needs at least 1 row and 1 column"},
           {"kron:10:0", "the edge factor must be at least 1"},
           {"tree:5", shapes},
           {"grid:3x-3", shapes}}) {
    expect_usage(ooc_run({"bfs", "--generate", spec}),
                 "ooc-run: --generate: '" + spec + "': " + why + " (see ooc-run --help)");
  }
  expect_usage(ooc_run({"bfs", "--generate", "grid:3x3", "--priority", "on,sometimes"}),
               "ooc-run: --priority: unknown priority 'sometimes' (expected one of: on, off, auto) "
               "(see ooc-run --help)");
  expect_usage(ooc_run({"bfs", "--generate", "grid:3x3", "--loop-hops", "0,5"}),
               "ooc-run: --loop-hops: '5' is neither auto nor a whole number from 0 to 4 (see "
               "ooc-run --help)");
  expect_usage(ooc_run({"pagerank", "--generate", "grid:3x3", "--push", "per-edge,per-hub"}),
               "ooc-run: --push: unknown push rule 'per-hub' (expected one of: auto, per-edge, "
               "per-vertex) (see ooc-run --help)");
  expect_usage(ooc_run({"cc", "--generate", "grid:3x3", "--cc", "afforest,sideways"}),
               "ooc-run: --cc: unknown cc algorithm 'sideways' (expected one of: afforest, "
               "labels) (see ooc-run --help)");
  expect_usage(ooc_run({"bfs", "--generate", "grid:3x3", "--output", "-", "--json", "-"}),
               "ooc-run: only one of --output, --json and --trace can write to standard output "
               "('-') (see ooc-run --help)");
  expect_usage(ooc_run({"bfs", "--generate", "grid:3x3", "--no-such-flag"}),
               "ooc-run: The following argument was not expected: --no-such-flag (see ooc-run "
               "--help)");
  expect_usage(partition_tool({"convert", "-o", "x.oocg"}),
               "partition-tool: INPUT is required (see partition-tool --help)");
  expect_usage(partition_tool({"generate", "kron", "-o", "x.oocg", "--reorder", "fast"}),
               "partition-tool: --reorder: fast not in {hub,sage,none} (see partition-tool "
               "--help)");
  expect_usage(partition_tool({"generate", "kron", "-o", "x.oocg", "--scale", "-3"}),
               "partition-tool: --scale: '-3' is not a non-negative integer (see "
               "partition-tool --help)");
  // A generator's size of 0 is refused with the option: --vertices 0 would build a graph without
  // vertices, --rows or --cols 0 fall back to --scale's grid.
  for (const auto& [kind, option] :
       std::vector<std::pair<std::string, std::string>>{{"grid", "--rows"},
                                                        {"grid", "--cols"},
                                                        {"road", "--vertices"},
                                                        {"star", "--vertices"},
                                                        {"chain", "--vertices"},
                                                        {"complete", "--vertices"},
                                                        {"empty", "--vertices"},
                                                        {"kron", "--edge-factor"},
                                                        {"urand", "--edge-factor"}}) {
    expect_usage(partition_tool({"generate", kind, "-o", "x.oocg", option, "0"}),
                 "partition-tool: " + option + ": '0' is not above 0 (see partition-tool --help)");
  }
  // --raw-only contradicts the flags that store compressed lists, wherever it stands.
  expect_usage(partition_tool({"generate", "kron", "-o", "x.oocg", "--raw-only", "--compress"}),
               "partition-tool: --compress excludes --raw-only (see partition-tool --help)");
  expect_usage(
      partition_tool({"generate", "kron", "-o", "x.oocg", "--compress-only", "--raw-only"}),
      "partition-tool: --compress-only excludes --raw-only (see partition-tool --help)");
}

TEST_F(Tools, RunTimeErrorsGetOneLineAndExitCode1) {
  const Ran r = ooc_run({"bfs", "--generate", "grid:3x3", "--backend", "cpu", "--source", "9"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "ooc-run: vertex 9 is out of range: the graph has 9 vertices (ids 0-8)\n");
}

// Counts given as lists: each bad entry is refused when parsing, before the graph is read (the file
// does not exist), with the option, the entry at fault and the range; good lists still run.
TEST_F(Tools, CountsOutOfRangeAreRefused) {
  const std::string rounds = "neither auto nor a whole number from 1 to 64";
  const std::string blocks = "neither auto nor a whole number from 1 to 64";
  const std::string slices = "not a whole number from 1 to 256";
  const std::string missing = path("missing.oocg").string();
  for (const auto& [option, given, bad, message] :
       std::vector<std::tuple<std::string, std::string, std::string, std::string>>{
           {"--exchange-rounds", "0", "0", rounds},
           {"--exchange-rounds", "65", "65", rounds},
           {"--exchange-rounds", "auto,x", "x", rounds},
           {"--pull-blocks", "0", "0", blocks},
           {"--pull-blocks", "65", "65", blocks},
           {"--pull-blocks", "auto,x", "x", blocks},
           {"--pull-blocks", "1,auto,0", "0", blocks},
           {"--pull-blocks", "-1", "-1", blocks},
           {"--resident-slices", "0", "0", slices},
           {"--resident-slices", "8,257", "257", slices}}) {
    const Ran r = ooc_run({"cc", "--graph", missing, "--backend", "cpu", option, given});
    EXPECT_EQ(r.exit_code, 64) << option << " " << given;
    EXPECT_EQ(r.err,
              "ooc-run: " + option + ": '" + bad + "' is " + message + " (see ooc-run --help)\n");
    EXPECT_EQ(r.out, "");
  }
  const Ran lists =
      ooc_run({"cc", "--generate", "grid:3x3", "--backend", "cpu", "-q", "--exchange-rounds",
               "auto,2", "--pull-blocks", "1,auto,4", "--resident-slices", "1,8"});
  EXPECT_EQ(lists.exit_code, 0) << lists.err;
}

// The names come from the table of algorithms, and are checked before the graph is made.
TEST_F(Tools, AnUnknownAlgorithmIsRefusedWithTheTablesNames) {
  const Ran r = ooc_run({"bfs,dfs", "--generate", "grid:3x3", "--backend", "cpu"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(
      r.err,
      "ooc-run: unknown algorithm 'dfs' (expected bfs, sssp, cc, pagerank, bc, closeness, tc, "
      "kcore or scc)\n");
  EXPECT_EQ(r.out, "");
}

// --output -: the values alone on standard output, the summary and verify lines on standard
// error; --json - likewise.
TEST_F(Tools, OutputDashWritesTheValuesToStandardOutput) {
  const Ran r = ooc_run({"bfs", "--generate", "grid:3x3", "--backend", "cpu", "--source", "0",
                         "--output", "-", "--verify"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream lines(r.out);
  std::vector<double> levels;
  std::size_t vertex = 0;
  double level = 0;
  while (lines >> vertex >> level) {
    EXPECT_EQ(vertex, levels.size());
    levels.push_back(level);
  }
  EXPECT_TRUE(lines.eof()) << r.out;
  // A 3x3 grid's rows, from its corner: each level one step further.
  EXPECT_EQ(levels, (std::vector<double>{0, 1, 2, 1, 2, 3, 2, 3, 4})) << r.out;
  EXPECT_NE(r.err.find("\nbfs on CPU "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("verify bfs hybrid, priority on: ok"), std::string::npos) << r.err;

  const Ran json = ooc_run({"bfs", "--generate", "grid:3x3", "--backend", "cpu", "--json", "-",
                            "--trace", path("trace.csv").string()});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(nlohmann::json::parse(json.out)["runs"].size(), 1u) << json.out;
  EXPECT_NE(json.err.find("bfs on CPU "), std::string::npos) << json.err;
  EXPECT_FALSE(slurp(path("trace.csv")).empty());
}

// --output's lines: vertices 0..n-1 in order, each with `value`.
void expect_every_vertex(const std::string& out, std::size_t n, double value) {
  std::istringstream lines(out);
  std::size_t vertex = 0, vertices = 0;
  double got = 0;
  while (lines >> vertex >> got) {
    EXPECT_EQ(vertex, vertices++);
    EXPECT_EQ(got, value);
  }
  EXPECT_EQ(vertices, n);
}

// tc: each vertex's triangles with --output (a 3x3 grid has none), the total in the summary,
// verified.
TEST_F(Tools, TcWritesEachVertexsTrianglesAndTheTotal) {
  const Ran grid =
      ooc_run({"tc", "--generate", "grid:3x3", "--backend", "cpu", "--output", "-", "--verify"});
  ASSERT_EQ(grid.exit_code, 0) << grid.err;
  expect_every_vertex(grid.out, 9, 0.0);
  EXPECT_NE(grid.err.find("; degree-ordered, 0 triangles"), std::string::npos) << grid.err;
  const Ran kron = ooc_run({"tc", "--generate", "kron:10", "--backend", "cpu", "--verify"});
  ASSERT_EQ(kron.exit_code, 0) << kron.err;
  EXPECT_NE(kron.out.find("verify tc hybrid, degree-ordered, "), std::string::npos) << kron.out;
  EXPECT_NE(kron.out.find(" triangles: ok, matches the serial reference"), std::string::npos)
      << kron.out;
  // --priority does not change tc: a list of it runs tc once, and bfs (which it changes) twice.
  const Ran once =
      ooc_run({"tc,bfs", "--generate", "kron:8", "--backend", "cpu", "--priority", "on,off"});
  ASSERT_EQ(once.exit_code, 0) << once.err;
  EXPECT_EQ(occurrences(once.out, "tc on "), 1u) << once.out;
  EXPECT_EQ(occurrences(once.out, "bfs on "), 2u) << once.out;
}

// --host-memory: a file whose lists exceed it runs from the file, verified, and the summary and
// --json say how much host memory held and how much was read from the file.
TEST_F(Tools, HostMemoryBelowTheListsRunsFromTheFile) {
  const std::string file = path("w.oocg").string();
  ASSERT_EQ(partition_tool({"generate", "kron", "--scale", "12", "--undirected", "--weights",
                            "random:1-64", "-q", "-o", file})
                .exit_code,
            0);
  const Ran r =
      ooc_run({"bfs,sssp,pagerank", "--graph", file, "--backend", "cpu", "--host-memory", "64KiB",
               "--partition-bytes", "16KiB", "--verify", "--json", path("run.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(occurrences(r.out, ": ok, matches the serial reference"), 3u) << r.out;
  EXPECT_NE(r.out.find("; host memory 64.0 KiB: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" read from the file in "), std::string::npos) << r.out;
  const nlohmann::json runs = nlohmann::json::parse(slurp(path("run.json")))["runs"];
  ASSERT_EQ(runs.size(), 3u);
  // Whether the reads bypassed the page cache, in the JSON and the summary alike.
  const bool direct = runs[0]["host_tier"]["direct"].get<bool>();
  EXPECT_NE(r.out.find(direct ? " s (O_DIRECT; " : " s (through the page cache; "),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(" while the task before ran, "), std::string::npos) << r.out;
  for (const nlohmann::json& run : runs) {
    EXPECT_EQ(run["host_tier"]["host_memory"], 65536);
    EXPECT_GT(run["host_tier"]["storage_bytes"].get<std::uint64_t>(), 0u);
    EXPECT_LE(run["host_tier"]["resident_bytes"].get<std::uint64_t>(), 65536u);
  }
  // partition-tool info shows the same plan.
  const Ran plan = partition_tool(
      {"info", file, "--partition-bytes", "16KiB", "--host-memory", "64KiB", "--json"});
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  const nlohmann::json host = nlohmann::json::parse(plan.out)["host_memory"];
  EXPECT_FALSE(host["fits"].get<bool>());
  EXPECT_EQ(host["kept_partitions"], runs[0]["host_tier"]["resident_partitions"]);
  EXPECT_EQ(host["kept_bytes"], runs[0]["host_tier"]["resident_bytes"]);
  const Ran text = partition_tool({"info", file, "--host-memory", "1GiB"});
  EXPECT_NE(text.out.find("\nhost memory 1.00 GiB: every list fits ("), std::string::npos)
      << text.out;
}

// kcore: each vertex's core number with --output (a 3x3 grid is a 2-core), the shells and the
// degeneracy in the summary, verified.
TEST_F(Tools, KcoreWritesEachVertexsCoreNumber) {
  const Ran grid =
      ooc_run({"kcore", "--generate", "grid:3x3", "--backend", "cpu", "--output", "-", "--verify"});
  ASSERT_EQ(grid.exit_code, 0) << grid.err;
  expect_every_vertex(grid.out, 9, 2.0);
  EXPECT_NE(grid.err.find("; 1 shell, degeneracy 2"), std::string::npos) << grid.err;
  const Ran kron = ooc_run({"kcore", "--generate", "kron:10", "--backend", "cpu", "--verify"});
  ASSERT_EQ(kron.exit_code, 0) << kron.err;
  EXPECT_NE(kron.out.find("verify kcore hybrid, priority on, "), std::string::npos) << kron.out;
  EXPECT_NE(kron.out.find(": ok, matches the serial reference"), std::string::npos) << kron.out;
}

// scc: each vertex's component (its smallest id) with --output, the count and the largest in the
// summary, verified; a directed file without in-edges is refused in one line naming --in-edges.
TEST_F(Tools, SccWritesEachVertexsComponentAndTheirCount) {
  const Ran grid =
      ooc_run({"scc", "--generate", "grid:3x3", "--backend", "cpu", "--output", "-", "--verify"});
  ASSERT_EQ(grid.exit_code, 0) << grid.err;
  EXPECT_EQ(grid.out, "0\t0\n1\t0\n2\t0\n3\t0\n4\t0\n5\t0\n6\t0\n7\t0\n8\t0\n");
  EXPECT_NE(grid.err.find(": 1 components, the largest 9 ("), std::string::npos) << grid.err;
  for (const std::string lists : {"--raw-only", "--compress-only"}) {
    const std::string file = path("kron" + lists + ".oocg").string();
    ASSERT_EQ(
        partition_tool({"generate", "kron", "--scale", "10", "--in-edges", lists, "-q", "-o", file})
            .exit_code,
        0);
    const Ran kron = ooc_run({"scc", "--graph", file, "--backend", "cpu", "--verify"});
    ASSERT_EQ(kron.exit_code, 0) << kron.err;
    EXPECT_NE(kron.out.find(" components, the largest "), std::string::npos) << kron.out;
    EXPECT_NE(kron.out.find("verify scc hybrid, trim, FW-BW, Tarjan: "), std::string::npos)
        << kron.out;  // no priority setting to name
    EXPECT_NE(kron.out.find(": ok, matches the serial reference"), std::string::npos) << kron.out;
  }
  ASSERT_EQ(partition_tool(
                {"generate", "kron", "--scale", "8", "-q", "-o", path("out-only.oocg").string()})
                .exit_code,
            0);
  const Ran refused =
      ooc_run({"scc", "--graph", path("out-only.oocg").string(), "--backend", "cpu", "-q"});
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_EQ(refused.err,
            "ooc-run: scc needs the graph's in-edges, and this directed graph has none (write it "
            "with partition-tool --in-edges)\n");
}

// bfs --sources LIST: a line per vertex, its level from each source in the list's order.
TEST_F(Tools, BfsFromSeveralSourcesWritesAColumnPerSource) {
  const Ran r = ooc_run({"bfs", "--generate", "grid:3x3", "--backend", "cpu", "--sources", "0,8",
                         "--batch", "1", "--output", "-", "--verify"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "0\t0\t4\n1\t1\t3\n2\t2\t2\n3\t1\t3\n4\t2\t2\n5\t3\t1\n6\t2\t2\n7\t3\t1\n"
            "8\t4\t0\n");
  EXPECT_NE(r.err.find("bfs sources: 2 listed (0, 8)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("; batches of 1 sources"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("verify bfs hybrid, priority off: ok"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("source: "), std::string::npos) << r.err;  // no single source to describe
}

// bc and closeness from sampled sources and from all of them, in batches, checked by --verify;
// a --sources that is neither a count, all nor a list gets one line.
TEST_F(Tools, BcAndClosenessRunInBatchesFromSampledOrAllSources) {
  const Ran sampled = ooc_run({"bc,closeness", "--generate", "kron:9", "--backend", "cpu",
                               "--sources", "12", "--batch", "5", "--verify", "--json", "-"});
  ASSERT_EQ(sampled.exit_code, 0) << sampled.err;
  EXPECT_NE(sampled.err.find("verify bc hybrid: ok"), std::string::npos) << sampled.err;
  EXPECT_NE(sampled.err.find("verify closeness hybrid: ok"), std::string::npos) << sampled.err;
  const nlohmann::json runs = nlohmann::json::parse(sampled.out)["runs"];
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0]["batch"], 5);
  EXPECT_EQ(runs[0]["phases"]["forward"].size(), 3u);  // 12 sources in batches of 5, 5 and 2
  EXPECT_EQ(runs[0]["phases"]["backward"].size(), 3u);
  EXPECT_EQ(runs[1]["phases"]["forward"].size(), 3u);
  EXPECT_FALSE(runs[1]["phases"].contains("backward"));

  const Ran all =
      ooc_run({"bc", "--generate", "grid:4x5", "--backend", "cpu", "--sources", "all", "--verify"});
  ASSERT_EQ(all.exit_code, 0) << all.err;
  EXPECT_NE(all.out.find("bc sources: all 20 vertices"), std::string::npos) << all.out;
  EXPECT_NE(all.out.find("; batches of 20 sources"), std::string::npos) << all.out;
  EXPECT_NE(all.out.find("verify bc hybrid: ok"), std::string::npos) << all.out;

  const Ran bad = ooc_run({"bc", "--generate", "grid:3x3", "--backend", "cpu", "--sources", "3x"});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_EQ(bad.err,
            "ooc-run: --sources takes a count K, all, or ids and ranges A-B separated by commas "
            "(got '3x')\n");
  // Refused before the graph is read (the file does not exist): a count of 0, a bad list.
  const std::string missing = path("missing.oocg").string();
  const Ran none = ooc_run({"bc", "--graph", missing, "--backend", "cpu", "--sources", "0"});
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_EQ(none.err, "ooc-run: --sources: sampling needs at least one source (got 0)\n");
  const Ran backwards =
      ooc_run({"bc", "--graph", missing, "--backend", "cpu", "--source-list", "5-3"});
  EXPECT_EQ(backwards.exit_code, 1);
  EXPECT_EQ(backwards.err,
            "ooc-run: --source-list takes vertex ids and ranges A-B separated by commas (got "
            "'5-3')\n");
}

// --sources takes ranges A-B (both ends in) beside ids: how a user splits exact bc over runs,
// whose values then add up to the whole run's. A range backwards gets one line.
TEST_F(Tools, SourceRangesSplitBcIntoRunsThatAddUp) {
  const auto bc = [&](const char* sources) {
    const Ran r = ooc_run({"bc", "--generate", "grid:4x5", "--backend", "cpu", "--sources", sources,
                           "--output", "-", "-q"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::vector<double> values;
    std::istringstream lines(r.out);
    std::size_t vertex = 0;
    double value = 0;
    while (lines >> vertex >> value)
      values.push_back(value);
    return values;
  };
  const std::vector<double> all = bc("all"), low = bc("0-9"), high = bc("10-18,19");
  ASSERT_EQ(all.size(), 20u);
  ASSERT_EQ(low.size(), 20u);
  ASSERT_EQ(high.size(), 20u);
  for (std::size_t v = 0; v < all.size(); ++v)
    EXPECT_NEAR(low[v] + high[v], all[v], 1e-4 * std::max(1.0, all[v])) << "vertex " << v;
  const Ran r = ooc_run({"bc", "--generate", "grid:3x3", "--backend", "cpu", "--sources", "0-3,7"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("bc sources: 5 listed (0, 1, 2, 3, 7)"), std::string::npos) << r.out;
  const Ran backwards =
      ooc_run({"bc", "--generate", "grid:3x3", "--backend", "cpu", "--sources", "5-2"});
  EXPECT_EQ(backwards.exit_code, 1);
  EXPECT_EQ(backwards.err,
            "ooc-run: --sources takes vertex ids and ranges A-B separated by commas (got '5-2')\n");
}

// A CSV as rows of named cells: the header's names, each row's values.
std::vector<std::map<std::string, std::string>> read_csv(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  const auto cells = [](const std::string& text) {
    std::vector<std::string> out;
    std::istringstream row(text);
    for (std::string cell; std::getline(row, cell, ',');)
      out.push_back(cell);
    return out;
  };
  std::getline(in, line);
  const std::vector<std::string> names = cells(line);
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(in, line)) {
    const std::vector<std::string> values = cells(line);
    EXPECT_EQ(values.size(), names.size()) << line;
    auto& row = rows.emplace_back();
    for (std::size_t i = 0; i < names.size() && i < values.size(); ++i)
      row[names[i]] = values[i];
  }
  return rows;
}

// --trace has a row per rank and iteration: rank 0 alone on one rank, and every rank's timeline
// on thread ranks (the CPU backend's, --devices 0,1), in the same iterations.
TEST_F(Tools, TheTraceHasARowPerRankAndIteration) {
  const Ran one = ooc_run({"bfs", "--generate", "grid:8x8", "--backend", "cpu", "-q", "--trace",
                           path("one.csv").string()});
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_EQ(slurp(path("one.csv")).rfind("run,rank,iteration,pull,", 0), 0u);
  const auto single = read_csv(path("one.csv"));
  ASSERT_FALSE(single.empty());
  for (const auto& row : single)
    EXPECT_EQ(row.at("rank"), "0");

  const Ran two =
      ooc_run({"bfs,pagerank", "--generate", "kron:10", "--backend", "cpu", "--devices", "0,1",
               "--partition-bytes", "8KiB", "-q", "--trace", path("two.csv").string()});
  ASSERT_EQ(two.exit_code, 0) << two.err;
  // run -> rank -> its iterations, in order.
  std::map<std::string, std::map<std::string, std::vector<std::string>>> seen;
  for (const auto& row : read_csv(path("two.csv"))) {
    seen[row.at("run")][row.at("rank")].push_back(row.at("iteration"));
    EXPECT_GT(std::stoull(row.at("exchange_bytes")), 0u) << "run " << row.at("run");
  }
  ASSERT_EQ(seen.size(), 2u);  // bfs, pagerank
  for (const auto& [run, ranks] : seen) {
    ASSERT_EQ(ranks.size(), 2u) << "run " << run;
    EXPECT_FALSE(ranks.at("0").empty());
    EXPECT_EQ(ranks.at("0"), ranks.at("1")) << "run " << run;
    for (std::size_t i = 0; i < ranks.at("0").size(); ++i)
      EXPECT_EQ(ranks.at("0")[i], std::to_string(i));
  }
}

// A list of tolerances runs pagerank once for each (the lines and --json say which); an
// algorithm without a tolerance runs once.
TEST_F(Tools, AListOfTolerancesRunsEach) {
  const std::string json = path("runs.json").string();
  const Ran r = ooc_run({"bfs,pagerank", "--generate", "kron:9", "--backend", "cpu", "--tolerance",
                         "1e-2,1e-3", "--verify", "--json", json});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json runs = nlohmann::json::parse(std::ifstream(json))["runs"];
  ASSERT_EQ(runs.size(), 3u) << runs.dump();
  EXPECT_EQ(runs[0]["algorithm"], "bfs");
  EXPECT_FALSE(runs[0].contains("tolerance"));
  EXPECT_EQ(runs[1]["tolerance"], 1e-2);
  EXPECT_EQ(runs[2]["tolerance"], 1e-3);
  EXPECT_NE(r.out.find("; tolerance 0.01\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("verify pagerank hybrid, priority off, per-vertex, tolerance 0.001: ok"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("verify bfs hybrid, priority on: ok"), std::string::npos) << r.out;
}

// --l1 runs pagerank once per accuracy: each summary gives the tolerance chosen and the bound
// reached, --verify checks the ranks against the accuracy asked, and --json has all three; a
// --tolerance run reports its bound too.
TEST_F(Tools, PageRankByAccuracyRunsEachAndReportsTheBound) {
  const std::string json = path("runs.json").string();
  const Ran r = ooc_run({"bfs,pagerank", "--generate", "kron:9", "--backend", "cpu", "--l1",
                         "1e-2,1e-4", "--verify", "--json", json});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json runs = nlohmann::json::parse(std::ifstream(json))["runs"];
  ASSERT_EQ(runs.size(), 3u) << runs.dump();
  EXPECT_FALSE(runs[0].contains("l1"));
  EXPECT_FALSE(runs[0].contains("l1_bound"));
  for (const auto& [run, l1] : {std::pair{runs[1], 1e-2}, std::pair{runs[2], 1e-4}}) {
    EXPECT_EQ(run["l1"], l1);
    EXPECT_GT(run["tolerance"].get<double>(), 0);
    EXPECT_GT(run["l1_bound"].get<double>(), 0);
    EXPECT_LE(run["l1_bound"].get<double>(), l1);
    char line[96];
    std::snprintf(line, sizeof line, "; tolerance %.2g, L1 <= %.1e (bound)",
                  run["tolerance"].get<double>(), run["l1_bound"].get<double>());
    EXPECT_NE(r.out.find(line), std::string::npos) << line << " in " << r.out;
  }
  EXPECT_LT(runs[2]["tolerance"].get<double>(), runs[1]["tolerance"].get<double>());
  EXPECT_NE(r.out.find("; l1 0.0001\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("verify pagerank hybrid, priority off, per-vertex, l1 0.01: ok"),
            std::string::npos)
      << r.out;
  const Ran at = ooc_run({"pagerank", "--generate", "kron:9", "--backend", "cpu", "--tolerance",
                          "1e-3", "--json", json});
  ASSERT_EQ(at.exit_code, 0) << at.err;
  const nlohmann::json run = nlohmann::json::parse(std::ifstream(json))["runs"][0];
  EXPECT_EQ(run["tolerance"], 1e-3);
  EXPECT_FALSE(run.contains("l1"));
  EXPECT_GT(run["l1_bound"].get<double>(), 0);
  EXPECT_NE(at.out.find("; tolerance 0.001, L1 <= "), std::string::npos) << at.out;
}

// A list of dampings runs pagerank once for each, each checked against the reference at its own
// damping (the lines and --json say which); an algorithm without a damping runs once.
TEST_F(Tools, AListOfDampingsRunsEach) {
  const std::string json = path("runs.json").string();
  const Ran r = ooc_run({"cc,pagerank", "--generate", "kron:9", "--backend", "cpu", "--damping",
                         "0.85,0.5", "--verify", "--json", json});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const nlohmann::json runs = nlohmann::json::parse(std::ifstream(json))["runs"];
  ASSERT_EQ(runs.size(), 3u) << runs.dump();
  EXPECT_EQ(runs[0]["algorithm"], "cc");
  EXPECT_FALSE(runs[0].contains("damping"));
  EXPECT_EQ(runs[1]["damping"], 0.85);
  EXPECT_EQ(runs[2]["damping"], 0.5);
  EXPECT_NE(runs[1]["values_digest"], runs[2]["values_digest"]);
  EXPECT_NE(r.out.find("; damping 0.5\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("verify pagerank hybrid, priority off, per-vertex, damping 0.85: ok"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("verify pagerank hybrid, priority off, per-vertex, damping 0.5: ok"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("verify cc hybrid, priority on, afforest: ok"), std::string::npos) << r.out;
}

// --compressed on,off runs on the compressed lists, then on the raw arrays, to the same distances.
TEST_F(Tools, CompressedOnOffRunsEach) {
  const fs::path graph = path("small.oocg");
  ASSERT_EQ(partition_tool({"convert", std::string(OOC_TEST_DATA_DIR) + "/small.wel", "-o",
                            graph.string(), "--compress", "-q"})
                .exit_code,
            0);
  const std::string json = path("runs.json").string();
  const Ran r = ooc_run({"sssp", "--graph", graph.string(), "--backend", "cpu", "--source", "0",
                         "--transfer", "filter", "--in-memory", "off", "--compressed", "on,off",
                         "--verify", "--json", json});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json runs = nlohmann::json::parse(std::ifstream(json))["runs"];
  ASSERT_EQ(runs.size(), 2u) << runs.dump();
  EXPECT_EQ(runs[0]["compressed"], true);
  EXPECT_EQ(runs[1]["compressed"], false);
  EXPECT_EQ(runs[0]["values_digest"], runs[1]["values_digest"]);
  EXPECT_NE(r.out.find("verify sssp filter, priority on, compressed on: ok"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("verify sssp filter, priority on, compressed off: ok"), std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("graph: "), r.out.rfind("graph: ")) << r.out;  // described once
}

TEST_F(Tools, HelpExitsZero) {
  const Ran r = ooc_run({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("--version"), std::string::npos);
}

TEST_F(Tools, ManySmallPartitionsWorkWithAWarning) {
  // The grid's 1.37 MiB of edges in 128-byte partitions: over 8,192 of them.
  const Ran r = ooc_run({"bfs", "--generate", "grid:300x300", "--backend", "cpu",
                         "--partition-bytes", "128", "-q", "--verify"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.rfind("ooc-run: warning: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(" partitions of 128: every iteration surveys and schedules each one"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.out.find("ok, matches the serial reference"), std::string::npos) << r.out;
}

TEST_F(Tools, TinyPartitionsAreRefusedWithTheSizeThatWorks) {
  // A 300x300 grid: 90,000 vertices of 2 to 4 edges; 16-byte partitions (4 edges) hold one or
  // two vertices each.
  const Ran r = ooc_run(
      {"bfs", "--generate", "grid:300x300", "--backend", "cpu", "--partition-bytes", "16", "-q"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err.rfind("ooc-run: partition size 16 B splits the ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(" of edges into more than 65,536 partitions, the most allowed"),
            std::string::npos)
      << r.err;
  const std::string use = "use ";
  const auto at = r.err.find(use);
  ASSERT_NE(at, std::string::npos) << r.err;
  const std::string size = r.err.substr(at + use.size(), r.err.find(" or more") - at - use.size());
  // The size it names works.
  const std::string compact = size.substr(0, size.find(' ')) + size.substr(size.find(' ') + 1);
  const Ran ok = ooc_run({"bfs", "--generate", "grid:300x300", "--backend", "cpu",
                          "--partition-bytes", compact, "-q", "--verify"});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_NE(ok.out.find("ok, matches the serial reference"), std::string::npos) << ok.out;
}

TEST_F(Tools, PageRankRunsReportTheirL1DistanceToAReference) {
  const std::string ref = path("ref.tsv").string(), json = path("runs.json").string();
  const std::vector<std::string> graph{"pagerank", "--generate", "kron:10", "--backend", "cpu"};
  auto args = graph;
  args.insert(args.end(), {"--tolerance", "1e-7", "-q", "--output", ref});
  ASSERT_EQ(ooc_run(args).exit_code, 0);
  args = graph;
  args.insert(args.end(), {"--tolerance", "1e-2", "--pagerank-reference", ref, "--json", json});
  const Ran r = ooc_run(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(" to the reference\n"), std::string::npos) << r.out;
  const double l1 = nlohmann::json::parse(std::ifstream(json))["runs"][0]["l1_to_reference"];
  // Tolerance 1e-2 lands well away from the converged ranks, and within the proven bound.
  EXPECT_GT(l1, 1e-5);
  EXPECT_LT(l1, 2 * 1e-2 / (0.15 * 0.15));

  std::ofstream(path("short.tsv")) << "0\t0.5\n1\t0.5\n";
  std::ofstream(path("gap.tsv")) << "0\t0.5\n2\t0.5\n";
  for (const auto& [file, message] :
       {std::pair{"short.tsv", " holds 2 ranks, and the graph has 1,024 vertices"},
        std::pair{"gap.tsv",
                  ": line 2 is not 'vertex<TAB>rank' for vertex 1 (write the file with "
                  "ooc-run pagerank --output)"}}) {
    args = graph;
    args.insert(args.end(), {"-q", "--pagerank-reference", path(file).string()});
    const Ran bad = ooc_run(args);
    EXPECT_EQ(bad.exit_code, 1);
    EXPECT_EQ(bad.err, "ooc-run: " + path(file).string() + message + "\n");
  }
}

TEST_F(Tools, CalibrationFromAPcieBenchJsonSetsTheLinkConstants) {
  const auto row = [](const char* test, const char* pattern, const char* param, double gbps) {
    return nlohmann::json{{"device", 0},  {"test", test},  {"pattern", pattern}, {"param", param},
                          {"gbps", gbps}, {"peak", false}, {"skipped", false}};
  };
  nlohmann::json doc{
      {"rows",
       {row("copy", "pinned H2D", "1 stream", 55.13),
        row("zerocopy", "merged+aligned", "cudaHostAlloc", 50.56),
        row("lists", "128 B aligned", "L=8", 17.5), row("lists", "128 B aligned", "L=32", 51.1)}}};
  const std::string bench = path("pcie.json").string(), json = path("runs.json").string();
  std::ofstream(bench) << doc.dump();
  const Ran r = ooc_run({"bfs", "--generate", "grid:3x3", "--backend", "cpu", "--calibration",
                         bench, "--json", json});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("calibration (" + bench +
                       ", GPU 0): copy 55.1 GB/s, zero-copy 50.6 GB/s, lists of 8 and 32 "
                       "elements 17.5 and 51.1 GB/s: link 55.1 GB/s, zero-copy round trip "
                       "1.090, gamma 0.640\n"),
            std::string::npos)
      << r.out;
  const nlohmann::json cost = nlohmann::json::parse(std::ifstream(json))["cost"];
  EXPECT_DOUBLE_EQ(cost["link_bandwidth"].get<double>(), 55.13e9);
  EXPECT_NEAR(cost["gamma"].get<double>(), 0.640, 1e-3);

  doc["rows"].erase(3);  // a run of pcie-bench --only copy,zerocopy
  std::ofstream(bench) << doc.dump();
  const Ran missing =
      ooc_run({"bfs", "--generate", "grid:3x3", "--backend", "cpu", "--calibration", bench});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(missing.err, "ooc-run: " + bench +
                             " has no 'lists' figure '128 B aligned' (L=32) for GPU 0 (run "
                             "pcie-bench with --only copy,zerocopy,lists or all)\n");
}

}  // namespace
