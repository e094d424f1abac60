// The engine's per-graph device state, and the move of the edges into pinned host memory (the
// workspace of its runs is workspace.cu's, the edge cache's fill edge_cache_fill.cu's).
#include <cuda_runtime.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

#include "device_upload.hpp"
#include "ooc/core/codec.hpp"
#include "ooc/core/error.hpp"
#include "ooc/core/parallel_copy.hpp"
#include "ooc/core/units.hpp"
#include "ooc/engine/cuda/device_graph.hpp"
#include "ooc/engine/cuda/rank_exchange.hpp"
#include "ooc/engine/detail/host_tier.hpp"
#include "ooc/engine/edge_cache.hpp"
#include "ooc/kernels/cuda/group_lists.cuh"
#include "ooc/partitioner/compress.hpp"
#include "ooc/transfer/pinned_memory.hpp"

namespace ooc::detail {
namespace {

bool is_pinned(const void* p) {
  if (p == nullptr) return true;
  cudaPointerAttributes attributes{};
  if (cudaPointerGetAttributes(&attributes, p) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return attributes.type == cudaMemoryTypeHost;
}

template <class T>
void pin(Buffer<T>& buffer, int device) {
  if (buffer.empty() || is_pinned(buffer.data())) return;
  auto pinned = Buffer<T>::allocate(buffer.size(), pinned_memory(device));
  parallel_copy_bytes(pinned.data(), buffer.data(), buffer.size_bytes());
  buffer = std::move(pinned);
}

template <class T>
const T* mapped(const Buffer<T>& buffer) {
  if (buffer.empty()) return nullptr;
  void* device_pointer = nullptr;
  OOC_CUDA(cudaHostGetDevicePointer(&device_pointer, const_cast<T*>(buffer.data()), 0),
           "mapping the edges");
  return static_cast<const T*>(device_pointer);
}

// A rank pins only its own lists, and a graph beyond host memory only those host memory holds,
// where they are (a partly read graph is mostly unbacked address space). Each range is widened to
// whole pages; ranges that then touch, in any of the arrays pinned together, are pinned as one.
// Only arrays of kPinInPlace bytes or more are pinned in place: glibc maps those on their own
// pages, where a smaller array may share a page with other memory (smaller ones are copied whole
// into pinned memory, where the host tier's reads land too).
inline constexpr std::size_t kPinInPlace = std::size_t{64} << 20;

using PageRanges = std::vector<std::pair<std::uintptr_t, std::uintptr_t>>;
using ElementRanges = std::vector<std::pair<eid_t, eid_t>>;
using VertexRanges = std::span<const std::pair<vid_t, vid_t>>;

// `ranges`: the vertex ranges of a partly read graph whose lists are pinned (null: all).
template <class T>
bool pins_in_place(const Buffer<T>& buffer, const VertexRanges* ranges) {
  return ranges != nullptr && !is_pinned(buffer.data()) && buffer.size_bytes() >= kPinInPlace;
}

// The elements [index[first], index[last]) of an array that `index` points into, for each of the
// vertex ranges, and `tail` more (the padding a decoder may read after a list).
ElementRanges list_ranges(const Buffer<eid_t>& index, VertexRanges vertices, eid_t tail = 0) {
  ElementRanges ranges;
  for (const auto& [first, last] : vertices) {
    if (index[first] != index[last]) ranges.emplace_back(index[first], index[last] + tail);
  }
  return ranges;
}

// The bytes of the packed weights of the vertices' edges, and the padding after them.
ElementRanges packed_ranges(const Graph& g, VertexRanges vertices) {
  const std::uint32_t width = g.compressed.weight_width;
  ElementRanges ranges;
  for (const auto& [first, last] : list_ranges(g.offsets, vertices)) {
    ranges.emplace_back(first * width / 8, codec::packed_bytes(last, width) + codec::kPadding);
  }
  return ranges;
}

template <class T>
void add_pages(const Buffer<T>& buffer, const ElementRanges& ranges, PageRanges& out) {
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  for (const auto& [first, last] : ranges) {
    if (first == last || buffer.empty()) continue;
    out.emplace_back(
        reinterpret_cast<std::uintptr_t>(buffer.data() + first) / page * page,
        (reinterpret_cast<std::uintptr_t>(buffer.data() + last) + page - 1) / page * page);
  }
}

void register_pages(PageRanges pages, DeviceGraph& d) {
  std::sort(pages.begin(), pages.end());
  for (std::size_t i = 0; i < pages.size();) {
    auto [begin, end] = pages[i];
    for (++i; i < pages.size() && pages[i].first <= end; ++i)
      end = std::max(end, pages[i].second);
    void* p = reinterpret_cast<void*>(begin);
    OOC_CUDA(cudaHostRegister(p, end - begin, cudaHostRegisterMapped | cudaHostRegisterPortable),
             "pinning the rank's edges");
    d.registered.push_back(p);
    d.registered_bytes += end - begin;
  }
}

// Memory pinned in place is read at its host address.
void check_host_pointer(const DeviceGraph& d, int device) {
  int host_pointer = 0;
  OOC_CUDA(
      cudaDeviceGetAttribute(&host_pointer, cudaDevAttrCanUseHostPointerForRegisteredMem, device),
      "reading the GPU's properties");
  if (host_pointer == 0) {
    throw Unsupported("GPU " + std::to_string(device) + " (" + d.name +
                      ") cannot read pinned host memory at its host address, which a rank's "
                      "partly pinned edges need");
  }
}

// Where the device reads an array: in place, the pages of `ranges` (added to `pages`, pinned by
// the caller) at their host address; else the whole array, moved into pinned memory, mapped.
template <class T>
const T* map_array(DeviceGraph& d, Buffer<T>& buffer, bool in_place, const ElementRanges& ranges,
                   PageRanges& pages) {
  if (!in_place) {
    pin(buffer, d.device);
    return mapped(buffer);
  }
  d.pinned_in_place.push_back(buffer.data());
  add_pages(buffer, ranges, pages);
  return buffer.empty() ? nullptr : buffer.data();
}

// The offsets and partitions of the lists `d` reads.
void upload_lists(DeviceGraph& d, const Graph& g, std::span<const Partition> parts) {
  upload(d.offsets, g.offsets.data(), g.offsets.size(), "uploading the offsets");
  std::vector<vid_t> first;
  std::vector<eid_t> edges;
  for (const Partition& p : parts) {
    first.push_back(p.first_vertex);
    edges.push_back(p.num_edges());
  }
  first.push_back(g.num_vertices());
  upload(d.partition_first, first.data(), first.size(), "uploading the partitions");
  upload(d.partition_edges, edges.data(), edges.size(), "uploading the partitions");
}

// Where the device reads `g`'s edges: the lists of `ranges` pinned in place (a rank's own, or
// those host memory holds), or the whole arrays moved into pinned memory, both mapped.
void map_edges(DeviceGraph& d, Graph& g, int device, const VertexRanges* ranges) {
  const bool in_place = pins_in_place(g.targets, ranges);
  if (in_place) check_host_pointer(d, device);
  const ElementRanges edges = in_place ? list_ranges(g.offsets, *ranges) : ElementRanges{};
  PageRanges pages;
  d.mapped_targets = map_array(d, g.targets, in_place, edges, pages);
  d.mapped_weights = map_array(d, g.weights, in_place, edges, pages);
  register_pages(std::move(pages), d);
}

// A rank's vertices, which partitions its cache may hold, and its link to the other ranks, set
// up, warmed up and timed here, at load, so that no run pays for NCCL's connections; the time it
// took is reported with the calibration.
void join_ranks(DeviceGraph& d, const RankSetup& rank, int device) {
  upload(d.owned, rank.owned.words(), rank.owned.num_words(), "uploading the rank's vertices");
  upload(d.layout_pieces, rank.layout.pieces.data(), rank.layout.pieces.size(),
         "uploading the ranks' layout");
  d.layout_block = rank.layout.block;
  d.layout_scatters = rank.layout.scatters(static_cast<std::uint32_t>(rank.communicator.size()),
                                           d.graph->num_vertices());
  const auto me = static_cast<std::uint32_t>(rank.communicator.rank());
  for (const std::uint32_t owner : rank.owners)
    d.cacheable.push_back(owner == me ? 1 : 0);
  const auto start = std::chrono::steady_clock::now();
  d.nccl = std::make_unique<NcclLink>(rank.communicator, device);
  d.exchange = calibrate_exchange(*d.nccl, rank.communicator, d.graph->num_vertices());
  d.exchange.setup_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The compressed lists and packed weights pinned and mapped (those of `ranges` in place, as
// map_edges pins the edges); their offsets and each partition's compressed bytes uploaded.
void map_compressed(DeviceGraph& d, Graph& g, std::span<const Partition> parts, int device,
                    const VertexRanges* ranges) {
  CompressedTargets& c = g.compressed;
  const bool lists_in_place = pins_in_place(c.bytes, ranges);
  const bool weights_in_place = pins_in_place(c.packed_weights, ranges);
  if (lists_in_place || weights_in_place) check_host_pointer(d, device);
  PageRanges pages;
  d.mapped_compressed = map_array(
      d, c.bytes, lists_in_place,
      lists_in_place ? list_ranges(c.offsets, *ranges, codec::kPadding) : ElementRanges{}, pages);
  d.mapped_packed_weights =
      map_array(d, c.packed_weights, weights_in_place,
                weights_in_place ? packed_ranges(g, *ranges) : ElementRanges{}, pages);
  register_pages(std::move(pages), d);
  upload(d.compressed_offsets, c.offsets.data(), c.offsets.size(),
         "uploading the compressed offsets");
  std::vector<std::uint64_t> bytes;
  for (const Partition& p : parts)
    bytes.push_back(c.range_bytes(p.first_vertex, p.last_vertex));
  upload(d.partition_compressed, bytes.data(), bytes.size(), "uploading the partitions");
}

}  // namespace

void pin_edges(Graph& g, int device, PinLists lists) {
  OOC_CUDA(cudaSetDevice(device), "selecting the GPU");
  pin(g.targets, device);
  pin(g.weights, device);
  if (lists.in_edges) {
    pin(g.in_edges.sources, device);
    pin(g.in_edges.weights, device);
  }
  if (lists.compressed) {
    pin(g.compressed.bytes, device);
    pin(g.compressed.packed_weights, device);
  }
}

DeviceGraph::~DeviceGraph() {
  nccl.reset();
  if (managed_targets != nullptr) cudaFree(managed_targets);
  if (managed_weights != nullptr) cudaFree(managed_weights);
  for (void* p : registered)
    cudaHostUnregister(p);
}

std::shared_ptr<DeviceGraph> make_device_graph(Graph& g, std::span<const Partition> parts,
                                               const EngineOptions& options, const RankSetup* rank,
                                               const TierSetup* tier) {
  auto d = std::make_shared<DeviceGraph>();
  d->device = options.device;
  OOC_CUDA(cudaSetDevice(options.device), "selecting the GPU");
  cudaDeviceProp prop{};
  OOC_CUDA(cudaGetDeviceProperties(&prop, options.device), "reading the GPU's properties");
  d->name = prop.name;
  d->l2_bytes = static_cast<std::uint64_t>(prop.l2CacheSize);
  d->graph = &g;
  // The lists pinned in place: those host memory holds of a graph beyond it, a rank's own.
  const VertexRanges* in_place = tier != nullptr   ? &tier->kept_ranges
                                 : rank != nullptr ? &rank->vertex_ranges
                                                   : nullptr;
  map_edges(*d, g, options.device, in_place);
  if (rank != nullptr) join_ranks(*d, *rank, options.device);
  upload_lists(*d, g, parts);
  if (options.compressed && !g.compressed.empty())
    map_compressed(*d, g, parts, options.device, in_place);
  return d;
}

void add_in_lists(DeviceGraph& d, Graph& in, std::span<const Partition> parts,
                  const RankSetup* rank) {
  auto lists = std::make_unique<DeviceGraph>();
  lists->device = d.device;
  lists->name = d.name;
  lists->l2_bytes = d.l2_bytes;
  lists->graph = &in;
  if (rank != nullptr) {
    map_edges(*lists, in, d.device, &rank->vertex_ranges);  // the rank's in-lists
  } else {
    lists->mapped_targets = mapped(in.targets);
    lists->mapped_weights = mapped(in.weights);
  }
  upload_lists(*lists, in, parts);
  d.in_lists = std::move(lists);
}

std::vector<const void*> lists_pinned_whole(const DeviceGraph& d) {
  std::vector<const void*> out;
  const auto add = [&](const auto& buffer) {
    const void* p = buffer.data();
    if (!buffer.empty() && is_pinned(p) &&
        std::find(d.pinned_in_place.begin(), d.pinned_in_place.end(), p) == d.pinned_in_place.end())
      out.push_back(p);
  };
  const Graph& g = *d.graph;
  add(g.targets);
  add(g.weights);
  add(g.compressed.bytes);
  add(g.compressed.packed_weights);
  return out;
}

std::uint64_t pinned_host_bytes(const DeviceGraph& d) {
  const auto in_place = [&](const void* p) {
    const auto in = [p](const DeviceGraph& of) {
      return std::find(of.pinned_in_place.begin(), of.pinned_in_place.end(), p) !=
             of.pinned_in_place.end();
    };
    return in(d) || (d.in_lists && in(*d.in_lists));
  };
  std::uint64_t bytes = d.registered_bytes + (d.in_lists ? d.in_lists->registered_bytes : 0);
  const auto whole = [&](const auto& buffer) {
    if (!buffer.empty() && !in_place(buffer.data()) && is_pinned(buffer.data()))
      bytes += buffer.size_bytes();
  };
  const Graph& g = *d.graph;
  whole(g.offsets);
  whole(g.targets);
  whole(g.weights);
  whole(g.original_ids);
  whole(g.compressed.offsets);
  whole(g.compressed.bytes);
  whole(g.compressed.packed_weights);
  whole(g.in_edges.offsets);
  whole(g.in_edges.sources);
  whole(g.in_edges.weights);
  return bytes;
}

std::string device_name(const DeviceGraph& d) {
  return d.name;
}

std::uint64_t device_l2_bytes(const DeviceGraph& d) {
  return d.l2_bytes;
}

ExchangeCalibration exchange_calibration(const DeviceGraph& d) {
  return d.exchange;
}

std::uint64_t device_budget(const DeviceGraph& d, std::uint64_t asked) {
  OOC_CUDA(cudaSetDevice(d.device), "selecting the GPU");
  std::size_t free_bytes = 0, total = 0;
  OOC_CUDA(cudaMemGetInfo(&free_bytes, &total), "reading the GPU's free memory");
  free_bytes += d.held_bytes();  // what earlier runs left allocated is this run's to plan with
  if (asked == 0) return free_bytes / 10 * 9;
  // A budget the GPU cannot give would plan an in-memory run that then fails to allocate.
  if (asked > free_bytes) {
    throw OutOfMemory("device memory budget " + format_bytes(asked) + " is more than the " +
                      format_bytes(free_bytes) + " free on GPU " + std::to_string(d.device) +
                      " (of " + format_bytes(total) +
                      "): lower --budget, or give 0 for 90% of the free memory");
  }
  return asked;
}

std::uint64_t DeviceGraph::held_bytes() const {
  return (work ? work->device_bytes() : 0) + resident_targets.bytes() + resident_weights.bytes() +
         block_cuts.bytes() + cache.bytes() + (in_lists ? in_lists->held_bytes() : 0);
}

std::uint64_t DeviceGraph::make_resident() {
  if (resident_targets.size() == graph->num_edges() && graph->num_edges() > 0) return 0;
  list_blocks = 1;
  block_cuts = {};
  upload(resident_targets, graph->targets.data(), graph->targets.size(),
         "copying the edges to the GPU");
  upload(resident_weights, graph->weights.data(), graph->weights.size(),
         "copying the weights to the GPU");
  return graph->targets.size_bytes() + graph->weights.size_bytes();
}

void DeviceGraph::group_lists(std::span<const Partition> parts, std::uint32_t blocks,
                              Workspace::Staging& scratch) {
  const vid_t n = graph->num_vertices();
  if (blocks <= 1 || (blocks == list_blocks && block_cuts.size() > 0)) return;
  const char* doing = "grouping the lists for cache blocking";
  block_cuts = {};  // the old cuts' memory first
  block_cuts = DeviceArray<std::uint32_t>(std::uint64_t{blocks - 1} * n, "the pull blocks");
  const vid_t span = static_cast<vid_t>((std::uint64_t{n} + blocks - 1) / blocks);
  int sms = 0;
  OOC_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), doing);
  const bool weighted = resident_weights.size() > 0;
  // Runs of whole partitions that fit the scratch buffer, grouped there and copied back.
  for (std::size_t i = 0; i < parts.size();) {
    const Partition& first = parts[i];
    std::size_t j = i + 1;
    while (j < parts.size() && parts[j].last_edge - first.first_edge <= scratch.targets.size())
      ++j;
    const Partition& last = parts[j - 1];
    const eid_t edges = last.last_edge - first.first_edge;
    if (edges > scratch.targets.size())
      throw Unsupported("a partition is larger than the staging buffer that groups its lists");
    const std::uint64_t warps = last.last_vertex - first.first_vertex;
    const auto grid = static_cast<unsigned>(
        std::clamp<std::uint64_t>((warps * cuda::kWarp + 255) / 256, 1, std::uint64_t(sms) * 8));
    cuda::group_lists_kernel<kMaxPullBlocks><<<grid, 256>>>(
        offsets.data(), resident_targets.data(), weighted ? resident_weights.data() : nullptr,
        first.first_vertex, last.last_vertex, first.first_edge, scratch.targets.data(),
        weighted ? scratch.weights.data() : nullptr, block_cuts.data(), n, blocks, span);
    OOC_CUDA(cudaGetLastError(), doing);
    if (edges > 0) {
      OOC_CUDA(cudaMemcpy(resident_targets.data() + first.first_edge, scratch.targets.data(),
                          edges * sizeof(vid_t), cudaMemcpyDeviceToDevice),
               doing);
      if (weighted) {
        OOC_CUDA(cudaMemcpy(resident_weights.data() + first.first_edge, scratch.weights.data(),
                            edges * sizeof(std::uint32_t), cudaMemcpyDeviceToDevice),
                 doing);
      }
    }
    i = j;
  }
  OOC_CUDA(cudaDeviceSynchronize(), doing);
  list_blocks = blocks;
}

cuda::ListCut DeviceGraph::cut(std::uint32_t b) const {
  const std::uint64_t n = graph->num_vertices();
  return {b == 0 ? nullptr : block_cuts.data() + (b - 1) * n,
          b + 1 == list_blocks ? nullptr : block_cuts.data() + b * n};
}

void DeviceGraph::make_managed() {
  if (managed_targets != nullptr || graph->num_edges() == 0) return;
  std::size_t free_bytes = 0, total = 0;
  OOC_CUDA(cudaMemGetInfo(&free_bytes, &total), "reading the GPU's free memory");
  const std::uint64_t bytes = graph->targets.size_bytes() + graph->weights.size_bytes();
  if (bytes > free_bytes) {
    throw Unsupported(
        "the unified policy needs the edges (" + format_bytes(bytes) +
        ") to fit the GPU's free memory (" + format_bytes(free_bytes) +
        "): oversubscribed managed memory can hang a shared GPU; use another --transfer policy");
  }
  const auto managed_copy = [](auto& out, const auto& buffer, const char* doing) {
    if (buffer.empty()) return;
    OOC_CUDA(cudaMallocManaged(&out, buffer.size_bytes()), doing);
    // The host's writes are every page's first touch, so the pages start in host memory, as
    // the unified policy means: the GPU's first reads fault them across (read-mostly below).
    parallel_copy_bytes(out, buffer.data(), buffer.size_bytes());
    int gpu = 0;
    OOC_CUDA(cudaGetDevice(&gpu), doing);
    cudaMemLocation location{};
    location.type = cudaMemLocationTypeDevice;
    location.id = gpu;
    OOC_CUDA(cudaMemAdvise(out, buffer.size_bytes(), cudaMemAdviseSetReadMostly, location), doing);
  };
  managed_copy(managed_targets, graph->targets, "placing the edges in managed memory");
  managed_copy(managed_weights, graph->weights, "placing the weights in managed memory");
}

}  // namespace ooc::detail
