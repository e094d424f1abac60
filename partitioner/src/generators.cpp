// Synthetic graph generators. Kronecker follows the Graph500 reference generator (two uniform
// draws per level, then a random relabelling of the vertices); uniform random is GAP's urand.
// Every edge i draws from its own counter-based stream keyed by (seed, i), so the output is the
// same for a seed whatever the thread count.
#include "ooc/partitioner/generators.hpp"

#include <tbb/parallel_for.h>

#include <string>

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

EdgeList allocate(std::uint64_t edges, vid_t vertices) {
  EdgeList list;
  list.sources = Buffer<vid_t>::allocate(edges);
  list.targets = Buffer<vid_t>::allocate(edges);
  list.num_vertices = vertices;
  return list;
}

// The undirected shapes list each link once; the builder adds the reverse edges.
EdgeList undirected(std::uint64_t links, vid_t vertices) {
  EdgeList list = allocate(links, vertices);
  list.symmetric_input = true;
  return list;
}

// Calls make(i, src, dst) for every edge index in parallel chunks, with progress.
template <class Make>
void fill_edges(EdgeList& list, std::string_view step, Make&& make) {
  const std::uint64_t edges = list.size();
  ProgressStep progress(step, edges);
  tbb::parallel_for(std::uint64_t{0}, (edges + kChunk - 1) / kChunk, [&](std::uint64_t c) {
    const std::uint64_t end = (c + 1) * kChunk < edges ? (c + 1) * kChunk : edges;
    for (std::uint64_t i = c * kChunk; i < end; ++i)
      make(i, list.sources[i], list.targets[i]);
    progress.advance(end - c * kChunk);
  });
}

constexpr std::uint32_t threshold(double p) {
  return static_cast<std::uint32_t>(p * 4294967296.0);
}

}  // namespace

EdgeList generate_kronecker(unsigned scale, unsigned edge_factor, std::uint64_t seed) {
  check_scale(scale, edge_factor);
  EdgeList list = allocate(std::uint64_t{edge_factor} << scale, vid_t{1} << scale);
  // Level bits as the reference draws them: the i-bit is set with probability C+D; the j-bit
  // with probability D/(C+D) when the i-bit is set and B/(A+B) when it is not.
  const std::uint32_t ab = threshold(kA + kB);
  const std::uint32_t c_norm = threshold(kC / (1.0 - (kA + kB)));
  const std::uint32_t a_norm = threshold(kA / (kA + kB));
  const detail::BitPermutation relabel(scale, detail::hash2(seed, 0x6b726f6eull));
  fill_edges(list, "generating Kronecker edges", [&](std::uint64_t i, vid_t& src, vid_t& dst) {
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
    src = static_cast<vid_t>(relabel(u));
    dst = static_cast<vid_t>(relabel(v));
  });
  return list;
}

EdgeList generate_uniform(unsigned scale, unsigned edge_factor, std::uint64_t seed) {
  check_scale(scale, edge_factor);
  EdgeList list = allocate(std::uint64_t{edge_factor} << scale, vid_t{1} << scale);
  const std::uint64_t mask = (std::uint64_t{1} << scale) - 1;
  fill_edges(list, "generating uniform random edges", [&](std::uint64_t i, vid_t& src, vid_t& dst) {
    const std::uint64_t r = detail::hash2(seed, i);
    src = static_cast<vid_t>(r & mask);
    dst = static_cast<vid_t>((r >> 32) & mask);
  });
  return list;
}

EdgeList generate_grid(std::uint32_t rows, std::uint32_t cols) {
  const std::uint64_t vertices = std::uint64_t{rows} * cols;
  if (rows == 0 || cols == 0 || vertices > kMaxVertexId) {
    throw InvalidInput("grid " + std::to_string(rows) + "x" + std::to_string(cols) +
                       " must have between 1 and 2^32-2 vertices");
  }
  // Horizontal links first (rows * (cols-1)), then vertical ones ((rows-1) * cols).
  const std::uint64_t horizontal = std::uint64_t{rows} * (cols - 1);
  EdgeList list =
      undirected(horizontal + std::uint64_t{rows - 1} * cols, static_cast<vid_t>(vertices));
  fill_edges(list, "generating grid edges", [&](std::uint64_t link, vid_t& src, vid_t& dst) {
    if (link < horizontal) {
      src = static_cast<vid_t>(link / (cols - 1) * cols + link % (cols - 1));
      dst = src + 1;
    } else {
      src = static_cast<vid_t>(link - horizontal);
      dst = src + cols;
    }
  });
  return list;
}

EdgeList generate_star(vid_t vertices) {
  EdgeList list = undirected(vertices > 0 ? vertices - 1 : 0, vertices);
  for (std::uint64_t i = 0; i < list.size(); ++i) {
    list.sources[i] = 0;
    list.targets[i] = static_cast<vid_t>(i + 1);
  }
  return list;
}

EdgeList generate_chain(vid_t vertices) {
  EdgeList list = undirected(vertices > 0 ? vertices - 1 : 0, vertices);
  for (std::uint64_t i = 0; i < list.size(); ++i) {
    list.sources[i] = static_cast<vid_t>(i);
    list.targets[i] = static_cast<vid_t>(i + 1);
  }
  return list;
}

EdgeList generate_complete(vid_t vertices) {
  if (vertices > 65536) throw InvalidInput("complete graphs are limited to 65536 vertices");
  const std::uint64_t n = vertices;
  EdgeList list = undirected(n * (n > 0 ? n - 1 : 0) / 2, vertices);
  std::uint64_t e = 0;
  for (vid_t u = 0; u < vertices; ++u) {
    for (vid_t v = u + 1; v < vertices; ++v) {
      list.sources[e] = u;
      list.targets[e] = v;
      ++e;
    }
  }
  return list;
}

EdgeList generate_empty(vid_t vertices) {
  return allocate(0, vertices);
}

EdgeList generate(const GeneratorSpec& spec) {
  if (spec.kind == "kron") return generate_kronecker(spec.scale, spec.edge_factor, spec.seed);
  if (spec.kind == "urand") return generate_uniform(spec.scale, spec.edge_factor, spec.seed);
  if (spec.kind == "grid") {
    const std::uint32_t rows = spec.rows != 0 ? spec.rows : std::uint32_t{1} << (spec.scale / 2);
    const std::uint32_t cols =
        spec.cols != 0 ? spec.cols : std::uint32_t{1} << ((spec.scale + 1) / 2);
    return generate_grid(rows, cols);
  }
  if (spec.kind == "star") return generate_star(spec.vertices);
  if (spec.kind == "chain") return generate_chain(spec.vertices);
  if (spec.kind == "complete") return generate_complete(spec.vertices);
  if (spec.kind == "empty") return generate_empty(spec.vertices);
  throw InvalidInput("unknown graph kind '" + spec.kind +
                     "' (expected one of: kron, urand, grid, star, chain, complete, empty)");
}

}  // namespace ooc
