#include "ooc/engine/reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <functional>
#include <iterator>
#include <limits>
#include <numeric>
#include <queue>

#include "ooc/core/error.hpp"
#include "ooc/engine/programs.hpp"

namespace ooc::reference {
namespace {

// The references walk the raw lists, which a compressed-only graph leaves out.
void check_raw(const Graph& g) {
  if (!g.has_raw_lists()) {
    throw InvalidInput(
        "reference: the graph has compressed lists only; decode them first (decode_raw_lists)");
  }
}

vid_t internal_source(const Graph& g, vid_t user) {
  for (vid_t v = 0; v < g.num_vertices(); ++v) {
    if (g.original_id(v) == user) return v;
  }
  throw InvalidInput("reference: source " + std::to_string(user) + " is not a vertex");
}

template <class T>
std::vector<T> to_user(const Graph& g, const std::vector<T>& internal) {
  std::vector<T> out(internal.size());
  for (vid_t v = 0; v < g.num_vertices(); ++v)
    out[g.original_id(v)] = internal[v];
  return out;
}

// Dijkstra with the path sums evaluated in the weight's own arithmetic.
template <class D, class AddWeight>
std::vector<double> dijkstra(const Graph& g, vid_t source, D infinity, AddWeight add) {
  std::vector<D> dist(g.num_vertices(), infinity);
  using Item = std::pair<D, vid_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> heap;
  dist[source] = D{0};
  heap.push({D{0}, source});
  while (!heap.empty()) {
    const auto [d, u] = heap.top();
    heap.pop();
    if (d > dist[u]) continue;
    for (eid_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
      const D candidate = add(d, g.weights[e]);
      if (candidate < dist[g.targets[e]]) {
        dist[g.targets[e]] = candidate;
        heap.push({candidate, g.targets[e]});
      }
    }
  }
  std::vector<double> out(dist.size());
  for (std::size_t v = 0; v < dist.size(); ++v) {
    out[v] = dist[v] == infinity ? std::numeric_limits<double>::infinity()
                                 : static_cast<double>(dist[v]);
  }
  return out;
}

vid_t find(std::vector<vid_t>& parent, vid_t v) {
  while (parent[v] != v) {
    parent[v] = parent[parent[v]];
    v = parent[v];
  }
  return v;
}

}  // namespace

std::vector<std::uint32_t> bfs(const Graph& g, vid_t source_user_id) {
  check_raw(g);
  std::vector<std::uint32_t> level(g.num_vertices(), Bfs::kUnreached);
  const vid_t source = internal_source(g, source_user_id);
  std::deque<vid_t> queue{source};
  level[source] = 0;
  while (!queue.empty()) {
    const vid_t u = queue.front();
    queue.pop_front();
    for (const vid_t v : g.neighbors(u)) {
      if (level[v] == Bfs::kUnreached) {
        level[v] = level[u] + 1;
        queue.push_back(v);
      }
    }
  }
  return to_user(g, level);
}

std::vector<double> sssp(const Graph& g, vid_t source_user_id) {
  check_raw(g);
  if (!g.weighted()) throw InvalidInput("reference sssp: the graph has no weights");
  const vid_t source = internal_source(g, source_user_id);
  std::vector<double> dist;
  if (g.weight_type == WeightType::f32) {
    dist = dijkstra(g, source, std::numeric_limits<float>::infinity(),
                    [](float d, std::uint32_t w) { return d + weight_as_float(w); });
  } else {
    dist = dijkstra(g, source, SsspU32::kUnreached, [](std::uint32_t d, std::uint32_t w) {
      const std::uint64_t sum = std::uint64_t{d} + w;
      return sum < SsspU32::kUnreached ? static_cast<std::uint32_t>(sum) : SsspU32::kUnreached - 1;
    });
  }
  return to_user(g, dist);
}

std::vector<vid_t> cc(const Graph& g) {
  check_raw(g);
  const vid_t n = g.num_vertices();
  std::vector<vid_t> parent(n);
  std::iota(parent.begin(), parent.end(), vid_t{0});
  for (vid_t u = 0; u < n; ++u) {
    for (const vid_t v : g.neighbors(u)) {
      const vid_t a = find(parent, u), b = find(parent, v);
      if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
  }
  std::vector<vid_t> smallest(n, kNoVertex);
  for (vid_t v = 0; v < n; ++v) {
    vid_t& s = smallest[find(parent, v)];
    s = std::min(s, g.original_id(v));
  }
  std::vector<vid_t> out(n);
  for (vid_t v = 0; v < n; ++v)
    out[g.original_id(v)] = smallest[find(parent, v)];
  return out;
}

std::vector<std::uint64_t> triangles(const Graph& g) {
  check_raw(g);
  const vid_t n = g.num_vertices();
  std::vector<std::vector<vid_t>> higher(n);  // each vertex's neighbours of greater id, sorted
  for (vid_t u = 0; u < n; ++u) {
    for (const vid_t v : g.neighbors(u))
      if (v > u) higher[u].push_back(v);
    std::sort(higher[u].begin(), higher[u].end());
    higher[u].erase(std::unique(higher[u].begin(), higher[u].end()), higher[u].end());
  }
  std::vector<std::uint64_t> count(n, 0);
  for (vid_t u = 0; u < n; ++u) {
    for (const vid_t v : higher[u]) {
      std::vector<vid_t> common;
      std::set_intersection(higher[u].begin(), higher[u].end(), higher[v].begin(), higher[v].end(),
                            std::back_inserter(common));
      for (const vid_t w : common) {
        ++count[u];
        ++count[v];
        ++count[w];
      }
    }
  }
  std::vector<std::uint64_t> out(n);
  for (vid_t v = 0; v < n; ++v)
    out[g.original_id(v)] = count[v];
  return out;
}

std::vector<std::uint32_t> kcore(const Graph& g) {
  check_raw(g);
  const vid_t n = g.num_vertices();
  std::vector<std::uint32_t> degree(n);
  std::uint32_t most = 0;
  for (vid_t v = 0; v < n; ++v) {
    degree[v] = static_cast<std::uint32_t>(g.degree(v));
    most = std::max(most, degree[v]);
  }
  // The vertices sorted by degree (`order`), where each degree's bin starts, and each vertex's
  // place in the order; taking an edge away from u moves it to the front of its bin, which then
  // starts one later.
  std::vector<std::uint64_t> bin(std::uint64_t{most} + 2, 0);
  for (vid_t v = 0; v < n; ++v)
    ++bin[degree[v] + 1];
  for (std::uint64_t d = 1; d < bin.size(); ++d)
    bin[d] += bin[d - 1];
  std::vector<vid_t> order(n), place(n);
  {
    std::vector<std::uint64_t> next(bin.begin(), bin.end() - 1);
    for (vid_t v = 0; v < n; ++v) {
      place[v] = static_cast<vid_t>(next[degree[v]]++);
      order[place[v]] = v;
    }
  }
  for (vid_t i = 0; i < n; ++i) {
    const vid_t v = order[i];
    for (const vid_t u : g.neighbors(v)) {
      if (degree[u] <= degree[v]) continue;
      const vid_t first = order[bin[degree[u]]];
      if (first != u) {
        std::swap(order[place[u]], order[bin[degree[u]]]);
        std::swap(place[u], place[first]);
      }
      ++bin[degree[u]];
      --degree[u];
    }
  }
  std::vector<std::uint32_t> out(n);
  for (vid_t v = 0; v < n; ++v)
    out[g.original_id(v)] = degree[v];
  return out;
}

std::vector<vid_t> scc(const Graph& g) {
  check_raw(g);
  const vid_t n = g.num_vertices();
  constexpr vid_t kNew = kNoVertex;
  std::vector<vid_t> order(n, kNew), low(n), root(n, kNew), stack;
  std::vector<bool> open(n, false);
  std::vector<std::pair<vid_t, eid_t>> path;  // the depth-first path: vertex, next edge
  vid_t visited = 0;
  for (vid_t s = 0; s < n; ++s) {
    if (order[s] != kNew) continue;
    path.emplace_back(s, g.offsets[s]);
    order[s] = low[s] = visited++;
    stack.push_back(s);
    open[s] = true;
    while (!path.empty()) {
      const vid_t u = path.back().first;
      const eid_t e = path.back().second++;
      if (e < g.offsets[u + 1]) {
        const vid_t v = g.targets[e];
        if (order[v] == kNew) {
          path.emplace_back(v, g.offsets[v]);
          order[v] = low[v] = visited++;
          stack.push_back(v);
          open[v] = true;
        } else if (open[v]) {
          low[u] = std::min(low[u], order[v]);
        }
        continue;
      }
      path.pop_back();
      if (!path.empty()) low[path.back().first] = std::min(low[path.back().first], low[u]);
      if (low[u] < order[u]) continue;
      // u roots a component: the stack down to u. Its label is its smallest user id.
      auto first = stack.end();
      while (*--first != u) {
      }
      vid_t smallest = kNoVertex;
      for (auto it = first; it != stack.end(); ++it)
        smallest = std::min(smallest, g.original_id(*it));
      for (auto it = first; it != stack.end(); ++it) {
        root[*it] = smallest;
        open[*it] = false;
      }
      stack.erase(first, stack.end());
    }
  }
  return to_user(g, root);
}

std::vector<double> pagerank(const Graph& g, double damping) {
  check_raw(g);
  const vid_t n = g.num_vertices();
  std::vector<double> rank(n, 1.0 - damping), next(n);
  for (int iteration = 0; iteration < 100000; ++iteration) {
    std::fill(next.begin(), next.end(), 1.0 - damping);
    for (vid_t u = 0; u < n; ++u) {
      if (g.degree(u) == 0) continue;  // dangling: absorbed, as in the engine
      const double share = damping * rank[u] / static_cast<double>(g.degree(u));
      for (const vid_t v : g.neighbors(u))
        next[v] += share;
    }
    double change = 0, total = 0;
    for (vid_t v = 0; v < n; ++v) {
      change = std::max(change, std::abs(next[v] - rank[v]));
      total += next[v];
    }
    rank.swap(next);
    if (change <= 1e-13 * total) break;
  }
  const double total = std::accumulate(rank.begin(), rank.end(), 0.0);
  for (double& r : rank)
    r /= total;
  return to_user(g, rank);
}

double pagerank_l1_bound(double damping, double tolerance, std::uint64_t max_in_degree) {
  constexpr double kFloatRoundoff = 0x1p-24;  // half of FLT_EPSILON
  return 2.0 * tolerance / ((1.0 - damping) * (1.0 - damping)) + 1e-5 +
         static_cast<double>(max_in_degree) * kFloatRoundoff;
}

std::uint64_t max_in_degree(const Graph& g) {
  std::vector<std::uint64_t> in(g.num_vertices(), 0);
  for (const vid_t v : g.targets.span())
    ++in[v];
  return in.empty() ? 0 : *std::max_element(in.begin(), in.end());
}

Comparison compare_l1(const std::vector<float>& engine, const std::vector<double>& expected,
                      double bound) {
  if (engine.size() != expected.size()) return {false, "sizes differ"};
  double l1 = 0;
  for (std::size_t v = 0; v < engine.size(); ++v)
    l1 += std::abs(static_cast<double>(engine[v]) - expected[v]);
  if (l1 <= bound) return {};
  char message[128];
  std::snprintf(message, sizeof message, "L1 distance %.3g exceeds the bound %.3g", l1, bound);
  return {false, message};
}

std::vector<double> bc(const Graph& g, const std::vector<vid_t>& sources_user_ids) {
  check_raw(g);
  const vid_t n = g.num_vertices();
  std::vector<double> total(n, 0.0), sigma(n), delta(n);
  std::vector<std::int64_t> dist(n);
  std::vector<vid_t> order;  // vertices in the order BFS reached them
  for (const vid_t user : sources_user_ids) {
    const vid_t s = internal_source(g, user);
    std::fill(sigma.begin(), sigma.end(), 0.0);
    std::fill(delta.begin(), delta.end(), 0.0);
    std::fill(dist.begin(), dist.end(), -1);
    order.clear();
    sigma[s] = 1;
    dist[s] = 0;
    std::deque<vid_t> queue{s};
    while (!queue.empty()) {
      const vid_t u = queue.front();
      queue.pop_front();
      order.push_back(u);
      for (eid_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
        const vid_t w = g.targets[e];
        if (dist[w] < 0) {
          dist[w] = dist[u] + 1;
          queue.push_back(w);
        }
        if (dist[w] == dist[u] + 1) sigma[w] += sigma[u];
      }
    }
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      const vid_t w = *it;
      for (eid_t e = g.offsets[w]; e < g.offsets[w + 1]; ++e) {
        const vid_t u = g.targets[e];  // a predecessor of w when one level up (symmetric graph)
        if (dist[u] == dist[w] - 1) delta[u] += sigma[u] / sigma[w] * (1 + delta[w]);
      }
      if (w != s) total[w] += delta[w];
    }
  }
  return to_user(g, total);
}

std::vector<double> closeness(const Graph& g, const std::vector<vid_t>& sources_user_ids) {
  check_raw(g);
  const vid_t n = g.num_vertices();
  std::vector<double> total(n, 0.0);
  std::vector<std::int64_t> dist(n);
  for (const vid_t user : sources_user_ids) {
    const vid_t s = internal_source(g, user);
    std::fill(dist.begin(), dist.end(), -1);
    dist[s] = 0;
    std::deque<vid_t> queue{s};
    while (!queue.empty()) {
      const vid_t u = queue.front();
      queue.pop_front();
      if (u != s) total[u] += 1.0 / static_cast<double>(dist[u]);
      for (eid_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
        const vid_t w = g.targets[e];
        if (dist[w] < 0) {
          dist[w] = dist[u] + 1;
          queue.push_back(w);
        }
      }
    }
  }
  return to_user(g, total);
}

Comparison compare_relative(const std::vector<double>& engine, const std::vector<double>& expected,
                            double relative) {
  if (engine.size() != expected.size()) return {false, "sizes differ"};
  for (std::size_t v = 0; v < engine.size(); ++v) {
    if (std::abs(engine[v] - expected[v]) > relative * std::max(1.0, std::abs(expected[v]))) {
      char message[160];
      std::snprintf(message, sizeof message,
                    "vertex %zu: engine %.9g, reference %.9g (more than %.0e apart, relative)", v,
                    engine[v], expected[v], relative);
      return {false, message};
    }
  }
  return {};
}

}  // namespace ooc::reference
