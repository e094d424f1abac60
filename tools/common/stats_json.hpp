#pragma once
// RunStats as JSON and as a per-iteration CSV trace, shared by ooc-run and the benchmark suite.
#include <nlohmann/json.hpp>
#include <span>
#include <string>

#include "ooc/engine/stats.hpp"

namespace ooc::tools {

nlohmann::json to_json(const RunStats& stats);

// The exchange's calibration (GPU ranks): NCCL's set-up and every measured size.
nlohmann::json to_json(const ExchangeCalibration& calibration);

// Every figure of an iteration that the trace writes, in its column order, as visit(name, field):
// the header, the rows and ooc-run's gather of every rank's rows go by this one list. A field is a
// whole number, a flag or seconds (a double); `Stats` is IterationStats, const or not.
template <class Stats, class Visit>
void for_each_trace_field(Stats& it, Visit&& visit) {
  visit("iteration", it.iteration);
  visit("pull", it.pull);
  visit("frontier_loop", it.frontier_loop);
  visit("active_vertices", it.active_vertices);
  visit("active_edges", it.active_edges);
  visit("frontier_vertices", it.frontier_vertices);
  visit("frontier_edges", it.frontier_edges);
  visit("edges_processed", it.edges_processed);
  for (std::size_t e = 0; e < kEngines; ++e)
    visit("partitions_" + std::string(to_string(static_cast<TransferEngine>(e))), it.partitions[e]);
  for (std::size_t e = 0; e < kEngines; ++e)
    visit("bytes_" + std::string(to_string(static_cast<TransferEngine>(e))), it.bytes[e]);
  visit("cached_bytes", it.cached_bytes);
  visit("storage_bytes", it.storage_bytes);
  visit("storage_seconds", it.storage_seconds);
  visit("storage_ahead_bytes", it.storage_ahead_bytes);
  visit("storage_wait_seconds", it.storage_wait_seconds);
  visit("tasks", it.tasks);
  visit("seconds", it.seconds);
  visit("survey_seconds", it.survey_seconds);
  visit("window_seconds", it.window_seconds);
  visit("direction_seconds", it.direction_seconds);
  visit("transfer_seconds", it.transfer_seconds);
  visit("compute_seconds", it.compute_seconds);
  visit("exchange_bytes", it.exchange_bytes);
  visit("exchange_seconds", it.exchange_seconds);
  visit("nccl_seconds", it.nccl_seconds);
  visit("wait_seconds", it.wait_seconds);
  visit("sparse_exchange", it.sparse_exchange);
  visit("exchange_rounds", it.exchange_rounds);
  visit("busiest_changes", it.busiest_changes);
  visit("link_bandwidth", it.link_bandwidth);
  visit("zerocopy_round_trip", it.zerocopy_round_trip);
}

// The trace's header line (run, rank, then the fields above), then one line per iteration of each
// rank's runs: `run` numbers the runs, `rank` is the rank whose iterations they are (0 for one).
std::string trace_header();
std::string trace_rows(int run, int rank, std::span<const IterationStats> iterations);

}  // namespace ooc::tools
