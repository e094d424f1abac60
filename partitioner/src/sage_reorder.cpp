// SAGE's sampling-based reordering (SIGMOD'21 §6), offline with oneTBB. The rounds work on an
// order (index -> vertex) and its inverse, never on the lists: the graph is relabelled once, at
// the end. Where this departs from the paper, and why (docs/reordering.md has the figures):
//   - A tile is what the warp will read once the graph is written: kTileWidth consecutive
//     targets of a list that keeps its order; a whole list when lists end up sorted, since a
//     list's members in one sector are then neighbours in it and share a tile.
//   - A stage samples each tile with the same probability (a hash of its first edge below a
//     threshold): about `sample` x |E| edges in one parallel pass. The paper reads |E| (1.0).
//   - A vertex keeps kComembers co-member samples (per slot the offer with the smallest hash
//     wins) out of about kOffersPerRound offers, so that a hub met in a million tiles costs
//     what a leaf does. Stage 1 of a round after the first rides on the previous Stage 3's
//     pass over its tiles.
//   - Stage 3 counts what a move changes in the objective, the tiles' distinct sectors: per
//     sampled tile, whether the vertex has a sector-mate now (kept) and whether the target
//     sector holds a member (gained); both on Stage 3's sample, a paired comparison (Stage 2
//     chose the target on Stage 1's sample, which flatters it).
//   - A move is a swap with the vertex of the target sector that keeps least there, made only
//     when the mover gains more than that vertex keeps. Sorting expected indices, as the paper
//     does, shifts every index after an insertion by one and so splits the sectors that earlier
//     rounds had filled; measured here, each round left a Kronecker graph worse than before.
#include "ooc/partitioner/sage_reorder.hpp"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "ooc/core/error.hpp"
#include "ooc/core/progress.hpp"
#include "ooc/partitioner/compress.hpp"
#include "ooc/partitioner/locality.hpp"
#include "parallel.hpp"
#include "random.hpp"
#include "relabel.hpp"

namespace ooc {
namespace {

// Co-member samples per vertex: 8 and 16 found no better order than 4 on Kronecker and grid
// graphs of scale 16 and 18, and each costs 8 bytes per vertex.
constexpr unsigned kComembers = 4;
// Offers a vertex takes a round, about: one met in more sampled tiles takes each offer with the
// odds that leave it this many. Hubs are members of most tiles, and would otherwise make most
// of a pass's random read-modify-writes for samples they mostly throw away.
constexpr double kOffersPerRound = 4.0 * kComembers;
constexpr std::uint64_t kNoSample = ~std::uint64_t{0};

// What a hash of the seed and the round is for: each use draws from its own stream.
enum Use : std::uint64_t { kTiles, kOffers, kUses };

// For the few values of a vertex's samples or of a sector (GCC's std::sort trips
// -Warray-bounds on a small std::array). Indices, not a pointer walked backwards: GCC 12's
// object-size check (UBSan, when optimising) misjudged the space before such a pointer.
template <class T>
void insertion_sort(std::span<T> values) {
  for (std::size_t i = 1; i < values.size(); ++i) {
    for (std::size_t j = i; j > 0 && values[j] < values[j - 1]; --j)
      std::swap(values[j], values[j - 1]);
  }
}

// What a pass over the tiles reads of a member, in one place: its index, the sector Stage 2
// found for it, and the odds that it takes an offer.
struct Place {
  vid_t index;
  vid_t target;        // kNoVertex: none
  std::uint32_t odds;  // takes an offer when 32 bits of its hash are below this
};

// Stage 3's counts of a vertex, kept << 32 | gained, so that one atomic add updates both.
constexpr std::uint64_t kKept = std::uint64_t{1} << 32, kGained = 1;
std::uint32_t kept(std::uint64_t counts) {
  return static_cast<std::uint32_t>(counts >> 32);
}
std::uint32_t gained(std::uint64_t counts) {
  return static_cast<std::uint32_t>(counts);
}

// How many members of a tile each sector holds: a small open-addressing table, sized for the
// tile (sorting each tile instead made a round markedly longer on a Kronecker graph:
// docs/performance-log.md, "Figures moved from code comments").
class SectorCounts {
 public:
  void reset(eid_t members) {
    std::size_t size = 16;
    while (size < 2 * members)
      size *= 2;
    mask_ = size - 1;
    slots_.assign(size, {kNoVertex, 0});
  }
  void add(vid_t sector) {
    auto& slot = slots_[find(sector)];
    slot.first = sector;
    ++slot.second;
  }
  std::uint32_t count(vid_t sector) const { return slots_[find(sector)].second; }

