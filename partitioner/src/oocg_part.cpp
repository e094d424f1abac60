// A part of a .oocg file: the bytes of each list section that a rank's vertices' lists take,
// found in the sections that index them (read whole first).
#include "oocg_part.hpp"

#include <algorithm>
#include <string>

#include "ooc/core/codec.hpp"
#include "ooc/core/error.hpp"

namespace ooc::oocg {
namespace {

using Span = std::pair<std::uint64_t, std::uint64_t>;  // [first, last)

std::string text(Span r) {
  return "[" + std::to_string(r.first) + ", " + std::to_string(r.second) + ")";
}

// [index[first], index[last]) for each vertex range, checked to run forward, from one range to
// the next too, and to stay within the `count` entries of the section the index points into.
std::vector<Span> index_spans(const Buffer<eid_t>& index, int index_section,
                              const VertexRanges& ranges, std::uint64_t count,
                              const std::filesystem::path& path) {
  std::vector<Span> spans;
  std::uint64_t previous = 0;
  for (const auto& [first, last] : ranges) {
    const Span span{index[first], index[last]};
    if (span.first < previous || span.second < span.first || span.second > count) {
      throw FormatError(path.string() + ": counts do not add up: the " +
                        kSectionNames[index_section] + " of vertex range " + text({first, last}) +
                        " give " + text(span) + ", which runs backwards or past " +
                        std::to_string(count) +
                        " (the file is corrupted; re-create it with partition-tool)");
    }
    previous = span.second;
    spans.push_back(span);
  }
  return spans;
}

// Bytes [first, last) of a byte stream of `bytes` bytes, widened to the 8-byte words around them
// and the padding a decoder may read after them (codec::read_bits reads two aligned words).
Extent widened(std::uint64_t first, std::uint64_t last, std::uint64_t bytes) {
  if (first == last) return {first, 0};
  const std::uint64_t at = first / 8 * 8;
  const std::uint64_t end = std::min(bytes, (last + 7) / 8 * 8 + codec::kPadding);
  return {at, end - at};
}

std::vector<Extent> merged(const std::vector<Extent>& extents) {
  std::vector<Extent> out;
  for (const Extent& e : extents) {
    if (e.bytes == 0) continue;
    if (!out.empty() && e.at <= out.back().at + out.back().bytes) {
      const std::uint64_t end = std::max(out.back().at + out.back().bytes, e.at + e.bytes);
      out.back().bytes = end - out.back().at;
    } else {
      out.push_back(e);
    }
  }
  return out;
}

}  // namespace

void check_vertex_ranges(const VertexRanges& ranges, std::uint64_t num_vertices,
                         const std::filesystem::path& path) {
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    const std::string what = path.string() + ": vertex range " + text(ranges[i]);
    if (ranges[i].first > ranges[i].second) throw InvalidInput(what + " ends before it starts");
    if (ranges[i].second > num_vertices)
      throw InvalidInput(what + " goes past the " + std::to_string(num_vertices) + " vertices");
    if (i > 0 && ranges[i].first < ranges[i - 1].second) {
      throw InvalidInput(what + " starts before " + text(ranges[i - 1]) +
                         " ends: ranges must be sorted and disjoint");
    }
  }
}

bool read_whole_in_part(int s) {
  return s == kOffsets || s == kOriginalIds || s == kCompressedOffsets || s == kInOffsets;
}

std::vector<Extent> part_extents(int s, const Graph& g, const Sections& sections,
                                 std::uint32_t weight_width, const VertexRanges& ranges,
                                 const std::filesystem::path& path, PartBytes part) {
  const std::uint64_t bytes = sections[s].bytes;
  const bool own = part == PartBytes::own;
  const std::uint64_t edges = g.num_edges();  // the offsets' end, checked against the header's E
  if (bytes == 0) return {};
  std::vector<Extent> extents;
  switch (s) {
    case kTargets:
    case kWeights:  // a weight is as wide as a target
      for (const auto& [first, last] : index_spans(g.offsets, kOffsets, ranges, edges, path))
        extents.push_back({first * sizeof(vid_t), (last - first) * sizeof(vid_t)});
      break;
    case kInSources:
    case kInWeights:
      for (const auto& [first, last] :
           index_spans(g.in_edges.offsets, kInOffsets, ranges, edges, path))
        extents.push_back({first * sizeof(vid_t), (last - first) * sizeof(vid_t)});
      break;
    case kCompressedLists:
      for (const auto& [first, last] :
           index_spans(g.compressed.offsets, kCompressedOffsets, ranges, bytes, path))
        extents.push_back(own ? Extent{first, last - first} : widened(first, last, bytes));
      break;
    case kPackedWeights:  // edge e's weight is bits [e * width, (e + 1) * width)
      for (const auto& [first, last] : index_spans(g.offsets, kOffsets, ranges, edges, path)) {
        if (first == last) continue;  // no bytes, though its bit may be inside one
        if (own) {  // the bytes wholly inside its bits: those at its ends may hold others' bits
          const std::uint64_t at = codec::packed_bytes(first, weight_width);
          const std::uint64_t end = last * weight_width / 8;
          if (end > at) extents.push_back({at, end - at});
        } else {
          extents.push_back(
              widened(first * weight_width / 8, codec::packed_bytes(last, weight_width), bytes));
        }
      }
      break;
    default:  // the sections that index the others, and the ids: all of them
      return {{0, bytes}};
  }
  return merged(extents);
}

}  // namespace ooc::oocg
