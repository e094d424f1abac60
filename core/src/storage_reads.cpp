#include "ooc/core/storage_reads.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <latch>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "ooc/core/direct_reads.hpp"
#include "ooc/core/error.hpp"

namespace ooc {
namespace {

constexpr std::uint64_t kAlignment = kDirectAlignment;  // O_DIRECT: offsets, lengths and buffers

using Clock = std::chrono::steady_clock;

[[noreturn]] void fail(const std::string& what, const std::filesystem::path& file, int error) {
  throw IoError(what + " '" + file.string() + "': " + std::strerror(error));
}

// The block device a file lives on, by its device number (sysfs); "" when it is none.
std::string device_of(const struct stat& st) {
  std::ifstream uevent("/sys/dev/block/" + std::to_string(major(st.st_dev)) + ":" +
                       std::to_string(minor(st.st_dev)) + "/uevent");
  for (std::string line; std::getline(uevent, line);) {
    if (line.starts_with("DEVNAME=")) return line.substr(8);
  }
  return "";
}

// What the sequential reads took: the bytes read within `total`, and the seconds from the first
// read's start to the last one's end.
struct SequentialReads {
  std::uint64_t bytes = 0;
  double seconds = 0;
};

// The sequential reads: block i by thread i % in_flight. The threads start and take their buffers
// before the clock does, so that a small file's reads are not priced with a thread's start.
SequentialReads read_sequentially(int fd, std::uint64_t total, const StorageReadOptions& o,
                                  const std::filesystem::path& file) {
  const std::uint64_t blocks = (total + o.block_bytes - 1) / o.block_bytes;
  std::atomic<std::uint64_t> bytes{0};
  std::atomic<int> error{0};
  std::latch ready(o.in_flight), go(1);
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < o.in_flight; ++t) {
    threads.emplace_back([&, t] {
      const auto buffer = aligned_buffer(o.block_bytes);
      ready.count_down();
      go.wait();
      for (std::uint64_t b = t; b < blocks && error.load() == 0; b += o.in_flight) {
        const std::uint64_t offset = b * o.block_bytes;
        const std::int64_t got = read_fully(fd, buffer.get(), o.block_bytes, offset);
        if (got < 0) {
          error.store(static_cast<int>(-got));
          return;
        }
        bytes += std::min(static_cast<std::uint64_t>(got), total - offset);
      }
    });
  }
  ready.wait();
  const auto start = Clock::now();
  go.count_down();
  for (std::thread& t : threads)
    t.join();
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (error.load() != 0) fail("cannot read", file, error.load());
  return {bytes.load(), seconds};
}

}  // namespace

StorageReads measure_storage_reads(const std::filesystem::path& file, const StorageReadOptions& o) {
  if (o.block_bytes == 0 || o.block_bytes % kAlignment != 0) {
    throw InvalidInput("a storage read's block must be a multiple of 4 KiB (got " +
                       std::to_string(o.block_bytes) + " bytes)");
  }
  if (o.in_flight == 0) throw InvalidInput("storage reads need at least one in flight");
  StorageReads r;
  const DirectFile f(file);
  r.direct = f.direct();
  struct stat st {};
  if (::fstat(f.fd(), &st) != 0) fail("cannot read", file, errno);
  if (!S_ISREG(st.st_mode)) throw IoError("'" + file.string() + "' is not a regular file");
  if (st.st_size == 0) throw IoError("'" + file.string() + "' is empty");
  r.device = device_of(st);
  r.file_bytes = static_cast<std::uint64_t>(st.st_size);
  const auto drop_cached = [&] {
    if (!r.direct) ::posix_fadvise(f.fd(), 0, 0, POSIX_FADV_DONTNEED);
  };

  drop_cached();
  const std::uint64_t total = o.max_bytes == 0 ? r.file_bytes : std::min(r.file_bytes, o.max_bytes);
  const SequentialReads sequential = read_sequentially(f.fd(), total, o, file);
  r.bytes = sequential.bytes;
  r.seconds = sequential.seconds;

  drop_cached();
  const auto buffer = aligned_buffer(kAlignment);
  std::mt19937_64 random(1);
  std::uniform_int_distribution<std::uint64_t> page(0, (r.file_bytes - 1) / kAlignment);
  std::vector<double> latencies;
  for (unsigned i = 0; i < o.latency_reads; ++i) {
    const auto start = Clock::now();
    const std::int64_t got =
        read_fully(f.fd(), buffer.get(), kAlignment, page(random) * kAlignment);
    if (got < 0) fail("cannot read", file, static_cast<int>(-got));
    latencies.push_back(std::chrono::duration<double>(Clock::now() - start).count());
  }
  r.latency_reads = o.latency_reads;
  if (!latencies.empty()) {
    std::nth_element(latencies.begin(), latencies.begin() + latencies.size() / 2, latencies.end());
    r.latency_seconds = latencies[latencies.size() / 2];
  }
  return r;
}

}  // namespace ooc
