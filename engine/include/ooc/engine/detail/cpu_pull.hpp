#pragma once
// The CPU executor's pull direction (direction.hpp, pull.hpp): the survey of the vertices that
// would gather, the frontier's messages, and the tasks that gather along the gathering
// vertices' lists. Member definitions of CpuExecutor; cpu_executor.hpp includes this at its end.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <atomic>
#include <limits>
#include <numeric>
#include <span>
#include <vector>

#include "ooc/engine/pull.hpp"

namespace ooc::detail {

// The floor (programs that have one), the vertices that would gather and their survey.
template <class P>
void CpuExecutor<P>::survey_pull(std::span<PartitionSurvey> out) {
  if constexpr (kCanPull) {
    const vid_t n = g_.num_vertices();
    has_floor_ = false;
    if constexpr (PullFloorProgram<P>) {
      // The least value in the frontier; every offer this iteration is at least its floor.
      const Value none = std::numeric_limits<Value>::max();
      const Value least = tbb::parallel_reduce(
          tbb::blocked_range<std::size_t>(0, parts_.size()), none,
          [&](const tbb::blocked_range<std::size_t>& r, Value acc) {
            for (std::size_t i = r.begin(); i < r.end(); ++i) {
              current_.for_each_set(parts_[i].first_vertex, parts_[i].last_vertex,
                                    [&](std::size_t v) { acc = std::min(acc, values_[v]); });
            }
            return acc;
          },
          [](Value a, Value b) { return std::min(a, b); });
      Value agreed = least;  // over every rank's frontier
      if (link_ != nullptr) link_->all_reduce(std::span<Value>(&agreed, 1), Reduction::min);
      has_floor_ = agreed != none;
      floor_ = program_.pull_floor(agreed);
    }
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, gathering_.num_words(), 256),
        [&](const tbb::blocked_range<std::size_t>& r) {
          for (std::size_t w = r.begin(); w < r.end(); ++w) {
            std::uint64_t bits = 0;
            for (std::size_t b = 0; b < 64 && (w << 6) + b < n; ++b) {
              const auto v = static_cast<vid_t>((w << 6) + b);
              if (pull_lists_.g->degree(v) > 0 && (!has_floor_ || floor_ < values_[v]))
                bits |= std::uint64_t{1} << b;
            }
            // A rank gathers into its own vertices alone: it holds only their lists.
            gathering_.words()[w] = owned_ != nullptr ? bits & owned_->words()[w] : bits;
          }
        });
    tbb::parallel_for(std::size_t{0}, parts_.size(), [&](std::size_t i) {
      pull_surveys_[i] = survey_partition(pull_lists_, i, gathering_, true);
    });
    std::ranges::copy(pull_surveys_, out.begin());
  }
}

template <class P>
void CpuExecutor<P>::take_sources() {
  std::vector<std::uint32_t> all(parts_.size());
  std::iota(all.begin(), all.end(), std::uint32_t{0});
  const std::span<const vid_t> sources = take_current(all, [&](vid_t v) { return admitted(v); });
  if constexpr (kAccumulative) {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, sent_.size(), 1 << 16),
                      [&](const tbb::blocked_range<std::size_t>& r) {
                        std::fill(sent_.begin() + r.begin(), sent_.begin() + r.end(), Value{0});
                      });
    tbb::parallel_for(std::size_t{0}, sources.size(), [&](std::size_t i) {
      const vid_t u = sources[i];
      const Value delta = atomic_exchange(deltas_.data() + u, Value{0});
      if (delta == Value{0}) return;
      atomic_add(values_.data() + u, delta);
      if (g_.degree(u) > 0) sent_[u] = program_.message(delta, g_.degree(u));  // else absorbed
    });
    // A rank's vertices gather from every rank's frontier: the messages are summed over ranks
    // (each rank's are zero outside its own frontier).
    if (link_ != nullptr) link_->all_reduce(sent_.span(), Reduction::sum);
  }
}

// A task of the pull direction: the lists of its partitions' gathering vertices, brought by its
// engine as a push task brings the frontier's, and gathered along.
template <class P>
void CpuExecutor<P>::run_pull(const Task& task, IterationStats& stats) {
  if constexpr (kCanPull) {
    const PullRule<P> rule{program_, kAccumulative ? sent_.data() : values_.data(),
                           kAccumulative ? deltas_.data() : values_.data(), floor_, has_floor_};
    const auto gather = [&](std::size_t count, const auto& edges_of, auto&& read) {
      return pull_cpu(rule, next_, count, edges_of, read);
    };
    const auto unread = [](std::size_t, eid_t) {};
    const std::span<const vid_t> vertices =
        take_set(gathering_, task.partitions, [](vid_t) { return true; });
    if (task.engine == TransferEngine::filter) {
      const eid_t base = stage(task, stats);
      const auto start = Clock::now();
      stats.edges_processed += gather(
          vertices.size(), [&](std::size_t i) { return staged_edges(vertices[i], base); }, unread);
      stats.compute_seconds += since(start);
      return;
    }
    const bool compressed = lists().compressed;
    if (task.engine == TransferEngine::compaction ||
        (task.engine == TransferEngine::zerocopy && compressed)) {
      const auto from = compressed ? ListSource::compressed : ListSource::raw;
      const eid_t edges = over_batches(vertices, from, stats, [&](std::size_t n, const auto& of) {
        return gather(n, of, unread);
      });
      if (task.engine == TransferEngine::compaction) {
        stats.bytes[static_cast<std::size_t>(TransferEngine::compaction)] +=
            compaction_bytes(vertices, edges);
      } else {  // the survey's lines: the whole lists, which a stopping vertex may not read
        for (const std::uint32_t p : task.partitions)
          stats.bytes[static_cast<std::size_t>(TransferEngine::zerocopy)] +=
              surveys_[p].activity.requests * options_.cost.request_bytes;
      }
      return;
    }
    // In place: zero-copy counts the lines each vertex read, up to where it stopped.
    std::atomic<std::uint64_t> lines{0};
    const auto start = Clock::now();
    stats.edges_processed += gather(
        vertices.size(), [&](std::size_t i) { return edges_in_place(vertices[i]); },
        [&](std::size_t i, eid_t read) {
          if (task.engine != TransferEngine::zerocopy) return;
          std::uint64_t held = 0;
          lines.fetch_add(read_lines(lists(), vertices[i], read, held), std::memory_order_relaxed);
        });
    stats.compute_seconds += since(start);
    if (task.engine == TransferEngine::zerocopy) {
      stats.bytes[static_cast<std::size_t>(TransferEngine::zerocopy)] +=
          lines.load() * options_.cost.request_bytes;
    } else if (task.engine == TransferEngine::unified) {
      stats.bytes[static_cast<std::size_t>(TransferEngine::unified)] += unified_bytes(vertices);
    }
  }
}

}  // namespace ooc::detail
