// Pass 3 of a bounded build (bounded_passes.hpp): range by range, the spilled records are gathered
// into the range's lists by a cursor per vertex (pass 1's counts), and each list is then sorted,
// de-duplicated and weighted by the builder's own code (list_build.hpp), so that the order in
// which the threads gathered it does not matter. A range whose lists turn out larger than the
// budget (the ranges of a generated graph are cut before its degrees are known) is split by its
// degrees into ranges that fit, its records spilled again, from the file.
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <atomic>
#include <string>
#include <utility>
#include <vector>

#include "bounded_passes.hpp"
#include "list_build.hpp"
#include "ooc/core/progress.hpp"
#include "parallel.hpp"

namespace ooc::detail::bounded {
namespace {

// The lists of one range, as they are built.
struct RangeLists {
  Buffer<eid_t> end;  // cursor while gathering; then where each vertex's list ends
  Buffer<vid_t> targets;
  Buffer<std::uint32_t> weights;
};

// The buffers of pass 3 that outlive a range: a block of records as read and sorted by owner, a
// window of built lists as written.
struct Workspace {
  Buffer<std::uint32_t> block, sorted;
  Buffer<vid_t> targets;
  Buffer<std::uint32_t> weights;
};

// Gathers a range's spilled records into its lists, reading the file in blocks; each block is
// sorted by owner (parallel.hpp's owners), and each worker then places its own group's records.
RangeLists gather(const TempFile& file, vid_t lo, vid_t hi, const Census& census,
                  const ListPlan& plan, Workspace& work) {
  const Records& records = plan.records;
  RangeLists lists{Buffer<eid_t>::allocate(hi - lo), {}, {}};
  eid_t edges = 0;
  for (vid_t v = lo; v < hi; ++v) {
    lists.end[v - lo] = edges;
    edges += census.degree[v];
  }
  const std::vector<vid_t> bounds = owner_bounds_by_edges(lists.end.data(), lo, hi - lo, edges);
  lists.targets = Buffer<vid_t>::allocate(edges);
  if (records.words == 3) lists.weights = Buffer<std::uint32_t>::allocate(edges);
  const std::uint64_t block_records =
      std::max<std::uint64_t>(1, plan.block_bytes / records.bytes());
  const std::uint64_t total = file.size() / records.bytes();
  const std::size_t block_words = std::min(block_records, total) * records.words;
  std::uint32_t* block = room(work.block, block_words);
  const auto owner_of = [&](vid_t v) {
    return static_cast<std::size_t>(std::upper_bound(bounds.begin(), bounds.end(), v) -
                                    bounds.begin()) -
           1;
  };
  for (std::uint64_t first = 0; first < total; first += block_records) {
    const std::uint64_t count = std::min(block_records, total - first);
    file.read(block, count * records.bytes(), first * records.bytes());
    const std::vector<std::uint64_t> starts =
        sort_records(count, stored_records(block, records.words), bounds.size() - 1, owner_of,
                     records, work.sorted);
    tbb::parallel_for(std::size_t{0}, bounds.size() - 1, [&](std::size_t t) {
      for (std::uint64_t i = starts[t]; i < starts[t + 1]; ++i) {
        const std::uint32_t* record = work.sorted.data() + i * records.words;
        const eid_t at = lists.end[record[0] - lo]++;
        lists.targets[at] = record[1];
        if (records.words == 3) lists.weights[at] = record[2];
      }
    });
  }
  return lists;
}

// Sorts and de-duplicates a gathered range's lists; their new lengths go to census.degree.
void sort_lists(RangeLists& lists, vid_t lo, vid_t hi, const ListPlan& plan, Census& census) {
  std::uint32_t* weights = lists.weights.empty() ? nullptr : lists.weights.data();
  tbb::parallel_for(
      tbb::blocked_range<vid_t>(lo, hi, 256), [&](const tbb::blocked_range<vid_t>& r) {
        std::vector<std::uint64_t> scratch;
        for (vid_t v = r.begin(); v < r.end(); ++v) {
          const eid_t from = v == lo ? 0 : lists.end[v - lo - 1];
          census.degree[v] = sort_and_dedupe_list(
              lists.targets.data() + from, weights == nullptr ? nullptr : weights + from,
              lists.end[v - lo] - from, plan.options.remove_duplicates, plan.is_float, scratch);
        }
      });
}

// The least and greatest of `weights`, not empty.
std::pair<std::uint32_t, std::uint32_t> weight_range(const std::uint32_t* weights,
                                                     std::size_t count) {
  using Range = std::pair<std::uint32_t, std::uint32_t>;
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, count, 1 << 16), Range{UINT32_MAX, 0},
      [&](const tbb::blocked_range<std::size_t>& r, Range range) {
        for (std::size_t i = r.begin(); i < r.end(); ++i)
          range = {std::min(range.first, weights[i]), std::max(range.second, weights[i])};
        return range;
      },
      [](Range a, Range b) {
        return Range{std::min(a.first, b.first), std::max(a.second, b.second)};
      });
}

