#pragma once
// The tools as a user runs them, for the tool tests: a command line through the shell, its
// standard output and error kept apart, its exit code; each test in a folder of its own.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace tools_test {

namespace fs = std::filesystem;

struct Ran {
  int exit_code = -1;
  std::string out, err;
};

inline std::string slurp(const fs::path& file) {
  std::ifstream in(file);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class Tools : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tools_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path path(const std::string& name) const { return dir_ / name; }

  // Runs `program args...` through the shell with stdout and stderr kept apart.
  Ran run(const std::string& program, const std::vector<std::string>& args) const {
    std::string command = "'" + program + "'";
    for (const std::string& a : args)
      command += " '" + a + "'";
    command += " >'" + path("out").string() + "' 2>'" + path("err").string() + "' </dev/null";
    const int status = std::system(command.c_str());
    Ran r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.out = slurp(path("out"));
    r.err = slurp(path("err"));
    return r;
  }
  Ran partition_tool(const std::vector<std::string>& args) const {
    return run(OOC_PARTITION_TOOL, args);
  }
  Ran ooc_run(const std::vector<std::string>& args) const { return run(OOC_RUN, args); }

  nlohmann::json info(const fs::path& graph) const {
    const Ran r = partition_tool({"info", graph.string(), "--json"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(r.out);
  }

  // ooc-run sssp on the CPU backend; the distances by user id, +inf where unreached.
  std::vector<double> sssp(const fs::path& graph, const std::string& source) const {
    const Ran r = ooc_run({"sssp", "--graph", graph.string(), "--backend", "cpu", "--source",
                           source, "-q", "-o", path("values.tsv").string()});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::vector<double> values;
    std::ifstream in(path("values.tsv"));
    std::size_t vertex = 0;
    std::string value;
    while (in >> vertex >> value) {
      EXPECT_EQ(vertex, values.size());
      values.push_back(value == "inf" ? std::numeric_limits<double>::infinity() : std::stod(value));
    }
    return values;
  }

  fs::path dir_;
};

}  // namespace tools_test
