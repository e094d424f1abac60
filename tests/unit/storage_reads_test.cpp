// measure_storage_reads (storage_reads.hpp): every byte of a file (or the first max_bytes) is
// read once in the sequential reads, whatever the blocks in flight and a tail shorter than a
// block; the random reads are counted and timed; bad options and files are refused in one line.
#include "ooc/core/storage_reads.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "ooc/core/error.hpp"
#include "temp_dir.hpp"

namespace ooc {
namespace {

namespace fs = std::filesystem;

class StorageReadsTest : public test::TempDirTest {
 protected:
  StorageReadsTest() : TempDirTest("ooc-storage") {}

  fs::path file_of(std::uint64_t bytes) {
    const fs::path path = dir_ / ("f" + std::to_string(bytes));
    std::ofstream out(path, std::ios::binary);
    std::vector<char> data(bytes);
    for (std::uint64_t i = 0; i < bytes; ++i)
      data[i] = static_cast<char>(i * 131 % 251);
    out.write(data.data(), static_cast<std::streamsize>(bytes));
    return path;
  }
};

TEST_F(StorageReadsTest, ReadsEveryByteOnceInBlocksInFlight) {
  const std::uint64_t size = (std::uint64_t{5} << 20) + 123;  // a tail shorter than a block
  const fs::path file = file_of(size);
  for (const unsigned in_flight : {1u, 3u, 8u}) {
    StorageReadOptions o;
    o.block_bytes = std::uint64_t{1} << 20;
    o.in_flight = in_flight;
    o.latency_reads = 16;
    const StorageReads r = measure_storage_reads(file, o);
    EXPECT_EQ(r.file_bytes, size);
    EXPECT_EQ(r.bytes, size) << in_flight << " in flight";
    EXPECT_GT(r.seconds, 0.0);
    EXPECT_GT(r.bytes_per_second(), 0.0);
    EXPECT_EQ(r.latency_reads, 16u);
    EXPECT_GT(r.latency_seconds, 0.0);
  }
}

TEST_F(StorageReadsTest, ReadsAtMostMaxBytes) {
  const fs::path file = file_of(std::uint64_t{3} << 20);
  StorageReadOptions o;
  o.block_bytes = std::uint64_t{1} << 20;
  o.max_bytes = (std::uint64_t{1} << 20) + 4096;  // a block and a page: the second block cut
  o.latency_reads = 0;
  const StorageReads r = measure_storage_reads(file, o);
  EXPECT_EQ(r.bytes, o.max_bytes);
  EXPECT_EQ(r.latency_reads, 0u);
  EXPECT_EQ(r.latency_seconds, 0.0);
}

TEST_F(StorageReadsTest, RefusesBadOptionsAndFiles) {
  const fs::path file = file_of(8192);
  StorageReadOptions o;
  o.block_bytes = 1000;
  EXPECT_THROW(
      {
        try {
          measure_storage_reads(file, o);
        } catch (const InvalidInput& e) {
          EXPECT_STREQ(e.what(),
                       "a storage read's block must be a multiple of 4 KiB (got 1000 bytes)");
          throw;
        }
      },
      InvalidInput);
  o = {};
  o.in_flight = 0;
  EXPECT_THROW(measure_storage_reads(file, o), InvalidInput);
  const fs::path missing = dir_ / "missing";
  try {
    measure_storage_reads(missing);
    ADD_FAILURE() << "a missing file was read";
  } catch (const IoError& e) {
    EXPECT_EQ(std::string(e.what()),
              "cannot open '" + missing.string() + "': No such file or directory");
  }
  const fs::path empty = file_of(0);
  try {
    measure_storage_reads(empty);
    ADD_FAILURE() << "an empty file was read";
  } catch (const IoError& e) {
    EXPECT_EQ(std::string(e.what()), "'" + empty.string() + "' is empty");
  }
}

}  // namespace
}  // namespace ooc