// Sorts and de-duplicates a gathered range's lists, then appends them to the list files a window
// at a time: the window's lists copied in parallel without what de-duplication dropped, their
// weights drawn (random ones) and their targets' in-degrees counted (when `in_degree` is not
// empty) on the way, and the least and greatest weight kept.
void finish_range(RangeLists& lists, vid_t lo, vid_t hi, const ListPlan& plan, Census& census,
                  Buffer<eid_t>& in_degree, ListFiles& out, Workspace& work) {
  sort_lists(lists, lo, hi, plan, census);
  const WeightSpec& random = plan.options.weights;
  const bool weighted = random.kind == WeightSpec::Kind::random || !lists.weights.empty();
  std::vector<eid_t> at;  // where each list of the window goes in it
  for (vid_t a = lo; a < hi;) {
    at.clear();
    eid_t edges = 0;
    vid_t b = a;
    for (; b < hi && (edges == 0 || edges + census.degree[b] <= plan.window_edges); ++b) {
      at.push_back(edges);
      edges += census.degree[b];
    }
    vid_t* targets = room(work.targets, edges);
    std::uint32_t* weights = weighted ? room(work.weights, edges) : nullptr;
    tbb::parallel_for(
        tbb::blocked_range<vid_t>(a, b, 256), [&](const tbb::blocked_range<vid_t>& r) {
          for (vid_t v = r.begin(); v < r.end(); ++v) {
            const eid_t from = v == lo ? 0 : lists.end[v - lo - 1], to = at[v - a];
            for (eid_t k = 0; k < census.degree[v]; ++k) {
              const vid_t target = lists.targets[from + k];
              targets[to + k] = target;
              if (!lists.weights.empty()) weights[to + k] = lists.weights[from + k];
              if (random.kind == WeightSpec::Kind::random)
                weights[to + k] = random_weight(random, v, target);
              if (!in_degree.empty())
                std::atomic_ref<eid_t>(in_degree[target]).fetch_add(1, std::memory_order_relaxed);
            }
          }
        });
    out.targets.append(targets, edges * sizeof(vid_t));
    if (weighted && edges > 0) {
      out.weights.append(weights, edges * sizeof(std::uint32_t));
      const auto [least, greatest] = weight_range(weights, edges);
      out.weight_min = std::min(out.weight_min, least);
      out.weight_max = std::max(out.weight_max, greatest);
    }
    a = b;
  }
}

// The bytes a range's lists take while they are built.
std::uint64_t range_bytes(const Census& census, vid_t lo, vid_t hi, const ListPlan& plan) {
  std::uint64_t bytes = 0;
  for (vid_t v = lo; v < hi; ++v)
    bytes += census.degree[v] * plan.edge_bytes + sizeof(eid_t);
  return bytes;
}

// Returns the ranges built: more than one when it was split.
std::size_t build_range(TempFile& spilled, vid_t lo, vid_t hi, const ListPlan& plan, Census& census,
                        Buffer<eid_t>& in_degree, ListFiles& out, Workspace& work) {
  if (range_bytes(census, lo, hi, plan) > plan.capacity) {
    const Ranges parts = cut_ranges(census, lo, hi, plan);
    std::vector<TempFile> files = split_records(spilled, parts, plan);
    spilled.discard();
    std::size_t built = 0;
    for (std::size_t r = 0; r < parts.count(); ++r) {
      built += build_range(files[r], parts.bounds[r], parts.bounds[r + 1], plan, census, in_degree,
                           out, work);
    }
    return built;
  }
  RangeLists lists = gather(spilled, lo, hi, census, plan, work);
  spilled.discard();
  finish_range(lists, lo, hi, plan, census, in_degree, out, work);
  return 1;
}

}  // namespace

ListFiles build_lists(std::vector<TempFile>& spilled, const Ranges& ranges, const ListPlan& plan,
                      Census& census, Buffer<eid_t>& in_degree, const BoundedOptions& bounded) {
  Pass pass(bounded, "building lists");
  ListFiles out{TempFile(plan.tmp_dir), TempFile(plan.tmp_dir)};
  std::uint64_t raw = 0;
  for (const TempFile& f : spilled)
    raw += f.size() / plan.records.bytes();
  ProgressStep progress("building lists, range by range", raw);
  std::size_t built = 0;
  Workspace work;
  for (std::size_t r = 0; r < ranges.count(); ++r) {
    const std::uint64_t records = spilled[r].size() / plan.records.bytes();
    built += build_range(spilled[r], ranges.bounds[r], ranges.bounds[r + 1], plan, census,
                         in_degree, out, work);
    progress.advance(records);
  }
  pass.done(out.targets.size() / sizeof(vid_t), "edges",
            "building lists in " + std::to_string(built) + " ranges");
  return out;
}

}  // namespace ooc::detail::bounded
