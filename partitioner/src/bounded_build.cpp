// The bounded build (bounded_build.hpp): in-memory build_graph, hub_sort and write_oocg, redone
// as passes whose memory is the vertex arrays and a share of the budget at a time.
//   1 count   read the input; count each vertex's edges (both directions when symmetrising)
//   2 spill   read it again; append each edge to the temporary file of its source's range, the
//             ranges cut so that each one's lists fit the budget (a distribution sort)
//   3 build   range by range: gather the range's lists, sort and de-duplicate them and draw their
//             weights as build_graph does (list_build.hpp), append them to one list file
//   4 order   hub sort's order from the degrees (hub_order)
//   5 write   the sections in order (oocg_stream.hpp), the lists read back in the new order
// Passes 4 and 5 are in bounded_write.cpp.
// The lists' order inside a range is whatever the threads made, but sorting makes it the
// builder's; hub sort keeps each list's order, so the output is build_graph's, byte for byte.
#include "ooc/partitioner/bounded_build.hpp"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cstring>
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
namespace {

using detail::TempFile;
using detail::bounded::Census;
using detail::bounded::ListFiles;
using detail::bounded::Order;
using detail::bounded::Pass;

// Bytes a vertex holds through the build (its degree, then offset; its in-degree), and at hub
// order's peak (those, scores, orders and the new ids).
constexpr std::uint64_t kVertexBytes = 16;
constexpr std::uint64_t kHubOrderVertexBytes = 48;
// Bytes per input edge of a part in passes 1 and 2: the part (up to 12, 4 more of text, the
// parser's copy) and its records sorted by range (up to 24).
constexpr std::uint64_t kPartEdgeBytes = 64;
constexpr std::uint64_t kMinEdgeBudget = std::uint64_t{256} << 10;
constexpr std::size_t kMaxRanges = 512;  // temporary files open at once, under the usual 1024

// Calls emit(from, to, i) for every edge of the part that the plan keeps, in both directions
// when it asks, for edges [begin, end).
template <class Emit>
void kept_edges(const EdgeList& part, const detail::EdgePlan& plan, std::uint64_t begin,
                std::uint64_t end, Emit&& emit) {
  for (std::uint64_t i = begin; i < end; ++i) {
    const vid_t u = part.sources[i], v = part.targets[i];
    if (!detail::kept(plan, u, v)) continue;
    emit(u, v, i);
    if (plan.both_directions && u != v) emit(v, u, i);
  }
}

detail::EdgePlan plan_of(const BuildOptions& options, const EdgeList& part, bool weighted) {
  return detail::edge_plan(options, part.symmetric_input, weighted);
}

WeightType wider(WeightType a, WeightType b) {
  if (a == WeightType::f32 || b == WeightType::f32) return WeightType::f32;
  return a == WeightType::none ? b : a;
}

Census count_edges(const EdgeSource& input, const BuildOptions& options, std::uint64_t part_edges,
                   const BoundedOptions& bounded) {
  const Pass pass(bounded, "counting edges");
  Census census;
  census.degree.assign(1, 0);
  ProgressStep progress("counting edges", input.max_edges());
  input.read(part_edges, {}, [&](EdgeList&& part) {
    census.weight_type = wider(census.weight_type, part.weight_type);
    census.symmetric_input = part.symmetric_input;
    census.input_edges += part.size();
    if (std::size_t{part.num_vertices} + 1 > census.degree.size()) {
      census.degree.reserve(std::max(std::size_t{part.num_vertices} + 1,
                                     census.degree.size() + census.degree.size() / 2));
      census.degree.resize(std::size_t{part.num_vertices} + 1, 0);
    }
    const detail::EdgePlan plan = plan_of(options, part, false);
    eid_t* degree = census.degree.data();
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, part.size(), 1 << 16),
                      [&](const tbb::blocked_range<std::uint64_t>& r) {
                        kept_edges(part, plan, r.begin(), r.end(), [&](vid_t u, vid_t, auto) {
                          std::atomic_ref<eid_t>(degree[u]).fetch_add(1, std::memory_order_relaxed);
                        });
                      });
    progress.advance(part.size());
  });
  census.degree.shrink_to_fit();
  pass.done(census.input_edges, "input edges");
  return census;
}

// The ranges of source vertices whose lists are built at once: bounds[r] .. bounds[r + 1].
struct Ranges {
  std::vector<vid_t> bounds;
  std::size_t count() const noexcept { return bounds.size() - 1; }
  std::size_t of(vid_t v) const noexcept {
    return static_cast<std::size_t>(std::upper_bound(bounds.begin(), bounds.end(), v) -
                                    bounds.begin()) -
           1;
  }
};

