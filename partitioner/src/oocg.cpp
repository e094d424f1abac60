// .oocg reader and writer. Each section's checksum is XXH3-64 over the XXH3-64 digests of its
// consecutive 1 MiB blocks, so hashing runs in parallel and can ride along with the copy into
// pinned memory while the block is still in cache. From version 4 the header's last free slot
// points at a section table that lists further sections, so new ones need no new header; in
// memory every section, in the header or in the table, is one entry of the same list.
#include "ooc/partitioner/oocg.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <tbb/parallel_for.h>
#include <unistd.h>
#include <xxhash.h>

#include <array>
#include <bit>
#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "ooc/core/codec.hpp"
#include "ooc/core/error.hpp"
#include "ooc/core/progress.hpp"

namespace ooc {
namespace {

static_assert(std::endian::native == std::endian::little, ".oocg is little-endian on disk");

constexpr char kMagic[8] = {'O', 'O', 'C', 'G', 'R', 'A', 'P', 'H'};
constexpr std::uint64_t kHeaderBytes = 256;
constexpr std::uint64_t kAlign = 4096;
constexpr std::uint64_t kBlock = std::uint64_t{1} << 20;
constexpr std::uint64_t kFlagSymmetric = 1, kFlagPermuted = 2, kFlagCompressed = 4,
                        kFlagPackedWeights = 8, kFlagSageOrdered = 16, kFlagInEdges = 32;
constexpr std::uint32_t kOldestVersion = 1;  // version 1 has no compressed sections
constexpr std::uint32_t kPackedVersion = 3;  // the first with packed weights
constexpr std::uint32_t kTableVersion = 4;   // the first with a section table (and in-edges)
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
constexpr int kHeaderSections = kInOffsets;
constexpr std::uint64_t kTableEntries = kSections - kHeaderSections;  // in version 4
constexpr std::array<const char*, kSections> kSectionNames{
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

std::uint64_t header_checksum(const Header& h) {
  return XXH3_64bits(&h, offsetof(Header, header_checksum));
}

std::uint64_t align_up(std::uint64_t x) {
  return (x + kAlign - 1) / kAlign * kAlign;
}

std::string errno_text() {
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
std::uint64_t combine(const std::vector<std::uint64_t>& digests) {
  return XXH3_64bits(digests.data(), digests.size() * sizeof(std::uint64_t));
}

std::uint64_t blocks_of(std::uint64_t bytes) {
  return (bytes + kBlock - 1) / kBlock;
}

// ---- writing --------------------------------------------------------------------------------

struct Source {
  const void* data;
  std::uint64_t bytes;
};

void write_all(int fd, const void* data, std::uint64_t bytes, std::uint64_t at,
               const std::filesystem::path& path) {
  const char* p = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t n = ::pwrite(fd, p, bytes, static_cast<off_t>(at));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw IoError("cannot write '" + path.string() + "': " + errno_text());
    p += n;
    at += static_cast<std::uint64_t>(n);
    bytes -= static_cast<std::uint64_t>(n);
  }
}

// Writes a section in parallel, 64 blocks per task, and returns its checksum.
std::uint64_t write_section(int fd, const Source& src, std::uint64_t at,
                            const std::filesystem::path& path, ProgressStep& progress) {
  const std::uint64_t blocks = blocks_of(src.bytes);
  std::vector<std::uint64_t> digests(blocks);
  constexpr std::uint64_t kBlocksPerTask = 64;
  tbb::parallel_for(std::uint64_t{0}, (blocks + kBlocksPerTask - 1) / kBlocksPerTask,
                    [&](std::uint64_t task) {
                      const std::uint64_t b0 = task * kBlocksPerTask;
                      const std::uint64_t b1 = std::min(blocks, b0 + kBlocksPerTask);
                      const char* base = static_cast<const char*>(src.data);
                      for (std::uint64_t b = b0; b < b1; ++b) {
                        const std::uint64_t len = std::min(kBlock, src.bytes - b * kBlock);
                        digests[b] = XXH3_64bits(base + b * kBlock, len);
                      }
                      const std::uint64_t len = std::min(src.bytes, b1 * kBlock) - b0 * kBlock;
                      write_all(fd, base + b0 * kBlock, len, at + b0 * kBlock, path);
                      progress.advance(len);
                    });
  return combine(digests);
}

void sync_and_rename(int fd, const std::filesystem::path& tmp, const std::filesystem::path& path) {
  if (::fsync(fd) != 0) throw IoError("cannot flush '" + tmp.string() + "': " + errno_text());
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec)
    throw IoError("cannot rename '" + tmp.string() + "' to '" + path.string() +
                  "': " + ec.message());
  // Make the rename itself durable.
  const auto dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

// ---- reading --------------------------------------------------------------------------------

[[noreturn]] void bad(const std::filesystem::path& path, const std::string& why) {
  throw FormatError(path.string() + ": " + why);
}

// Reads [at, at + bytes) of the file into `to`. A file cut short while it is read (another
// program truncating it, a network file system) is an error that names it.
void read_exactly(int fd, char* to, std::uint64_t bytes, std::uint64_t at,
                  const std::filesystem::path& path) {
  while (bytes > 0) {
    const ssize_t n = ::pread(fd, to, bytes, static_cast<off_t>(at));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw IoError("cannot read '" + path.string() + "': " + errno_text());
    if (n == 0) {
      struct stat st {};
      const std::string now =
          ::fstat(fd, &st) == 0 ? std::to_string(st.st_size) + " bytes" : "fewer bytes";
      bad(path, "truncated while being read: byte " + std::to_string(at) +
                    " is past its end (it now has " + now + ")");
    }
    to += n;
    at += static_cast<std::uint64_t>(n);
    bytes -= static_cast<std::uint64_t>(n);
  }
}

Header read_header(int fd, const std::filesystem::path& path, std::uint64_t file_bytes) {
  Header h{};
  if (file_bytes < kHeaderBytes) {
    bad(path, "truncated: " + std::to_string(file_bytes) + " bytes, shorter than the " +
                  std::to_string(kHeaderBytes) + "-byte header");
  }
  if (::pread(fd, &h, sizeof h, 0) != static_cast<ssize_t>(sizeof h)) {
    throw IoError("cannot read '" + path.string() + "': " + errno_text());
  }
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0)
    bad(path, "not an OocGraph file (bad magic)");
  if (h.version < kOldestVersion || h.version > kOocgVersion) {
    bad(path, "format version " + std::to_string(h.version) +
                  " is not supported (this build reads versions " + std::to_string(kOldestVersion) +
                  " to " + std::to_string(kOocgVersion) + ")");
  }
  if (h.header_checksum != header_checksum(h))
    bad(path, "header checksum mismatch (the header is corrupted)");
  return h;
}

// The entries of every section: the header's, and from version 4 the section table's (read and
// checked here: its place, length, checksum and count), or none when the header points at no
// table. Versions 1 to 3 never read the slot the table's place is in.
Sections read_sections(int fd, const Header& h, const std::filesystem::path& path,
                       std::uint64_t file_bytes) {
  Sections sections{};
  std::copy(std::begin(h.sections), std::end(h.sections), sections.begin());
  const Section& at = h.table;
  if (h.version < kTableVersion || (at.offset == 0 && at.bytes == 0)) return sections;
  if (at.offset % kAlign != 0 || at.offset < kHeaderBytes)
    bad(path, "the section table starts at a bad offset");
  if (at.bytes != sizeof(Table)) {
    bad(path, "counts do not add up: the section table holds " + std::to_string(at.bytes) +
                  " bytes, expected " + std::to_string(sizeof(Table)) + " (a count and " +
                  std::to_string(kTableEntries) + " entries)");
  }
  if (at.offset + at.bytes > file_bytes) {
    bad(path, "truncated: the section table ends at byte " + std::to_string(at.offset + at.bytes) +
                  " but the file has " + std::to_string(file_bytes) + " bytes");
  }
  Table table{};
  read_exactly(fd, reinterpret_cast<char*>(&table), sizeof table, at.offset, path);
  // Always checked, as the header's: the table is as small as the header and as vital.
  if (combine({XXH3_64bits(&table, sizeof table)}) != at.checksum) {
    bad(path,
        "checksum mismatch in the section table (the file is corrupted; re-create it with "
        "partition-tool)");
  }
  if (table.count != kTableEntries) {
    bad(path, "counts do not add up: the section table's count is " + std::to_string(table.count) +
                  ", expected " + std::to_string(kTableEntries) +
                  " (in-offsets, in-sources, in-weights)");
  }
  std::copy(std::begin(table.entries), std::end(table.entries), sections.begin() + kHeaderSections);
  return sections;
}

void check_counts(const Header& h, const Sections& sections, const std::filesystem::path& path,
                  std::uint64_t file_bytes) {
  if (h.header_bytes != kHeaderBytes)
    bad(path, "header size " + std::to_string(h.header_bytes) + " is not 256");
  if (h.num_vertices > std::uint64_t{kMaxVertexId} + 1) {
    bad(path,
        "counts do not add up: " + std::to_string(h.num_vertices) + " vertices exceed 32-bit ids");
  }
  if (h.weight_type > static_cast<std::uint32_t>(WeightType::f32)) {
    bad(path, "unknown weight type " + std::to_string(h.weight_type));
  }
  if (h.hub_count > h.num_vertices) bad(path, "counts do not add up: more hubs than vertices");
  const bool weighted = h.weight_type != 0, permuted = (h.flags & kFlagPermuted) != 0;
  const bool compressed = (h.flags & kFlagCompressed) != 0;
  const bool packed = (h.flags & kFlagPackedWeights) != 0;
  const bool in_edges = (h.flags & kFlagInEdges) != 0;
  if (compressed && h.version < 2) bad(path, "a version 1 file cannot hold compressed lists");
  if (in_edges && h.version < kTableVersion) {
    bad(path, "a version " + std::to_string(h.version) +
                  " file cannot hold in-edges (they need format version 4)");
  }
  if (packed &&
      (h.version < kPackedVersion || !compressed ||
       h.weight_type != static_cast<std::uint32_t>(WeightType::u32) || h.weight_width >= 32)) {
    bad(path,
        "packed weights need format version 3, compressed lists, u32 weights and a width "
        "below 32 bits (this file: version " +
            std::to_string(h.version) + ", width " + std::to_string(h.weight_width) + ")");
  }
  // The compressed lists' length is checked against their offsets once those are read.
  const std::array<std::uint64_t, kSections> expected{
      (h.num_vertices + 1) * 8,
      h.num_edges * 4,
      weighted ? h.num_edges * 4 : 0,
      permuted ? h.num_vertices * 4 : 0,
      compressed ? (h.num_vertices + 1) * 8 : 0,
      sections[kCompressedLists].bytes,
      packed ? codec::packed_bytes(h.num_edges, h.weight_width) : 0,
      in_edges ? (h.num_vertices + 1) * 8 : 0,
      in_edges ? h.num_edges * 4 : 0,
      in_edges && weighted ? h.num_edges * 4 : 0};
  if (!compressed && sections[kCompressedLists].bytes != 0)
    bad(path, "compressed lists without the compressed flag");
  std::uint64_t previous_end = kHeaderBytes;
  for (int s = 0; s < kSections; ++s) {
    const Section& sec = sections[s];
    if (sec.bytes != expected[s]) {
      bad(path, std::string("counts do not add up: the ") + kSectionNames[s] + " section holds " +
                    std::to_string(sec.bytes) + " bytes, expected " + std::to_string(expected[s]) +
                    " for " + std::to_string(h.num_vertices) + " vertices and " +
                    std::to_string(h.num_edges) + " edges");
    }
    if (sec.bytes == 0) continue;
    if (sec.offset % kAlign != 0 || sec.offset < previous_end) {
      bad(path, std::string("the ") + kSectionNames[s] + " section starts at a bad offset");
    }
    previous_end = sec.offset + sec.bytes;
    if (previous_end > file_bytes) {
      bad(path, std::string("truncated: the ") + kSectionNames[s] + " section ends at byte " +
                    std::to_string(previous_end) + " but the file has " +
                    std::to_string(file_bytes) + " bytes");
    }
  }
  if (h.table.bytes != 0 && h.version >= kTableVersion && h.table.offset < previous_end)
    bad(path, "the section table starts at a bad offset (it must follow every section)");
}

struct Opened {
  Header header;
  Sections sections;
  std::uint64_t file_bytes;
};

Opened open_checked(int fd, const std::filesystem::path& path) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw IoError("cannot stat '" + path.string() + "': " + errno_text());
  const auto file_bytes = static_cast<std::uint64_t>(st.st_size);
  Header h = read_header(fd, path, file_bytes);
  const Sections sections = read_sections(fd, h, path, file_bytes);
  check_counts(h, sections, path, file_bytes);
  return {h, sections, file_bytes};
}

// Bytes [at, at + bytes) of a section.
struct Extent {
  std::uint64_t at, bytes;
};

// Reads `parts` of section s into the same offsets of `to`, in parallel blocks of up to 1 MiB
// from each part's start. `verify` is for a whole section (one part, all of it), whose blocks are
// then the checksum's: each is hashed while it is in cache, and the checksum checked. Read, not
// mapped: a mapping of a file that shrinks under it kills the process with SIGBUS, during the
// load or (for views of it) in the middle of a run.
void read_section(int fd, const Sections& sections, int s, char* to,
                  const std::vector<Extent>& parts, bool verify, const std::filesystem::path& path,
                  ProgressStep& progress) {
  const Section& sec = sections[s];
  std::vector<Extent> blocks;
  for (const Extent& part : parts) {
    for (std::uint64_t b = 0; b < part.bytes; b += kBlock)
      blocks.push_back({part.at + b, std::min(kBlock, part.bytes - b)});
  }
  std::vector<std::uint64_t> digests(blocks.size());
  tbb::parallel_for(std::size_t{0}, blocks.size(), [&](std::size_t i) {
    char* block = to + blocks[i].at;
    read_exactly(fd, block, blocks[i].bytes, sec.offset + blocks[i].at, path);
    if (verify) digests[i] = XXH3_64bits(block, blocks[i].bytes);
    progress.advance(blocks[i].bytes);
  });
  if (verify && combine(digests) != sec.checksum) {
    bad(path, std::string("checksum mismatch in the ") + kSectionNames[s] +
                  " section (the file is corrupted; re-create it with partition-tool)");
  }
}

void check_edge_ranges(const std::vector<std::pair<eid_t, eid_t>>& ranges, eid_t num_edges,
                       const std::filesystem::path& path) {
  const auto text = [](std::pair<eid_t, eid_t> r) {
    return "[" + std::to_string(r.first) + ", " + std::to_string(r.second) + ")";
  };
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    const std::string what = path.string() + ": edge range " + text(ranges[i]);
    if (ranges[i].first > ranges[i].second) throw InvalidInput(what + " ends before it starts");
    if (ranges[i].second > num_edges)
      throw InvalidInput(what + " goes past the " + std::to_string(num_edges) + " edges");
    if (i > 0 && ranges[i].first < ranges[i - 1].second) {
      throw InvalidInput(what + " starts before " + text(ranges[i - 1]) +
                         " ends: ranges must be sorted and disjoint");
    }
  }
}

}  // namespace

