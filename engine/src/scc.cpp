// Strongly connected components (OocEngine::scc), on either backend.
//
// Hong, Rodia and Olukotun, "On fast parallel detection of strongly connected components (SCC) in
// small-world graphs" (SC'13), Method 2, whose insight is that a small-world graph's SCCs are one
// giant and a great many tiny ones. Trimming settles every vertex left without an in-edge or an
// out-edge as a component of its own; a forward-backward search (Fleischer, Hendrickson and Pinar)
// from the vertex of largest in-degree times out-degree finds the giant: what the pivot reaches
// forward and, within that, what reaches it backward (every vertex on a path from a forward one
// back to the pivot is a forward one too, so the backward search never leaves the forward set).
// Both searches are runs of the engine (scc_program.hpp), on the GPU or the CPU, the backward one
// on an engine made on the in-lists; the trims and Tarjan are host passes. A second trim follows,
// and Tarjan's algorithm (Pearce's one-array form, serial) settles what is left: on a small-world
// graph nothing, on a road network most of it, in one weak component that no parallel split of
// Hong et al.'s would have divided.
//
// The trick that makes trimming cheap: each vertex keeps its count of in- and out-edges from
// unsettled vertices (self-loops aside), read from the offsets; settling a vertex decrements its
// neighbours' counts, and one whose count reaches zero is trimmed, so a chain unravels in a pass
// per link, not a sweep.
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/parallel_reduce.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "engine_impl.hpp"
#include "host_lists.hpp"
#include "ooc/core/atomics.hpp"
#include "ooc/core/buffer.hpp"
#include "ooc/core/error.hpp"
#include "ooc/engine/engine.hpp"
#include "ooc/engine/scc_program.hpp"
#include "ooc/partitioner/graph.hpp"

namespace ooc {
namespace {

constexpr vid_t kUnsettled = kNoVertex;

enum class Way { out, in };

// The lists both ways: the out-lists, decoded when compressed only, and the in-lists, raw
// (partition-tool --in-edges writes them raw in every kind of file), or a symmetric graph's
// out-lists. Degrees come from the offsets, without reading a list.
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
  eid_t degree(Way way, vid_t v) const {
    return way == Way::out || g.symmetric ? g.degree(v) : g.in_edges.degree(v);
  }
  eid_t both(vid_t v) const { return degree(Way::out, v) + degree(Way::in, v); }
};

// An array of n values updated concurrently through std::atomic_ref, left unfilled when made (a
// vector of atomics would fill gigabytes on one thread).
template <class T>
class AtomicArray {
 public:
  explicit AtomicArray(vid_t n) : values_(Buffer<T>::allocate(n)) {}
  std::atomic_ref<T> operator[](vid_t v) const {
    return std::atomic_ref<T>(const_cast<T&>(values_.data()[v]));
  }

 private:
  Buffer<T> values_;
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
  AtomicArray<vid_t> component;
  // Edges to and from unsettled vertices, self-loops aside: trimming's counts.
  AtomicArray<eid_t> out_left, in_left;
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
  std::size_t size = 0;
  for (const Local& local : locals)
    size += local.found.size();
  std::vector<vid_t> next;
  next.reserve(size);
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

std::vector<vid_t> expand_all(State& s, auto&& visit) {
  return expand(
      s, s.n, [](std::size_t v) { return static_cast<vid_t>(v); }, visit);
}

// The sum of f(i) for i in [0, count), in parallel.
template <class F>
std::uint64_t sum(std::size_t count, F&& f) {
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, count), std::uint64_t{0},
      [&](const tbb::blocked_range<std::size_t>& r, std::uint64_t total) {
        for (std::size_t i = r.begin(); i != r.end(); ++i)
          total += f(i);
        return total;
      },
      std::plus<>());
}

// Trimming's counts, from the offsets: each self-loop is an entry of the vertex's out-list and of
// its in-list, taken out of both counts; only a vertex with edges both ways has its in-list
// scanned for them, since one without either is trimmed whatever they are. The counts are exact.
// Returns the vertices they trim at once, settled.
std::vector<vid_t> count_edges(State& s) {
  return expand_all(s, [&s](vid_t v, Local& local) {
    eid_t out = s.lists.degree(Way::out, v), in = s.lists.degree(Way::in, v);
    if (out > 0 && in > 0) {
      const std::span<const vid_t> list = s.lists.in(v, local.scratch);
      local.edges += list.size();
      const auto loops = static_cast<eid_t>(std::count(list.begin(), list.end(), v));
      out -= loops;
      in -= loops;
    }
    s.out_left[v].store(out, std::memory_order_relaxed);
    s.in_left[v].store(in, std::memory_order_relaxed);
    if ((out == 0 || in == 0) && s.settle(v, v)) local.found.push_back(v);
  });
}

