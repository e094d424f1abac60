// Strongly connected components (OocEngine::scc) on the CPU backend.
//
// Hong, Rodia and Olukotun, "On fast parallel detection of strongly connected components (SCC) in
// small-world graphs" (SC'13), Method 2, whose insight is that a small-world graph's SCCs are one
// giant and a great many tiny ones. Trimming settles every vertex left without an in-edge or an
// out-edge as a component of its own; a forward-backward search (Fleischer, Hendrickson and Pinar)
// from the vertex of largest in-degree times out-degree finds the giant: what the pivot reaches
// forward and, within that, what reaches it backward (every vertex on a path from a forward one
// back to the pivot is a forward one too, so the backward search never leaves the forward set). A
// second trim follows. What is left falls into weakly connected components, which no SCC crosses,
// and each is a task of Tarjan's algorithm (where Hong et al. recurse with FW-BW), so that a graph
// of many small SCCs (a road network) costs linear work whatever its shape.
//
// The trick that makes trimming cheap: each vertex keeps its count of in- and out-edges from
// unsettled vertices (self-loops aside); settling a vertex decrements its neighbours' counts, and
// one whose count reaches zero is trimmed, so a chain unravels in a pass per link, not a sweep.
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/parallel_reduce.h>
#include <oneapi/tbb/parallel_sort.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <string>
#include <vector>

#include "host_lists.hpp"
#include "ooc/core/atomics.hpp"
#include "ooc/core/error.hpp"
#include "ooc/engine/engine.hpp"

namespace ooc {
namespace {

constexpr vid_t kUnsettled = kNoVertex;

// The lists both ways: the out-lists, decoded when compressed only, and the in-lists, raw
// (partition-tool --in-edges writes them raw in every kind of file), or a symmetric graph's
// out-lists.
struct Lists {
  const Graph& g;

  std::span<const vid_t> out(vid_t v, std::vector<vid_t>& scratch) const {
    return detail::host_list(g, v, scratch);
  }
  std::span<const vid_t> in(vid_t v, std::vector<vid_t>& scratch) const {
    if (g.symmetric) return out(v, scratch);
    return {g.in_edges.sources.data() + g.in_edges.offsets[v],
            static_cast<std::size_t>(g.in_edges.degree(v))};
  }
};

struct State {
  explicit State(const Graph& graph)
      : lists{graph}, n(graph.num_vertices()), component(n), out_left(n), in_left(n) {
    tbb::parallel_for(vid_t{0}, n, [this](vid_t v) { component[v] = kUnsettled; });
  }

  bool unsettled(vid_t v) const {
    return component[v].load(std::memory_order_relaxed) == kUnsettled;
  }
  // Puts v in component c, unless another search settled it first.
  bool settle(vid_t v, vid_t c) {
    vid_t none = kUnsettled;
    return component[v].compare_exchange_strong(none, c);
  }

  Lists lists;
  vid_t n;
  // Each vertex's component, named by one of its vertices; kUnsettled until known.
  std::vector<std::atomic<vid_t>> component;
  // Edges to and from unsettled vertices, self-loops aside: trimming's counts.
  std::vector<std::atomic<eid_t>> out_left, in_left;
  std::atomic<std::uint64_t> edges_read{0};
};

struct Local {
  std::vector<vid_t> found, scratch;
  std::uint64_t edges = 0;  // list entries read
};

// Calls visit(at(i), local) for i in [0, count) in parallel; returns what the calls pushed onto
// their local.found.
template <class At, class Visit>
std::vector<vid_t> expand(State& s, std::size_t count, At&& at, Visit&& visit) {
  tbb::enumerable_thread_specific<Local> locals;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, count),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      Local& local = locals.local();
                      for (std::size_t i = r.begin(); i != r.end(); ++i)
                        visit(at(i), local);
                    });
  std::vector<vid_t> next;
  for (const Local& local : locals) {
    next.insert(next.end(), local.found.begin(), local.found.end());
    s.edges_read += local.edges;
  }
  return next;
}

std::vector<vid_t> expand_from(State& s, const std::vector<vid_t>& frontier, auto&& visit) {
  return expand(
      s, frontier.size(), [&](std::size_t i) { return frontier[i]; }, visit);
}