// Greedy cut: a range takes vertices while its lists (and a cursor per vertex) fit `capacity`.
Ranges cut_ranges(const Census& census, std::uint64_t edge_bytes, std::uint64_t capacity,
                  std::uint64_t memory) {
  Ranges ranges{{0}};
  std::uint64_t used = 0;
  const vid_t n = census.vertices();
  for (vid_t v = 0; v < n; ++v) {
    const std::uint64_t cost = census.degree[v] * edge_bytes + sizeof(eid_t);
    if (cost > capacity) {
      throw InvalidInput("vertex " + std::to_string(v) + " has " +
                         std::to_string(census.degree[v]) + " edges, more than --memory " +
                         format_bytes(memory) + " lets a build hold at once (give it more)");
    }
    if (used + cost > capacity) {
      ranges.bounds.push_back(v);
      used = 0;
    }
    used += cost;
  }
  ranges.bounds.push_back(n);
  if (ranges.count() > kMaxRanges) {
    throw InvalidInput("--memory " + format_bytes(memory) + " would cut the graph into " +
                       std::to_string(ranges.count()) + " ranges, more than " +
                       std::to_string(kMaxRanges) + " (give it more)");
  }
  return ranges;
}

// Records of spilled edges: source, target and, when the input's weights are kept, the weight.
struct Records {
  std::size_t words;  // 32-bit words a record
  std::uint64_t bytes() const noexcept { return words * sizeof(std::uint32_t); }
};

// Pass 2 for one part: its records sorted by range (counting sort over pieces of the part, so
// that each piece writes its own slots), then each range's run appended to its file.
void spill_part(const EdgeList& part, const detail::EdgePlan& plan, const Ranges& ranges,
                const Records& records, std::vector<TempFile>& files,
                std::vector<std::uint32_t>& sorted) {
  if (part.size() == 0) return;
  const std::size_t r_count = ranges.count();
  const std::uint64_t piece_edges = 1 << 16;
  const std::size_t pieces =
      static_cast<std::size_t>((part.size() + piece_edges - 1) / piece_edges);
  std::vector<std::uint64_t> at(pieces * r_count + 1, 0);  // range-major: [range][piece]
  const auto piece_range = [&](std::size_t p) {
    return std::pair{p * piece_edges, std::min(part.size(), (p + 1) * piece_edges)};
  };
  tbb::parallel_for(std::size_t{0}, pieces, [&](std::size_t p) {
    const auto [begin, end] = piece_range(p);
    kept_edges(part, plan, begin, end,
               [&](vid_t u, vid_t, auto) { ++at[ranges.of(u) * pieces + p]; });
  });
  const std::uint64_t total = detail::exclusive_scan(at.data(), at.size());
  sorted.resize(total * records.words);
  tbb::parallel_for(std::size_t{0}, pieces, [&](std::size_t p) {
    const auto [begin, end] = piece_range(p);
    kept_edges(part, plan, begin, end, [&](vid_t u, vid_t v, std::uint64_t i) {
      std::uint32_t* record = sorted.data() + at[ranges.of(u) * pieces + p]++ * records.words;
      record[0] = u;
      record[1] = v;
      if (records.words == 3) record[2] = part.weights[i];
    });
  });
  // After the scatter, at[r * pieces + p] is where slot (r, p + 1) starts: range r ends at
  // at[r * pieces + pieces - 1].
  tbb::parallel_for(std::size_t{0}, r_count, [&](std::size_t r) {
    const std::uint64_t begin = r == 0 ? 0 : at[r * pieces - 1];
    const std::uint64_t end = at[(r + 1) * pieces - 1];
    files[r].append(sorted.data() + begin * records.words, (end - begin) * records.bytes());
  });
}

std::vector<TempFile> spill_edges(const EdgeSource& input, const BuildOptions& options,
                                  const Census& census, const Ranges& ranges,
                                  const Records& records, std::uint64_t part_edges,
                                  const std::filesystem::path& tmp_dir,
                                  const BoundedOptions& bounded) {
  const Pass pass(bounded, "spilling edges into " + std::to_string(ranges.count()) + " ranges");
  std::vector<TempFile> files;
  files.reserve(ranges.count());
  for (std::size_t r = 0; r < ranges.count(); ++r)
    files.emplace_back(tmp_dir);
  ReadOptions read;
  read.force_weight_type =
      census.weight_type == WeightType::f32 ? WeightType::f32 : WeightType::none;
  ProgressStep progress("spilling edges", census.input_edges);
  std::vector<std::uint32_t> sorted;
  std::uint64_t spilled = 0;
  input.read(part_edges, read, [&](EdgeList&& part) {
    spill_part(part, plan_of(options, part, census.weight_type != WeightType::none), ranges,
               records, files, sorted);
    progress.advance(part.size());
  });
  for (const TempFile& f : files)
    spilled += f.size() / records.bytes();
  pass.done(spilled, "edges");
  return files;
}

