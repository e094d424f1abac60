// Binary edge lists: a flat array of little-endian records "source, target[, weight]". Records
// have one size, so a record's index gives both its place in the file and its place in the
// EdgeList: blocks of records are read with pread in parallel and spread straight into the
// source, target and weight arrays; there is nothing to parse and nothing to concatenate.
#include "binary_edge_list.hpp"

#include <sys/stat.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "file_bytes.hpp"
#include "ooc/core/error.hpp"
#include "ooc/core/progress.hpp"

namespace ooc::detail {
namespace {

// 2 to 5 MiB of file per block: large reads, and blocks enough for every thread.
constexpr std::size_t kRecordsPerBlock = std::size_t{1} << 18;
constexpr std::size_t kWeightBytes = 4;

struct Layout {
  std::size_t id_bytes = 4;
  bool weighted = false;
  std::size_t record_bytes() const noexcept { return 2 * id_bytes + (weighted ? kWeightBytes : 0); }
};

Layout layout_of(Format format) {
  switch (format) {
    case Format::bin32:
      return {4, false};
    case Format::bin64:
      return {8, false};
    case Format::wbin32:
      return {4, true};
    case Format::wbin64:
      return {8, true};
    default:
      throw InvalidInput(std::string(to_string(format)) + " is not a binary edge-list format");
  }
}

// Little-endian on any host; compilers make it one load on little-endian ones.
template <class T>
T load_le(const unsigned char* p) noexcept {
  T value = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i)
    value |= static_cast<T>(static_cast<T>(p[i]) << (8 * i));
  return value;
}

struct BadId {
  std::uint64_t record;
  std::uint64_t id;
};

struct BlockResult {
  vid_t max_id = 0;
  std::optional<BadId> bad;  // the block's first record with an id out of range
};

struct Destination {
  EdgeList& edges;
  bool keep_weights;
  bool float_weights;  // forced f32: the integer weight as a float, as text "5" would read
};

// Records [first, first + count), whose bytes are `bytes`, into their places in `to.edges`.
template <class Id>
BlockResult spread(const unsigned char* bytes, std::size_t first, std::size_t count,
                   std::size_t record_bytes, const Destination& to) {
  BlockResult result;
  vid_t* sources = to.edges.sources.data();
  vid_t* targets = to.edges.targets.data();
  std::uint32_t* weights = to.edges.weights.data();
  for (std::size_t i = 0; i < count; ++i) {
    const unsigned char* record = bytes + i * record_bytes;
    const Id source = load_le<Id>(record);
    const Id target = load_le<Id>(record + sizeof(Id));
    if (source > kMaxVertexId || target > kMaxVertexId) {
      result.bad = BadId{first + i, source > kMaxVertexId ? source : target};
      return result;
    }
    sources[first + i] = static_cast<vid_t>(source);
    targets[first + i] = static_cast<vid_t>(target);
    result.max_id =
        std::max({result.max_id, static_cast<vid_t>(source), static_cast<vid_t>(target)});
    if (to.keep_weights) {
      const auto weight = load_le<std::uint32_t>(record + 2 * sizeof(Id));
      weights[first + i] =
          to.float_weights ? std::bit_cast<std::uint32_t>(static_cast<float>(weight)) : weight;
    }
  }
  return result;
}

[[noreturn]] void throw_bad_id(std::string_view name, const BadId& bad, std::size_t record_bytes) {
  throw FormatError(std::string(name) + ": record " + std::to_string(bad.record) + " (at byte " +
                    std::to_string(bad.record * record_bytes) + ") has vertex id " +
                    std::to_string(bad.id) + ", above the largest allowed (" +
                    std::to_string(kMaxVertexId) + "; vertex ids are 32-bit)");
}

// Every block through `fetch(first_record, count)`, which returns the block's bytes; the first
// bad record, if any, is the one reported, numbered from `base`, the file's record that is the
// first of these.
template <class Fetch>
EdgeList read_records(std::uint64_t records, const Layout& layout, const ReadOptions& options,
                      std::string_view name, Fetch&& fetch, std::uint64_t base = 0) {
  EdgeList edges;
  if (records == 0) return edges;  // as text: no edges, 0 vertices, no weight type
  edges.sources = Buffer<vid_t>::allocate(records);
  edges.targets = Buffer<vid_t>::allocate(records);
  const bool keep_weights = layout.weighted && options.read_weights;
  const bool float_weights = options.force_weight_type == WeightType::f32;
  if (keep_weights) {
    edges.weights = Buffer<std::uint32_t>::allocate(records);
    edges.weight_type = float_weights ? WeightType::f32 : WeightType::u32;
  }
  const Destination to{edges, keep_weights, float_weights};
  const std::size_t blocks = (records + kRecordsPerBlock - 1) / kRecordsPerBlock;
  std::vector<BlockResult> results(blocks);
  ProgressStep progress("reading " + std::filesystem::path(name).filename().string(),
                        records * layout.record_bytes());
  tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
    const std::size_t first = b * kRecordsPerBlock;
    const std::size_t count = std::min<std::size_t>(kRecordsPerBlock, records - first);
    const unsigned char* bytes = fetch(first, count);
    results[b] = layout.id_bytes == 4
                     ? spread<std::uint32_t>(bytes, first, count, layout.record_bytes(), to)
                     : spread<std::uint64_t>(bytes, first, count, layout.record_bytes(), to);
    progress.advance(count * layout.record_bytes());
  });
  vid_t max_id = 0;
  for (const BlockResult& r : results) {
    if (r.bad) throw_bad_id(name, {base + r.bad->record, r.bad->id}, layout.record_bytes());
    max_id = std::max(max_id, r.max_id);
  }
  edges.num_vertices = max_id + 1;
  return edges;
}

