// Reading a .oocg file (the layout: oocg_layout.hpp): the header, the section table and the
// counts they give are checked before any array is read; then the sections, in parallel blocks,
// each block hashed while it is in cache and every checksum checked; or, for a part (a rank's
// vertices), the sections that index the others whole and then only the part's lists
// (oocg_part.hpp).
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "ooc/core/codec.hpp"
#include "ooc/core/direct_reads.hpp"
#include "ooc/core/error.hpp"
#include "ooc/core/progress.hpp"
#include "ooc/partitioner/oocg.hpp"
#include "oocg_layout.hpp"
#include "oocg_part.hpp"

namespace ooc {
using namespace oocg;  // the layout
namespace {

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

// The header's own fields, and the features its flags claim against its version.
void check_header_fields(const Header& h, const std::filesystem::path& path) {
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
  const bool compressed = (h.flags & kFlagCompressed) != 0;
  const bool packed = (h.flags & kFlagPackedWeights) != 0;
  const bool in_edges = (h.flags & kFlagInEdges) != 0;
  if (compressed && h.version < 2) bad(path, "a version 1 file cannot hold compressed lists");
  if ((h.flags & kFlagCompressedOnly) != 0 && (h.version < kCompressedOnlyVersion || !compressed)) {
    bad(path, "a version " + std::to_string(h.version) +
                  " file cannot hold compressed lists only (that needs format version 5 and the "
                  "compressed lists)");
  }
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
}

// The bytes each section must hold for the header's counts and flags. The compressed lists'
// length is checked against their offsets once those are read.
std::array<std::uint64_t, kSections> expected_bytes(const Header& h, const Sections& sections) {
  const bool weighted = h.weight_type != 0, permuted = (h.flags & kFlagPermuted) != 0;
  const bool compressed = (h.flags & kFlagCompressed) != 0;
  const bool packed = (h.flags & kFlagPackedWeights) != 0;
  const bool in_edges = (h.flags & kFlagInEdges) != 0;
  const bool compressed_only = (h.flags & kFlagCompressedOnly) != 0;
  return {(h.num_vertices + 1) * 8,
          compressed_only ? 0 : h.num_edges * 4,
          weighted && !(compressed_only && packed) ? h.num_edges * 4 : 0,
          permuted ? h.num_vertices * 4 : 0,
          compressed ? (h.num_vertices + 1) * 8 : 0,
          sections[kCompressedLists].bytes,
          packed ? codec::packed_bytes(h.num_edges, h.weight_width) : 0,
          in_edges ? (h.num_vertices + 1) * 8 : 0,
          in_edges ? h.num_edges * 4 : 0,
          in_edges && weighted ? h.num_edges * 4 : 0};
}

// Each section's length against the counts, and its place: aligned, in order, inside the file.
// Returns where the last section ends.
std::uint64_t check_sections(const Header& h, const Sections& sections,
                             const std::filesystem::path& path, std::uint64_t file_bytes) {
  const std::array<std::uint64_t, kSections> expected = expected_bytes(h, sections);
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
  return previous_end;
}

void check_counts(const Header& h, const Sections& sections, const std::filesystem::path& path,
                  std::uint64_t file_bytes) {
  check_header_fields(h, path);
  if ((h.flags & kFlagCompressed) == 0 && sections[kCompressedLists].bytes != 0)
    bad(path, "compressed lists without the compressed flag");
  const std::uint64_t sections_end = check_sections(h, sections, path, file_bytes);
  if (h.table.bytes != 0 && h.version >= kTableVersion && h.table.offset < sections_end)
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

// Reads `parts` of section s into the same offsets of `to`, in parallel blocks of up to 1 MiB
// from each part's start. `verify` is for a whole section (one part, all of it), whose blocks are
// then the checksum's: each is hashed while it is in cache, and the checksum checked. Read, not
// mapped: a mapping of a file that shrinks under it kills the process with SIGBUS, during the
// load or (for views of it) in the middle of a run.
void read_section(int fd, const Sections& sections, int s, char* to,
                  const std::vector<Extent>& parts, bool verify, const std::filesystem::path& path,
                  ProgressStep* progress) {
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
    if (progress != nullptr) progress->advance(blocks[i].bytes);
  });
  if (verify && combine(digests) != sec.checksum) {
    bad(path, std::string("checksum mismatch in the ") + kSectionNames[s] +
                  " section (the file is corrupted; re-create it with partition-tool)");
  }
}

// read_section's parts of section s, without checksums, from `fd` opened with O_DIRECT: each
// block's aligned span is read into an aligned buffer of the thread's, and its bytes copied to
// their place. Returns the bytes read from the file (the aligned spans).
std::uint64_t read_section_direct(int fd, const Sections& sections, int s, char* to,
                                  const std::vector<Extent>& parts,
                                  const std::filesystem::path& path) {
  const Section& sec = sections[s];
  std::vector<Extent> blocks;
  for (const Extent& part : parts) {
    for (std::uint64_t b = 0; b < part.bytes; b += kBlock)
      blocks.push_back({part.at + b, std::min(kBlock, part.bytes - b)});
  }
  tbb::enumerable_thread_specific<AlignedBytes> buffers(
      [] { return aligned_buffer(kBlock + 2 * kDirectAlignment); });
  std::atomic<std::uint64_t> read{0};
  tbb::parallel_for(std::size_t{0}, blocks.size(), [&](std::size_t i) {
    const std::uint64_t start = sec.offset + blocks[i].at, end = start + blocks[i].bytes;
    const std::uint64_t first = start / kDirectAlignment * kDirectAlignment;
    const std::uint64_t last = (end + kDirectAlignment - 1) / kDirectAlignment * kDirectAlignment;
    std::byte* buffer = buffers.local().get();
    const std::int64_t got = read_fully(fd, buffer, last - first, first);
    if (got < 0) {
      throw IoError("cannot read '" + path.string() +
                    "': " + std::strerror(static_cast<int>(-got)));
    }
    if (first + static_cast<std::uint64_t>(got) < end) {
      bad(path, "truncated while being read: byte " + std::to_string(end - 1) + " is past its end");
    }
    std::memcpy(to + blocks[i].at, buffer + (start - first), blocks[i].bytes);
    read += last - first;
  });
  return read.load();
}

// What a read takes of each section, and whether whole (its checksum checked) or in part.
struct ReadPlan {
  struct Read {
    bool planned = false;
    bool whole = true;
    std::vector<Extent> parts;
  };
  std::array<Read, kSections> sections;
  std::uint64_t total = 0;  // bytes, for the progress bar