 private:
  std::size_t find(vid_t sector) const {  // its slot, or the empty one where it would go
    std::size_t i = (sector * 0x9e3779b97f4a7c15ull >> 32) & mask_;
    while (slots_[i].first != sector && slots_[i].first != kNoVertex)
      i = (i + 1) & mask_;
    return i;
  }
  std::vector<std::pair<vid_t, std::uint32_t>> slots_;
  std::size_t mask_ = 0;
};

struct Move {
  vid_t sector;  // where the vertex goes
  std::uint32_t gain;
  vid_t vertex;
  bool operator<(const Move& o) const {  // by sector, the largest gain first, then by id
    if (sector != o.sector) return sector < o.sector;
    if (gain != o.gain) return gain > o.gain;
    return vertex < o.vertex;
  }
};

// One reordering's state: the order, each vertex's place, and the stages' statistics.
class Rounds {
 public:
  Rounds(const Graph& g, Buffer<vid_t> order, vid_t hubs, bool whole_lists,
         const SageOptions& options)
      : g_(g),
        n_(g.num_vertices()),
        hubs_(hubs),
        seed_(options.seed),
        whole_lists_(whole_lists),
        all_(options.sample >= 1.0),
        threshold_(all_ ? 0 : static_cast<std::uint64_t>(std::ldexp(options.sample, 64))),
        at_(std::move(order)),
        place_(Buffer<Place>::allocate(n_)),
        counts_(Buffer<std::uint64_t>::allocate(n_)),
        samples_(Buffer<std::uint64_t>::allocate(std::size_t{n_} * kComembers)) {
    const Buffer<eid_t> met = in_degrees(g);  // the tiles a vertex is a member of
    tbb::parallel_for(vid_t{0}, n_, [&](vid_t i) {
      // Sampled tiles meet a vertex about sample x in-degree times a round (none: inf odds).
      const double odds = kOffersPerRound / (options.sample * static_cast<double>(met[at_[i]]));
      place_[at_[i]] = {
          i, kNoVertex,
          odds >= 1.0 ? ~std::uint32_t{0} : static_cast<std::uint32_t>(std::ldexp(odds, 32))};
    });
  }

  // Round 0's Stage 1 has a pass of its own; later ones ride on the previous Stage 3's pass.
  void run(unsigned round, bool last) {
    if (round == 0) {
      detail::parallel_fill(samples_.data(), samples_.size(), kNoSample);
      for_sampled_tiles(key(0, kTiles), [&](const vid_t* members, eid_t count, eid_t e) {
        offer(members, load(members, count), e, key(0, kOffers));
      });
    }
    search();
    measure(round, !last);
    swap();
  }

  Buffer<vid_t> take_order() { return std::move(at_); }

 private:
  std::uint64_t key(unsigned round, Use use) const {
    return detail::hash2(seed_, std::uint64_t{round} * kUses + use);
  }

  // The indices [first, last) that the vertex at `index` may move within: the hubs or the rest.
  std::pair<vid_t, vid_t> range(vid_t index) const {
    return index < hubs_ ? std::pair{vid_t{0}, hubs_} : std::pair{hubs_, n_};
  }

  // visit(targets, count, first edge) for each sampled tile of two or more targets.
  template <class Visit>
  void for_sampled_tiles(std::uint64_t tiles_key, Visit&& visit) const {
    tbb::parallel_for(tbb::blocked_range<vid_t>(0, n_, 512),
                      [&](const tbb::blocked_range<vid_t>& r) {
                        for (vid_t v = r.begin(); v < r.end(); ++v) {
                          const eid_t end = g_.offsets[v + 1];
                          const eid_t width = whole_lists_ ? g_.degree(v) : kTileWidth;
                          for (eid_t e = g_.offsets[v]; e + 1 < end; e += width) {
                            if (!all_ && detail::hash2(tiles_key, e) >= threshold_) continue;
                            visit(g_.targets.data() + e, std::min(width, end - e), e);
                          }
                        }
                      });
  }

  // The places of a tile's members, in a buffer of the calling thread's.
  const std::vector<Place>& load(const vid_t* members, eid_t count) const {
    thread_local std::vector<Place> places;
    places.resize(count);
    for (eid_t i = 0; i < count; ++i)
      places[i] = place_[members[i]];
    return places;
  }

