// The inputs a bounded build reads in parts (bounded_build.hpp): a generator, whose parts are
// ranges of its edge indices (generate_part), and text and binary edge lists read block by block
// with pread. A text file's blocks end at line ends and go through the same parallel line parser
// as a whole read, numbered from their first line, so that an error names the same line.
#include <sys/stat.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "binary_edge_list.hpp"
#include "file_bytes.hpp"
#include "gzip.hpp"
#include "ooc/core/error.hpp"
#include "ooc/partitioner/bounded_build.hpp"
#include "text_parser.hpp"

namespace ooc {
namespace {

// The shortest edge line, "0 1\n": a text file of n bytes lists at most n / 4 + 1 edges.
constexpr std::uint64_t kMinLineBytes = 4;
constexpr std::uint64_t kMinBlockBytes = std::uint64_t{64} << 10;

// The in-memory build's peak, estimated: the edge list (8 bytes an edge, 12 with the input's
// weights) beside the lists built from it (4 bytes a built edge, 8 weighted), or hub sort's two
// copies of the lists, whichever is more; and offsets, hub sort's scores and orders, about 48 bytes
// a vertex. Kronecker 28, undirected: 81.6 GB, against 73.5 GB measured (issue 36). A bounded
// build spills a record a built edge: 8 bytes, 12 with the input's weights.
Footprint estimate(std::uint64_t edges, std::uint64_t vertices, bool symmetric, bool input_weighted,
                   const BuildOptions& options, std::uint64_t read_bytes) {
  const bool from_input = options.weights.kind == WeightSpec::Kind::from_input && input_weighted;
  const bool weighted = from_input || options.weights.kind == WeightSpec::Kind::random;
  const std::uint64_t built = symmetric || options.undirected ? 2 * edges : edges;
  const std::uint64_t lists = built * (weighted ? 8 : 4);
  return {read_bytes + std::max(edges * (from_input ? 12 : 8) + lists, 2 * lists) + 48 * vertices,
          built * (from_input ? 12 : 8)};
}

// A file's vertices: at most two per edge, and 32-bit ids.
std::uint64_t max_vertices(std::uint64_t edges) {
  return std::min<std::uint64_t>(2 * edges, std::uint64_t{kMaxVertexId} + 1);
}

// A generator without weights declares its vertices and is read once; one with weights of its
// own (road) is counted first, as a file is, so that the build knows their type before it spills.
class GeneratedSource final : public EdgeSource {
 public:
  explicit GeneratedSource(const GeneratorSpec& spec)
      : spec_(spec),
        edges_(generated_edges(spec)),
        weighted_(generates_weights(spec)),
        sample_(generate_part(spec, 0, 0)) {}
  void read(std::uint64_t part_edges, const ReadOptions&,
            const std::function<void(EdgeList&&)>& take) const override {
    std::uint64_t first = 0;
    do {  // one part at least, which carries the vertex count
      const std::uint64_t count = std::min(part_edges, edges_ - first);
      take(generate_part(spec_, first, count));
      first += count;
    } while (first < edges_);
  }
  std::optional<vid_t> declared_vertices() const override {
    if (weighted_) return std::nullopt;
    return sample_.num_vertices;
  }
  std::uint64_t max_edges() const override { return edges_; }
  Footprint footprint(const BuildOptions& options) const override {
    return estimate(edges_, sample_.num_vertices, sample_.symmetric_input, weighted_, options, 0);
  }

 private:
  GeneratorSpec spec_;
  std::uint64_t edges_;
  bool weighted_;
  EdgeList sample_;  // no edges: the vertex count and symmetry
};

bool is_plain_file(const std::filesystem::path& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0)
    throw IoError("cannot open '" + path.string() + "': " + std::strerror(errno));
  return S_ISREG(info.st_mode);
}

bool is_gzip_file(const std::filesystem::path& path, std::uint64_t bytes) {
  char magic[2] = {};
  const detail::FileDescriptor file(path);
  const std::size_t n = bytes >= sizeof magic ? sizeof magic : 0;
  if (n > 0) detail::read_exactly(file.get(), magic, n, 0, path);
  return detail::is_gzip(path, {magic, n});
}

class BinarySource final : public EdgeSource {
 public:
  BinarySource(const std::filesystem::path& path, Format format)
      : path_(path), format_(format), records_(detail::binary_records(path, format)) {}
  void read(std::uint64_t part_edges, const ReadOptions& options,
            const std::function<void(EdgeList&&)>& take) const override {
    for (std::uint64_t first = 0; first < records_; first += part_edges) {
      take(detail::read_binary_part(path_, format_, options, first,
                                    std::min(part_edges, records_ - first)));
    }
  }
  std::uint64_t max_edges() const override { return records_; }
  Footprint footprint(const BuildOptions& options) const override {
    const bool weighted = format_ == Format::wbin32 || format_ == Format::wbin64;
    return estimate(records_, max_vertices(records_), false, weighted, options, 0);
  }

