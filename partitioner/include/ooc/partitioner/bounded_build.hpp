#pragma once
// Building a .oocg file in bounded memory (partition-tool --memory), for graphs whose in-memory
// build (build_graph, hub_sort, write_oocg) would not fit. The input is read in parts, twice:
// once to count each vertex's edges, once to spill the edges into temporary files by ranges of
// source vertices, each range's lists small enough to build in the memory given (a generator
// without weights, which knows its vertices, once: it spills into ranges cut by vertex count, and
// a range that turns out too large is split; road, which has weights, twice, as a file). Each
// range is
// then built as build_graph builds every list (sorted, de-duplicated, random weights drawn), and
// the lists go to one more temporary file; hub sort's order comes from the degrees alone, and the
// file is written section by section, the lists read back in the new order. The file is the same,
// byte for byte, as the in-memory build writes.
//
// What is streamed: the generators and the text (el, wel) and binary edge lists, undirected or
// not, self loops and duplicates kept or not, weights from the input, random or none, in the
// input's order or hub sorted, with compressed lists beside the raw ones or instead of them. Not
// (yet): Matrix Market, DIMACS and gzip input, compact ids, SAGE's reordering and in-edges.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "ooc/partitioner/builder.hpp"
#include "ooc/partitioner/edge_list.hpp"
#include "ooc/partitioner/generators.hpp"
#include "ooc/partitioner/readers.hpp"

namespace ooc {

// What a build is estimated to take.
struct Footprint {
  // Memory, built in memory (build_graph, hub_sort, write_oocg), at its peak: the read (a text
  // file's bytes), the edge list beside the lists built from it or hub sort's two copies of the
  // lists, the vertex arrays.
  std::uint64_t in_memory = 0;
  // The temporary folder, built in bounded memory, at its peak: the spilled edges.
  std::uint64_t spilled = 0;
};

// An input that a bounded build reads in parts, as often as it needs.
class EdgeSource {
 public:
  virtual ~EdgeSource() = default;
  // Calls take(part) for consecutive parts of the input in its order, each of at most about
  // `part_edges` edges; weights as `read` forces them. A part's num_vertices is the vertex count
  // the input declares (generators) or its own largest id + 1.
  virtual void read(std::uint64_t part_edges, const ReadOptions& read,
                    const std::function<void(EdgeList&&)>& take) const = 0;
  // The vertex count, when the input declares it before it is read (a generator without weights
  // of its own); such an input lists no weights, and a bounded build reads it once.
  virtual std::optional<vid_t> declared_vertices() const { return std::nullopt; }
  // The most edges the input can list (exact for generators and binary files; for text, one per
  // 4 bytes, the shortest edge line).
  virtual std::uint64_t max_edges() const = 0;
  // What building this input is estimated to take, from max_edges(), so more than it takes for
  // text with lines longer than the shortest.
  virtual Footprint footprint(const BuildOptions& options) const = 0;
};

std::unique_ptr<EdgeSource> generated_edges_source(const GeneratorSpec& spec);
// A text (el, wel) or binary edge list in a regular file; nullptr for what is read only whole:
// Matrix Market, DIMACS, gzip, a pipe. Throws what opening the file throws.
std::unique_ptr<EdgeSource> file_edges_source(const std::filesystem::path& path, Format format);

// One pass of a bounded build, reported when it ends: `count` things (`unit`) in `seconds`.
struct PassReport {
  std::string pass;
  std::uint64_t count;
  std::string_view unit;
  double seconds;
};

// The lists a file holds: raw ones; raw ones and their compressed copy (compress, as
// partition-tool --compress); the compressed copy only (then drop_raw_lists, --compress-only).
enum class StoredLists { raw, raw_and_compressed, compressed_only };

struct BoundedOptions {
  std::uint64_t memory = std::uint64_t{1} << 30;  // bytes the build may hold
  std::filesystem::path tmp_dir;                  // for the spilled edges; empty: beside `path`
  double hub_fraction = 0.0;                      // as hub_sort; 0 keeps the input's order
  StoredLists lists = StoredLists::raw;
  std::function<void(const PassReport&)> report;  // optional
};

// Builds the graph of `input` under `options` (compact_ids not supported) and writes it to `path`
// as write_oocg(hub_sort(build_graph(...), hub_fraction)) would (hub sort left out at 0), after
// compress() and drop_raw_lists() as `lists` asks.
// Temporary files have no name in tmp_dir from the moment they are made, and the output appears
// only when complete (write_oocg's temporary name and rename). Throws IoError (a temporary folder
// that cannot be written, a full disk), InvalidInput (memory too small for the vertex arrays or for
// the longest list; compact_ids), and what reading the input throws.
void build_bounded(const EdgeSource& input, const BuildOptions& options,
                   const BoundedOptions& bounded, const std::filesystem::path& path);

}  // namespace ooc
