// Synthetic graph generators. Kronecker follows the Graph500 reference generator (two uniform
// draws per level, then a random relabelling of the vertices); uniform random is GAP's urand; the
// road-like graph has a file of its own (road_generator.cpp). Every edge i draws from its own
// counter-based stream keyed by (seed, i), so the output is the same for a seed whatever the
// thread count.
#include "ooc/partitioner/generators.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <string>

#include "generator_shape.hpp"
#include "ooc/core/error.hpp"
#include "ooc/core/progress.hpp"
#include "random.hpp"

namespace ooc {
namespace {

// Graph500 initiator probabilities (Graph500 specification, "Kronecker generator").
constexpr double kA = 0.57, kB = 0.19, kC = 0.19;
constexpr std::uint64_t kChunk = std::uint64_t{1} << 20;

void check_scale(unsigned scale, unsigned edge_factor) {
  if (scale < 1 || scale > 31) {
    throw InvalidInput("scale " + std::to_string(scale) +
                       " is out of range: vertex ids are 32-bit, so 1 <= scale <= 31");
  }
  if (edge_factor < 1) throw InvalidInput("edge factor must be at least 1");
}

constexpr std::uint32_t threshold(double p) {
  return static_cast<std::uint32_t>(p * 4294967296.0);
}

using detail::Shape;

Shape kronecker(unsigned scale, unsigned edge_factor, std::uint64_t seed) {
  check_scale(scale, edge_factor);
  // Level bits as the reference draws them: the i-bit is set with probability C+D; the j-bit
  // with probability D/(C+D) when the i-bit is set and B/(A+B) when it is not.
  const std::uint32_t ab = threshold(kA + kB);
  const std::uint32_t c_norm = threshold(kC / (1.0 - (kA + kB)));
  const std::uint32_t a_norm = threshold(kA / (kA + kB));
  const detail::BitPermutation relabel(scale, detail::hash2(seed, 0x6b726f6eull));
  return {"generating Kronecker edges", std::uint64_t{edge_factor} << scale, vid_t{1} << scale,
          false,
          [=](std::uint64_t first, std::uint64_t last, vid_t* src, vid_t* dst, std::uint32_t*) {
            for (std::uint64_t i = first; i < last; ++i) {
              detail::Stream stream(seed, i);
              std::uint64_t u = 0, v = 0;
              for (unsigned level = 0; level < scale; ++level) {
                const std::uint64_t r = stream.next();
                const auto r1 = static_cast<std::uint32_t>(r);
                const auto r2 = static_cast<std::uint32_t>(r >> 32);
                const bool i_bit = r1 >= ab;
                const bool j_bit = r2 >= (i_bit ? c_norm : a_norm);
                u |= std::uint64_t{i_bit} << level;
                v |= std::uint64_t{j_bit} << level;
              }
              src[i - first] = static_cast<vid_t>(relabel(u));
              dst[i - first] = static_cast<vid_t>(relabel(v));
            }
          }};
}

Shape uniform(unsigned scale, unsigned edge_factor, std::uint64_t seed) {
  check_scale(scale, edge_factor);
  const std::uint64_t mask = (std::uint64_t{1} << scale) - 1;
  return {"generating uniform random edges", std::uint64_t{edge_factor} << scale, vid_t{1} << scale,
          false,
          [=](std::uint64_t first, std::uint64_t last, vid_t* src, vid_t* dst, std::uint32_t*) {
            for (std::uint64_t i = first; i < last; ++i) {
              const std::uint64_t r = detail::hash2(seed, i);
              src[i - first] = static_cast<vid_t>(r & mask);
              dst[i - first] = static_cast<vid_t>((r >> 32) & mask);
            }
          }};
}

Shape grid(std::uint32_t rows, std::uint32_t cols) {
  const std::uint64_t vertices = std::uint64_t{rows} * cols;
  if (rows == 0 || cols == 0 || vertices > kMaxVertexId) {
    throw InvalidInput("grid " + std::to_string(rows) + "x" + std::to_string(cols) +
                       " must have between 1 and 2^32-2 vertices");
  }
  // Horizontal links first (rows * (cols-1)), then vertical ones ((rows-1) * cols).
  const std::uint64_t horizontal = std::uint64_t{rows} * (cols - 1);
  return {"generating grid edges", horizontal + std::uint64_t{rows - 1} * cols,
          static_cast<vid_t>(vertices), true,
          [=](std::uint64_t first, std::uint64_t last, vid_t* src, vid_t* dst, std::uint32_t*) {
            for (std::uint64_t link = first; link < last; ++link) {
              vid_t& s = src[link - first];
              if (link < horizontal) {
                s = static_cast<vid_t>(link / (cols - 1) * cols + link % (cols - 1));
                dst[link - first] = s + 1;
              } else {
                s = static_cast<vid_t>(link - horizontal);
                dst[link - first] = s + cols;
              }
            }
          }};
}

Shape star(vid_t vertices) {
  return {"generating a star", vertices > 0 ? vertices - 1u : 0u, vertices, true,
          [](std::uint64_t first, std::uint64_t last, vid_t* src, vid_t* dst, std::uint32_t*) {
            for (std::uint64_t i = first; i < last; ++i) {
              src[i - first] = 0;
              dst[i - first] = static_cast<vid_t>(i + 1);
            }
          }};
}

Shape chain(vid_t vertices) {
  return {"generating a chain", vertices > 0 ? vertices - 1u : 0u, vertices, true,
          [](std::uint64_t first, std::uint64_t last, vid_t* src, vid_t* dst, std::uint32_t*) {
            for (std::uint64_t i = first; i < last; ++i) {
              src[i - first] = static_cast<vid_t>(i);
              dst[i - first] = static_cast<vid_t>(i + 1);
            }
          }};
}

// Links (u, v), u < v, in order of u then v: u's come after the n - 1 - w links of each w < u.
Shape complete(vid_t vertices) {
  if (vertices > 65536) throw InvalidInput("complete graphs are limited to 65536 vertices");
  const std::uint64_t n = vertices;
  const auto row_start = [n](std::uint64_t u) { return u * (n - 1) - u * (u - 1) / 2; };
  return {"generating a complete graph", n * (n > 0 ? n - 1 : 0) / 2, vertices, true,
          [=](std::uint64_t first, std::uint64_t last, vid_t* src, vid_t* dst, std::uint32_t*) {
            std::uint64_t u = 0;
            while (u + 1 < n && row_start(u + 1) <= first)
              ++u;
            std::uint64_t v = u + 1 + (first - row_start(u));
            for (std::uint64_t i = first; i < last; ++i) {
              if (v == n) v = ++u + 1;
              src[i - first] = static_cast<vid_t>(u);
              dst[i - first] = static_cast<vid_t>(v++);
            }
          }};
}

Shape empty(vid_t vertices) {
  return {"generating an empty graph", 0, vertices, false,
          [](std::uint64_t, std::uint64_t, vid_t*, vid_t*, std::uint32_t*) {}};
}

Shape shape_of(const GeneratorSpec& spec) {
  if (spec.kind == "kron") return kronecker(spec.scale, spec.edge_factor, spec.seed);
  if (spec.kind == "urand") return uniform(spec.scale, spec.edge_factor, spec.seed);
  if (spec.kind == "grid") {
    const std::uint32_t rows = spec.rows != 0 ? spec.rows : std::uint32_t{1} << (spec.scale / 2);
    const std::uint32_t cols =
        spec.cols != 0 ? spec.cols : std::uint32_t{1} << ((spec.scale + 1) / 2);
    return grid(rows, cols);
  }
  if (spec.kind == "star") return star(spec.vertices);
  if (spec.kind == "chain") return chain(spec.vertices);
  if (spec.kind == "complete") return complete(spec.vertices);
  if (spec.kind == "empty") return empty(spec.vertices);
  if (spec.kind == "road") return detail::road(spec.vertices, spec.seed);
  throw InvalidInput("unknown graph kind '" + spec.kind +
                     "' (expected one of: kron, urand, grid, road, star, chain, complete, empty)");
}

// Edges [first, first + count) of the shape, made in parallel chunks, with progress.
EdgeList part_of(const Shape& shape, std::uint64_t first, std::uint64_t count) {
  if (first > shape.edges || count > shape.edges - first) {
    throw InvalidInput("edges [" + std::to_string(first) + ", " + std::to_string(first + count) +
                       ") are beyond the " + std::to_string(shape.edges) + " generated");
  }
  EdgeList list;
  list.sources = Buffer<vid_t>::allocate(count);
  list.targets = Buffer<vid_t>::allocate(count);
  list.num_vertices = shape.vertices;
  list.symmetric_input = shape.symmetric;
  if (shape.weighted && count > 0) {  // no weight type without weights, as a reader gives
    list.weights = Buffer<std::uint32_t>::allocate(count);
    list.weight_type = WeightType::u32;
  }
  ProgressStep progress(shape.step, count);
  tbb::parallel_for(std::uint64_t{0}, (count + kChunk - 1) / kChunk, [&](std::uint64_t c) {
    const std::uint64_t begin = c * kChunk, end = std::min(count, begin + kChunk);
    shape.fill(first + begin, first + end, list.sources.data() + begin, list.targets.data() + begin,
               list.weights.empty() ? nullptr : list.weights.data() + begin);
    progress.advance(end - begin);
  });
  return list;
}

EdgeList whole(const Shape& shape) {
  return part_of(shape, 0, shape.edges);
}

}  // namespace

EdgeList generate_kronecker(unsigned scale, unsigned edge_factor, std::uint64_t seed) {
  return whole(kronecker(scale, edge_factor, seed));
}

EdgeList generate_uniform(unsigned scale, unsigned edge_factor, std::uint64_t seed) {
  return whole(uniform(scale, edge_factor, seed));
}

EdgeList generate_grid(std::uint32_t rows, std::uint32_t cols) {
  return whole(grid(rows, cols));
}

EdgeList generate_star(vid_t vertices) {
  return whole(star(vertices));
}

EdgeList generate_chain(vid_t vertices) {
  return whole(chain(vertices));
}

EdgeList generate_complete(vid_t vertices) {
  return whole(complete(vertices));
}

EdgeList generate_empty(vid_t vertices) {
  return whole(empty(vertices));
}

EdgeList generate_road(vid_t vertices, std::uint64_t seed) {
  return whole(detail::road(vertices, seed));
}

EdgeList generate(const GeneratorSpec& spec) {
  return whole(shape_of(spec));
}

std::uint64_t generated_edges(const GeneratorSpec& spec) {
  return shape_of(spec).edges;
}

bool generates_weights(const GeneratorSpec& spec) {
  return shape_of(spec).weighted;
}

EdgeList generate_part(const GeneratorSpec& spec, std::uint64_t first, std::uint64_t count) {
  return part_of(shape_of(spec), first, count);
}

}  // namespace ooc
