#pragma once
// The .oocg file: a graph ready to run, written once by partition-tool and loaded by the engine
// without parsing. Layout and checksums are specified in docs/file-format.md.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "ooc/core/buffer.hpp"
#include "ooc/partitioner/graph.hpp"

namespace ooc {

// The newest version written: 5 when a file holds compressed lists only (no raw targets), 4 when
// it holds in-edges, 3 when it holds packed weights (and no in-edges), 2 when it holds compressed
// lists without either, else 1; all five are read.
inline constexpr std::uint32_t kOocgVersion = 5;

// What a file's header says, after the header itself has been validated.
struct OocgInfo {
  std::uint32_t version = 0;
  vid_t num_vertices = 0;
  eid_t num_edges = 0;
  WeightType weight_type = WeightType::none;
  std::uint32_t hub_count = 0;
  bool symmetric = false;
  bool permuted = false;      // holds a new -> old id permutation (hub sorted or compacted)
  bool sage_ordered = false;  // reordered by sage_reorder (flag bit 4; older files: false)
  bool compressed = false;    // holds compressed lists (partition-tool --compress)
  std::uint64_t compressed_bytes = 0;  // their size
  bool packed_weights = false;         // holds the weights packed (version 3)
  std::uint32_t weight_width = 0;      // bits per packed weight
  std::uint64_t packed_weight_bytes = 0;
  bool in_edges = false;  // holds the in-edges (version 4, partition-tool --in-edges)
  // Holds the lists compressed only: no raw targets, and no raw weights when they are packed
  // (version 5, partition-tool --compress-only).
  bool compressed_only = false;
  std::uint64_t file_bytes = 0;
};

struct OocgReadOptions {
  // Where the arrays are read to (e.g. pinned host memory); nullptr: default_host_memory().
  // The file is read, never mapped, so the graph does not depend on it once loaded.
  HostMemory* memory = nullptr;
  bool verify_checksums = true;
  // A part of the graph (a rank's share of a distributed run): when not empty, only the lists of
  // the vertices in these ranges [first, last) are read (sorted, disjoint, within the vertex
  // count; InvalidInput otherwise). The offsets, the original ids, the compressed offsets and the
  // in-offsets are read and checked whole; from them the reader reads of each list section only
  // the ranges' lists: their edges of the targets and weights, their bytes of the compressed lists
  // and of the packed weights (with the words around them a decoder reads), and their in-edges of
  // the in-sources and in-weights. The rest of those arrays keeps its full length as address space
  // that is never written, and with memory that commits pages on first touch
  // (default_host_memory(), or sparse_host_memory(), which they use when `memory` is null) a rank
  // holds only its share. Their checksums cannot be checked from a part and are skipped
  // (`partition-tool verify` checks a whole file). {{0, 0}}, a part of no vertices, reads just
  // the whole arrays, to compute the partitions (and so the ranges) from.
  std::vector<std::pair<vid_t, vid_t>> vertex_ranges;
  // Whether to read the compressed lists (and packed weights) when the file has them, whole or
  // the part's. A compressed-only file's lists are there alone: a read that leaves them out
  // (other than of a part of no vertices) is refused with InvalidInput.
  bool read_compressed = true;
  // Whether to read the in-edges (Graph::in_edges) when the file has them, whole or the part's.
  // A part of no vertices with them still reads the in-offsets, which the partitions depend on.
  bool read_in_edges = true;
};

// Validates the graph, writes it (a compressed-only graph, Graph::has_raw_lists, as a
// compressed-only file) as an AtomicFile (core/atomic_file.hpp): to a temporary name in the same
// folder, flushed to disk and renamed, so that a crash never leaves a partial file under `path`.
// Throws IoError.
void write_oocg(const Graph& graph, const std::filesystem::path& path);

// Throws IoError (cannot open / read) or FormatError naming what is wrong: bad magic, unsupported
// version, header checksum, counts that do not add up, truncation (also while it is being
// read), section checksum mismatch; InvalidInput for bad vertex ranges.
Graph read_oocg(const std::filesystem::path& path, const OocgReadOptions& options = {});

// Header and section table only (validated, including that the file is long enough for its
// sections).
OocgInfo read_oocg_info(const std::filesystem::path& path);

// The lists of a graph beyond host memory, read from its file as they are needed (the file as
// the tier below host memory). `g` is a part of the file read by read_oocg with `options` and
// some vertex_ranges: its list arrays span the file's, and only the ranges' lists are there.
// fetch() reads the lists of other ranges into their places in `g` (the targets, weights,
// compressed lists, packed weights and in-edges that `options` read; with `compressed_only`, and
// compressed lists in the file, not the raw targets, nor the raw weights where weights are
// packed), without checksums, and returns the bytes read from the file: past the page cache
// (O_DIRECT) where the file system allows, the aligned 4 KiB pages that hold them (direct()), else
// the lists' own bytes, through the page cache; release() gives back the pages of what the fetches
// since the last release read, those wholly inside the ranges' own bytes (a page shared with a
// neighbouring list stays, as do the words and padding around the byte streams' lists that a read
// takes too: they may hold the lists `g` keeps), or, where a fetch was given `held`, of those
// ranges' lists: wider ranges whose other lists no one needs either, so that the pages at the ends
// of the lists read go back too. The file stays open.
class OocgLists {
 public:
  OocgLists(const std::filesystem::path& path, const OocgReadOptions& options);
  ~OocgLists();
  OocgLists(const OocgLists&) = delete;
  OocgLists& operator=(const OocgLists&) = delete;

  std::uint64_t fetch(Graph& g, const std::vector<std::pair<vid_t, vid_t>>& ranges,
                      bool compressed_only = false,
                      const std::vector<std::pair<vid_t, vid_t>>* held = nullptr);
  // `kept`: arrays of `g` whose pages stay whatever was read into them (memory pinned by a
  // driver, whose pages must not be given back under it).
  void release(Graph& g, std::span<const void* const> kept = {});
  bool direct() const;

 private:
  struct Open;
  std::filesystem::path path_;
  OocgReadOptions options_;
  std::unique_ptr<Open> open_;
};

// Everything read_oocg checks, plus the graph's structure (validate()).
OocgInfo verify_oocg(const std::filesystem::path& path);

}  // namespace ooc