// Trimming's counts; returns the vertices they trim at once, settled.
std::vector<vid_t> count_edges(State& s) {
  return expand(
      s, s.n, [](std::size_t v) { return static_cast<vid_t>(v); },
      [&s](vid_t v, Local& local) {
        const auto others = [&](std::span<const vid_t> list) {
          local.edges += list.size();
          return static_cast<eid_t>(list.size() - std::count(list.begin(), list.end(), v));
        };
        s.out_left[v] = others(s.lists.out(v, local.scratch));
        s.in_left[v] = others(s.lists.in(v, local.scratch));
        if ((s.out_left[v] == 0 || s.in_left[v] == 0) && s.settle(v, v)) local.found.push_back(v);
      });
}

// Takes `settled` out of their neighbours' counts and trims whoever is left without an in-edge or
// an out-edge, again until no one is; returns how many it trimmed.
vid_t retire(State& s, std::vector<vid_t> settled) {
  vid_t trimmed = 0;
  while (!settled.empty()) {
    settled = expand_from(s, settled, [&s](vid_t v, Local& local) {
      const auto drop = [&](vid_t w, std::vector<std::atomic<eid_t>>& left) {
        if (w != v && s.unsettled(w) && left[w].fetch_sub(1) == 1 && s.settle(w, w))
          local.found.push_back(w);
      };
      for (const vid_t w : s.lists.out(v, local.scratch))
        drop(w, s.in_left);
      const std::span<const vid_t> in = s.lists.in(v, local.scratch);
      for (const vid_t u : in)
        drop(u, s.out_left);
      local.edges += s.lists.g.degree(v) + in.size();
    });
    trimmed += static_cast<vid_t>(settled.size());
  }
  return trimmed;
}

// The unsettled vertex of largest in-degree times out-degree among the unsettled (Hong et al.:
// the likeliest to be in the giant SCC), the smallest id of several; kUnsettled when none is left.
vid_t pivot(const State& s) {
  using Best = std::pair<double, vid_t>;  // score, and the vertex
  const auto better = [](const Best& a, const Best& b) {
    return a.first > b.first || (a.first == b.first && a.second < b.second) ? a : b;
  };
  return tbb::parallel_reduce(
             tbb::blocked_range<vid_t>(0, s.n), Best{-1.0, kUnsettled},
             [&](const tbb::blocked_range<vid_t>& r, Best best) {
               for (vid_t v = r.begin(); v != r.end(); ++v) {
                 if (!s.unsettled(v)) continue;
                 best = better(
                     best,
                     {static_cast<double>(s.out_left[v]) * static_cast<double>(s.in_left[v]), v});
               }
               return best;
             },
             better)
      .second;
}

// The pivot's SCC, settled in the pivot's component.
std::vector<vid_t> forward_backward(State& s, vid_t pivot) {
  std::vector<std::atomic<bool>> forward(s.n);
  forward[pivot] = true;
  for (std::vector<vid_t> frontier{pivot}; !frontier.empty();) {
    frontier = expand_from(s, frontier, [&](vid_t v, Local& local) {
      const std::span<const vid_t> out = s.lists.out(v, local.scratch);
      local.edges += out.size();
      for (const vid_t w : out) {
        if (s.unsettled(w) && !forward[w].load(std::memory_order_relaxed) &&
            !forward[w].exchange(true))
          local.found.push_back(w);
      }
    });
  }
  s.settle(pivot, pivot);
  std::vector<vid_t> scc{pivot};
  for (std::vector<vid_t> frontier{pivot}; !frontier.empty();) {
    frontier = expand_from(s, frontier, [&](vid_t v, Local& local) {
      const std::span<const vid_t> in = s.lists.in(v, local.scratch);
      local.edges += in.size();
      for (const vid_t u : in) {
        if (forward[u].load(std::memory_order_relaxed) && s.settle(u, pivot))
          local.found.push_back(u);
      }
    });
    scc.insert(scc.end(), frontier.begin(), frontier.end());
  }
  return scc;
}