 private:
  std::filesystem::path path_;
  Format format_;
  std::uint64_t records_;
};

bool has_edge_line(std::string_view text) {
  detail::LineReader lines(text);
  while (const auto line = lines.next()) {
    if (!detail::is_blank_or_comment(*line)) return true;
  }
  return false;
}

class TextSource final : public EdgeSource {
 public:
  TextSource(const std::filesystem::path& path, Format format, std::uint64_t bytes)
      : path_(path), format_(format), bytes_(bytes) {}
  void read(std::uint64_t part_edges, const ReadOptions& options,
            const std::function<void(EdgeList&&)>& take) const override;
  std::uint64_t max_edges() const override { return bytes_ / kMinLineBytes + 1; }
  Footprint footprint(const BuildOptions& options) const override {
    return estimate(max_edges(), max_vertices(max_edges()), false, true, options, bytes_);
  }

 private:
  std::filesystem::path path_;
  Format format_;
  std::uint64_t bytes_;
};

// The newlines of `text`, counted in parallel.
std::uint64_t count_lines(std::string_view text) {
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, text.size(), std::size_t{1} << 20), std::uint64_t{0},
      [&](const tbb::blocked_range<std::size_t>& r, std::uint64_t lines) {
        return lines + static_cast<std::uint64_t>(
                           std::count(text.begin() + r.begin(), text.begin() + r.end(), '\n'));
      },
      std::plus<>());
}

// Blocks of whole lines; a line longer than a block makes the block longer. The lines before the
// first edge line (comments) are skipped, and that line fixes the rule of every block.
void TextSource::read(std::uint64_t part_edges, const ReadOptions& options,
                      const std::function<void(EdgeList&&)>& take) const {
  const detail::FileDescriptor file(path_);
  const std::string name = path_.string();
  const std::uint64_t block = std::max(kMinBlockBytes, part_edges * kMinLineBytes);
  std::vector<char> buffer;
  std::size_t kept = 0;  // bytes of an unfinished line carried to the next block
  std::uint64_t offset = 0, line = 1;
  std::optional<detail::LineRule> rule;
  while (offset < bytes_ || kept > 0) {
    const std::uint64_t n = std::min(block, bytes_ - offset);
    buffer.resize(kept + n);
    detail::read_in_parallel(file.get(), buffer.data() + kept, n, offset, path_);
    offset += n;
    const std::string_view text(buffer.data(), buffer.size());
    const bool last = offset == bytes_;
    const std::size_t newline = text.rfind('\n');
    if (!last && newline == std::string_view::npos) {
      kept = text.size();
      continue;
    }
    const std::string_view lines = last ? text : text.substr(0, newline + 1);
    if (!rule && (format_ == Format::wel || has_edge_line(lines)))
      rule = detail::line_rule(format_, lines);
    if (rule) take(detail::parse_lines({lines, line, name}, *rule, options));
    line += count_lines(lines);
    kept = text.size() - lines.size();
    std::memmove(buffer.data(), buffer.data() + lines.size(), kept);
  }
}

}  // namespace

std::unique_ptr<EdgeSource> generated_edges_source(const GeneratorSpec& spec) {
  return std::make_unique<GeneratedSource>(spec);
}

std::unique_ptr<EdgeSource> file_edges_source(const std::filesystem::path& path, Format format) {
  if (!is_plain_file(path)) return nullptr;
  if (is_binary_edge_list(format)) return std::make_unique<BinarySource>(path, format);
  if (format != Format::edge_list && format != Format::wel) return nullptr;
  const auto bytes = static_cast<std::uint64_t>(std::filesystem::file_size(path));
  if (is_gzip_file(path, bytes)) return nullptr;
  return std::make_unique<TextSource>(path, format, bytes);
}

}  // namespace ooc