// The counts afresh for the unsettled vertices, from their lists; returns those left without an
// in-edge or an out-edge, settled only once every count is taken, so that all see the same
// unsettled vertices.
std::vector<vid_t> recount(State& s) {
  std::vector<vid_t> trimmed = expand_all(s, [&s](vid_t v, Local& local) {
    if (!s.unsettled(v)) return;
    const auto others = [&](std::span<const vid_t> list) {
      local.edges += list.size();
      return static_cast<eid_t>(std::count_if(list.begin(), list.end(),
                                              [&](vid_t w) { return w != v && s.unsettled(w); }));
    };
    s.out_left[v] = others(s.lists.out(v, local.scratch));
    s.in_left[v] = others(s.lists.in(v, local.scratch));
    if (s.out_left[v] == 0 || s.in_left[v] == 0) local.found.push_back(v);
  });
  tbb::parallel_for(std::size_t{0}, trimmed.size(),
                    [&](std::size_t i) { s.settle(trimmed[i], trimmed[i]); });
  return trimmed;
}

// Takes `settled` out of their neighbours' counts, returning those it leaves without an in-edge or
// an out-edge, settled.
std::vector<vid_t> take_out(State& s, const std::vector<vid_t>& settled) {
  return expand_from(s, settled, [&s](vid_t v, Local& local) {
    const auto drop = [&](vid_t w, AtomicArray<eid_t>& left) {
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
}

// Trims, after `settled` were settled, whoever is left without an in-edge or an out-edge, again
// until no one is; returns how many it trimmed. Each round takes the vertices settled last out of
// their neighbours' counts (reading their lists, an atomic an entry, contended at a hub), or
// counts afresh over the lists of the vertices left (no atomic), whichever reads fewer entries.
// On a small-world graph the vertices of the first trim, without an in- or an out-edge, hold most
// of the edges, and so does the giant after FW-BW: counting afresh reads what is left. On a road
// network a round settles a few vertices of a chain, and taking them out reads a few lists.
vid_t retire(State& s, std::vector<vid_t> settled) {
  const auto edges_of = [&s](const std::vector<vid_t>& vertices) {
    return sum(vertices.size(), [&](std::size_t i) { return s.lists.both(vertices[i]); });
  };
  std::uint64_t left = sum(s.n, [&](std::size_t v) {
    return s.unsettled(static_cast<vid_t>(v)) ? s.lists.both(static_cast<vid_t>(v)) : 0;
  });
  std::uint64_t edges = edges_of(settled);
  vid_t trimmed = 0;
  while (!settled.empty()) {
    settled = edges <= left ? take_out(s, settled) : recount(s);
    edges = edges_of(settled);
    left -= edges;
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

// The bitmap of the vertices a search must not enter: the settled ones, and those for which
// also(v) holds.
std::vector<std::uint32_t> closed_bits(const State& s, auto&& also) {
  std::vector<std::uint32_t> words((std::size_t{s.n} + 31) / 32);
  tbb::parallel_for(std::size_t{0}, words.size(), [&](std::size_t w) {
    std::uint32_t word = 0;
    const auto first = static_cast<vid_t>(w * 32);
    const vid_t last = std::min<vid_t>(s.n, first + 32);
    for (vid_t v = first; v < last; ++v) {
      if (!s.unsettled(v) || also(v)) word |= std::uint32_t{1} << (v % 32);
    }
    words[w] = word;
  });
  return words;
}

// The pivot's SCC, settled in the pivot's component: what the pivot reaches forward among the
// unsettled, and within that, what reaches it backward (every vertex on a path from a forward one
// back to the pivot is a forward one too, so the backward search never leaves the forward set).
// reach(way, closed, pivot) runs a search (SccReach) and returns each vertex's value, 1 where
// reached.
template <class Reach>
std::vector<vid_t> forward_backward(State& s, vid_t pivot, Reach&& reach) {
  const Buffer<std::uint32_t> forward =
      reach(Way::out, closed_bits(s, [](vid_t) { return false; }), pivot);
  const Buffer<std::uint32_t> backward =
      reach(Way::in, closed_bits(s, [&](vid_t v) { return forward[v] == 0; }), pivot);
  return expand_all(s, [&](vid_t v, Local& local) {
    if (backward[v] != 0 && s.settle(v, pivot)) local.found.push_back(v);
  });
}

// Tarjan's algorithm over the vertices left, in Pearce's form ("A space-efficient algorithm for
// finding strongly connected components", IPL 2016): one array holds each vertex's depth-first
// index, lowered to the least it reaches on the stack, and kDone once the vertex is settled (by
// the trims, FW-BW or an SCC found here), which lowers nothing; so an edge costs one read.
// Iterative: a stack of calls, each with the rest of its list, read in place when the lists are
// raw and else decoded onto one stack of lists. Each SCC is settled in the component of its root,
// the first vertex it reached.
void tarjan(State& s) {
  constexpr vid_t kNew = 0, kDone = kNoVertex;
  std::vector<vid_t> rindex(s.n);
  tbb::parallel_for(vid_t{0}, s.n, [&](vid_t v) { rindex[v] = s.unsettled(v) ? kNew : kDone; });
  struct Call {
    vid_t v;
    bool root;              // no edge from v's subtree has reached below v's index
    std::size_t next, end;  // the rest of v's list, in the raw targets or on `lists`
  };
  const Graph& g = s.lists.g;
  const bool raw = g.has_raw_lists();
  std::vector<Call> calls;
  std::vector<vid_t> stack, lists;
  vid_t index = 1;
  std::uint64_t edges = 0;
  const auto open = [&](vid_t v) {
    rindex[v] = index++;
    edges += g.degree(v);
    if (raw) {
      calls.push_back({v, true, g.offsets[v], g.offsets[v + 1]});
      return;
    }
    lists.resize(lists.size() + g.degree(v));
    decode_list(g.compressed.bytes.data() + g.compressed.offsets[v], g.degree(v),
                lists.data() + lists.size() - g.degree(v));
    calls.push_back({v, true, lists.size() - g.degree(v), lists.size()});
  };
  const auto lower = [&](Call& call, vid_t w) {
    if (rindex[w] >= rindex[call.v]) return;
    rindex[call.v] = rindex[w];
    call.root = false;
  };
  for (vid_t start = 0; start < s.n; ++start) {
    if (rindex[start] != kNew) continue;
    open(start);
    while (!calls.empty()) {
      if (calls.back().next != calls.back().end) {
        const vid_t w = (raw ? g.targets.data() : lists.data())[calls.back().next++];
        if (rindex[w] == kNew) {
          open(w);
        } else {
          lower(calls.back(), w);
        }
        continue;
      }
      const Call call = calls.back();
      if (!raw) lists.resize(call.end - g.degree(call.v));
      calls.pop_back();
      if (call.root) {
        for (; !stack.empty() && rindex[stack.back()] >= rindex[call.v]; stack.pop_back()) {
          s.component[stack.back()].store(call.v, std::memory_order_relaxed);
          rindex[stack.back()] = kDone;
        }
        s.component[call.v].store(call.v, std::memory_order_relaxed);
        rindex[call.v] = kDone;
      } else {
        stack.push_back(call.v);
      }
      if (!calls.empty()) lower(calls.back(), call.v);
    }
  }
  s.edges_read += edges;
}

// Each vertex's label (the smallest user id in its component, by internal id), how many
// components there are, and the largest's size.
struct Labels {
  std::vector<vid_t> internal;
  vid_t components = 0, largest = 0;
};

Labels label(const State& s, const Graph& g) {
  std::vector<vid_t> smallest(s.n, kNoVertex), size(s.n, 0);
  // A range's vertices in a row of one component are added to it at once: the giant's millions
  // would otherwise contend for its counter.
  tbb::parallel_for(tbb::blocked_range<vid_t>(0, s.n), [&](const tbb::blocked_range<vid_t>& r) {
    vid_t c = kNoVertex, least = kNoVertex, count = 0;
    const auto flush = [&] {
      if (count == 0) return;
      atomic_min(&smallest[c], least);
      std::atomic_ref<vid_t>(size[c]).fetch_add(count, std::memory_order_relaxed);
    };
    for (vid_t v = r.begin(); v != r.end(); ++v) {
      const vid_t of = s.component[v];
      if (of != c) {
        flush();
        c = of;
        least = kNoVertex;
        count = 0;
      }
      least = std::min(least, g.original_id(v));
      ++count;
    }
    flush();
  });
  Labels out;
  out.internal.resize(s.n);
  tbb::parallel_for(vid_t{0}, s.n, [&](vid_t v) { out.internal[v] = smallest[s.component[v]]; });
  using Counts = std::pair<vid_t, vid_t>;  // components, the largest
  std::tie(out.components, out.largest) = tbb::parallel_reduce(
      tbb::blocked_range<vid_t>(0, s.n), Counts{0, 0},
      [&](const tbb::blocked_range<vid_t>& r, Counts counts) {
        for (vid_t v = r.begin(); v != r.end(); ++v) {
          counts.first += s.component[v] == v ? 1 : 0;
          counts.second = std::max(counts.second, size[v]);
        }
        return counts;
      },
      [](Counts a, Counts b) {
        return Counts{a.first + b.first, std::max(a.second, b.second)};
      });
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
  const auto seconds_since = [](Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
  };
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
    it.seconds = it.compute_seconds = seconds_since(phase_start);
    stats.iterations.push_back(it);
    unsettled -= settled;
    phase_start = Clock::now();
  };
  // FW-BW's searches, runs of the engine whose iterations join the phases': forward over this
  // engine's lists, backward over those of an engine made on the in-lists (a symmetric graph's
  // are its out-lists), which the setup's time counts.
  std::optional<OocEngine> in_lists;
  const auto reach = [&](Way way, const std::vector<std::uint32_t>& closed, vid_t pivot) {
    const auto made = Clock::now();
    if (way == Way::in && !g.symmetric && !in_lists) in_lists.emplace(in_edge_view(g), options());
    OocEngine& engine = way == Way::in && in_lists ? *in_lists : *this;
    SccReach program{closed.data(), pivot};
    std::shared_ptr<void> on_device;
    const std::size_t bytes = closed.size() * sizeof(std::uint32_t);
    if (engine.impl_->device) {
      on_device = detail::device_allocate(*engine.impl_->device, bytes, "scc's closed vertices");
      detail::copy_to_device(*engine.impl_->device, on_device.get(), closed.data(), bytes);
      program.closed = static_cast<const std::uint32_t*>(on_device.get());
    }
    detail::RawRun<SccReach> raw =
        engine.run_builtin(program, engine.begin_run(detail::info_of<SccReach>("scc"), run));
    // Its setup: the engine on the in-lists, the bitmap's copy, the run's planning and executor.
    raw.stats.setup_seconds = seconds_since(made) - raw.stats.seconds - raw.stats.readback_seconds;
    if (way == Way::out) {
      // The summary's place, policy and memory are the forward search's (it runs first).
      RunStats described = raw.stats;
      described.algorithm = stats.algorithm;
      described.iterations = std::move(stats.iterations);
      described.seconds = stats.seconds;
      described.setup_seconds = stats.setup_seconds;
      described.readback_seconds = stats.readback_seconds;
      described.setup_bytes = stats.setup_bytes;
      described.setup_storage_bytes = stats.setup_storage_bytes;
      described.setup_storage_seconds = stats.setup_storage_seconds;
      stats = std::move(described);
    }
    stats.add(raw.stats);
    return std::move(raw.values);
  };
  std::vector<vid_t> trimmed = count_edges(s);
  const vid_t first_trim = static_cast<vid_t>(trimmed.size()) + retire(s, std::move(trimmed));
  end_phase(first_trim);
  const vid_t p = pivot(s);
  std::vector<vid_t> giant = p == kUnsettled ? std::vector<vid_t>{} : forward_backward(s, p, reach);
  const auto giant_size = static_cast<vid_t>(giant.size());
  unsettled -= giant_size;
  phase_start = Clock::now();
  const vid_t second_trim = retire(s, std::move(giant));
  end_phase(second_trim);
  const vid_t left = unsettled;
  if (left > 0) tarjan(s);
  end_phase(left);
  const Labels labels = label(s, g);

  SccResult result;
  result.values = to_user_ids(labels.internal.data());
  result.components = labels.components;
  result.largest = labels.largest;
  stats.method = "trim, FW-BW, Tarjan: " + std::to_string(labels.components) +
                 " components, the largest " + std::to_string(labels.largest) + " (trimmed " +
                 std::to_string(first_trim + second_trim) + ", FW-BW " +
                 std::to_string(giant_size) + ", Tarjan " + std::to_string(left) + ")";
  stats.seconds = seconds_since(start) - stats.setup_seconds;
  result.stats = std::move(stats);
  return result;
}

}  // namespace ooc
