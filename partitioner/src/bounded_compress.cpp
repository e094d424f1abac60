// Compression in a bounded build (bounded_passes.hpp, pass 5 when the file holds compressed lists):
// what compress() and drop_raw_lists() do to the whole graph, done a window of lists at a time as
// they are read back in the new order. Each list is renamed, sorted by target (its weights moving
// with it) and encoded by compress()'s own functions, so the bytes are the same; the sorted lists
// and the encodings go straight to their sections, which lie before any section whose place
// depends on the encodings' length, and the packed weights, which lie after them, to a temporary
// file that the writer copies into its section. The packing's width and base come from the least
// and greatest weight, found as pass 3 wrote the weights.
#include <tbb/parallel_for.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "bounded_passes.hpp"
#include "list_sort.hpp"
#include "ooc/core/codec.hpp"
#include "ooc/partitioner/compress.hpp"
#include "parallel.hpp"

namespace ooc::detail::bounded {
namespace {

// Packs weights, less `base`, at `width` bits each, least significant first: one run of bits
// across calls, as compress() packs the whole array. Eight weights take `width` whole bytes, so
// groups of eight pack in parallel, each into its own bytes; the weights short of a group wait
// for the next call, or for finish().
class WeightPacker {
 public:
  WeightPacker(TempFile& out, std::uint32_t width, std::uint32_t base)
      : out_(out), width_(width), base_(base) {}

  void append(std::span<const std::uint32_t> weights) {
    const std::size_t held = waiting_.size(), total = held + weights.size();
    const auto weight = [&](std::size_t i) { return i < held ? waiting_[i] : weights[i - held]; };
    const std::size_t groups = total / kGroup;
    bytes_.resize(groups * width_);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, groups, 1 << 12),
                      [&](const tbb::blocked_range<std::size_t>& r) {
                        codec::BitWriter writer(bytes_.data() + r.begin() * width_);
                        for (std::size_t i = r.begin() * kGroup; i < r.end() * kGroup; ++i)
                          writer.put(weight(i) - base_, width_);
                      });
    out_.append(bytes_.data(), bytes_.size());
    std::vector<std::uint32_t> rest;
    for (std::size_t i = groups * kGroup; i < total; ++i)
      rest.push_back(weight(i));
    waiting_ = std::move(rest);
  }
  // The weights short of a group, ending in a byte that the bits may not fill.
  void finish() {
    bytes_.assign(codec::packed_bytes(waiting_.size(), width_) + 1, 0);
    codec::BitWriter writer(bytes_.data());
    for (const std::uint32_t w : waiting_)
      writer.put(w - base_, width_);
    writer.finish();
    out_.append(bytes_.data(), codec::packed_bytes(waiting_.size(), width_));
    waiting_.clear();
  }

 private:
  static constexpr std::size_t kGroup = 8;
  TempFile& out_;
  std::uint32_t width_, base_;
  std::vector<std::uint8_t> bytes_;
  std::vector<std::uint32_t> waiting_;
};

// Renames and sorts the lists of a window (at[i]: where new vertex first + i's list begins in
// it), and puts the length of each one's encoding in sizes[first + i].
void sort_window(const Window& w, const std::vector<eid_t>& at, const Buffer<vid_t>& new_id,
                 vid_t* targets, std::uint32_t* weights, std::vector<eid_t>& sizes) {
  tbb::parallel_for(
      tbb::blocked_range<vid_t>(w.first, w.last, 256), [&](const tbb::blocked_range<vid_t>& r) {
        ListSortScratch scratch;
        for (vid_t v = r.begin(); v < r.end(); ++v) {
          const eid_t from = at[v - w.first], degree = at[v - w.first + 1] - from;
          vid_t* list = targets + from;
          if (!new_id.empty()) {
            for (eid_t k = 0; k < degree; ++k)
              list[k] = new_id[list[k]];
          }
          sort_list(list, weights == nullptr ? nullptr : weights + from, degree, scratch);
          sizes[v] = compressed_list_bytes({list, static_cast<std::size_t>(degree)});
        }
      });
}

// Encodes a window's sorted lists, one after another, into `encoded` (every byte written);
// returns their bytes.
eid_t encode_window(const Window& w, const std::vector<eid_t>& at, const vid_t* targets,
                    const std::vector<eid_t>& sizes, std::vector<eid_t>& starts,
                    Buffer<std::uint8_t>& encoded) {
  starts.assign(1, 0);
  for (vid_t v = w.first; v < w.last; ++v)
    starts.push_back(starts.back() + sizes[v]);
  std::uint8_t* out = room(encoded, starts.back());
  tbb::parallel_for(
      tbb::blocked_range<vid_t>(w.first, w.last, 256), [&](const tbb::blocked_range<vid_t>& r) {
        for (vid_t v = r.begin(); v < r.end(); ++v) {
          const eid_t from = at[v - w.first];
          encode_list({targets + from, static_cast<std::size_t>(at[v - w.first + 1] - from)},
                      out + starts[v - w.first]);
        }
      });
  return starts.back();
}

}  // namespace

WeightPacking packing_of(const ListFiles& lists, WeightType weight_type, eid_t edges) {
  const std::uint32_t width = codec::bit_width(lists.weight_max - lists.weight_min);
  if (weight_type != WeightType::u32 || edges == 0 || width >= 32) return {};
  return {true, width, lists.weight_min};
}

CompressedLists compress_lists(const ListFiles& lists, std::span<const eid_t> offsets,
                               const Buffer<vid_t>& order, const Buffer<vid_t>& new_id,
                               WeightType weight_type, const WeightPacking& packing,
                               const ListSections& out, const ListPlan& plan,
                               const BoundedOptions& bounded) {
  Pass pass(bounded, "compressing lists");
  const auto n = static_cast<vid_t>(offsets.size() - 1);
  const eid_t m = offsets[n];
  CompressedLists c{std::vector<eid_t>(std::size_t{n} + 1, 0), TempFile(plan.tmp_dir)};
  const bool weighted = weight_type != WeightType::none;
  WeightPacker packer(c.packed, packing.width, packing.base);
  Buffer<vid_t> window_targets;
  Buffer<std::uint32_t> window_weights;
  Buffer<std::uint8_t> encoded;
  std::vector<eid_t> at, starts;
  for_each_window(offsets, order, plan.window_edges, [&](const Window& w) {
    vid_t* targets = room(window_targets, w.edges);
    w.read(lists.targets, targets);
    std::uint32_t* weights = weighted ? room(window_weights, w.edges) : nullptr;
    if (weighted) w.read(lists.weights, weights);
    at.assign(1, 0);
    for (vid_t i = w.first; i < w.last; ++i) {
      const vid_t old = order.empty() ? i : order[i];
      at.push_back(at.back() + offsets[old + 1] - offsets[old]);
    }
    sort_window(w, at, new_id, targets, weights, c.offsets);
    out.encoded.append(encoded.data(), encode_window(w, at, targets, c.offsets, starts, encoded));
    if (out.targets != nullptr) out.targets->append(targets, w.edges * sizeof(vid_t));
    if (out.weights != nullptr) out.weights->append(weights, w.edges * sizeof(std::uint32_t));
    if (packing.packs) packer.append({weights, static_cast<std::size_t>(w.edges)});
  });
  packer.finish();
  exclusive_scan(c.offsets.data(), c.offsets.size());
  pass.done(m, "edges");
  return c;
}

}  // namespace ooc::detail::bounded
