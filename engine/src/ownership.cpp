#include "ooc/engine/ownership.hpp"

#include <algorithm>
#include <functional>
#include <queue>
#include <string>

#include "ooc/core/error.hpp"

namespace ooc {
namespace {

void check_ranks(std::uint32_t ranks) {
  if (ranks == 0) throw InvalidInput("the number of ranks must be at least 1 (got 0)");
}

void check_sizes(std::span<const Partition> partitions, std::span<const std::uint32_t> owner) {
  if (owner.size() != partitions.size()) {
    throw InvalidInput("partition owners: " + std::to_string(owner.size()) + " owners for " +
                       std::to_string(partitions.size()) + " partitions");
  }
}

void check_owners(std::span<const Partition> partitions, std::span<const std::uint32_t> owner,
                  std::uint32_t ranks) {
  check_ranks(ranks);
  check_sizes(partitions, owner);
  for (std::size_t p = 0; p < owner.size(); ++p) {
    if (owner[p] >= ranks) {
      throw InvalidInput("partition " + std::to_string(p) + " is owned by rank " +
                         std::to_string(owner[p]) + ", but there are only " +
                         std::to_string(ranks) + " ranks");
    }
  }
}

}  // namespace

std::vector<std::uint32_t> assign_partitions(std::span<const Partition> partitions, vid_t hub_count,
                                             std::uint32_t ranks, std::uint32_t group) {
  check_ranks(ranks);
  if (group == 0) throw InvalidInput("a group of hub partitions must hold at least one (got 0)");
  std::vector<std::uint32_t> owner(partitions.size(), 0);
  std::vector<eid_t> load(ranks, 0);
  std::vector<std::size_t> rest;
  // Runs of `group` neighbouring hub partitions: (first partition, end, edges).
  struct Run {
    std::size_t first, end;
    eid_t edges;
  };
  std::vector<Run> hubs;
  eid_t total = 0;
  for (std::size_t p = 0; p < partitions.size(); ++p) {
    total += partitions[p].num_edges();
    if (partitions[p].first_vertex >= hub_count) {
      rest.push_back(p);
    } else if (!hubs.empty() && hubs.back().end == p && p - hubs.back().first < group) {
      hubs.back().end = p + 1;
      hubs.back().edges += partitions[p].num_edges();
    } else {
      hubs.push_back({p, p + 1, partitions[p].num_edges()});
    }
  }

  // Hubs: largest run first, each to the least loaded rank (LPT scheduling), so every rank gets
  // its part of the hot lists, in runs that one filter task can copy together. Stable sort and
  // (load, rank) order break ties the same way every time.
  std::stable_sort(hubs.begin(), hubs.end(),
                   [](const Run& a, const Run& b) { return a.edges > b.edges; });
  using Slot = std::pair<eid_t, std::uint32_t>;  // (load, rank)
  std::priority_queue<Slot, std::vector<Slot>, std::greater<>> least;
  for (std::uint32_t r = 0; r < ranks; ++r)
    least.push({0, r});
  for (const Run& run : hubs) {
    const std::uint32_t r = least.top().second;
    least.pop();
    for (std::size_t p = run.first; p < run.end; ++p)
      owner[p] = r;
    load[r] += run.edges;
    least.push({load[r], r});
  }

  // The rest in contiguous runs, so that a rank reads few, long ranges of the file. The share is
  // rounded up: ranks filled to at least it leave the last no more than it, and a rank overshoots
  // it by less than one partition, so no rank exceeds the share plus the largest partition.
  const eid_t share = total / ranks + (total % ranks != 0);
  const auto with_room = [&](std::uint32_t r) {
    while (r < ranks && load[r] >= share)
      ++r;
    return r;
  };
  std::uint32_t r = std::min(with_room(0), ranks - 1);
  for (const std::size_t p : rest) {
    owner[p] = r;
    load[r] += partitions[p].num_edges();
    if (load[r] < share) continue;
    // Every rank before the next with room is full; with none left, what remains has no edges.
    if (const std::uint32_t next = with_room(r + 1); next < ranks) r = next;
  }
  return owner;
}

std::vector<std::pair<vid_t, vid_t>> owned_vertex_ranges(std::span<const Partition> partitions,
                                                         std::span<const std::uint32_t> owner,
                                                         std::uint32_t rank) {
  check_sizes(partitions, owner);
  std::vector<std::pair<vid_t, vid_t>> ranges;
  for (std::size_t p = 0; p < partitions.size(); ++p) {
    const Partition& part = partitions[p];
    if (owner[p] == rank) append_range(ranges, part.first_vertex, part.last_vertex);
  }
  return ranges;
}

double edge_imbalance(std::span<const Partition> partitions, std::span<const std::uint32_t> owner,
                      std::uint32_t ranks) {
  check_owners(partitions, owner, ranks);
  std::vector<eid_t> load(ranks, 0);
  eid_t total = 0;
  for (std::size_t p = 0; p < partitions.size(); ++p) {
    load[owner[p]] += partitions[p].num_edges();
    total += partitions[p].num_edges();
  }
  if (total == 0) return 1.0;
  const double mean = static_cast<double>(total) / ranks;
  return static_cast<double>(*std::max_element(load.begin(), load.end())) / mean;
}

OwnedLayout owned_layout(std::span<const Partition> partitions,
                         std::span<const std::uint32_t> owner, std::uint32_t ranks) {
  check_owners(partitions, owner, ranks);
  std::vector<std::uint64_t> count(ranks, 0);
  for (std::size_t p = 0; p < partitions.size(); ++p)
    count[owner[p]] += partitions[p].last_vertex - partitions[p].first_vertex;
  OwnedLayout layout;
  layout.block = count.empty() ? 0 : *std::max_element(count.begin(), count.end());
  std::vector<std::uint64_t> next(ranks);  // each rank's next free slot
  for (std::uint32_t r = 0; r < ranks; ++r)
    next[r] = layout.block * r;
  for (std::size_t p = 0; p < partitions.size(); ++p) {
    const std::uint32_t r = owner[p];
    for (vid_t v = partitions[p].first_vertex; v < partitions[p].last_vertex;) {
      const vid_t n = std::min(kLayoutPieceVertices, partitions[p].last_vertex - v);
      layout.pieces.push_back({v, n, r, next[r]});
      next[r] += n;
      v += n;
    }
  }
  return layout;
}

}  // namespace ooc
