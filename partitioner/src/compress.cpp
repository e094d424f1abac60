#include "ooc/partitioner/compress.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "list_sort.hpp"
#include "ooc/core/codec.hpp"
#include "ooc/core/error.hpp"
#include "ooc/core/progress.hpp"
#include "parallel.hpp"

namespace ooc {
namespace {

using codec::kBlock;
using codec::kChunk;

std::uint32_t block_width(const vid_t* t, std::uint32_t n) {
  std::uint32_t widest = 0;
  for (std::uint32_t i = 1; i < n; ++i)
    widest = std::max(widest, codec::bit_width(t[i] - t[i - 1]));
  return widest;
}

// The first n targets of the block at `block` (n no more than it holds); returns its bytes when
// n is all of them.
std::uint64_t decode_block(const std::uint8_t* block, std::uint32_t n, vid_t* out) {
  vid_t t = 0;
  std::memcpy(&t, block, 4);
  const std::uint32_t w = block[4];
  out[0] = t;
  const std::uint8_t* packed = block + codec::kHeaderBytes;
  for (std::uint32_t i = 1; i < n; ++i) {
    t += codec::read_bits(packed, std::uint64_t{i - 1} * w, w);
    out[i] = t;
  }
  return codec::block_bytes(n, w);
}

}  // namespace

void encode_list(std::span<const vid_t> list, std::uint8_t* out) {
  const std::uint64_t d = list.size();
  std::uint64_t at = codec::table_bytes(d);
  for (std::uint64_t first = 0; first < d; first += kBlock) {
    if (first > 0 && first % kChunk == 0) {
      const auto offset = static_cast<std::uint32_t>(at);
      std::memcpy(out + 4 * (first / kChunk - 1), &offset, 4);
    }
    const auto n = static_cast<std::uint32_t>(std::min<std::uint64_t>(kBlock, d - first));
    const vid_t* t = list.data() + first;
    const std::uint32_t w = block_width(t, n);
    std::memcpy(out + at, t, 4);
    out[at + 4] = static_cast<std::uint8_t>(w);
    codec::BitWriter packed(out + at + codec::kHeaderBytes);
    for (std::uint32_t i = 1; i < n; ++i)
      packed.put(t[i] - t[i - 1], w);
    packed.finish();
    at += codec::block_bytes(n, w);
  }
}

std::uint64_t compressed_list_bytes(std::span<const vid_t> sorted) {
  const std::uint64_t d = sorted.size();
  std::uint64_t bytes = codec::table_bytes(d);
  for (std::uint64_t first = 0; first < d; first += kBlock) {
    const auto n = static_cast<std::uint32_t>(std::min<std::uint64_t>(kBlock, d - first));
    bytes += codec::block_bytes(n, block_width(sorted.data() + first, n));
  }
  return bytes;
}

void decode_list(const std::uint8_t* list, eid_t degree, vid_t* out) {
  std::uint64_t at = codec::table_bytes(degree);
  for (std::uint64_t first = 0; first < degree; first += kBlock) {
    const auto n = static_cast<std::uint32_t>(std::min<std::uint64_t>(kBlock, degree - first));
    at += decode_block(list + at, n, out + first);
  }
}

void decode_head(const std::uint8_t* list, eid_t degree, std::uint32_t count, vid_t* out) {
  const auto n = static_cast<std::uint32_t>(std::min<std::uint64_t>({count, degree, kBlock}));
  if (n > 0) decode_block(list + codec::table_bytes(degree), n, out);
}

namespace {

// Packs u32 weights at the width of their range, in parallel: each task writes whole bytes
// (kPackEdges edges of any width end on a byte boundary).
void pack_weights(const Graph& g, CompressedTargets& c, HostMemory& memory) {
  if (g.weight_type != WeightType::u32 || g.num_edges() == 0) return;
  const auto [lo, hi] = std::minmax_element(g.weights.begin(), g.weights.end());
  const std::uint32_t width = codec::bit_width(*hi - *lo);
  if (width >= 32) return;  // nothing to gain
  constexpr eid_t kPackEdges = 1 << 16;
  const eid_t edges = g.num_edges();
  const std::uint64_t bytes = codec::packed_bytes(edges, width);
  c.packed_weights = Buffer<std::uint8_t>::allocate(bytes + codec::kPadding, memory);
  c.weight_width = width;
  c.weight_base = *lo;
  std::uint8_t* out = c.packed_weights.data();
  tbb::parallel_for(eid_t{0}, (edges + kPackEdges - 1) / kPackEdges, [&](eid_t task) {
    const eid_t first = task * kPackEdges, last = std::min(edges, first + kPackEdges);
    codec::BitWriter packed(out + first * width / 8);
    for (eid_t e = first; e < last; ++e)
      packed.put(g.weights[e] - c.weight_base, width);
    packed.finish();  // only the last task ends mid-byte
  });
  std::memset(out + bytes, 0, codec::kPadding);
}

}  // namespace

void unpack_weights(const CompressedTargets& c, eid_t first, eid_t count, std::uint32_t* out) {
  tbb::parallel_for(tbb::blocked_range<eid_t>(0, count, eid_t{1} << 16),
                    [&](const tbb::blocked_range<eid_t>& r) {
                      for (eid_t i = r.begin(); i < r.end(); ++i)
                        out[i] = codec::packed_weight(c.packed_weights.data(), first + i,
                                                      c.weight_width, c.weight_base);
                    });
}

std::uint64_t gather_packed_weights(const CompressedTargets& c, std::span<const eid_t> out_begin,
                                    const std::function<eid_t(std::size_t)>& source_begin,
                                    std::uint8_t* out) {
  // Output edges per task: a multiple of 8, so that every task starts on a byte.
  constexpr eid_t kTaskEdges = 4096;
  const std::uint32_t width = c.weight_width;
  const std::size_t runs = out_begin.size() - 1;
  const eid_t total = out_begin[runs];
  const std::uint64_t bytes = codec::packed_bytes(total, width);
  tbb::parallel_for(eid_t{0}, (total + kTaskEdges - 1) / kTaskEdges, [&](eid_t task) {
    const eid_t first = task * kTaskEdges, last = std::min(total, first + kTaskEdges);
    auto i = static_cast<std::size_t>(
        std::upper_bound(out_begin.begin() + 1, out_begin.end(), first) - out_begin.begin() - 1);
    codec::BitWriter packed(out + first * width / 8);
    for (eid_t e = first; e < last;) {
      while (out_begin[i + 1] <= e)
        ++i;
      // This run's weights within the task are one run of bits: moved 32 at a time.
      const eid_t end = std::min(last, out_begin[i + 1]);
      std::uint64_t from = (source_begin(i) + (e - out_begin[i])) * width;
      for (std::uint64_t left = (end - e) * width; left > 0;) {
        const auto take = static_cast<std::uint32_t>(std::min<std::uint64_t>(left, 32));
        packed.put(codec::read_bits(c.packed_weights.data(), from, take), take);
        from += take;
        left -= take;
      }
      e = end;
    }
    packed.finish();  // only the last task ends mid-byte
  });
  std::memset(out + bytes, 0, codec::kPadding);
  return bytes;
}

void decode_lists(const Graph& g, vid_t first, vid_t last, vid_t* out) {
  const eid_t base = g.offsets[first];
  tbb::parallel_for(tbb::blocked_range<vid_t>(first, last, 256),
                    [&](const tbb::blocked_range<vid_t>& r) {
                      for (vid_t v = r.begin(); v < r.end(); ++v) {
                        decode_list(g.compressed.bytes.data() + g.compressed.offsets[v],
                                    g.degree(v), out + (g.offsets[v] - base));
                      }
                    });
}

void sort_lists(Graph& g, ProgressStep* progress) {
  const vid_t n = g.num_vertices();
  tbb::parallel_for(tbb::blocked_range<vid_t>(0, n), [&](const tbb::blocked_range<vid_t>& r) {
    detail::ListSortScratch scratch;
    for (vid_t v = r.begin(); v < r.end(); ++v) {
      detail::sort_list(g.targets.data() + g.offsets[v],
                        g.weighted() ? g.weights.data() + g.offsets[v] : nullptr, g.degree(v),
                        scratch);
    }
    if (progress != nullptr) progress->advance(r.size());
  });
}

void compress(Graph& g, HostMemory& memory) {
  const vid_t n = g.num_vertices();
  ProgressStep progress("compressing the lists", std::uint64_t{n} * 2);
  sort_lists(g, &progress);
  CompressedTargets c;
  c.offsets = Buffer<eid_t>::allocate(std::uint64_t{n} + 1, memory);
  tbb::parallel_for(tbb::blocked_range<vid_t>(0, n), [&](const tbb::blocked_range<vid_t>& r) {
    for (vid_t v = r.begin(); v < r.end(); ++v)
      c.offsets[v] = compressed_list_bytes(g.neighbors(v));
  });
  c.offsets[n] = 0;
  const std::uint64_t total = detail::exclusive_scan(c.offsets.data(), std::size_t{n} + 1);
  c.bytes = Buffer<std::uint8_t>::allocate(total + codec::kPadding, memory);
  tbb::parallel_for(tbb::blocked_range<vid_t>(0, n), [&](const tbb::blocked_range<vid_t>& r) {
    std::uint8_t* from = c.bytes.data() + c.offsets[r.begin()];
    std::memset(from, 0, c.offsets[r.end()] - c.offsets[r.begin()]);
    for (vid_t v = r.begin(); v < r.end(); ++v)
      encode_list(g.neighbors(v), c.bytes.data() + c.offsets[v]);
    progress.advance(r.size());
  });
  std::memset(c.bytes.data() + total, 0, codec::kPadding);
  pack_weights(g, c, memory);
  g.compressed = std::move(c);
}

void drop_raw_lists(Graph& g) {
  if (g.compressed.empty()) {
    throw InvalidInput(
        "a graph without compressed lists cannot leave out its raw lists (compress it first)");
  }
  g.targets = {};
  if (g.compressed.packs_weights()) g.weights = {};
}

void decode_raw_lists(Graph& g, HostMemory& memory) {
  if (g.has_raw_lists()) return;
  const eid_t m = g.num_edges();
  g.targets = Buffer<vid_t>::allocate(m, memory);
  decode_lists(g, 0, g.num_vertices(), g.targets.data());
  if (g.weighted() && g.weights.empty()) {
    g.weights = Buffer<std::uint32_t>::allocate(m, memory);
    unpack_weights(g.compressed, 0, m, g.weights.data());
  }
}

namespace {

void check_packed_weights(const Graph& g) {
  const CompressedTargets& c = g.compressed;
  if (!c.packs_weights()) return;
  if (g.weight_type != WeightType::u32 || c.weight_width >= 32) {
    throw FormatError("packed weights need u32 weights and a width below 32 bits (width " +
                      std::to_string(c.weight_width) + ")");
  }
  const std::uint64_t bytes = codec::packed_bytes(g.num_edges(), c.weight_width);
  if (c.packed_weights.size() != bytes + codec::kPadding) {
    throw FormatError("the packed weights hold " + std::to_string(c.packed_weights.size()) +
                      " bytes, expected " + std::to_string(bytes + codec::kPadding));
  }
  if (g.weights.empty()) return;  // compressed-only: the packed weights are the only ones
  const eid_t e = detail::first_bad(g.num_edges(), [&](std::uint64_t i) {
    return codec::packed_weight(c.packed_weights.data(), i, c.weight_width, c.weight_base) !=
           g.weights[i];
  });
  if (e < g.num_edges()) {
    throw FormatError("the packed weights are corrupted: edge " + std::to_string(e) +
                      " does not unpack to its weight");
  }
}

// Decodes the `bytes` bytes of a list of `degree` targets at `at` into `out`, following only
// what lies inside the list: true when every block and chunk offset is as the encoder writes
// them (each width that of its decoded deltas, no target past the largest vertex id) and the
// blocks fill the list exactly.
bool decode_checked(const std::uint8_t* at, std::uint64_t bytes, eid_t degree, vid_t* out) {
  std::uint64_t pos = codec::table_bytes(degree);
  for (std::uint64_t first = 0; first < degree; first += kBlock) {
    if (first > 0 && first % kChunk == 0) {
      std::uint32_t offset = 0;
      std::memcpy(&offset, at + 4 * (first / kChunk - 1), 4);
      if (offset != pos) return false;
    }
    const auto n = static_cast<std::uint32_t>(std::min<std::uint64_t>(kBlock, degree - first));
    if (pos + codec::kHeaderBytes > bytes) return false;
    const std::uint32_t w = at[pos + 4];
    if (w > 32 || pos + codec::block_bytes(n, w) > bytes) return false;
    std::uint64_t t = 0;
    std::memcpy(&t, at + pos, 4);
    out[first] = static_cast<vid_t>(t);
    for (std::uint32_t i = 1; i < n; ++i) {
      t += codec::read_bits(at + pos + codec::kHeaderBytes, std::uint64_t{i - 1} * w, w);
      if (t > kMaxVertexId) return false;
      out[first + i] = static_cast<vid_t>(t);
    }
    if (block_width(out + first, n) != w) return false;
    pos += codec::block_bytes(n, w);
  }
  return pos == bytes;
}

}  // namespace

void check_compressed(const Graph& g) {
  const CompressedTargets& c = g.compressed;
  const vid_t n = g.num_vertices();
  if (c.offsets.size() != std::uint64_t{n} + 1) {
    throw FormatError("the compressed lists have " + std::to_string(c.offsets.size()) +
                      " offsets for " + std::to_string(n) + " vertices");
  }
  if (c.offsets[0] != 0) throw FormatError("the compressed offsets do not start at 0");
  if (c.bytes.size() != c.offsets[n] + codec::kPadding) {
    throw FormatError("the compressed lists hold " + std::to_string(c.bytes.size()) +
                      " bytes, expected " + std::to_string(c.offsets[n] + codec::kPadding));
  }
  const bool raw = g.has_raw_lists();
  const auto v = static_cast<vid_t>(detail::first_bad(n, [&](std::uint64_t u) {
    if (c.offsets[u + 1] < c.offsets[u] || c.offsets[u + 1] > c.offsets[n]) return true;
    const auto vertex = static_cast<vid_t>(u);
    std::vector<vid_t> decoded(g.degree(vertex));
    if (!decode_checked(c.bytes.data() + c.offsets[u], c.offsets[u + 1] - c.offsets[u],
                        decoded.size(), decoded.data()))
      return true;
    // Compressed-only, the list is the vertex's targets: they must be vertices.
    if (!raw) return std::ranges::any_of(decoded, [&](vid_t t) { return t >= n; });
    const std::span<const vid_t> list = g.neighbors(vertex);
    return !std::equal(decoded.begin(), decoded.end(), list.begin());
  }));
  if (v < n) {
    throw FormatError("the compressed list of vertex " + std::to_string(v) +
                      (raw ? " is corrupted: it does not decode to the vertex's targets"
                           : " is corrupted: it does not decode to a sorted list of vertices"));
  }
  check_packed_weights(g);
}

}  // namespace ooc
