// AtomicFile (core/atomic_file.hpp): a file appears under its name only when committed, one that
// is abandoned leaves nothing behind and the file that was there as it was; check_writable refuses
// what cannot be written, naming why, and creates nothing.
#include "ooc/core/atomic_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "ooc/core/error.hpp"

namespace ooc {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& file) {
  std::ifstream in(file);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void put(const AtomicFile& file, const std::string& text) {
  ASSERT_GE(std::fputs(text.c_str(), file.get()), 0);
}

// What check_writable throws, or "writable".
std::string refusal(const fs::path& path, std::string_view label) {
  try {
    check_writable(path, label);
    return "writable";
  } catch (const IoError& e) {
    return e.what();
  }
}

class AtomicFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("atomic_file_test_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path path(const std::string& name) const { return dir_ / name; }
  // The folder's entries, sorted.
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const fs::directory_entry& e : fs::directory_iterator(dir_))
      names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }
  std::string temporary(const std::string& name) const {
    return name + ".tmp-" + std::to_string(::getpid());
  }

  fs::path dir_;
};

using Names = std::vector<std::string>;

TEST_F(AtomicFileTest, TheFileAppearsOnlyWhenCommitted) {
  AtomicFile file(path("out.txt"));
  put(file, "new\n");
  ASSERT_EQ(std::fflush(file.get()), 0);
  EXPECT_EQ(entries(), Names{temporary("out.txt")});
  file.commit();
  EXPECT_EQ(slurp(path("out.txt")), "new\n");
  EXPECT_EQ(entries(), Names{"out.txt"});
}

TEST_F(AtomicFileTest, CommitReplacesTheFileThatWasThere) {
  std::ofstream(path("out.txt")) << "old\n";
  AtomicFile file(path("out.txt"));
  put(file, "new\n");
  ASSERT_EQ(std::fflush(file.get()), 0);
  EXPECT_EQ(slurp(path("out.txt")), "old\n");
  file.commit();
  EXPECT_EQ(slurp(path("out.txt")), "new\n");
  EXPECT_EQ(entries(), Names{"out.txt"});
}

TEST_F(AtomicFileTest, AnAbandonedWriteLeavesNoFile) {
  {
    AtomicFile file(path("out.txt"));
    put(file, "half");
  }
  EXPECT_EQ(entries(), Names{});
}

TEST_F(AtomicFileTest, AnAbandonedWriteLeavesTheFileThatWasThereUntouched) {
  std::ofstream(path("out.txt")) << "old\n";
  EXPECT_THROW(
      {
        AtomicFile file(path("out.txt"));
        put(file, "half");
        throw std::runtime_error("the run failed");
      },
      std::runtime_error);
  EXPECT_EQ(slurp(path("out.txt")), "old\n");
  EXPECT_EQ(entries(), Names{"out.txt"});
}

// write_oocg's way: positioned writes through the descriptor, in any order.
TEST_F(AtomicFileTest, TakesPositionedWrites) {
  AtomicFile file(path("out.bin"));
  ASSERT_EQ(::pwrite(file.fd(), "b", 1, 4), 1);
  ASSERT_EQ(::pwrite(file.fd(), "aaaa", 4, 0), 4);
  file.commit();
  EXPECT_EQ(slurp(path("out.bin")), "aaaab");
}

TEST_F(AtomicFileTest, TwoWritersOfOnePathTakeTheirOwnTemporaryFiles) {
  AtomicFile first(path("out.txt"));
  AtomicFile second(path("out.txt"));
  put(first, "first");
  put(second, "second");
  first.commit();
  EXPECT_EQ(slurp(path("out.txt")), "first");
  second.commit();
  EXPECT_EQ(slurp(path("out.txt")), "second");
  EXPECT_EQ(entries(), Names{"out.txt"});
}

TEST_F(AtomicFileTest, ALinkStaysAndItsTargetIsReplaced) {
  std::ofstream(path("real.txt")) << "old\n";
  fs::create_symlink("real.txt", path("link.txt"));
  AtomicFile file(path("link.txt"));
  put(file, "new\n");
  file.commit();
  EXPECT_TRUE(fs::is_symlink(path("link.txt")));
  EXPECT_EQ(slurp(path("real.txt")), "new\n");
  EXPECT_EQ(entries(), (Names{"link.txt", "real.txt"}));
}

// What is neither a file nor a folder (a pipe here; /dev/null) is written in place, never
// replaced.
TEST_F(AtomicFileTest, APipeIsWrittenInPlace) {
  ASSERT_EQ(::mkfifo(path("pipe").c_str(), 0600), 0);
  std::string read;
  std::thread reader([&] { read = slurp(path("pipe")); });
  {
    AtomicFile file(path("pipe"));
    put(file, "through\n");
    file.commit();
  }
  reader.join();
  EXPECT_EQ(read, "through\n");
  EXPECT_EQ(fs::status(path("pipe")).type(), fs::file_type::fifo);
  EXPECT_EQ(entries(), Names{"pipe"});
}

TEST_F(AtomicFileTest, CheckWritableNamesThePathAndWhy) {
  std::ofstream(path("plain")) << "a file";
  EXPECT_EQ(refusal(path("out.txt"), "--output"), "writable");
  EXPECT_EQ(refusal(path("plain"), "--output"), "writable");
  EXPECT_EQ(refusal("/dev/null", "--output"), "writable");
  EXPECT_EQ(refusal(path("missing/out.txt"), "--output"), "--output: cannot write '" +
                                                              path("missing/out.txt").string() +
                                                              "': No such file or directory");
  EXPECT_EQ(refusal(dir_, "--json"),
            "--json: cannot write '" + dir_.string() + "': Is a directory");
  EXPECT_EQ(refusal(path("plain/out.txt"), ""),
            "cannot write '" + path("plain/out.txt").string() + "': Not a directory");
  EXPECT_EQ(entries(), Names{"plain"});  // nothing made
  // AtomicFile refuses the same, for the same reason.
  try {
    AtomicFile file(path("missing/out.txt"));
    ADD_FAILURE() << "a file in a missing folder was opened";
  } catch (const IoError& e) {
    EXPECT_EQ(std::string(e.what()),
              "cannot write '" + path("missing/out.txt").string() + "': No such file or directory");
  }
}

TEST_F(AtomicFileTest, CheckWritableRefusesAReadOnlyFolderAndFile) {
  if (::geteuid() == 0) GTEST_SKIP() << "root writes into read-only folders and files";
  std::ofstream(path("read-only.txt")) << "kept";
  fs::permissions(path("read-only.txt"), fs::perms::owner_read);
  EXPECT_EQ(refusal(path("read-only.txt"), "--output"),
            "--output: cannot write '" + path("read-only.txt").string() + "': Permission denied");
  fs::create_directories(path("read-only"));
  fs::permissions(path("read-only"), fs::perms::owner_read | fs::perms::owner_exec);
  EXPECT_EQ(
      refusal(path("read-only/out.txt"), "--output"),
      "--output: cannot write '" + path("read-only/out.txt").string() + "': Permission denied");
  fs::permissions(path("read-only"), fs::perms::owner_all);
}

}  // namespace
}  // namespace ooc