  void add(int s, bool whole, std::vector<Extent> parts) {
    for (const Extent& part : parts)
      total += part.bytes;
    sections[s] = {true, whole, std::move(parts)};
  }
};

// A compressed-only file's lists are its compressed ones: a read of lists that leaves those out
// would have none.
void check_compressed_only(const Header& h, const OocgReadOptions& options,
                           const std::filesystem::path& path) {
  if ((h.flags & kFlagCompressedOnly) == 0 || options.read_compressed) return;
  const auto& ranges = options.vertex_ranges;
  const bool reads_lists = ranges.empty() || std::ranges::any_of(ranges, [](const auto& r) {
                             return r.first < r.second;
                           });
  if (!reads_lists) return;
  throw InvalidInput(path.string() +
                     ": this file has compressed lists only, and --compressed off reads the raw "
                     "lists: run with --compressed on, or rebuild the file without "
                     "--compress-only");
}

// The sections a read takes: the out-edges and ids always; the compressed lists (and packed
// weights) and the in-edges when the file has them and the options ask for them.
std::array<bool, kSections> wanted_sections(const Header& h, const OocgReadOptions& options) {
  const bool compressed = (h.flags & kFlagCompressed) != 0 && options.read_compressed;
  const bool in_edges = (h.flags & kFlagInEdges) != 0 && options.read_in_edges;
  std::array<bool, kSections> wanted{};
  for (int s = 0; s < kSections; ++s)
    wanted[s] = s < kCompressedOffsets || (s < kInOffsets ? compressed : in_edges);
  wanted[kPackedWeights] = compressed && (h.flags & kFlagPackedWeights) != 0;
  return wanted;
}

// A whole read: every wanted section, whole. A part's first step: those it reads whole.
ReadPlan plan_whole(const Sections& sections, const std::array<bool, kSections>& wanted,
                    bool part) {
  ReadPlan plan;
  for (int s = 0; s < kSections; ++s) {
    if (wanted[s] && (!part || read_whole_in_part(s))) plan.add(s, true, {{0, sections[s].bytes}});
  }
  return plan;
}

// A part's second step: of each other wanted section, the extents its vertices' lists take.
ReadPlan plan_part(const Header& h, const Sections& sections,
                   const std::array<bool, kSections>& wanted, const Graph& g,
                   const OocgReadOptions& options, const std::filesystem::path& path,
                   PartBytes bytes = PartBytes::read) {
  ReadPlan plan;
  for (int s = 0; s < kSections; ++s) {
    if (wanted[s] && !read_whole_in_part(s)) {
      plan.add(s, false,
               part_extents(s, g, sections, h.weight_width, options.vertex_ranges, path, bytes));
    }
  }
  return plan;
}

// Reads the sections of one open file that a plan takes, on one progress bar.
class SectionReader {
 public:
  SectionReader(int fd, const Sections& sections, const ReadPlan& plan,
                const OocgReadOptions& options, const std::filesystem::path& path,
                const std::string& step)
      : fd_(fd),
        sections_(sections),
        plan_(plan),
        options_(options),
        path_(path),
        progress_(step, plan.total) {}