// Concurrent union-find: a root is linked under a smaller one by compare-and-swap, so that no
// cycle can form, and paths are halved as they are walked.
vid_t find(std::vector<std::atomic<vid_t>>& parent, vid_t v) {
  for (;;) {
    vid_t up = parent[v].load();
    if (up == v) return v;
    const vid_t above = parent[up].load();
    if (above != up) parent[v].compare_exchange_weak(up, above);
    v = above;
  }
}

void unite(std::vector<std::atomic<vid_t>>& parent, vid_t a, vid_t b) {
  for (;;) {
    a = find(parent, a);
    b = find(parent, b);
    if (a == b) return;
    if (a < b) std::swap(a, b);
    vid_t root = a;
    if (parent[a].compare_exchange_strong(root, b)) return;
  }
}

// The unsettled vertices grouped by weakly connected component: `vertices` in order of their
// group, group i being vertices[starts[i] .. starts[i + 1]).
struct Groups {
  std::vector<vid_t> vertices;
  std::vector<std::size_t> starts;
};

Groups weak_components(State& s) {
  std::vector<std::atomic<vid_t>> parent(s.n);
  tbb::parallel_for(vid_t{0}, s.n, [&](vid_t v) { parent[v] = v; });
  const std::vector<vid_t> left = expand(
      s, s.n, [](std::size_t v) { return static_cast<vid_t>(v); },
      [&](vid_t v, Local& local) {
        if (!s.unsettled(v)) return;
        const std::span<const vid_t> out = s.lists.out(v, local.scratch);
        local.edges += out.size();
        for (const vid_t w : out) {
          if (s.unsettled(w)) unite(parent, v, w);
        }
        local.found.push_back(v);
      });
  std::vector<std::uint64_t> keys(left.size());  // group root, then vertex
  tbb::parallel_for(std::size_t{0}, left.size(), [&](std::size_t i) {
    keys[i] = std::uint64_t{find(parent, left[i])} << 32 | left[i];
  });
  tbb::parallel_sort(keys.begin(), keys.end());
  Groups groups;
  groups.vertices.resize(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    groups.vertices[i] = static_cast<vid_t>(keys[i]);
    if (i == 0 || keys[i] >> 32 != keys[i - 1] >> 32) groups.starts.push_back(i);
  }
  groups.starts.push_back(keys.size());
  return groups;
}

// A group's out-lists in its own ids (position in the group), edges to settled vertices left out.
struct GroupLists {
  std::vector<eid_t> offsets{0};
  std::vector<vid_t> targets;
};

GroupLists group_lists(const State& s, std::span<const vid_t> group, std::vector<vid_t>& local) {
  for (std::size_t i = 0; i < group.size(); ++i)
    local[group[i]] = static_cast<vid_t>(i);
  GroupLists l;
  std::vector<vid_t> scratch;
  for (const vid_t v : group) {
    for (const vid_t w : s.lists.out(v, scratch)) {
      if (s.unsettled(w)) l.targets.push_back(local[w]);
    }
    l.offsets.push_back(l.targets.size());
  }
  return l;
}

// Tarjan's algorithm on one group, iteratively (a stack of vertices and their next edges in place
// of recursion): each SCC is settled in the component of its root, the first vertex it reached.
// `local` (a slot per vertex of the graph) maps the group's vertices to their positions.
void tarjan(State& s, std::span<const vid_t> group, std::vector<vid_t>& local) {
  const GroupLists l = group_lists(s, group, local);
  const auto k = static_cast<vid_t>(group.size());
  std::vector<vid_t> index(k, kUnsettled), low(k), stack;
  std::vector<bool> on_stack(k, false);
  std::vector<std::pair<vid_t, eid_t>> calls;  // the vertex, and its next edge
  vid_t next = 0;
  const auto open = [&](vid_t v) {
    index[v] = low[v] = next++;
    stack.push_back(v);
    on_stack[v] = true;
    calls.emplace_back(v, l.offsets[v]);
  };
  for (vid_t start = 0; start < k; ++start) {
    if (index[start] != kUnsettled) continue;
    open(start);
    while (!calls.empty()) {
      const auto [v, e] = calls.back();
      if (e < l.offsets[v + 1]) {
        ++calls.back().second;
        const vid_t w = l.targets[e];
        if (index[w] == kUnsettled) {
          open(w);
        } else if (on_stack[w]) {
          low[v] = std::min(low[v], index[w]);
        }
        continue;
      }
      calls.pop_back();
      if (!calls.empty()) low[calls.back().first] = std::min(low[calls.back().first], low[v]);
      if (low[v] != index[v]) continue;
      for (vid_t w = kUnsettled; w != v;) {
        w = stack.back();
        stack.pop_back();
        on_stack[w] = false;
        s.component[group[w]] = group[v];
      }
    }
  }
}