void write_oocg(const Graph& g, const std::filesystem::path& path) {
  validate(g);
  Header h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  // A file is written at the oldest version that holds it, which older builds read.
  const bool compressed = !g.compressed.empty();
  const bool packed = compressed && g.compressed.packs_weights();
  const bool in_edges = g.has_in_edges();
  h.version = in_edges ? kTableVersion : packed ? kPackedVersion : compressed ? 2 : kOldestVersion;
  h.header_bytes = kHeaderBytes;
  h.flags = (g.symmetric ? kFlagSymmetric : 0) | (g.original_ids.empty() ? 0 : kFlagPermuted) |
            (compressed ? kFlagCompressed : 0) | (packed ? kFlagPackedWeights : 0) |
            (g.sage_ordered ? kFlagSageOrdered : 0) | (in_edges ? kFlagInEdges : 0);
  if (packed) {
    h.weight_width = g.compressed.weight_width;
    h.weight_base = g.compressed.weight_base;
  }
  h.num_vertices = g.num_vertices();
  h.num_edges = g.num_edges();
  h.weight_type = static_cast<std::uint32_t>(g.weight_type);
  h.hub_count = g.hub_count;
  const std::array<Source, kSections> sources{
      Source{g.offsets.data(), g.offsets.size_bytes()},
      Source{g.targets.data(), g.targets.size_bytes()},
      Source{g.weights.data(), g.weights.size_bytes()},
      Source{g.original_ids.data(), g.original_ids.size_bytes()},
      Source{g.compressed.offsets.data(), g.compressed.offsets.size_bytes()},
      Source{g.compressed.bytes.data(), g.compressed.size_bytes()},
      Source{g.compressed.packed_weights.data(),
             packed ? codec::packed_bytes(g.num_edges(), g.compressed.weight_width) : 0},
      Source{g.in_edges.offsets.data(), g.in_edges.offsets.size_bytes()},
      Source{g.in_edges.sources.data(), g.in_edges.sources.size_bytes()},
      Source{g.in_edges.weights.data(), g.in_edges.weights.size_bytes()}};
  Sections sections{};
  std::uint64_t end = kHeaderBytes;
  std::uint64_t total = 0;
  for (int s = 0; s < kSections; ++s) {
    if (sources[s].bytes == 0) {
      sections[s] = {0, 0, combine({})};
      continue;
    }
    sections[s] = {align_up(end), sources[s].bytes, 0};
    end = sections[s].offset + sources[s].bytes;
    total += sources[s].bytes;
  }
  // The section table goes last, in files that list sections in it; before version 4 its slot in
  // the header stays zero.
  Table table{kTableEntries, {}};
  if (in_edges) {
    h.table = {align_up(end), sizeof table, 0};
    end = h.table.offset + sizeof table;
    total += sizeof table;
  }
  const std::filesystem::path tmp = path.string() + ".tmp-" + std::to_string(::getpid());
  try {
    File file(tmp, O_WRONLY | O_CREAT | O_TRUNC);
    if (::ftruncate(file.fd(), static_cast<off_t>(end)) != 0) {
      throw IoError("cannot size '" + tmp.string() + "': " + errno_text());
    }
    ProgressStep progress("writing " + path.filename().string(), total);
    for (int s = 0; s < kSections; ++s) {
      if (sources[s].bytes == 0) continue;
      sections[s].checksum =
          write_section(file.fd(), sources[s], sections[s].offset, tmp, progress);
    }
    std::copy_n(sections.begin(), kHeaderSections, std::begin(h.sections));
    if (in_edges) {
      std::copy(sections.begin() + kHeaderSections, sections.end(), std::begin(table.entries));
      h.table.checksum =
          write_section(file.fd(), {&table, sizeof table}, h.table.offset, tmp, progress);
    }
    h.header_checksum = header_checksum(h);
    write_all(file.fd(), &h, sizeof h, 0, tmp);
    sync_and_rename(file.fd(), tmp, path);
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    throw;
  }
}