  // An array section, unless the plan leaves it out. Sections read in part go to sparse memory,
  // unless the caller gave some.
  template <class T>
  void read(int s, Buffer<T>& to) {
    if (!plan_.sections[s].planned) return;
    to = Buffer<T>::allocate(sections_[s].bytes / sizeof(T), memory(s));
    read_into(s, reinterpret_cast<char*>(to.data()));
  }

  // A byte stream section, followed by the zero padding the codec's decoders may read.
  void read_padded(int s, Buffer<std::uint8_t>& to) {
    if (!plan_.sections[s].planned) return;
    const std::uint64_t n = sections_[s].bytes;
    to = Buffer<std::uint8_t>::allocate(n + codec::kPadding, memory(s));
    read_into(s, reinterpret_cast<char*>(to.data()));
    std::memset(to.data() + n, 0, codec::kPadding);
  }

 private:
  HostMemory& memory(int s) const {
    if (options_.memory != nullptr) return *options_.memory;
    return plan_.sections[s].whole ? default_host_memory() : sparse_host_memory();
  }
  void read_into(int s, char* to) {
    const ReadPlan::Read& r = plan_.sections[s];
    read_section(fd_, sections_, s, to, r.parts, options_.verify_checksums && r.whole, path_,
                 &progress_);
  }

  int fd_;
  const Sections& sections_;
  const ReadPlan& plan_;
  const OocgReadOptions& options_;
  const std::filesystem::path& path_;
  ProgressStep progress_;
};

// Every section the reader's plan takes, into its place in `g`.
void read_planned(SectionReader& reader, Graph& g) {
  reader.read(kOffsets, g.offsets);
  reader.read(kTargets, g.targets);
  reader.read(kWeights, g.weights);
  reader.read(kOriginalIds, g.original_ids);
  reader.read(kCompressedOffsets, g.compressed.offsets);
  reader.read_padded(kCompressedLists, g.compressed.bytes);
  reader.read_padded(kPackedWeights, g.compressed.packed_weights);
  reader.read(kInOffsets, g.in_edges.offsets);
  reader.read(kInSources, g.in_edges.sources);
  reader.read(kInWeights, g.in_edges.weights);
}

// The arrays that index the others span them: the offsets and the in-offsets the E edges, the
// compressed offsets the compressed lists' bytes.
void check_spans(const Header& h, const Sections& sections, const Graph& g,
                 const std::filesystem::path& path) {
  const vid_t n = static_cast<vid_t>(h.num_vertices);
  const std::string edges = std::to_string(h.num_edges) + " edges";
  if (g.offsets[0] != 0 || g.offsets[n] != h.num_edges)
    bad(path, "counts do not add up: the offsets do not span the " + edges);
  const std::uint64_t bytes = sections[kCompressedLists].bytes;
  if (!g.compressed.empty() && (g.compressed.offsets[0] != 0 || g.compressed.offsets[n] != bytes)) {
    bad(path, "counts do not add up: the compressed offsets do not span the " +
                  std::to_string(bytes) + " bytes of compressed lists");
  }
  if (g.has_in_edges() && (g.in_edges.offsets[0] != 0 || g.in_edges.offsets[n] != h.num_edges))
    bad(path, "counts do not add up: the in-offsets do not span the " + edges);
}

// Where section s's array starts in a graph read from the file.
char* array_of(Graph& g, int s) {
  switch (s) {
    case kTargets:
      return reinterpret_cast<char*>(g.targets.data());
    case kWeights:
      return reinterpret_cast<char*>(g.weights.data());
    case kCompressedLists:
      return reinterpret_cast<char*>(g.compressed.bytes.data());
    case kPackedWeights:
      return reinterpret_cast<char*>(g.compressed.packed_weights.data());
    case kInSources:
      return reinterpret_cast<char*>(g.in_edges.sources.data());
    case kInWeights:
      return reinterpret_cast<char*>(g.in_edges.weights.data());
    default:
      return nullptr;  // read whole in a part: never fetched
  }
}

}  // namespace

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
  info.compressed_only = (o.header.flags & kFlagCompressedOnly) != 0;
  info.file_bytes = o.file_bytes;
  return info;
}