// The lists of one range, as they are built.
struct RangeLists {
  Buffer<eid_t> end;  // cursor while gathering; then where each vertex's list ends
  Buffer<vid_t> targets;
  Buffer<std::uint32_t> weights;
};

// Gathers a range's spilled records into its lists, reading the file in blocks.
RangeLists gather(const TempFile& file, vid_t lo, vid_t hi, const Census& census,
                  const Records& records, std::uint64_t block_bytes) {
  RangeLists lists{Buffer<eid_t>::allocate(hi - lo), {}, {}};
  eid_t edges = 0;
  for (vid_t v = lo; v < hi; ++v) {
    lists.end[v - lo] = edges;
    edges += census.degree[v];
  }
  lists.targets = Buffer<vid_t>::allocate(edges);
  if (records.words == 3) lists.weights = Buffer<std::uint32_t>::allocate(edges);
  const std::uint64_t block_records = std::max<std::uint64_t>(1, block_bytes / records.bytes());
  std::vector<std::uint32_t> block(block_records * records.words);
  const std::uint64_t total = file.size() / records.bytes();
  for (std::uint64_t first = 0; first < total; first += block_records) {
    const std::uint64_t count = std::min(block_records, total - first);
    file.read(block.data(), count * records.bytes(), first * records.bytes());
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, count, 1 << 14),
                      [&](const tbb::blocked_range<std::uint64_t>& r) {
                        for (std::uint64_t i = r.begin(); i < r.end(); ++i) {
                          const std::uint32_t* record = block.data() + i * records.words;
                          const eid_t at = std::atomic_ref<eid_t>(lists.end[record[0] - lo])
                                               .fetch_add(1, std::memory_order_relaxed);
                          lists.targets[at] = record[1];
                          if (records.words == 3) lists.weights[at] = record[2];
                        }
                      });
  }
  return lists;
}

// Sorts and de-duplicates a gathered range's lists, draws their weights, appends them to the
// list files and leaves their degrees in census.degree (and their targets' in `in_degree`).
void finish_range(RangeLists& lists, vid_t lo, vid_t hi, const BuildOptions& options, bool is_float,
                  Census& census, Buffer<eid_t>& in_degree, ListFiles& out) {
  std::uint32_t* weights = lists.weights.empty() ? nullptr : lists.weights.data();
  const auto start = [&](vid_t v) { return v == lo ? eid_t{0} : lists.end[v - lo - 1]; };
  tbb::parallel_for(
      tbb::blocked_range<vid_t>(lo, hi, 256), [&](const tbb::blocked_range<vid_t>& r) {
        std::vector<std::uint64_t> scratch;
        for (vid_t v = r.begin(); v < r.end(); ++v) {
          const eid_t from = start(v);
          census.degree[v] = detail::sort_and_dedupe_list(
              lists.targets.data() + from, weights == nullptr ? nullptr : weights + from,
              lists.end[v - lo] - from, options.remove_duplicates, is_float, scratch);
        }
      });
  eid_t kept = 0, from = 0;  // lists moved down over what de-duplication dropped
  for (vid_t v = lo; v < hi; ++v) {
    const eid_t raw_end = lists.end[v - lo], length = census.degree[v];
    if (from != kept) {
      std::memmove(lists.targets.data() + kept, lists.targets.data() + from, length * 4);
      if (weights != nullptr) std::memmove(weights + kept, weights + from, length * 4);
    }
    kept += length;
    lists.end[v - lo] = kept;
    from = raw_end;
  }
  if (options.weights.kind == WeightSpec::Kind::random) {
    lists.weights = Buffer<std::uint32_t>::allocate(kept);
    tbb::parallel_for(vid_t{lo}, hi, [&](vid_t v) {
      for (eid_t e = lists.end[v - lo] - census.degree[v]; e < lists.end[v - lo]; ++e) {
        lists.weights[e] = detail::random_weight(options.weights, v, lists.targets[e]);
      }
    });
  }
  if (!in_degree.empty()) {
    tbb::parallel_for(tbb::blocked_range<eid_t>(0, kept, 1 << 16),
                      [&](const tbb::blocked_range<eid_t>& r) {
                        for (eid_t e = r.begin(); e < r.end(); ++e) {
                          std::atomic_ref<eid_t>(in_degree[lists.targets[e]])
                              .fetch_add(1, std::memory_order_relaxed);
                        }
                      });
  }
  out.targets.append(lists.targets.data(), kept * sizeof(vid_t));
  if (!lists.weights.empty()) out.weights.append(lists.weights.data(), kept * 4);
}