OocgInfo read_oocg_info(const std::filesystem::path& path) {
  File file(path, O_RDONLY);
  const Opened o = open_checked(file.fd(), path);
  OocgInfo info;
  info.version = o.header.version;
  info.num_vertices = static_cast<vid_t>(o.header.num_vertices);
  info.num_edges = o.header.num_edges;
  info.weight_type = static_cast<WeightType>(o.header.weight_type);
  info.hub_count = o.header.hub_count;
  info.symmetric = (o.header.flags & kFlagSymmetric) != 0;
  info.permuted = (o.header.flags & kFlagPermuted) != 0;
  info.sage_ordered = (o.header.flags & kFlagSageOrdered) != 0;
  info.compressed_bytes = o.sections[kCompressedLists].bytes;
  info.compressed = (o.header.flags & kFlagCompressed) != 0;
  info.packed_weights = (o.header.flags & kFlagPackedWeights) != 0;
  info.weight_width = info.packed_weights ? o.header.weight_width : 0;
  info.packed_weight_bytes = o.sections[kPackedWeights].bytes;
  info.in_edges = (o.header.flags & kFlagInEdges) != 0;
  info.file_bytes = o.file_bytes;
  return info;
}

Graph read_oocg(const std::filesystem::path& path, const OocgReadOptions& options) {
  File file(path, O_RDONLY);
  const Opened o = open_checked(file.fd(), path);
  const Header& h = o.header;
  const Sections& sections = o.sections;
  check_edge_ranges(options.edge_ranges, h.num_edges, path);
  // What to read of each section: all of it, or of the edge arrays only the ranges' bytes; the
  // compressed lists and the in-edges only when asked for and whole.
  const auto in_part = [&](int s) {
    return !options.edge_ranges.empty() && (s == kTargets || s == kWeights);
  };
  const bool compressed =
      (h.flags & kFlagCompressed) != 0 && options.read_compressed && options.edge_ranges.empty();
  const bool in_edges =
      (h.flags & kFlagInEdges) != 0 && options.read_in_edges && options.edge_ranges.empty();
  const auto wanted = [&](int s) {
    if (s == kCompressedOffsets || s == kCompressedLists || s == kPackedWeights) return compressed;
    return s < kInOffsets || in_edges;
  };
  std::array<std::vector<Extent>, kSections> parts;
  std::uint64_t total = 0;
  for (int s = 0; s < kSections; ++s) {
    if (!wanted(s)) continue;
    if (in_part(s) && sections[s].bytes > 0) {
      for (const auto& [first, last] : options.edge_ranges)  // a weight is as wide as a target
        parts[s].push_back({first * sizeof(vid_t), (last - first) * sizeof(vid_t)});
    } else {
      parts[s] = {{0, sections[s].bytes}};
    }
    for (const Extent& part : parts[s])
      total += part.bytes;
  }
  HostMemory& memory = options.memory != nullptr ? *options.memory : default_host_memory();
  ProgressStep progress("reading " + path.filename().string(), total);
  const auto read = [&]<class T>(int s, Buffer<T>& to) {
    HostMemory& m = in_part(s) && options.memory == nullptr ? sparse_host_memory() : memory;
    to = Buffer<T>::allocate(sections[s].bytes / sizeof(T), m);
    read_section(file.fd(), sections, s, reinterpret_cast<char*>(to.data()), parts[s],
                 options.verify_checksums && !in_part(s), path, progress);
  };
  Graph g;
  read(kOffsets, g.offsets);
  read(kTargets, g.targets);
  read(kWeights, g.weights);
  read(kOriginalIds, g.original_ids);
  if (compressed) {
    read(kCompressedOffsets, g.compressed.offsets);
    const std::uint64_t bytes = sections[kCompressedLists].bytes;
    if (g.compressed.offsets[0] != 0 || g.compressed.offsets[h.num_vertices] != bytes) {
      bad(path, "counts do not add up: the compressed offsets do not span the " +
                    std::to_string(bytes) + " bytes of compressed lists");
    }
    g.compressed.bytes = Buffer<std::uint8_t>::allocate(bytes + codec::kPadding, memory);
    read_section(file.fd(), sections, kCompressedLists,
                 reinterpret_cast<char*>(g.compressed.bytes.data()), parts[kCompressedLists],
                 options.verify_checksums, path, progress);
    std::memset(g.compressed.bytes.data() + bytes, 0, codec::kPadding);
    if ((h.flags & kFlagPackedWeights) != 0) {
      const std::uint64_t packed = sections[kPackedWeights].bytes;
      g.compressed.packed_weights =
          Buffer<std::uint8_t>::allocate(packed + codec::kPadding, memory);
      read_section(file.fd(), sections, kPackedWeights,
                   reinterpret_cast<char*>(g.compressed.packed_weights.data()),
                   parts[kPackedWeights], options.verify_checksums, path, progress);
      std::memset(g.compressed.packed_weights.data() + packed, 0, codec::kPadding);
      g.compressed.weight_width = h.weight_width;
      g.compressed.weight_base = h.weight_base;
    }
  }
  if (in_edges) {
    read(kInOffsets, g.in_edges.offsets);
    read(kInSources, g.in_edges.sources);
    read(kInWeights, g.in_edges.weights);
    if (g.in_edges.offsets[0] != 0 || g.in_edges.offsets[h.num_vertices] != h.num_edges) {
      bad(path, "counts do not add up: the in-offsets do not span the " +
                    std::to_string(h.num_edges) + " edges");
    }
  }
  g.weight_type = static_cast<WeightType>(h.weight_type);
  g.hub_count = h.hub_count;
  g.symmetric = (h.flags & kFlagSymmetric) != 0;
  g.sage_ordered = (h.flags & kFlagSageOrdered) != 0;
  if (g.offsets[0] != 0 || g.offsets[g.num_vertices()] != g.num_edges()) {
    bad(path, "counts do not add up: the offsets do not span the " + std::to_string(g.num_edges()) +
                  " edges");
  }
  return g;
}

OocgInfo verify_oocg(const std::filesystem::path& path) {
  const Graph g = read_oocg(path);
  try {
    validate(g);
  } catch (const FormatError& e) {
    bad(path, e.what());
  }
  return read_oocg_info(path);
}

}  // namespace ooc