  // Stage 1: each member of a sampled tile, at its odds, takes another member, drawn by hash,
  // into one of its sample slots; per slot the smallest hash wins, whatever the timing.
  void offer(const vid_t* members, const std::vector<Place>& places, eid_t e,
             std::uint64_t offers) {
    const eid_t count = places.size();
    for (eid_t i = 0; i < count; ++i) {
      const std::uint64_t h = detail::hash2(offers, e + i);
      if ((h & 0xffffffff) >= places[i].odds) continue;
      const vid_t m = members[i], w = members[(i + 1 + detail::mix64(h) % (count - 1)) % count];
      if (w == m) continue;  // a repeated edge
      const std::uint64_t offer = (h >> 32) << 32 | w;
      std::atomic_ref<std::uint64_t> slot(samples_[std::size_t{m} * kComembers + h % kComembers]);
      std::uint64_t held = slot.load(std::memory_order_relaxed);
      while (offer < held && !slot.compare_exchange_weak(held, offer, std::memory_order_relaxed)) {
      }
    }
  }

  // Stage 2: per vertex, the sector its co-members point to, by SAGE's binary search over the
  // sectors of its range: the half holding more of them (a tie: the vertex's own half), until
  // one sector is left.
  void search() {
    tbb::parallel_for(vid_t{0}, n_, [&](vid_t v) {
      Place& p = place_[v];
      p.target = kNoVertex;
      const auto [first, last] = range(p.index);
      std::array<vid_t, kComembers> sectors;
      unsigned count = 0;
      for (unsigned k = 0; k < kComembers; ++k) {
        const std::uint64_t s = samples_[std::size_t{v} * kComembers + k];
        if (s == kNoSample) continue;
        const vid_t i = place_[static_cast<vid_t>(s)].index;
        if (i >= first && i < last) sectors[count++] = i / kSectorVertices;
      }
      insertion_sort(std::span(sectors.data(), count));
      const vid_t own = p.index / kSectorVertices;
      vid_t low = first / kSectorVertices, high = (last - 1) / kSectorVertices + 1;
      const vid_t* lo = sectors.data();
      const vid_t* hi = sectors.data() + count;
      while (count > 0 && high - low > 1) {
        const vid_t mid = low + (high - low) / 2;
        const vid_t* split = std::lower_bound(lo, hi, mid);
        const auto left = split - lo, right = hi - split;
        if (left > right || (left == right && own < mid)) {
          high = mid;
          hi = split;
        } else {
          low = mid;
          lo = split;
        }
      }
      if (count > 0 && low != own) p.target = low;
    });
  }

  // Stage 3: on a fresh sample, per vertex, the tiles where it has a sector-mate (kept: moving
  // would not save a sector there) and, with a target, those where the target sector holds a
  // member (gained: moving would not cost one). With `collect`, also the next round's Stage 1.
  void measure(unsigned round, bool collect) {
    detail::parallel_fill(counts_.data(), counts_.size(), std::uint64_t{0});
    if (collect) detail::parallel_fill(samples_.data(), samples_.size(), kNoSample);
    const std::uint64_t offers = key(round + 1, kOffers);
    for_sampled_tiles(key(round + 1, kTiles), [&](const vid_t* members, eid_t count, eid_t e) {
      const std::vector<Place>& places = load(members, count);
      if (collect) offer(members, places, e, offers);
      thread_local SectorCounts in;
      in.reset(count);
      for (const Place& p : places)
        in.add(p.index / kSectorVertices);
      for (eid_t i = 0; i < count; ++i) {
        const Place p = places[i];
        const std::uint64_t add = (in.count(p.index / kSectorVertices) > 1 ? kKept : 0) +
                                  (p.target != kNoVertex && in.count(p.target) > 0 ? kGained : 0);
        if (add != 0)
          std::atomic_ref<std::uint64_t>(counts_[members[i]])
              .fetch_add(add, std::memory_order_relaxed);
      }
    });
  }

