#pragma once
// A test fixture with a folder of its own under the system's temporary folder, removed after the
// test: `dir_`, named for the process so that test binaries run at once never share one.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace ooc::test {

class TempDirTest : public ::testing::Test {
 protected:
  explicit TempDirTest(const std::string& name) : name_(name) {}
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / (name_ + "-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string name_;
  std::filesystem::path dir_;
};

}  // namespace ooc::test
