// The bounded build (bounded_build.hpp): in-memory build_graph, hub_sort and write_oocg, redone
// as passes whose memory is the vertex arrays and a share of the budget at a time.
//   1 count   read the input; count each vertex's edges (both directions when symmetrising)
//   2 spill   read it again; append each edge to the temporary file of its source's range, the
//             ranges cut so that each one's lists fit the budget (a distribution sort)
//   3 build   range by range: gather the range's lists, sort and de-duplicate them and draw their
//             weights as build_graph does (list_build.hpp), append them to one list file
//   4 order   hub sort's order from the degrees (hub_order)
//   5 write   the sections in order (oocg_stream.hpp), the lists read back in the new order;
//             compressing, they are first sorted and encoded into temporary files
// A generator that knows its vertex count and has no weights is read once: passes 1 and 2 are
// one, into ranges of equal vertex counts with room to spare, and pass 3 splits a range that
// turns out too large. Pass 3 is in bounded_lists.cpp, passes 4 and 5 in bounded_write.cpp and
// compression in bounded_compress.cpp.
// The lists' order inside a range is whatever the threads made, but sorting makes it the
// builder's; hub sort keeps each list's order, so the output is build_graph's, byte for byte.
#include "ooc/partitioner/bounded_build.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bounded_passes.hpp"
#include "list_build.hpp"
#include "ooc/core/error.hpp"
#include "ooc/core/progress.hpp"
#include "ooc/core/units.hpp"
#include "ooc/partitioner/hub_sort.hpp"
#include "parallel.hpp"
#include "temp_file.hpp"

