// Every file the tools write, as a user meets it: a path that cannot be written is refused before
// anything is read or loaded, in one line that names the option, the path and why; and a run that
// fails leaves no file behind, and the file that was there as it was.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tool_runner.hpp"

namespace {

namespace fs = std::filesystem;

using tools_test::Ran;
using tools_test::slurp;

class ToolOutputs : public tools_test::Tools {
 protected:
  // A path in a folder that does not exist.
  std::string unwritable(const std::string& name) const { return path("missing/" + name).string(); }
  // The one line a tool answers it with.
  std::string refused(const std::string& tool, const std::string& name) const {
    return tool + ": --output: cannot write '" + unwritable(name) +
           "': No such file or directory\n";
  }
  // Files of the test's folder under a temporary name (NAME.tmp-PID).
  std::vector<std::string> temporaries() const {
    std::vector<std::string> names;
    for (const fs::directory_entry& e : fs::directory_iterator(dir_)) {
      if (e.path().filename().string().find(".tmp-") != std::string::npos)
        names.push_back(e.path().filename().string());
    }
    return names;
  }
};

class OocRunOutputs : public ToolOutputs, public ::testing::WithParamInterface<std::string> {};

// The graph named here does not exist: the line is the file's, so nothing was read.
TEST_P(OocRunOutputs, AnUnwritableFileIsRefusedBeforeTheGraphIsRead) {
  const std::string option = GetParam();
  const Ran r = ooc_run({"closeness", "--graph", path("missing.oocg").string(), "--sources", "all",
                         "--backend", "cpu", option, unwritable("x")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "ooc-run: " + option + ": cannot write '" + unwritable("x") +
                       "': No such file or directory\n");
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(fs::exists(path("missing")));
}

INSTANTIATE_TEST_SUITE_P(Options, OocRunOutputs, ::testing::Values("--output", "--json", "--trace"),
                         [](const auto& p) { return p.param.substr(2); });

TEST_F(ToolOutputs, OocRunRefusesAFolderAndNamesTheLongOption) {
  const Ran r = ooc_run({"bfs", "--generate", "grid:3x3", "--backend", "cpu", "-o", dir_.string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "ooc-run: --output: cannot write '" + dir_.string() + "': Is a directory\n");
  EXPECT_EQ(r.out, "");
}

// Thread ranks (--devices 0,1) are checked once, before any of them starts: no rank's name.
TEST_F(ToolOutputs, OocRunChecksTheFilesBeforeTheRanksStart) {
  const Ran r = ooc_run({"bfs", "--generate", "kron:10", "--backend", "cpu", "--devices", "0,1",
                         "--output", unwritable("x")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, refused("ooc-run", "x"));
  EXPECT_EQ(r.out, "");
}

// pagerank's reference is read after the trace is opened: the run fails with every file open.
TEST_F(ToolOutputs, AFailedRunLeavesNoFileAndTheOldOnesAsTheyWere) {
  std::ofstream(path("bad.tsv")) << "not ranks\n";
  std::ofstream(path("trace.csv")) << "old\n";
  const std::vector<std::string> run{"pagerank",
                                     "--generate",
                                     "grid:3x3",
                                     "--backend",
                                     "cpu",
                                     "--trace",
                                     path("trace.csv").string(),
                                     "--json",
                                     path("runs.json").string(),
                                     "--output",
                                     path("ranks.tsv").string()};
  std::vector<std::string> failing = run;
  failing.insert(failing.end(), {"--pagerank-reference", path("bad.tsv").string()});
  const Ran r = ooc_run(failing);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("is not 'vertex<TAB>rank'"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(path("trace.csv")), "old\n");
  EXPECT_FALSE(fs::exists(path("runs.json")));
  EXPECT_FALSE(fs::exists(path("ranks.tsv")));
  EXPECT_EQ(temporaries(), std::vector<std::string>{});

  const Ran ok = ooc_run(run);
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(slurp(path("trace.csv")).rfind("run,rank,iteration,", 0), 0u);
  EXPECT_TRUE(fs::exists(path("runs.json")));
  EXPECT_TRUE(fs::exists(path("ranks.tsv")));
  EXPECT_EQ(temporaries(), std::vector<std::string>{});
}

// The input named here does not exist: the line is the output's, so nothing was read.
TEST_F(ToolOutputs, PartitionToolConvertRefusesAnUnwritableOutputBeforeReading) {
  const Ran r =
      partition_tool({"convert", path("missing.el").string(), "-o", unwritable("g.oocg")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, refused("partition-tool", "g.oocg"));
  EXPECT_EQ(r.out, "");
}

// Before the memory line, which comes before anything is generated.
TEST_F(ToolOutputs, PartitionToolGenerateRefusesAnUnwritableOutputBeforeGenerating) {
  const Ran r =
      partition_tool({"generate", "kron", "--scale", "12", "--output", unwritable("g.oocg")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, refused("partition-tool", "g.oocg"));
  EXPECT_EQ(r.out, "");
}

TEST_F(ToolOutputs, PartitionToolExportRefusesAnUnwritableOutputBeforeReading) {
  const Ran r = partition_tool({"export", path("missing.oocg").string(), "-o", unwritable("g.el")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, refused("partition-tool", "g.el"));
  EXPECT_EQ(r.out, "");
}

// A convert that fails on its input leaves the .oocg that was there; one that succeeds replaces
// it; neither leaves a temporary file.
TEST_F(ToolOutputs, PartitionToolReplacesItsOutputOnlyWhenItSucceeds) {
  std::ofstream(path("g.oocg")) << "old";
  std::ofstream(path("bad.el")) << "0 1\n1 x\n";
  const Ran bad =
      partition_tool({"convert", path("bad.el").string(), "-q", "-o", path("g.oocg").string()});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_EQ(slurp(path("g.oocg")), "old");
  const Ran good = partition_tool({"convert", std::string(OOC_TEST_DATA_DIR) + "/small.el", "-q",
                                   "-o", path("g.oocg").string()});
  ASSERT_EQ(good.exit_code, 0) << good.err;
  EXPECT_EQ(info(path("g.oocg"))["edges"], 25);
  EXPECT_EQ(temporaries(), std::vector<std::string>{});
}

}  // namespace
