#include "stats_json.hpp"

#include <sstream>

namespace ooc::tools {
namespace {

nlohmann::json per_engine(const auto& values) {
  nlohmann::json j;
  for (std::size_t e = 0; e < kEngines; ++e)
    j[std::string(to_string(static_cast<TransferEngine>(e)))] = values[e];
  return j;
}

// The trace's fields, with the per-engine ones (partitions_filter, bytes_filter, ...) grouped as
// {"partitions": {"filter": ...}, "bytes": {...}}.
nlohmann::json iteration_json(const IterationStats& it) {
  nlohmann::json j;
  for_each_trace_field(it, [&](const std::string& name, const auto& field) { j[name] = field; });
  for (const std::string group : {"partitions", "bytes"}) {
    nlohmann::json per;
    for (std::size_t e = 0; e < kEngines; ++e) {
      const std::string engine(to_string(static_cast<TransferEngine>(e)));
      per[engine] = j[group + "_" + engine];
      j.erase(group + "_" + engine);
    }
    j[group] = std::move(per);
  }
  return j;
}

nlohmann::json size_times(const SizeTimes& t) {
  nlohmann::json out = nlohmann::json::array();
  for (const TimedSize& at : t.at)
    out.push_back({{"bytes", at.bytes}, {"seconds", at.seconds}});
  return out;
}

// Every run's fields; to_json adds the program's own.
nlohmann::json common_json(const RunStats& s) {
  nlohmann::json iterations = nlohmann::json::array();
  for (const IterationStats& it : s.iterations)
    iterations.push_back(iteration_json(it));
  std::array<std::uint64_t, kEngines> bytes{};
  for (std::size_t e = 0; e < kEngines; ++e)
    bytes[e] = s.bytes(static_cast<TransferEngine>(e));
  return {{"algorithm", s.algorithm},
          {"backend", s.backend},
          {"device", s.device},
          {"transfer", s.transfer},
          {"priority", s.priority},
          {"load_balance", s.load_balance},
          {"direction", s.direction},
          {"choices", s.choices},
          {"method", s.method},
          {"batch", s.batch},
          {"priority_delta", s.priority_delta},
          {"pull_iterations", s.pull_iterations()},
          {"frontier_loop",
           {{"edges", s.frontier_loop_edges},
            {"delta", s.frontier_loop_delta},
            {"hops", s.frontier_loop_hops},
            {"iterations", s.loop_iterations()}}},
          {"pull_blocks", s.pull_blocks},
          {"resident_slices", s.resident_slices},
          {"exchange", s.exchange},
          {"exchange_rounds", s.exchange_rounds},
          {"in_memory", s.in_memory},
          {"compressed", s.compressed},
          {"adapt_costs", s.adapt_costs},
          {"partitions", s.partitions},
          {"seconds", s.seconds},
          {"setup_seconds", s.setup_seconds},
          {"setup_bytes", s.setup_bytes},
          {"readback_seconds", s.readback_seconds},
          {"iterations", s.iterations.size()},
          {"edges_processed", s.edges_processed()},
          {"bytes", per_engine(bytes)},
          {"total_bytes", s.total_bytes()},
          {"memory",
           {{"budget", s.budget},
            {"vertex_bytes", s.vertex_bytes},
            {"staging_bytes", s.staging_bytes},
            {"edge_bytes", s.edge_bytes},
            {"host_pinned_bytes", s.host_pinned_bytes}}},
          {"cache_bytes", s.cache_bytes},
          {"cache_partitions", s.cache_partitions},
          {"cached_bytes", s.cached_bytes()},
          {"host_tier",
           {{"host_memory", s.host_memory},
            {"resident_bytes", s.host_resident_bytes},
            {"resident_partitions", s.host_resident_partitions},
            {"storage_bytes", s.storage_bytes()},
            {"setup_storage_bytes", s.setup_storage_bytes},
            {"setup_storage_seconds", s.setup_storage_seconds},
            {"direct", s.storage_direct},
            {"storage_bandwidth", s.storage_bandwidth},
            {"storage_latency", s.storage_latency}}},
          {"exchange_calibration",
           s.exchange_calibration.measured() ? to_json(s.exchange_calibration) : nlohmann::json()},
          {"per_iteration", iterations}};
}

}  // namespace

nlohmann::json to_json(const RunStats& s) {
  nlohmann::json j = common_json(s);
  if (s.l1_bound > 0) {  // PageRank's (RunStats::tolerance, l1_bound)
    j["tolerance"] = s.tolerance;
    j["l1_bound"] = s.l1_bound;
  }
  return j;
}

nlohmann::json to_json(const ExchangeCalibration& c) {
  return {{"setup_seconds", c.setup_seconds},
          {"all_reduce", size_times(c.all_reduce)},
          {"reduce_scatter", size_times(c.reduce_scatter)},
          {"all_gather", size_times(c.all_gather)},
          {"apply_pairs", size_times(c.apply_pairs)},
          {"change_seconds", c.change_seconds}};
}

std::string trace_header() {
  std::string out = "run,rank";
  const IterationStats none;
  for_each_trace_field(none, [&](const std::string& name, const auto&) { out += ',' + name; });
  return out + '\n';
}

std::string trace_rows(int run, int rank, std::span<const IterationStats> iterations) {
  std::ostringstream out;
  for (const IterationStats& it : iterations) {
    out << run << ',' << rank;
    // A flag as 1 or 0, as a stream writes it.
    for_each_trace_field(it, [&](const std::string&, const auto& field) { out << ',' << field; });
    out << '\n';
  }
  return out.str();
}

}  // namespace ooc::tools