Graph read_oocg(const std::filesystem::path& path, const OocgReadOptions& options) {
  File file(path, O_RDONLY);
  const Opened o = open_checked(file.fd(), path);
  const Header& h = o.header;
  check_vertex_ranges(options.vertex_ranges, h.num_vertices, path);
  check_compressed_only(h, options, path);
  const bool part = !options.vertex_ranges.empty();
  const std::array<bool, kSections> wanted = wanted_sections(h, options);
  const std::string name = path.filename().string();
  Graph g;
  const ReadPlan whole = plan_whole(o.sections, wanted, part);
  SectionReader reader(file.fd(), o.sections, whole, options, path, "reading " + name);
  read_planned(reader, g);
  check_spans(h, o.sections, g, path);
  if (part) {
    // The offsets say where the part's lists are.
    const ReadPlan lists = plan_part(h, o.sections, wanted, g, options, path);
    SectionReader part_reader(file.fd(), o.sections, lists, options, path,
                              "reading a part of " + name);
    read_planned(part_reader, g);
  }
  if (wanted[kPackedWeights]) {
    g.compressed.weight_width = h.weight_width;
    g.compressed.weight_base = h.weight_base;
  }
  g.weight_type = static_cast<WeightType>(h.weight_type);
  g.hub_count = h.hub_count;
  g.symmetric = (h.flags & kFlagSymmetric) != 0;
  g.sage_ordered = (h.flags & kFlagSageOrdered) != 0;
  return g;
}

struct OocgLists::Open {
  Open(const std::filesystem::path& path, const OocgReadOptions& options)
      : file(path, O_RDONLY),
        opened(open_checked(file.fd(), path)),
        wanted(wanted_sections(opened.header, options)),
        lists(path) {}
  File file;
  Opened opened;
  std::array<bool, kSections> wanted;
  DirectFile lists;  // the fetches' reads, past the page cache where the file system allows
  // What the fetches since the last release read: a section and its extents.
  std::vector<std::pair<int, std::vector<Extent>>> fetched;
};

OocgLists::OocgLists(const std::filesystem::path& path, const OocgReadOptions& options)
    : path_(path), options_(options), open_(std::make_unique<Open>(path, options)) {}

OocgLists::~OocgLists() = default;

std::uint64_t OocgLists::fetch(Graph& g, const std::vector<std::pair<vid_t, vid_t>>& ranges,
                               bool compressed_only,
                               const std::vector<std::pair<vid_t, vid_t>>* held) {
  std::array<bool, kSections> wanted = open_->wanted;
  if (compressed_only && wanted[kCompressedLists]) {
    wanted[kTargets] = false;
    if (wanted[kPackedWeights]) wanted[kWeights] = false;
  }
  const auto plan_of = [&](const std::vector<std::pair<vid_t, vid_t>>& of, PartBytes bytes) {
    OocgReadOptions part = options_;
    part.vertex_ranges = of;
    return plan_part(open_->opened.header, open_->opened.sections, wanted, g, part, path_, bytes);
  };
  const ReadPlan plan = plan_of(ranges, PartBytes::read);
  // A read takes the words around the lists and the padding after them, which may hold the lists
  // of partitions that host memory keeps: release gives back their own bytes' pages alone.
  const ReadPlan given_back = plan_of(held == nullptr ? ranges : *held, PartBytes::own);
  const int fd = open_->lists.fd();
  std::uint64_t read = 0;
  for (int s = 0; s < kSections; ++s) {
    const ReadPlan::Read& r = plan.sections[s];
    if (!r.planned) continue;
    if (open_->lists.direct()) {
      read += read_section_direct(fd, open_->opened.sections, s, array_of(g, s), r.parts, path_);
    } else {
      read_section(fd, open_->opened.sections, s, array_of(g, s), r.parts, false, path_, nullptr);
    }
    open_->fetched.emplace_back(s, given_back.sections[s].parts);
  }
  return open_->lists.direct() ? read : plan.total;
}

bool OocgLists::direct() const {
  return open_->lists.direct();
}

void OocgLists::release(Graph& g, std::span<const void* const> kept) {
  const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  for (const auto& [s, extents] : open_->fetched) {
    const char* array = array_of(g, s);
    if (std::find(kept.begin(), kept.end(), array) != kept.end()) continue;
    const auto base = reinterpret_cast<std::uintptr_t>(array);
    for (const Extent& e : extents) {
      // The pages wholly inside the extent: those at its ends may hold lists of other ranges.
      const std::uintptr_t first = (base + e.at + page - 1) / page * page;
      const std::uintptr_t end = (base + e.at + e.bytes) / page * page;
      if (end > first) ::madvise(reinterpret_cast<void*>(first), end - first, MADV_DONTNEED);
    }
  }
  open_->fetched.clear();
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