// Pass 3. Returns the list files; census.degree then holds the built degrees.
ListFiles build_lists(std::vector<TempFile>& spilled, const Ranges& ranges,
                      const BuildOptions& options, const Records& records, bool is_float,
                      Census& census, Buffer<eid_t>& in_degree, std::uint64_t block_bytes,
                      const std::filesystem::path& tmp_dir, const BoundedOptions& bounded) {
  const Pass pass(bounded, "building lists");
  ListFiles out{TempFile(tmp_dir), TempFile(tmp_dir)};
  std::uint64_t raw = 0;
  for (const TempFile& f : spilled)
    raw += f.size() / records.bytes();
  ProgressStep progress("building lists, range by range", raw);
  for (std::size_t r = 0; r < ranges.count(); ++r) {
    const vid_t lo = ranges.bounds[r], hi = ranges.bounds[r + 1];
    RangeLists lists = gather(spilled[r], lo, hi, census, records, block_bytes);
    progress.advance(spilled[r].size() / records.bytes());
    spilled[r].discard();
    finish_range(lists, lo, hi, options, is_float, census, in_degree, out);
  }
  pass.done(out.targets.size() / sizeof(vid_t), "edges");
  return out;
}

std::filesystem::path temporary_folder(const BoundedOptions& bounded,
                                       const std::filesystem::path& path) {
  if (!bounded.tmp_dir.empty()) return bounded.tmp_dir;
  return path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
}

}  // namespace

void build_bounded(const EdgeSource& input, const BuildOptions& options,
                   const BoundedOptions& bounded, const std::filesystem::path& path) {
  if (options.compact_ids) {
    throw InvalidInput(
        "--compact-ids is not available in a bounded build (give --memory enough "
        "for an in-memory one)");
  }
  const std::filesystem::path tmp_dir = temporary_folder(bounded, path);
  const TempFile probe(tmp_dir);  // a folder that cannot take files fails now, not after pass 1
  const std::uint64_t first_parts = std::max<std::uint64_t>(1, bounded.memory / kPartEdgeBytes);
  Census census = count_edges(input, options, first_parts, bounded);
  const vid_t n = census.vertices();
  const bool hub_sorted =
      bounded.hub_fraction > 0.0 && hubs_for_fraction(n, bounded.hub_fraction) > 0;
  const std::uint64_t vertex_bytes = (hub_sorted ? kHubOrderVertexBytes : kVertexBytes) * n;
  if (bounded.memory < vertex_bytes + kMinEdgeBudget) {
    throw InvalidInput("--memory " + format_bytes(bounded.memory) + " is too small for " +
                       std::to_string(n) + " vertices: a bounded build needs at least " +
                       format_bytes(vertex_bytes + kMinEdgeBudget));
  }
  const std::uint64_t budget = bounded.memory - kVertexBytes * n;
  const bool keep_weights = options.weights.kind == WeightSpec::Kind::from_input &&
                            census.weight_type != WeightType::none;
  const bool weighted = keep_weights || options.weights.kind == WeightSpec::Kind::random;
  const Records records{keep_weights ? 3u : 2u};
  // A range's lists: 4 bytes an edge; 12 more with the input's weights (theirs and the sort's
  // keys), 4 more with random ones.
  const std::uint64_t edge_bytes =
      4 + (keep_weights ? 12 : 0) + (options.weights.kind == WeightSpec::Kind::random ? 4 : 0);
  const Ranges ranges = cut_ranges(census, edge_bytes, budget / 2, bounded.memory);
  const std::uint64_t part_edges = std::max<std::uint64_t>(1, budget / kPartEdgeBytes);
  std::vector<TempFile> spilled =
      spill_edges(input, options, census, ranges, records, part_edges, tmp_dir, bounded);
  const bool symmetric = options.undirected || census.symmetric_input;
  Buffer<eid_t> in_degree;
  if (hub_sorted && !symmetric) {
    in_degree = Buffer<eid_t>::allocate(n);
    detail::parallel_fill(in_degree.data(), in_degree.size(), eid_t{0});
  }
  const ListFiles lists = build_lists(spilled, ranges, options, records,
                                      keep_weights && census.weight_type == WeightType::f32, census,
                                      in_degree, budget / 4, tmp_dir, bounded);
  spilled.clear();
  const Order order =
      detail::bounded::order_vertices(census, in_degree, symmetric, bounded.hub_fraction, bounded);
  const WeightType weight_type = keep_weights ? census.weight_type
                                 : weighted   ? WeightType::u32
                                              : WeightType::none;
  detail::bounded::write_file(path, census, lists, order, weight_type, symmetric, budget / 8,
                              bounded);
}

}  // namespace ooc
