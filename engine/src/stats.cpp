#include "ooc/engine/stats.hpp"

#include <algorithm>
#include <cstdio>
#include <numeric>

#include "ooc/core/units.hpp"

namespace ooc {

std::string_view to_string(TransferEngine e) {
  switch (e) {
    case TransferEngine::filter:
      return "filter";
    case TransferEngine::compaction:
      return "compaction";
    case TransferEngine::zerocopy:
      return "zerocopy";
    case TransferEngine::unified:
      return "unified";
    case TransferEngine::resident:
      return "resident";
  }
  return "?";
}

std::uint64_t IterationStats::total_bytes() const {
  return std::accumulate(bytes.begin(), bytes.end(), std::uint64_t{0});
}

std::uint64_t RunStats::edges_processed() const {
  std::uint64_t sum = 0;
  for (const IterationStats& it : iterations)
    sum += it.edges_processed;
  return sum;
}

std::uint64_t RunStats::bytes(TransferEngine e) const {
  std::uint64_t sum = 0;
  for (const IterationStats& it : iterations)
    sum += it.bytes[static_cast<std::size_t>(e)];
  return sum;
}

std::uint64_t RunStats::total_bytes() const {
  std::uint64_t sum = 0;
  for (const IterationStats& it : iterations)
    sum += it.total_bytes();
  return sum;
}

void RunStats::add(const RunStats& run) {
  for (IterationStats it : run.iterations) {
    it.iteration = static_cast<std::uint32_t>(iterations.size());
    iterations.push_back(it);
  }
  seconds += run.seconds;
  setup_seconds += run.setup_seconds;
  readback_seconds += run.readback_seconds;
  setup_bytes += run.setup_bytes;
  setup_storage_bytes += run.setup_storage_bytes;
  setup_storage_seconds += run.setup_storage_seconds;
}

void RunStats::add_rank_tier(const RunStats& rank) {
  host_memory += rank.host_memory;
  host_resident_bytes += rank.host_resident_bytes;
  host_resident_partitions += rank.host_resident_partitions;
  setup_storage_bytes += rank.setup_storage_bytes;
  setup_storage_seconds = std::max(setup_storage_seconds, rank.setup_storage_seconds);
  if (iterations.empty()) return;
  // The ranks iterate in lockstep, each counting its own: any iteration past this rank's last
  // is added to that one.
  for (std::size_t i = 0; i < rank.iterations.size(); ++i) {
    const IterationStats& other = rank.iterations[i];
    IterationStats& it = iterations[std::min(i, iterations.size() - 1)];
    it.storage_bytes += other.storage_bytes;
    it.storage_ahead_bytes += other.storage_ahead_bytes;
    it.storage_seconds = std::max(it.storage_seconds, other.storage_seconds);
    it.storage_wait_seconds = std::max(it.storage_wait_seconds, other.storage_wait_seconds);
  }
}

std::uint64_t RunStats::cached_bytes() const {
  std::uint64_t sum = 0;
  for (const IterationStats& it : iterations)
    sum += it.cached_bytes;
  return sum;
}

std::uint64_t RunStats::storage_bytes() const {
  std::uint64_t sum = 0;
  for (const IterationStats& it : iterations)
    sum += it.storage_bytes;
  return sum;
}

std::size_t RunStats::pull_iterations() const {
  std::size_t n = 0;
  for (const IterationStats& it : iterations)
    n += it.pull ? 1 : 0;
  return n;
}

std::size_t RunStats::loop_iterations() const {
  std::size_t n = 0;
  for (const IterationStats& it : iterations)
    n += it.frontier_loop ? 1 : 0;
  return n;
}

namespace {

// The parts of RunStats::summary, in the order it joins them.

// What ran where, how long it took, and the bytes each transfer engine moved.
std::string headline(const RunStats& s) {
  // The advance mapping is a CUDA setting; the CPU backend has one.
  const std::string mapping = s.backend == "cuda" ? ", " + s.load_balance : "";
  char head[320];
  std::snprintf(
      head, sizeof head,
      "%s on %s (%s, %s, priority %s%s): %.3f s (+%.3f s setup, %.3f s readback), %zu iterations, "
      "%llu edges processed, bytes:",
      s.algorithm.c_str(), s.device.c_str(), s.transfer.c_str(),
      s.in_memory ? "in-memory" : "out-of-core", s.priority ? "on" : "off", mapping.c_str(),
      s.seconds, s.setup_seconds, s.readback_seconds, s.iterations.size(),
      static_cast<unsigned long long>(s.edges_processed()));
  std::string text = head;
  for (std::size_t e = 0; e < kEngines; ++e) {
    const std::uint64_t b = s.bytes(static_cast<TransferEngine>(e));
    if (b > 0)
      text += " " + std::string(to_string(static_cast<TransferEngine>(e))) + " " + format_bytes(b);
  }
  if (s.total_bytes() == 0) text += " none";
  if (s.compressed) text += " (compressed lists)";
  return text;
}

// The choices that shaped the run: resident slices, pulling, adapted costs, the edge cache.
std::string schedule_notes(const RunStats& s) {
  std::string text;
  if (!s.method.empty()) text += "; " + s.method;
  if (s.l1_bound > 0) {
    char accuracy[80];
    std::snprintf(accuracy, sizeof accuracy, "; tolerance %.2g, L1 <= %.1e (bound)", s.tolerance,
                  s.l1_bound);
    text += accuracy;
  }
  if (s.batch > 0) text += "; batches of " + std::to_string(s.batch) + " sources";
  if (s.priority_delta > 0) {
    char delta[48];
    std::snprintf(delta, sizeof delta, "; windows of delta %g", s.priority_delta);
    text += delta;
  }
  if (s.frontier_loop_edges > 0) {
    char loop[160];
    std::snprintf(loop, sizeof loop, "; frontier loop in %zu of %zu iterations (up to %llu edges",
                  s.loop_iterations(), s.iterations.size(),
                  static_cast<unsigned long long>(s.frontier_loop_edges));
    text += loop;
    if (s.frontier_loop_delta > 0) {
      std::snprintf(loop, sizeof loop, ", piles of delta %g", s.frontier_loop_delta);
      text += loop;
    }
    if (s.frontier_loop_hops > 0) text += ", " + std::to_string(s.frontier_loop_hops) + " hops";
    text += ")";
  }
  if (s.resident_slices > 1)
    text += "; up to " + std::to_string(s.resident_slices) + " resident slices";
  if (s.direction != "push" && !s.direction.empty()) {
    text += "; pulled in " + std::to_string(s.pull_iterations()) + " of " +
            std::to_string(s.iterations.size()) + " iterations (direction " + s.direction +
            (s.pull_blocks > 1 ? ", " + std::to_string(s.pull_blocks) + " cache blocks" : "") + ")";
  }
  if (s.adapt_costs && !s.iterations.empty()) {
    char costs[96];
    std::snprintf(
        costs, sizeof costs, "; costs adapted to link %.1f GB/s, zero-copy round trip %.2f",
        s.iterations.back().link_bandwidth / 1e9, s.iterations.back().zerocopy_round_trip);
    text += costs;
  }
  if (s.cache_partitions > 0) {
    text += "; cache " + format_bytes(s.cache_bytes) + " in " + std::to_string(s.cache_partitions) +
            " partitions served " + format_bytes(s.cached_bytes());
  }
  if (s.host_memory > 0) {
    double seconds = 0, waited = 0;
    std::uint64_t ahead = 0;
    for (const IterationStats& it : s.iterations) {
      seconds += it.storage_seconds;
      waited += it.storage_wait_seconds;
      ahead += it.storage_ahead_bytes;
    }
    char read[224];
    std::snprintf(read, sizeof read,
                  " read from the file in %.3f s (%s; %s while the task before ran, %.3f s waited; "
                  "priced at %.2f GB/s and %.3f ms a read)",
                  seconds, s.storage_direct ? "O_DIRECT" : "through the page cache",
                  format_bytes(ahead).c_str(), waited, s.storage_bandwidth / 1e9,
                  s.storage_latency * 1e3);
    text += "; host memory " + format_bytes(s.host_memory) + ": " +
            format_bytes(s.host_resident_bytes) + " of lists in " +
            std::to_string(s.host_resident_partitions) + " of " + std::to_string(s.partitions) +
            " partitions, " + format_bytes(s.storage_bytes()) + read;
    if (s.setup_storage_bytes > 0) {
      std::snprintf(read, sizeof read, " in %.3f s", s.setup_storage_seconds);
      text += ", and " + format_bytes(s.setup_storage_bytes) +
              " into the edge cache before the first iteration" + read;
    }
  }
  return text;
}

// What the ranks exchanged, summed over the iterations; nothing for one rank.
std::string exchange_notes(const RunStats& s) {
  std::uint64_t exchanged = 0;
  double exchange_seconds = 0;
  double nccl_seconds = 0, wait_seconds = 0;
  std::size_t sparse = 0, exchanges = 0;
  for (const IterationStats& it : s.iterations) {
    exchanges += it.exchange_rounds;
    exchanged += it.exchange_bytes;
    exchange_seconds += it.exchange_seconds;
    nccl_seconds += it.nccl_seconds;
    wait_seconds += it.wait_seconds;
    sparse += it.sparse_exchange ? 1 : 0;
  }
  if (exchanged == 0) return "";
  char line[128];
  std::snprintf(line, sizeof line, "; exchanged %s in %zu exchanges, %.3f s",
                format_bytes(exchanged).c_str(), exchanges, exchange_seconds);
  std::string text = line;
  if (nccl_seconds > 0) {
    std::snprintf(line, sizeof line, " (%.3f s in NCCL, %.3f s waiting for the other ranks)",
                  nccl_seconds, wait_seconds);
    text += line;
  }
  if (sparse > 0) {
    std::snprintf(line, sizeof line, " (sparse in %zu of %zu iterations)", sparse,
                  s.iterations.size());
    text += line;
  }
  return text;
}

}  // namespace

std::string RunStats::summary() const {
  std::string text = headline(*this) + schedule_notes(*this) + exchange_notes(*this);
  for (const std::string& choice : choices)
    text += "; " + choice;
  return text;
}

}  // namespace ooc
