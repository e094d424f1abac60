#pragma once
// The .oocg file's layout on disk (docs/file-format.md), shared by its writer (oocg_writer.cpp)
// and its reader (oocg_reader.cpp). Each section's checksum is XXH3-64 over the XXH3-64 digests
// of its consecutive 1 MiB blocks, so hashing runs in parallel and can ride along with the copy
// into pinned memory while the block is still in cache. From version 4 the header's last free
// slot points at a section table that lists further sections, so new ones need no new header; in
// memory every section, in the header or in the table, is one entry of the same list.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <array>
#include <bit>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "ooc/core/error.hpp"

namespace ooc::oocg {

static_assert(std::endian::native == std::endian::little, ".oocg is little-endian on disk");

inline constexpr char kMagic[8] = {'O', 'O', 'C', 'G', 'R', 'A', 'P', 'H'};
inline constexpr std::uint64_t kHeaderBytes = 256;
inline constexpr std::uint64_t kAlign = 4096;
inline constexpr std::uint64_t kBlock = std::uint64_t{1} << 20;
inline constexpr std::uint64_t kFlagSymmetric = 1, kFlagPermuted = 2, kFlagCompressed = 4,
                               kFlagPackedWeights = 8, kFlagSageOrdered = 16, kFlagInEdges = 32,
                               kFlagCompressedOnly = 64;
inline constexpr std::uint32_t kOldestVersion = 1;  // version 1 has no compressed sections
inline constexpr std::uint32_t kPackedVersion = 3;  // the first with packed weights
inline constexpr std::uint32_t kTableVersion = 4;   // the first with a section table (and in-edges)
inline constexpr std::uint32_t kCompressedOnlyVersion = 5;  // the first without raw targets
enum SectionId {
  kOffsets,
  kTargets,
  kWeights,
  kOriginalIds,
  kCompressedOffsets,
  kCompressedLists,
  kPackedWeights,
  kInOffsets,  // this one and those after it are listed in the section table
  kInSources,
  kInWeights,
  kSections
};
inline constexpr int kHeaderSections = kInOffsets;
inline constexpr std::uint64_t kTableEntries = kSections - kHeaderSections;  // in version 4
inline constexpr std::array<const char*, kSections> kSectionNames{
    "offsets",          "targets",        "weights",    "original-ids", "compressed-offsets",
    "compressed-lists", "packed-weights", "in-offsets", "in-sources",   "in-weights"};

struct Section {
  std::uint64_t offset, bytes, checksum;
};
using Sections = std::array<Section, kSections>;

struct Header {
  char magic[8];
  std::uint32_t version;
  std::uint32_t header_bytes;
  std::uint64_t flags;
  std::uint64_t num_vertices;
  std::uint64_t num_edges;
  std::uint32_t weight_type;
  std::uint32_t hub_count;
  Section sections[kHeaderSections];  // packed-weights took reserved bytes of versions 1 and 2
  std::uint32_t weight_width;         // packed weights: bits per weight
  std::uint32_t weight_base;          // and the value added to each
  Section table;  // version 4 on: the section table; before, reserved and never read
  std::uint64_t header_checksum;  // XXH3-64 of the 248 bytes before it
};
static_assert(sizeof(Header) == kHeaderBytes);

// The section table (version 4 on), a section of its own after all the others: the entries of
// the sections from kInOffsets on, in SectionId order.
struct Table {
  std::uint64_t count;
  Section entries[kTableEntries];
};
static_assert(sizeof(Table) == 8 + kTableEntries * sizeof(Section));

inline std::uint64_t header_checksum(const Header& h) {
  return XXH3_64bits(&h, offsetof(Header, header_checksum));
}

inline std::uint64_t align_up(std::uint64_t x) {
  return (x + kAlign - 1) / kAlign * kAlign;
}

inline std::string errno_text() {
  return std::strerror(errno);
}

class File {
 public:
  File(const std::filesystem::path& path, int flags, mode_t mode = 0644)
      : fd_(::open(path.c_str(), flags | O_CLOEXEC, mode)) {
    if (fd_ < 0) throw IoError("cannot open '" + path.string() + "': " + errno_text());
  }
  ~File() {
    if (fd_ >= 0) ::close(fd_);
  }
  File(const File&) = delete;
  File& operator=(const File&) = delete;
  int fd() const { return fd_; }

 private:
  int fd_;
};

// Digest of each 1 MiB block of [data, data + bytes), combined into the section checksum.
inline std::uint64_t combine(const std::vector<std::uint64_t>& digests) {
  return XXH3_64bits(digests.data(), digests.size() * sizeof(std::uint64_t));
}

inline std::uint64_t blocks_of(std::uint64_t bytes) {
  return (bytes + kBlock - 1) / kBlock;
}

// pwrite of all `bytes` at `at`, retried until done. Throws IoError naming `path`.
void write_all(int fd, const void* data, std::uint64_t bytes, std::uint64_t at,
               const std::filesystem::path& path);

}  // namespace ooc::oocg