namespace ooc {
namespace detail::bounded {
namespace {

// Bytes a vertex holds through the build (its degree, then offset; its in-degree), and at hub
// order's peak (those, scores, orders and the new ids).
constexpr std::uint64_t kVertexBytes = 16;
constexpr std::uint64_t kHubOrderVertexBytes = 48;
// Bytes per input edge of a part in passes 1 and 2: the part (up to 12, 4 more of text, the
// parser's copy) and its records sorted by range (up to 24).
constexpr std::uint64_t kPartEdgeBytes = 64;
constexpr std::uint64_t kMinEdgeBudget = std::uint64_t{256} << 10;
constexpr std::size_t kMaxRanges = 512;  // temporary files open at once, under the usual 1024
// A generator's ranges are cut before its degrees are known: for twice the edges it could list
// (both directions), and in pieces of half the room, so that few need splitting.
constexpr std::uint64_t kUncountedSlack = 4;

// Calls emit(from, to, i) for every edge of the part that the plan keeps, in both directions
// when it asks, for edges [begin, end).
template <class Emit>
void kept_edges(const EdgeList& part, const EdgePlan& plan, std::uint64_t begin, std::uint64_t end,
                Emit&& emit) {
  for (std::uint64_t i = begin; i < end; ++i) {
    const vid_t u = part.sources[i], v = part.targets[i];
    if (!kept(plan, u, v)) continue;
    emit(u, v, i);
    if (plan.both_directions && u != v) emit(v, u, i);
  }
}

WeightType wider(WeightType a, WeightType b) {
  if (a == WeightType::f32 || b == WeightType::f32) return WeightType::f32;
  return a == WeightType::none ? b : a;
}

// What the census keeps of a part besides the counts.
void note_part(const EdgeList& part, Census& census) {
  census.weight_type = wider(census.weight_type, part.weight_type);
  census.symmetric_input = part.symmetric_input;
  census.input_edges += part.size();
}

// Adds the part's kept edges to each source's count, growing the counts to its vertices; each
// worker counts its own vertices (parallel.hpp's owners).
void count_part(const EdgeList& part, const BuildOptions& options, Census& census) {
  note_part(part, census);
  if (std::size_t{part.num_vertices} + 1 > census.degree.size()) {
    census.degree.reserve(std::max(std::size_t{part.num_vertices} + 1,
                                   census.degree.size() + census.degree.size() / 2));
    census.degree.resize(std::size_t{part.num_vertices} + 1, 0);
  }
  const EdgePlan plan = edge_plan(options, part.symmetric_input, false);
  eid_t* degree = census.degree.data();
  for_owners(owner_bounds(0, census.vertices()), [&](vid_t lo, vid_t hi) {
    kept_edges(part, plan, 0, part.size(), [&](vid_t u, vid_t, auto) {
      if (u - lo < hi - lo) ++degree[u];
    });
  });
}

// Pass 1.
Census count_edges(const EdgeSource& input, const BuildOptions& options, std::uint64_t part_edges,
                   const BoundedOptions& bounded) {
  Pass pass(bounded, "counting edges");
  Census census;
  census.degree.assign(1, 0);
  ProgressStep progress("counting edges", input.max_edges());
  input.read(part_edges, {}, [&](EdgeList&& part) {
    count_part(part, options, census);
    progress.advance(part.size());
  });
  census.degree.shrink_to_fit();
  pass.done(census.input_edges, "input edges");
  return census;
}

// Sorts the records of `items` things by range (sort_records) and appends each range's run to
// its file. With `degree`, each source's records are counted there too, range by range.
template <class Visit>
void spill(std::uint64_t items, Visit&& visit, const Ranges& ranges, const Records& records,
           std::vector<TempFile>& files, Buffer<std::uint32_t>& sorted, eid_t* degree = nullptr) {
  if (items == 0) return;
  const std::vector<std::uint64_t> starts = sort_records(
      items, visit, ranges.count(), [&](vid_t u) { return ranges.of(u); }, records, sorted);
  tbb::parallel_for(std::size_t{0}, ranges.count(), [&](std::size_t r) {
    const std::uint32_t* run = sorted.data() + starts[r] * records.words;
    const std::uint64_t count = starts[r + 1] - starts[r];
    if (degree != nullptr) {
      for (std::uint64_t i = 0; i < count; ++i)
        ++degree[run[i * records.words]];
    }
    files[r].append(run, count * records.bytes());
  });
}

std::vector<TempFile> open_files(std::size_t count, const std::filesystem::path& tmp_dir) {
  std::vector<TempFile> files;
  files.reserve(count);
  for (std::size_t r = 0; r < count; ++r)
    files.emplace_back(tmp_dir);
  return files;
}

// Pass 2, or passes 1 and 2 at once with `count` (a generator: the counts already span its
// vertices, and are counted by range as the edges spill).
std::vector<TempFile> spill_edges(const EdgeSource& input, const BuildOptions& options,
                                  Census& census, const Ranges& ranges, const ListPlan& plan,
                                  std::uint64_t part_edges, bool count,
                                  const BoundedOptions& bounded) {
  Pass pass(bounded, "spilling edges into " + std::to_string(ranges.count()) + " ranges");
  std::vector<TempFile> files = open_files(ranges.count(), plan.tmp_dir);
  ReadOptions read;
  read.force_weight_type =
      census.weight_type == WeightType::f32 ? WeightType::f32 : WeightType::none;
  ProgressStep progress("spilling edges", count ? input.max_edges() : census.input_edges);
  Buffer<std::uint32_t> sorted;
  input.read(part_edges, read, [&](EdgeList&& part) {
    if (count) note_part(part, census);
    const EdgePlan edges =
        edge_plan(options, part.symmetric_input, census.weight_type != WeightType::none);
    const auto visit = [&](std::uint64_t begin, std::uint64_t end, auto&& emit) {
      kept_edges(part, edges, begin, end, [&](vid_t u, vid_t v, std::uint64_t i) {
        emit(u, v, plan.records.words == 3 ? part.weights[i] : 0u);
      });
    };
    spill(part.size(), visit, ranges, plan.records, files, sorted,
          count ? census.degree.data() : nullptr);
    progress.advance(part.size());
  });
  std::uint64_t spilled = 0;
  for (const TempFile& f : files)
    spilled += f.size() / plan.records.bytes();
  pass.done(spilled, "edges");
  return files;
}

// `count` ranges of equal vertex counts.
Ranges even_ranges(vid_t vertices, std::uint64_t count) {
  Ranges ranges{{0}};
  for (std::uint64_t r = 1; r < count; ++r)
    ranges.bounds.push_back(static_cast<vid_t>(std::uint64_t{vertices} * r / count));
  ranges.bounds.push_back(vertices);
  ranges.bounds.erase(std::unique(ranges.bounds.begin(), ranges.bounds.end()), ranges.bounds.end());
  if (ranges.bounds.size() == 1) ranges.bounds.push_back(0);  // no vertices: one empty range
  return ranges;
}

std::filesystem::path temporary_folder(const BoundedOptions& bounded,
                                       const std::filesystem::path& path) {
  if (!bounded.tmp_dir.empty()) return bounded.tmp_dir;
  return path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
}

void check_memory(std::uint64_t memory, vid_t n, double hub_fraction) {
  const bool hub_sorted = hub_fraction > 0.0 && hubs_for_fraction(n, hub_fraction) > 0;
  const std::uint64_t vertex_bytes = (hub_sorted ? kHubOrderVertexBytes : kVertexBytes) * n;
  if (memory < vertex_bytes + kMinEdgeBudget) {
    throw InvalidInput("--memory " + format_bytes(memory) + " is too small for " +
                       std::to_string(n) + " vertices: a bounded build needs at least " +
                       format_bytes(vertex_bytes + kMinEdgeBudget));
  }
}

}  // namespace

Ranges cut_ranges(const Census& census, vid_t lo, vid_t hi, const ListPlan& plan) {
  Ranges ranges{{lo}};
  std::uint64_t used = 0;
  for (vid_t v = lo; v < hi; ++v) {
    const std::uint64_t cost = census.degree[v] * plan.edge_bytes + sizeof(eid_t);
    if (cost > plan.capacity) {
      throw InvalidInput("vertex " + std::to_string(v) + " has " +
                         std::to_string(census.degree[v]) + " edges, more than --memory " +
                         format_bytes(plan.memory) + " lets a build hold at once (give it more)");
    }
    if (used + cost > plan.capacity) {
      ranges.bounds.push_back(v);
      used = 0;
    }
    used += cost;
  }
  ranges.bounds.push_back(hi);
  if (ranges.count() > kMaxRanges) {
    throw InvalidInput("--memory " + format_bytes(plan.memory) + " would cut the graph into " +
                       std::to_string(ranges.count()) + " ranges, more than " +
                       std::to_string(kMaxRanges) + " (give it more)");
  }
  return ranges;
}

std::vector<TempFile> split_records(const TempFile& file, const Ranges& ranges,
                                    const ListPlan& plan) {
  std::vector<TempFile> files = open_files(ranges.count(), plan.tmp_dir);
  const std::size_t words = plan.records.words;
  const std::uint64_t block_records =
      std::max<std::uint64_t>(1, plan.block_bytes / plan.records.bytes());
  Buffer<std::uint32_t> block = Buffer<std::uint32_t>::allocate(block_records * words), sorted;
  const std::uint64_t total = file.size() / plan.records.bytes();
  for (std::uint64_t first = 0; first < total; first += block_records) {
    const std::uint64_t count = std::min(block_records, total - first);
    file.read(block.data(), count * plan.records.bytes(), first * plan.records.bytes());
    spill(count, stored_records(block.data(), words), ranges, plan.records, files, sorted);
  }
  return files;
}

}  // namespace detail::bounded

void build_bounded(const EdgeSource& input, const BuildOptions& options,
                   const BoundedOptions& bounded, const std::filesystem::path& path) {
  using namespace detail::bounded;
  if (options.compact_ids) {
    throw InvalidInput(
        "--compact-ids is not available in a bounded build (give --memory enough "
        "for an in-memory one)");
  }
  const std::filesystem::path tmp_dir = temporary_folder(bounded, path);
  const detail::TempFile probe(tmp_dir);  // a folder that cannot take files fails now
  const std::optional<vid_t> declared = input.declared_vertices();
  Census census;
  if (declared) {
    check_memory(bounded.memory, *declared, bounded.hub_fraction);
    census.degree.assign(std::size_t{*declared} + 1, 0);
  } else {
    census = count_edges(input, options,
                         std::max<std::uint64_t>(1, bounded.memory / kPartEdgeBytes), bounded);
  }
  const vid_t n = census.vertices();
  if (!declared) check_memory(bounded.memory, n, bounded.hub_fraction);
  const std::uint64_t budget = bounded.memory - kVertexBytes * n;
  const bool keep_weights = options.weights.kind == WeightSpec::Kind::from_input &&
                            census.weight_type != WeightType::none;
  const bool random = options.weights.kind == WeightSpec::Kind::random;
  // A range's lists: 4 bytes an edge, 12 more with the input's weights (theirs and the sort's
  // keys); half the budget for them, a quarter for the records read (an eighth for a block, an
  // eighth for it sorted by worker), an eighth for the built lists written (8 bytes an edge,
  // random weights drawn there). Compressing, a list is sorted
  // again with its weights after it is renamed: no list longer than the 16 bytes an edge allow.
  const bool compressing = bounded.lists != StoredLists::raw;
  const ListPlan plan{options,
                      {keep_weights ? 3u : 2u},
                      keep_weights && census.weight_type == WeightType::f32,
                      keep_weights || compressing ? 16u : 4u,
                      budget / 2,
                      budget / 8,
                      std::max<std::uint64_t>(1, budget / 64),
                      bounded.memory,
                      tmp_dir};
  const std::uint64_t part_edges = std::max<std::uint64_t>(1, budget / kPartEdgeBytes);
  const Ranges ranges =
      declared ? even_ranges(n, std::clamp<std::uint64_t>(kUncountedSlack * input.max_edges() *
                                                              plan.edge_bytes / plan.capacity,
                                                          1, kMaxRanges))
               : cut_ranges(census, 0, n, plan);
  std::vector<detail::TempFile> spilled =
      spill_edges(input, options, census, ranges, plan, part_edges, declared.has_value(), bounded);
  const bool symmetric = options.undirected || census.symmetric_input;
  const bool hub_sorted =
      bounded.hub_fraction > 0.0 && hubs_for_fraction(n, bounded.hub_fraction) > 0;
  Buffer<eid_t> in_degree;
  if (hub_sorted && !symmetric) {
    in_degree = Buffer<eid_t>::allocate(n);
    detail::parallel_fill(in_degree.data(), in_degree.size(), eid_t{0});
  }
  const ListFiles lists = build_lists(spilled, ranges, plan, census, in_degree, bounded);
  spilled.clear();
  const Order order = order_vertices(census, in_degree, symmetric, bounded.hub_fraction, bounded);
  const WeightType weight_type = keep_weights ? census.weight_type
                                 : random     ? WeightType::u32
                                              : WeightType::none;
  write_file(path, census, lists, order, weight_type, symmetric, plan, bounded);
}

}  // namespace ooc
