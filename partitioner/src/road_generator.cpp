// The road-like generator: a planar-like, weighted graph of high diameter in the shape of the 9th
// DIMACS Challenge's road networks (USA: 23.9 M vertices, 57.7 M arcs, a mean degree of 2.4 and
// about 6,000 BFS levels). The vertices lie row by row on a near-square lattice, each jittered
// about its lattice point. Every vertex but 0 links to its neighbour above or to its left, drawn
// at random where it has both: Scheidegger's river-network model (A stochastic model for drainage
// patterns into an intramontane trench, 1967), a spanning tree whose path from vertex 0 to any
// vertex is a monotone staircase, so the graph is connected and the BFS depth from vertex 0 is
// rows + columns - 2, about 2 sqrt(N), the lattice distance. The other of the two links is added
// with the probability that brings the mean degree to 2.5, and a link weighs the Euclidean
// distance between its jittered ends, 100 a lattice step, rounded, at least 1.
// What makes it part-wise (generate_part, the bounded build): a vertex's links depend on its own
// draws alone, and the number of links in each block of 4096 vertices, counted once (a hash per
// vertex), maps an edge index to the vertex that lists it.
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "generator_shape.hpp"
#include "random.hpp"

namespace ooc::detail {
namespace {

constexpr double kMeanDegree = 2.5;       // both directions (USA-road-d: 57.7 M / 23.9 M = 2.41)
constexpr double kJitter = 0.3;           // the farthest a vertex lies from its lattice point
constexpr double kWeightPerStep = 100.0;  // a link between undisturbed neighbours weighs this
constexpr std::uint64_t kBlock = 4096;    // vertices a block, of which the link counts are kept
constexpr std::uint64_t kLinkSalt = 0x6c696e6bull;   // "link": which links a vertex lists
constexpr std::uint64_t kPointSalt = 0x706f696eull;  // "poin": where a vertex lies

// The vertices' places, ceil(sqrt(N)) columns wide, row by row (the last row partial), and each
// vertex's draws: which links it lists and where its point lies.
class Lattice {
 public:
  Lattice(vid_t vertices, std::uint64_t seed) : n_(vertices), seed_(seed) {
    cols_ = std::max<std::uint64_t>(
        1, static_cast<std::uint64_t>(std::sqrt(static_cast<double>(vertices))));
    while (cols_ * cols_ < n_)  // the square root, rounded up
      ++cols_;
    const std::uint64_t rows = (std::uint64_t{n_} + cols_ - 1) / cols_;
    // Vertices that may list both links: below the first row, right of the first column.
    const std::uint64_t both = n_ > cols_ ? n_ - cols_ - (rows - 1) : 0;
    const double links = std::round(kMeanDegree / 2 * static_cast<double>(n_));
    const double extra = std::max(0.0, links - static_cast<double>(n_ > 0 ? n_ - 1 : 0u));
    const double p = both > 0 ? std::min(1.0, extra / static_cast<double>(both)) : 0.0;
    extra_below_ = static_cast<std::uint64_t>(p * 4294967296.0);
  }

  vid_t vertices() const noexcept { return n_; }
  std::uint64_t cols() const noexcept { return cols_; }

  // The links vertex v lists, to v - cols (up) and to v - 1 (left): its tree link and, at
  // random, the other one.
  struct Links {
    bool up = false, left = false;
  };
  Links links(vid_t v) const noexcept {
    const bool has_up = v >= cols_, has_left = v % cols_ != 0;
    if (!has_up || !has_left) return {has_up, has_left};
    const std::uint64_t r = hash2(seed_ ^ kLinkSalt, v);
    const bool tree_up = (r >> 63) != 0;
    const bool extra = (r & 0xffffffffu) < extra_below_;
    return {tree_up || extra, !tree_up || extra};
  }
  unsigned count(vid_t v) const noexcept {
    const Links l = links(v);
    return unsigned{l.up} + unsigned{l.left};
  }

  // The Euclidean distance between u's and v's jittered points, in weight units.
  std::uint32_t weight(vid_t u, vid_t v) const noexcept {
    const auto [ux, uy] = point(u);
    const auto [vx, vy] = point(v);
    const double dx = ux - vx, dy = uy - vy;
    const double w = std::round(std::sqrt(dx * dx + dy * dy) * kWeightPerStep);
    return static_cast<std::uint32_t>(std::max(1.0, w));
  }

 private:
  struct Point {
    double x, y;
  };
  Point point(vid_t v) const noexcept {
    const std::uint64_t r = hash2(seed_ ^ kPointSalt, v);
    const auto offset = [](std::uint64_t bits) {  // uniform in [-kJitter, kJitter)
      return kJitter * (static_cast<double>(bits & 0xffffffffu) * 0x1p-31 - 1.0);
    };
    return {static_cast<double>(v % cols_) + offset(r),
            static_cast<double>(v / cols_) + offset(r >> 32)};
  }

  vid_t n_;
  std::uint64_t seed_;
  std::uint64_t cols_ = 1;
  std::uint64_t extra_below_ = 0;  // a vertex lists its extra link when its draw is below this
};

// starts[b]: the links listed by the vertices before block b; starts.back(): all of them.
std::vector<std::uint64_t> block_starts(const Lattice& lattice) {
  const std::uint64_t n = lattice.vertices();
  std::vector<std::uint64_t> starts((n + kBlock - 1) / kBlock + 1, 0);
  tbb::parallel_for(std::uint64_t{0}, starts.size() - 1, [&](std::uint64_t b) {
    std::uint64_t links = 0;
    for (std::uint64_t v = b * kBlock; v < std::min(n, (b + 1) * kBlock); ++v)
      links += lattice.count(static_cast<vid_t>(v));
    starts[b + 1] = links;
  });
  for (std::size_t b = 1; b < starts.size(); ++b)
    starts[b] += starts[b - 1];
  return starts;
}

}  // namespace

Shape road(vid_t vertices, std::uint64_t seed) {
  const Lattice lattice(vertices, seed);
  auto starts = std::make_shared<const std::vector<std::uint64_t>>(block_starts(lattice));
  Shape shape{
      "generating a road network", starts->back(), vertices, true,
      [lattice, starts](std::uint64_t first, std::uint64_t last, vid_t* src, vid_t* dst,
                        std::uint32_t* weight) {
        // From the start of the block that lists edge `first`, counting links.
        const auto block = std::upper_bound(starts->begin(), starts->end(), first) - 1;
        std::uint64_t i = *block;
        auto v = static_cast<vid_t>(static_cast<std::uint64_t>(block - starts->begin()) * kBlock);
        const auto put = [&](vid_t u) {
          if (i >= first) {
            src[i - first] = u;
            dst[i - first] = v;
            weight[i - first] = lattice.weight(u, v);
          }
          ++i;
        };
        // put() advances i: a while loop, which clang's -Wfor-loop-analysis does not misread.
        while (i < last) {
          const Lattice::Links links = lattice.links(v);
          if (links.up) put(static_cast<vid_t>(v - lattice.cols()));
          if (links.left && i < last) put(v - 1);
          ++v;
        }
      }};
  shape.weighted = true;
  return shape;
}

}  // namespace ooc::detail
