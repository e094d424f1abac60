// Passes 4 and 5 of a bounded build (bounded_passes.hpp): hub sort's order from the degrees, then
// the file written section by section. The lists are read back from the list file in the new order:
// windows of new ids, each gathered with a pread per run of consecutive old ids (the non-hubs, in
// their old order, make long runs; each hub is a run of its own), renamed, and appended, or, when
// the file holds compressed lists, sorted and encoded on the way (bounded_compress.cpp).
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <span>
#include <vector>

#include "bounded_passes.hpp"
#include "ooc/core/codec.hpp"
#include "ooc/partitioner/hub_sort.hpp"
#include "oocg_stream.hpp"
#include "parallel.hpp"

namespace ooc::detail::bounded {
namespace {

// Neighbouring lists are read with one pread up to 1 MiB (a longer list alone, in one).
constexpr std::uint64_t kMaxRunEdges = std::uint64_t{1} << 18;
// Copying a list file reads this many times pass 3's window at once (4 bytes an edge, not 8).
constexpr std::uint64_t kCopyWindows = 8;
// A temporary file is copied into its section at least this many bytes at a time.
constexpr std::uint64_t kMinCopyBytes = std::uint64_t{1} << 20;

// Appends the lists of the new vertices to the current section, their entries renamed by new_id
// when given.
void copy_lists(const TempFile& from, std::span<const eid_t> offsets, const Buffer<vid_t>& order,
                const Buffer<vid_t>& new_id, std::uint64_t window_edges, OocgStream::Section& out) {
  Buffer<vid_t> buffer;
  for_each_window(offsets, order, window_edges, [&](const Window& w) {
    vid_t* window = room(buffer, w.edges);
    w.read(from, window);
    if (!new_id.empty()) {
      tbb::parallel_for(tbb::blocked_range<eid_t>(0, w.edges, 1 << 16),
                        [&](const tbb::blocked_range<eid_t>& r) {
                          for (eid_t e = r.begin(); e < r.end(); ++e)
                            window[e] = new_id[window[e]];
                        });
    }
    out.append(window, w.edges * 4);
  });
}

// Appends the whole of `from` to the current section, `bytes` at a time.
void copy_file(const TempFile& from, std::uint64_t bytes_at_once, OocgStream::Section& out) {
  Buffer<char> block =
      Buffer<char>::allocate(std::min(std::max(kMinCopyBytes, bytes_at_once), from.size()));
  for (std::uint64_t at = 0; at < from.size(); at += block.size()) {
    const std::uint64_t bytes = std::min<std::uint64_t>(block.size(), from.size() - at);
    from.read(block.data(), bytes, at);
    out.append(block.data(), bytes);
  }
}

// The header of the file the in-memory build writes: header_for's version and flags for a graph
// without in-edges, `compressed` when it has a compressed copy.
oocg::Header header_of(vid_t n, eid_t m, WeightType weight_type, bool symmetric,
                       const Order& hub_sorted, bool compressed, const WeightPacking& packing,
                       bool compressed_only) {
  using namespace oocg;
  Header h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.version = compressed_only ? kCompressedOnlyVersion
              : packing.packs ? kPackedVersion
              : compressed    ? 2
                              : kOldestVersion;
  h.header_bytes = kHeaderBytes;
  h.flags = (symmetric ? kFlagSymmetric : 0) | (hub_sorted.order.empty() ? 0 : kFlagPermuted) |
            (compressed ? kFlagCompressed : 0) | (packing.packs ? kFlagPackedWeights : 0) |
            (compressed_only ? kFlagCompressedOnly : 0);
  if (packing.packs) {
    h.weight_width = packing.width;
    h.weight_base = packing.base;
  }
  h.num_vertices = n;
  h.num_edges = m;
  h.weight_type = static_cast<std::uint32_t>(weight_type);
  h.hub_count = hub_sorted.hubs;
  return h;
}

// The offsets section: the built offsets, or those of the lists in the new order.
void append_offsets(std::span<const eid_t> offsets, const Buffer<vid_t>& order,
                    OocgStream::Section& out) {
  if (order.empty()) {
    out.append(offsets.data(), offsets.size_bytes());
    return;
  }
  std::vector<eid_t> block;
  eid_t at = 0;
  for (const vid_t old : order.span()) {
    block.push_back(at);
    at += offsets[old + 1] - offsets[old];
    if (block.size() == (std::size_t{1} << 16)) {
      out.append(block.data(), block.size() * sizeof(eid_t));
      block.clear();
    }
  }
  block.push_back(at);
  out.append(block.data(), block.size() * sizeof(eid_t));
}

}  // namespace

Order order_vertices(Census& census, Buffer<eid_t>& in_degree, bool symmetric, double hub_fraction,
                     const BoundedOptions& bounded) {
  const vid_t n = census.vertices();
  census.degree[n] = 0;
  exclusive_scan(census.degree.data(), census.degree.size());
  const vid_t hubs = hub_fraction > 0.0 ? hubs_for_fraction(n, hub_fraction) : 0;
  if (hubs == 0) return {};
  Pass pass(bounded, "ordering vertices");
  const std::span<const eid_t> offsets(census.degree);
  if (symmetric) {  // the in-degrees are the out-degrees
    in_degree = Buffer<eid_t>::allocate(n);
    tbb::parallel_for(vid_t{0}, n, [&](vid_t v) { in_degree[v] = offsets[v + 1] - offsets[v]; });
  }
  Order order{hub_order(offsets, in_degree.span(), hubs), hubs};
  in_degree = {};
  pass.done(n, "vertices");
  return order;
}

void Window::read(const TempFile& file, std::uint32_t* out) const {
  tbb::parallel_for(std::size_t{0}, runs.size(), [&](std::size_t r) {
    file.read(out + runs[r].to, runs[r].count * 4, runs[r].from * 4);
  });
}

void for_each_window(std::span<const eid_t> offsets, const Buffer<vid_t>& order,
                     std::uint64_t window_edges, const std::function<void(const Window&)>& visit) {
  const auto n = static_cast<vid_t>(offsets.size() - 1);
  const auto old_of = [&](vid_t i) { return order.empty() ? i : order[i]; };
  Window w;
  for (vid_t i = 0; i < n;) {
    w.first = i;
    w.runs.clear();
    w.edges = 0;
    for (; i < n &&
           (w.edges == 0 || w.edges + offsets[old_of(i) + 1] - offsets[old_of(i)] <= window_edges);
         ++i) {
      const vid_t old = old_of(i);
      const eid_t begin = offsets[old], length = offsets[old + 1] - begin;
      if (!w.runs.empty() && w.runs.back().from + w.runs.back().count == begin &&
          w.runs.back().count + length <= kMaxRunEdges) {
        w.runs.back().count += length;
      } else if (length > 0) {
        w.runs.push_back({begin, length, w.edges});
      }
      w.edges += length;
    }
    w.last = i;
    visit(w);
  }
}

void write_file(const std::filesystem::path& path, const Census& census, const ListFiles& lists,
                const Order& hub_sorted, WeightType weight_type, bool symmetric,
                const ListPlan& plan, const BoundedOptions& bounded) {
  using namespace oocg;
  Pass pass(bounded, "writing");
  const Buffer<vid_t>& order = hub_sorted.order;
  const vid_t n = census.vertices();
  const eid_t m = census.degree[n];
  const std::span<const eid_t> offsets(census.degree);
  Buffer<vid_t> new_id;
  if (!order.empty()) {
    new_id = Buffer<vid_t>::allocate(n);
    tbb::parallel_for(vid_t{0}, n, [&](vid_t i) { new_id[order[i]] = i; });
  }
  // As has_raw_lists: a graph without edges keeps its (empty) raw lists.
  const bool compressed_only = bounded.lists == StoredLists::compressed_only && m > 0;
  const bool compressing = bounded.lists != StoredLists::raw;
  const WeightPacking packing = compressing ? packing_of(lists, weight_type, m) : WeightPacking{};
  const bool weighted = weight_type != WeightType::none;
  std::array<std::uint64_t, kHeaderSections> bytes{};
  bytes[kOffsets] = (std::uint64_t{n} + 1) * sizeof(eid_t);
  bytes[kTargets] = compressed_only ? 0 : m * sizeof(vid_t);
  bytes[kWeights] = weighted && !(compressed_only && packing.packs) ? m * sizeof(std::uint32_t) : 0;
  bytes[kOriginalIds] = order.size_bytes();
  if (compressing) {
    bytes[kCompressedOffsets] = (std::uint64_t{n} + 1) * sizeof(eid_t);
    bytes[kCompressedLists] = OocgStream::kLater;
    bytes[kPackedWeights] = packing.packs ? codec::packed_bytes(m, packing.width) : 0;
  }
  constexpr std::uint64_t kEncodedEdgeBytes = 2;  // about what an encoding takes, for progress
  OocgStream out(
      path,
      header_of(n, m, weight_type, symmetric, hub_sorted, compressing, packing, compressed_only),
      bytes, m * kEncodedEdgeBytes);
  const auto write = [&](SectionId id, auto&& fill) {
    if (bytes[id] == 0) return;
    OocgStream::Section section = out.open(id);
    fill(section);
    out.close(section);
  };
  write(kOffsets, [&](auto& section) { append_offsets(offsets, order, section); });
  const std::uint64_t window_edges = plan.window_edges * kCopyWindows;
  const std::uint64_t copy_bytes = window_edges * sizeof(vid_t);
  std::optional<CompressedLists> compressed;
  if (compressing) {
    std::optional<OocgStream::Section> targets, weights;
    if (bytes[kTargets] != 0) targets.emplace(out.open(kTargets));
    if (bytes[kWeights] != 0) weights.emplace(out.open(kWeights));
    OocgStream::Section encoded = out.open(kCompressedLists);
    compressed.emplace(compress_lists(
        lists, offsets, order, new_id, weight_type, packing,
        {targets ? &*targets : nullptr, weights ? &*weights : nullptr, encoded}, plan, bounded));
    if (targets) out.close(*targets);
    if (weights) out.close(*weights);
    out.close(encoded);
  } else {
    write(kTargets, [&](auto& section) {
      copy_lists(lists.targets, offsets, order, new_id, window_edges, section);
    });
    write(kWeights, [&](auto& section) {
      copy_lists(lists.weights, offsets, order, {}, window_edges, section);
    });
  }
  write(kOriginalIds, [&](auto& section) { section.append(order.data(), order.size_bytes()); });
  if (compressed) {
    write(kCompressedOffsets, [&](auto& section) {
      section.append(compressed->offsets.data(), bytes[kCompressedOffsets]);
    });
    write(kPackedWeights,
          [&](auto& section) { copy_file(compressed->packed, copy_bytes, section); });
  }
  out.commit();
  pass.done(m, "edges");
}

}  // namespace ooc::detail::bounded
