// Writing a graph as a .oocg file (the layout: oocg_layout.hpp): the sections in parallel blocks,
// each block hashed as it is written, the header last, all into an AtomicFile (a temporary name
// that is flushed and then renamed), so that a crash never leaves a partial file under the final
// name.
#include <tbb/parallel_for.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "ooc/core/atomic_file.hpp"
#include "ooc/core/codec.hpp"
#include "ooc/core/error.hpp"
#include "ooc/core/progress.hpp"
#include "ooc/partitioner/oocg.hpp"
#include "oocg_layout.hpp"

namespace ooc {
using namespace oocg;  // the layout

// Shared with the streamed writer (oocg_stream.cpp).
namespace oocg {

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

}  // namespace oocg

namespace {

struct Source {
  const void* data;
  std::uint64_t bytes;
};

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

using SectionSources = std::array<Source, kSections>;

// A file is written at the oldest version that holds it, which older builds read. The header's
// places and checksums are filled in as the file is laid out and written.
Header header_for(const Graph& g) {
  Header h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  const bool compressed = !g.compressed.empty();
  const bool packed = compressed && g.compressed.packs_weights();
  const bool in_edges = g.has_in_edges();
  const bool compressed_only = !g.has_raw_lists();
  h.version = compressed_only ? kCompressedOnlyVersion
              : in_edges      ? kTableVersion
              : packed        ? kPackedVersion
              : compressed    ? 2
                              : kOldestVersion;
  h.header_bytes = kHeaderBytes;
  h.flags = (g.symmetric ? kFlagSymmetric : 0) | (g.original_ids.empty() ? 0 : kFlagPermuted) |
            (compressed ? kFlagCompressed : 0) | (packed ? kFlagPackedWeights : 0) |
            (g.sage_ordered ? kFlagSageOrdered : 0) | (in_edges ? kFlagInEdges : 0) |
            (compressed_only ? kFlagCompressedOnly : 0);
  if (packed) {
    h.weight_width = g.compressed.weight_width;
    h.weight_base = g.compressed.weight_base;
  }
  h.num_vertices = g.num_vertices();
  h.num_edges = g.num_edges();
  h.weight_type = static_cast<std::uint32_t>(g.weight_type);
  h.hub_count = g.hub_count;
  return h;
}

SectionSources sources_of(const Graph& g, bool packed) {
  return {Source{g.offsets.data(), g.offsets.size_bytes()},
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
}

// Where the sections go: each aligned, in order after the header; an empty one at offset 0 with
// the checksum of nothing.
struct Layout {
  Sections sections{};
  std::uint64_t end = kHeaderBytes;  // the file's length
  std::uint64_t total = 0;           // the bytes written after the header
};

Layout lay_out(const SectionSources& sources, Header& h, bool with_table) {
  Layout l;
  for (int s = 0; s < kSections; ++s) {
    if (sources[s].bytes == 0) {
      l.sections[s] = {0, 0, combine({})};
      continue;
    }
    l.sections[s] = {align_up(l.end), sources[s].bytes, 0};
    l.end = l.sections[s].offset + sources[s].bytes;
    l.total += sources[s].bytes;
  }
  // The section table goes last, in files that list sections in it; before version 4 its slot in
  // the header stays zero.
  if (with_table) {
    h.table = {align_up(l.end), sizeof(Table), 0};
    l.end = h.table.offset + sizeof(Table);
    l.total += sizeof(Table);
  }
  return l;
}

// Writes the sections, then the section table (when the header points at one) and the header,
// each with the checksums of what it lists.
void write_contents(int fd, const SectionSources& sources, Layout& l, Header& h,
                    const std::filesystem::path& path, ProgressStep& progress) {
  for (int s = 0; s < kSections; ++s) {
    if (sources[s].bytes == 0) continue;
    l.sections[s].checksum = write_section(fd, sources[s], l.sections[s].offset, path, progress);
  }
  std::copy_n(l.sections.begin(), kHeaderSections, std::begin(h.sections));
  if (h.table.bytes != 0) {
    Table table{kTableEntries, {}};
    std::copy(l.sections.begin() + kHeaderSections, l.sections.end(), std::begin(table.entries));
    h.table.checksum = write_section(fd, {&table, sizeof table}, h.table.offset, path, progress);
  }
  h.header_checksum = header_checksum(h);
  write_all(fd, &h, sizeof h, 0, path);
}

}  // namespace

void write_oocg(const Graph& g, const std::filesystem::path& path) {
  validate(g);
  Header h = header_for(g);
  const SectionSources sources = sources_of(g, (h.flags & kFlagPackedWeights) != 0);
  Layout layout = lay_out(sources, h, (h.flags & kFlagInEdges) != 0);
  AtomicFile file(path);
  if (::ftruncate(file.fd(), static_cast<off_t>(layout.end)) != 0)
    throw IoError("cannot size '" + path.string() + "': " + errno_text());
  ProgressStep progress("writing " + path.filename().string(), layout.total);
  write_contents(file.fd(), sources, layout, h, path, progress);
  file.commit();
}

}  // namespace ooc