  // The moves that gain more than they keep. Per target sector, the largest gains first, each
  // swaps places with the vertex of the sector that keeps least (and is not moving itself),
  // while the gain exceeds what that vertex keeps: its gain at the mover's old place is not
  // known, so counted as none. Every other vertex keeps its index.
  void swap() {
    tbb::enumerable_thread_specific<std::vector<Move>> found;
    tbb::parallel_for(tbb::blocked_range<vid_t>(0, n_), [&](const tbb::blocked_range<vid_t>& r) {
      for (vid_t v = r.begin(); v < r.end(); ++v) {
        Place& p = place_[v];
        if (p.target != kNoVertex && gained(counts_[v]) > kept(counts_[v]))
          found.local().push_back({p.target, gained(counts_[v]) - kept(counts_[v]), v});
        else
          p.target = kNoVertex;
      }
    });
    std::vector<Move> moves;
    for (const std::vector<Move>& part : found)
      moves.insert(moves.end(), part.begin(), part.end());
    tbb::parallel_sort(moves.begin(), moves.end());
    std::vector<std::size_t> runs;  // where each target sector's moves start
    for (std::size_t i = 0; i < moves.size(); ++i) {
      if (i == 0 || moves[i].sector != moves[i - 1].sector) runs.push_back(i);
    }
    runs.push_back(moves.size());
    // The pairs first, reading the order only; then the swaps, which are disjoint (a vertex
    // that moves is never displaced) and so run in parallel.
    std::vector<std::pair<vid_t, vid_t>> pairs(moves.size(), {kNoVertex, kNoVertex});
    tbb::parallel_for(std::size_t{0}, runs.size() - 1, [&](std::size_t k) {
      const Move* run = moves.data() + runs[k];
      const auto [first, last] = range(place_[run->vertex].index);
      std::array<std::pair<std::uint32_t, vid_t>, kSectorVertices> staying;  // (kept, index)
      std::size_t count = 0;
      const vid_t from = std::max(first, run->sector * kSectorVertices);
      const vid_t to = std::min(last, (run->sector + 1) * kSectorVertices);
      for (vid_t i = from; i < to; ++i) {
        if (place_[at_[i]].target == kNoVertex) staying[count++] = {kept(counts_[at_[i]]), i};
      }
      insertion_sort(std::span(staying.data(), count));
      const std::size_t wanting = runs[k + 1] - runs[k];
      for (std::size_t j = 0; j < std::min(wanting, count) && run[j].gain > staying[j].first; ++j)
        pairs[runs[k] + j] = {run[j].vertex, staying[j].second};
    });
    tbb::parallel_for(std::size_t{0}, pairs.size(), [&](std::size_t k) {
      const auto [u, i] = pairs[k];
      if (u == kNoVertex) return;
      const vid_t x = at_[i], old = place_[u].index;
      at_[old] = x;
      place_[x].index = old;
      at_[i] = u;
      place_[u].index = i;
    });
  }

  const Graph& g_;
  vid_t n_, hubs_;
  std::uint64_t seed_;
  bool whole_lists_;         // lists end up sorted: a list's members in one sector share a tile
  bool all_;                 // every tile is sampled
  std::uint64_t threshold_;  // else a tile is sampled when its hash is below this
  Buffer<vid_t> at_;         // index -> vertex
  Buffer<Place> place_;
  Buffer<std::uint64_t> counts_;   // Stage 3: kept << 32 | gained
  Buffer<std::uint64_t> samples_;  // kComembers per vertex: hash << 32 | co-member
};

bool lists_sorted(const Graph& g) {
  return detail::first_bad(g.num_vertices(), [&](std::uint64_t v) {
           const auto list = g.neighbors(static_cast<vid_t>(v));
           return !std::is_sorted(list.begin(), list.end());
         }) == g.num_vertices();
}

}  // namespace

Graph sage_reorder(Graph&& input, const SageOptions& options) {
  Graph g = std::move(input);
  if (!(options.sample > 0.0 && options.sample <= 1.0)) {
    throw InvalidInput("SAGE's sample " + std::to_string(options.sample) +
                       " must be above 0 and at most 1 (the share of tiles each stage reads)");
  }
  const vid_t n = g.num_vertices();
  const vid_t hubs = hubs_for_fraction(n, options.hub_fraction);
  const vid_t bound = hubs > 0 ? hubs : g.hub_count;
  ProgressStep progress("sage reordering", (options.rounds + 2) * g.num_edges() + n);
  Buffer<vid_t> order;
  if (hubs > 0) {
    order = hub_order(g, hubs);
  } else {
    order = Buffer<vid_t>::allocate(n);
    tbb::parallel_for(vid_t{0}, n, [&](vid_t i) { order[i] = i; });
  }
  progress.advance(n);
  const bool sorted = lists_sorted(g), compressed = !g.compressed.empty();
  if (n > 0) {
    Rounds rounds(g, std::move(order), bound, sorted, options);
    for (unsigned r = 0; r < options.rounds; ++r) {
      rounds.run(r, r + 1 == options.rounds);
      progress.advance(g.num_edges());
    }
    order = rounds.take_order();
  }
  Graph out = detail::relabel(g, order.span(), bound, sorted, progress);
  out.sage_ordered = true;
  if (compressed) compress(out);
  return out;
}

}  // namespace ooc
