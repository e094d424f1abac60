// Compression in a bounded build (bounded_passes.hpp, pass 5 when the file holds compressed lists):
// what compress() and drop_raw_lists() do to the whole graph, done a window of lists at a time as
// they are read back in the new order. Each list is renamed, sorted by target (its weights moving
// with it) and encoded by compress()'s own functions, so the bytes are the same; the sorted lists,
// the encodings and the packed weights go to temporary files, which the writer then copies into
// their sections, whose lengths are known by then. The packing's width and base come from the
// least and greatest weight, found as pass 3 wrote the weights.
#include <tbb/parallel_for.h>

#include <algorithm>
#include <vector>

#include "bounded_passes.hpp"
#include "list_sort.hpp"
#include "ooc/core/codec.hpp"
#include "ooc/core/progress.hpp"
#include "ooc/partitioner/compress.hpp"
#include "parallel.hpp"

namespace ooc::detail::bounded {
namespace {

// Packs weights, less `base`, at `width` bits each, least significant first: one run of bits
// across calls, as compress() packs the whole array.
class WeightPacker {
 public:
  WeightPacker(TempFile& out, std::uint32_t width, std::uint32_t base)
      : out_(out), width_(width), base_(base) {}

  void append(std::span<const std::uint32_t> weights) {
    bytes_.resize(codec::packed_bytes(weights.size(), width_) + 1);
    writer_.to(bytes_.data());
    for (const std::uint32_t w : weights)
      writer_.put(w - base_, width_);
    out_.append(bytes_.data(), static_cast<std::size_t>(writer_.position() - bytes_.data()));
  }
  // The last byte, when the bits end inside one.
  void finish() {
    if (!writer_.partial()) return;
    std::uint8_t last = 0;
    writer_.to(&last);
    writer_.finish();
    out_.append(&last, 1);
  }

 private:
  TempFile& out_;
  std::uint32_t width_, base_;
  std::vector<std::uint8_t> bytes_;
  codec::BitWriter writer_{nullptr};
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

// Encodes a window's sorted lists, one after another, into `encoded`.
void encode_window(const Window& w, const std::vector<eid_t>& at, const vid_t* targets,
                   const std::vector<eid_t>& sizes, std::vector<eid_t>& starts,
                   std::vector<std::uint8_t>& encoded) {
  starts.assign(1, 0);
  for (vid_t v = w.first; v < w.last; ++v)
    starts.push_back(starts.back() + sizes[v]);
  encoded.assign(starts.back(), 0);
  tbb::parallel_for(
      tbb::blocked_range<vid_t>(w.first, w.last, 256), [&](const tbb::blocked_range<vid_t>& r) {
        for (vid_t v = r.begin(); v < r.end(); ++v) {
          const eid_t from = at[v - w.first];
          encode_list({targets + from, static_cast<std::size_t>(at[v - w.first + 1] - from)},
                      encoded.data() + starts[v - w.first]);
        }
      });
}

}  // namespace

CompressedLists compress_lists(const ListFiles& lists, std::span<const eid_t> offsets,
                               const Buffer<vid_t>& order, const Buffer<vid_t>& new_id,
                               WeightType weight_type, bool compressed_only, const ListPlan& plan,
                               const BoundedOptions& bounded) {
  Pass pass(bounded, "compressing lists");
  const auto n = static_cast<vid_t>(offsets.size() - 1);
  const eid_t m = offsets[n];
  const std::filesystem::path& dir = plan.tmp_dir;
  CompressedLists c{{TempFile(dir), TempFile(dir)}, TempFile(dir), {}, TempFile(dir)};
  // As compress() packs: u32 weights whose range takes fewer than 32 bits.
  const std::uint32_t width = codec::bit_width(lists.weight_max - lists.weight_min);
  c.packs_weights = weight_type == WeightType::u32 && m > 0 && width < 32;
  if (c.packs_weights) {
    c.weight_width = width;
    c.weight_base = lists.weight_min;
  }
  const bool weighted = weight_type != WeightType::none;
  const bool raw_weights = weighted && !(compressed_only && c.packs_weights);
  WeightPacker packer(c.packed, c.weight_width, c.weight_base);
  c.offsets.assign(std::size_t{n} + 1, 0);
  std::vector<vid_t> targets;
  std::vector<std::uint32_t> weights;
  std::vector<eid_t> at, starts;
  std::vector<std::uint8_t> encoded;
  ProgressStep progress("compressing the lists", n);
  for_each_window(offsets, order, plan.window_edges, [&](const Window& w) {
    targets.resize(w.edges);
    w.read(lists.targets, targets.data());
    if (weighted) {
      weights.resize(w.edges);
      w.read(lists.weights, weights.data());
    }
    at.assign(1, 0);
    for (vid_t i = w.first; i < w.last; ++i) {
      const vid_t old = order.empty() ? i : order[i];
      at.push_back(at.back() + offsets[old + 1] - offsets[old]);
    }
    sort_window(w, at, new_id, targets.data(), weighted ? weights.data() : nullptr, c.offsets);
    encode_window(w, at, targets.data(), c.offsets, starts, encoded);
    c.bytes.append(encoded.data(), encoded.size());
    if (!compressed_only) c.raw.targets.append(targets.data(), w.edges * sizeof(vid_t));
    if (raw_weights) c.raw.weights.append(weights.data(), w.edges * sizeof(std::uint32_t));
    if (c.packs_weights) packer.append(weights);
    progress.advance(w.last - w.first);
  });
  packer.finish();
  exclusive_scan(c.offsets.data(), c.offsets.size());
  pass.done(m, "edges");
  return c;
}

}  // namespace ooc::detail::bounded
