#pragma once
// What a part of a .oocg file (OocgReadOptions::vertex_ranges, a rank's share) reads of each
// section: the sections that index the others read whole, and of every list section only the
// bytes the part's vertices' lists take (docs/file-format.md, "Reading a part").
#include <cstdint>
#include <filesystem>
#include <utility>
#include <vector>

#include "ooc/partitioner/graph.hpp"
#include "oocg_layout.hpp"

namespace ooc::oocg {

// Bytes [at, at + bytes) of a section.
struct Extent {
  std::uint64_t at, bytes;
};

using VertexRanges = std::vector<std::pair<vid_t, vid_t>>;

// Sorted, disjoint and within the vertex count; InvalidInput naming the first range at fault.
void check_vertex_ranges(const VertexRanges& ranges, std::uint64_t num_vertices,
                         const std::filesystem::path& path);

// Whether a part reads section s whole: the offsets into the list sections, and the ids.
bool read_whole_in_part(int s);

// The extents of list section s that the lists of `ranges` take, found in the index sections of
// `g` (read whole): their edges of the targets and weights (by the offsets), their in-edges of
// the in-sources and in-weights (by the in-offsets), their bytes of the compressed lists (by the
// compressed offsets) and of the packed weights (by the offsets, at `weight_width` bits an edge).
// To read (PartBytes::read), the two byte streams' extents are widened to whole 8-byte words and
// codec::kPadding bytes more (within the section), so that every word a decoder reads of a list
// holds the file's bytes: bytes of the lists around them too. Their own bytes (PartBytes::own)
// are those no other list has a bit of, which a reader may give back without touching another's
// (OocgLists::release). Extents that overlap or touch are merged, empty ones left out. An index
// that runs backwards or past its section at a range (a corrupted file whose checksum was not
// checked) is a FormatError.
enum class PartBytes { read, own };
std::vector<Extent> part_extents(int s, const Graph& g, const Sections& sections,
                                 std::uint32_t weight_width, const VertexRanges& ranges,
                                 const std::filesystem::path& path,
                                 PartBytes bytes = PartBytes::read);

}  // namespace ooc::oocg