void tarjan_per_group(State& s, const Groups& groups) {
  std::vector<vid_t> local(s.n);
  tbb::parallel_for(std::size_t{0}, groups.starts.size() - 1, [&](std::size_t i) {
    const std::span<const vid_t> all(groups.vertices);
    tarjan(s, all.subspan(groups.starts[i], groups.starts[i + 1] - groups.starts[i]), local);
  });
}

// Each vertex's label (the smallest user id in its component, by internal id), how many
// components there are, and the largest's size.
struct Labels {
  std::vector<vid_t> internal;
  vid_t components = 0, largest = 0;
};

Labels label(const State& s, const Graph& g) {
  std::vector<vid_t> smallest(s.n, kNoVertex), size(s.n, 0);
  tbb::parallel_for(vid_t{0}, s.n, [&](vid_t v) {
    const vid_t c = s.component[v];
    atomic_min(&smallest[c], g.original_id(v));
    std::atomic_ref<vid_t>(size[c]).fetch_add(1, std::memory_order_relaxed);
  });
  Labels out;
  out.internal.resize(s.n);
  tbb::parallel_for(vid_t{0}, s.n, [&](vid_t v) { out.internal[v] = smallest[s.component[v]]; });
  for (vid_t v = 0; v < s.n; ++v) {
    out.components += s.component[v] == v ? 1 : 0;
    out.largest = std::max(out.largest, size[v]);
  }
  return out;
}

}  // namespace

SccResult OocEngine::scc(const RunOptions& run) {
  RunStats stats = begin_host_run("scc", run);
  const Graph& g = graph();
  if (!g.symmetric && !g.has_in_edges()) {
    throw InvalidInput(
        "scc needs the graph's in-edges, and this directed graph has none (write it with "
        "partition-tool --in-edges)");
  }
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  State s(g);
  // A phase's iteration: the vertices unsettled when it began, the lists' entries it read.
  vid_t unsettled = s.n;
  auto phase_start = start;
  const auto end_phase = [&](vid_t settled) {
    IterationStats it;
    it.iteration = static_cast<std::uint32_t>(stats.iterations.size());
    it.active_vertices = unsettled;
    it.edges_processed = s.edges_read.exchange(0);
    it.seconds = it.compute_seconds =
        std::chrono::duration<double>(Clock::now() - phase_start).count();
    stats.iterations.push_back(it);
    unsettled -= settled;
    phase_start = Clock::now();
  };
  std::vector<vid_t> trimmed = count_edges(s);
  const vid_t first_trim = static_cast<vid_t>(trimmed.size()) + retire(s, std::move(trimmed));
  end_phase(first_trim);
  const vid_t p = pivot(s);
  std::vector<vid_t> giant = p == kUnsettled ? std::vector<vid_t>{} : forward_backward(s, p);
  const auto giant_size = static_cast<vid_t>(giant.size());
  const vid_t second_trim = retire(s, std::move(giant));
  end_phase(giant_size + second_trim);
  const Groups groups = weak_components(s);
  tarjan_per_group(s, groups);
  end_phase(unsettled);
  const Labels labels = label(s, g);

  SccResult result;
  result.values = to_user_ids(labels.internal.data());
  result.components = labels.components;
  result.largest = labels.largest;
  stats.method = "trim, FW-BW, Tarjan per weak component: " + std::to_string(labels.components) +
                 " components, the largest " + std::to_string(labels.largest) + " (trimmed " +
                 std::to_string(first_trim + second_trim) + ", FW-BW " +
                 std::to_string(giant_size) + ", Tarjan " + std::to_string(groups.vertices.size()) +
                 " in " + std::to_string(groups.starts.size() - 1) + " weak components)";
  stats.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  result.stats = std::move(stats);
  return result;
}

}  // namespace ooc