std::uint64_t whole_records(std::uint64_t bytes, const Layout& layout, Format format,
                            std::string_view name) {
  if (bytes % layout.record_bytes() == 0) return bytes / layout.record_bytes();
  const std::string id = layout.id_bytes == 4 ? "u32" : "u64";
  throw FormatError(std::string(name) + ": holds " + std::to_string(bytes) +
                    " bytes, not a whole number of " + std::to_string(layout.record_bytes()) +
                    "-byte records (" + std::string(to_string(format)) + ": " + id + " source, " +
                    id + " target" + (layout.weighted ? ", u32 weight)" : ")"));
}

bool has_gz_suffix(const std::filesystem::path& path) {
  std::string extension = path.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return extension == ".gz";
}

// The file opened for reading, refused when gzip-named or a folder.
struct OpenFile {
  FileDescriptor file;
  struct stat info {};
};

void open_checked(const std::filesystem::path& path, OpenFile& open) {
  const std::string name = path.string();
  if (::fstat(open.file.get(), &open.info) != 0)
    throw IoError("cannot read '" + name + "': " + std::strerror(errno));
  if (S_ISDIR(open.info.st_mode))
    throw IoError("cannot read '" + name + "': " + std::strerror(EISDIR));
}

void refuse_gzip(const std::filesystem::path& path) {
  // Refused by name only: any first bytes, gzip's magic included, are valid ids.
  if (has_gz_suffix(path)) {
    throw IoError(path.string() +
                  ": gzip-compressed binary edge lists are not read; gunzip it first");
  }
}

// Records [first, first + count) of a regular file, read in parallel blocks.
EdgeList read_from_file(const OpenFile& open, const std::filesystem::path& path,
                        const Layout& layout, const ReadOptions& options, std::uint64_t first,
                        std::uint64_t count) {
  tbb::enumerable_thread_specific<std::vector<char>> buffers;
  return read_records(
      count, layout, options, path.string(),
      [&](std::size_t block_first, std::size_t block_count) {
        std::vector<char>& buffer = buffers.local();
        buffer.resize(kRecordsPerBlock * layout.record_bytes());
        read_exactly(open.file.get(), buffer.data(), block_count * layout.record_bytes(),
                     (first + block_first) * layout.record_bytes(), path);
        return reinterpret_cast<const unsigned char*>(buffer.data());
      },
      first);
}

}  // namespace

EdgeList read_binary_edge_list(const std::filesystem::path& path, Format format,
                               const ReadOptions& options) {
  const Layout layout = layout_of(format);
  const std::string name = path.string();
  refuse_gzip(path);
  OpenFile open{FileDescriptor(path)};
  open_checked(path, open);
  if (!S_ISREG(open.info.st_mode)) {  // a pipe: to its end, then from memory
    const Buffer<char> bytes = read_to_end(open.file.get(), path);
    const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
    const std::uint64_t records = whole_records(bytes.size(), layout, format, name);
    return read_records(records, layout, options, name, [&](std::size_t first, std::size_t) {
      return data + first * layout.record_bytes();
    });
  }
  const std::uint64_t records =
      whole_records(static_cast<std::uint64_t>(open.info.st_size), layout, format, name);
  return read_from_file(open, path, layout, options, 0, records);
}

std::uint64_t binary_records(const std::filesystem::path& path, Format format) {
  const Layout layout = layout_of(format);
  refuse_gzip(path);
  OpenFile open{FileDescriptor(path)};
  open_checked(path, open);
  return whole_records(static_cast<std::uint64_t>(open.info.st_size), layout, format,
                       path.string());
}

EdgeList read_binary_part(const std::filesystem::path& path, Format format,
                          const ReadOptions& options, std::uint64_t first, std::uint64_t count) {
  OpenFile open{FileDescriptor(path)};
  open_checked(path, open);
  return read_from_file(open, path, layout_of(format), options, first, count);
}

}  // namespace ooc::detail
