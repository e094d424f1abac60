#include "info.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <numeric>
#include <span>
#include <utility>
#include <vector>

#include "ooc/core/units.hpp"
#include "ooc/partitioner/compress.hpp"
#include "ooc/partitioner/locality.hpp"
#include "ooc/partitioner/oocg.hpp"
#include "ooc/partitioner/partition.hpp"
#include "tool_main.hpp"

namespace ooc::tools {
namespace {

using nlohmann::json;

constexpr int kBuckets = 34;  // degree 0, then [2^(k-1), 2^k) up to 2^32 and beyond
constexpr vid_t kTopHubs = 10;

struct DegreeStats {
  eid_t min = ~eid_t{0}, max = 0;
  std::uint64_t isolated = 0;
  std::vector<std::uint64_t> histogram = std::vector<std::uint64_t>(kBuckets, 0);

  void add(eid_t degree) {
    min = std::min(min, degree);
    max = std::max(max, degree);
    isolated += degree == 0 ? 1 : 0;
    const int bucket =
        degree == 0 ? 0 : std::min(kBuckets - 1, static_cast<int>(std::bit_width(degree)));
    ++histogram[static_cast<std::size_t>(bucket)];
  }
};

// One pass over the offsets; cheap next to reading the file.
DegreeStats degree_stats(const Graph& g) {
  DegreeStats s;
  for (vid_t v = 0; v < g.num_vertices(); ++v)
    s.add(g.degree(v));
  return s;
}

json histogram_json(const DegreeStats& s) {
  json rows = json::array();
  for (int b = 0; b < kBuckets; ++b) {
    const std::uint64_t count = s.histogram[static_cast<std::size_t>(b)];
    if (count == 0) continue;
    const std::uint64_t low = b == 0 ? 0 : std::uint64_t{1} << (b - 1);
    const std::uint64_t high = b == 0 ? 0 : (std::uint64_t{1} << b) - 1;
    rows.push_back({{"min_degree", low}, {"max_degree", high}, {"vertices", count}});
  }
  return rows;
}

// A partition's edges counted on `offsets` (the out- or the in-lists): min, mean and max.
json edges_per_partition(std::span<const Partition> parts, const Buffer<eid_t>& offsets) {
  eid_t min_edges = ~eid_t{0}, max_edges = 0, total = 0;
  for (const Partition& p : parts) {
    const eid_t edges = offsets[p.last_vertex] - offsets[p.first_vertex];
    min_edges = std::min(min_edges, edges);
    max_edges = std::max(max_edges, edges);
    total += edges;
  }
  const double mean =
      parts.empty() ? 0.0 : static_cast<double>(total) / static_cast<double>(parts.size());
  return {{"min", parts.empty() ? 0 : min_edges}, {"mean", mean}, {"max", max_edges}};
}

// The partition layout. With in-edges, partitions are cut so that both lists fit, and the
// in-edges per partition are given too.
json partitions_json(const Graph& g, std::uint64_t partition_bytes) {
  const auto parts = partition_by_edges(g, partition_bytes, g.bytes_per_edge());
  std::size_t hub_partitions = 0;
  for (const Partition& p : parts)
    hub_partitions += p.first_vertex < g.hub_count ? 1 : 0;
  const json out = edges_per_partition(parts, g.offsets);
  return {{"partition_bytes", partition_bytes},
          {"count", parts.size()},
          {"min_edges", out["min"]},
          {"mean_edges", out["mean"]},
          {"max_edges", out["max"]},
          {"in_edges",
           g.has_in_edges() ? edges_per_partition(parts, g.in_edges.offsets) : json(nullptr)},
          {"with_hubs", hub_partitions}};
}

// Hub sort puts the top hubs first; SAGE's reordering then moves them among the hubs, so the
// top ones by out-degree are picked out of the hub range.
std::vector<vid_t> top_hubs(const Graph& g) {
  std::vector<vid_t> hubs(g.sage_ordered ? g.hub_count : std::min(g.hub_count, kTopHubs));
  std::iota(hubs.begin(), hubs.end(), vid_t{0});
  if (!g.sage_ordered) return hubs;  // hub sort's score order
  const auto top = hubs.begin() + std::min<std::ptrdiff_t>(kTopHubs, std::ssize(hubs));
  std::partial_sort(hubs.begin(), top, hubs.end(), [&](vid_t a, vid_t b) {
    return g.degree(a) != g.degree(b) ? g.degree(a) > g.degree(b) : a < b;
  });
  hubs.erase(top, hubs.end());
  return hubs;
}

json hubs_json(const Graph& g) {
  json top = json::array();
  for (const vid_t v : top_hubs(g))
    top.push_back({{"vertex", g.original_id(v)}, {"out_degree", g.degree(v)}});
  const double fraction =
      g.num_vertices() == 0 ? 0.0 : static_cast<double>(g.hub_count) / g.num_vertices();
  return {{"count", g.hub_count}, {"fraction", fraction}, {"top", top}};
}

json locality_json(const Graph& g) {
  const Locality l = measure_locality(g);
  return {{"tiles", l.tiles},
          {"value_sectors", l.value_sectors},
          {"sectors_per_tile", l.sectors_per_tile()},
          {"traversals", l.traversals},
          {"lists_read", l.lists_read},
          {"list_lines", l.list_lines},
          {"shared_lines", l.shared_lines}};
}

std::string line(const char* label, const std::string& value) {
  char prefix[32];
  std::snprintf(prefix, sizeof prefix, "%-12s", label);
  return prefix + value + "\n";
}

// The text lines of format_description, one function per part of the JSON; each line is
// formatted into a buffer of the same size, so long values are cut alike.
constexpr std::size_t kLineBytes = 160;

std::string compressed_lines(const json& c) {
  if (c.is_null()) return line("compressed", "no (partition-tool writes them unless --raw-only)");
  char buf[kLineBytes];
  const bool only = c["only"].get<bool>();
  std::snprintf(buf, sizeof buf, "%s, %.2f bytes per edge (%s)", format_bytes(c["bytes"]).c_str(),
                c["bytes_per_edge"].get<double>(),
                only ? "compressed only: no raw targets" : "raw targets: 4");
  std::string out = line("compressed", buf);
  if (const json& w = c["weights"]; !w.is_null()) {
    std::snprintf(buf, sizeof buf, "packed at %u bits: %s, %.2f bytes per edge (%s)",
                  w["bits"].get<unsigned>(), format_bytes(w["bytes"]).c_str(),
                  w["bytes_per_edge"].get<double>(), only ? "packed only" : "raw: 4");
    out += line("weights", buf);
  }
  return out;
}

std::string degree_lines(const json& d) {
  char buf[kLineBytes];
  std::snprintf(buf, sizeof buf, "min %llu, mean %.2f, max %llu; %s vertices without out-edges",
                d["min"].get<unsigned long long>(), d["mean"].get<double>(),
                d["max"].get<unsigned long long>(), with_commas(d["isolated"]).c_str());
  std::string out = line("out-degree", buf);
  for (const json& row : d["histogram"]) {
    const auto low = row["min_degree"].get<std::uint64_t>(),
               high = row["max_degree"].get<std::uint64_t>();
    const std::string range =
        low == high ? std::to_string(low) : std::to_string(low) + "-" + std::to_string(high);
    std::snprintf(buf, sizeof buf, "  degree %-21s %s", range.c_str(),
                  with_commas(row["vertices"]).c_str());
    out += line("", buf);
  }
  return out;
}

std::string partition_lines(const json& p) {
  char buf[kLineBytes];
  std::snprintf(buf, sizeof buf,
                "%s of %s: edges per partition min %s, mean %.0f, max %s; %s hold hubs",
                with_commas(p["count"]).c_str(), format_bytes(p["partition_bytes"]).c_str(),
                with_commas(p["min_edges"]).c_str(), p["mean_edges"].get<double>(),
                with_commas(p["max_edges"]).c_str(), with_commas(p["with_hubs"]).c_str());
  std::string out = line("partitions", buf);
  if (const json& in = p["in_edges"]; !in.is_null()) {
    std::snprintf(buf, sizeof buf, "in-edges per partition min %s, mean %.0f, max %s",
                  with_commas(in["min"]).c_str(), in["mean"].get<double>(),
                  with_commas(in["max"]).c_str());
    out += line("", buf);
  }
  return out;
}

std::string hub_lines(const json& h) {
  char buf[kLineBytes];
  std::snprintf(buf, sizeof buf, "%s (%.1f%% of vertices) first in the order",
                with_commas(h["count"]).c_str(), 100.0 * h["fraction"].get<double>());
  std::string out =
      line("hubs", h["count"].get<std::uint64_t>() == 0 ? "none (not hub sorted)" : buf);
  std::string top;
  for (const json& hub : h["top"]) {
    top += (top.empty() ? "" : ", ") + std::to_string(hub["vertex"].get<std::uint64_t>()) + " (" +
           with_commas(hub["out_degree"]) + ")";
  }
  if (!top.empty()) out += line("top hubs", top);
  return out;
}

std::string locality_lines(const json& l) {
  char buf[kLineBytes];
  std::snprintf(buf, sizeof buf, "%.3f value sectors per tile (up to %u targets)",
                l["sectors_per_tile"].get<double>(), kTileWidth);
  std::string out = line("locality", buf);
  std::snprintf(buf, sizeof buf,
                "%u BFS: %s target lines, each level's lists read together; %s list by list",
                l["traversals"].get<unsigned>(), with_commas(l["shared_lines"]).c_str(),
                with_commas(l["list_lines"]).c_str());
  return out + line("", buf);
}

// What a run with `budget` bytes of host memory for the lists keeps of them (its partitions are
// cut on the out-lists alone: the host tier reads no in-lists).
json host_memory_json(Graph& g, std::uint64_t partition_bytes, std::uint64_t budget) {
  InEdges in_edges = std::move(g.in_edges);
  const auto parts = partition_by_edges(g, partition_bytes, g.bytes_per_edge());
  g.in_edges = std::move(in_edges);
  const HostMemoryPlan plan = plan_host_memory(g, parts, budget);
  const bool fits = plan.list_bytes <= budget;
  return {{"budget", budget},
          {"list_bytes", plan.list_bytes},
          {"fits", fits},
          {"kept_bytes", fits ? plan.list_bytes : plan.kept_bytes},
          {"kept_partitions", fits ? parts.size() : std::size_t{plan.kept_partitions}},
          {"partitions", parts.size()}};
}

std::string host_memory_line(const json& h) {
  if (h.is_null()) return "";
  const std::string budget = format_bytes(h["budget"]);
  if (h["fits"].get<bool>()) {
    return line("host memory", budget + ": every list fits (" + format_bytes(h["list_bytes"]) +
                                   "), none is read from the file");
  }
  return line("host memory", budget + ": " + format_bytes(h["kept_bytes"]) + " of the " +
                                 format_bytes(h["list_bytes"]) + " of lists kept, in " +
                                 with_commas(h["kept_partitions"]) + " of " +
                                 with_commas(h["partitions"]) +
                                 " partitions; the others read from the file as runs need them");
}

}  // namespace

nlohmann::json describe_graph_file(const std::filesystem::path& path, std::uint64_t partition_bytes,
                                   bool locality, std::uint64_t host_memory) {
  const OocgInfo info = read_oocg_info(path);
  OocgReadOptions options;
  options.verify_checksums = false;  // `verify` checks everything; info stays quick
  Graph g = read_oocg(path, options);
  // Priced on the lists as the file holds them, before --locality decodes any.
  json host = host_memory > 0 ? host_memory_json(g, partition_bytes, host_memory) : json(nullptr);
  if (locality) decode_raw_lists(g);  // the measure walks the targets
  const DegreeStats stats = degree_stats(g);
  const double mean =
      g.num_vertices() == 0 ? 0.0 : static_cast<double>(g.num_edges()) / g.num_vertices();
  const auto per_edge = [&](std::uint64_t bytes) {
    return g.num_edges() == 0 ? 0.0
                              : static_cast<double>(bytes) / static_cast<double>(g.num_edges());
  };
  return {{"file", path.string()},
          {"file_bytes", info.file_bytes},
          {"format_version", info.version},
          {"vertices", g.num_vertices()},
          {"edges", g.num_edges()},
          {"symmetric", g.symmetric},
          {"weights", std::string(to_string(g.weight_type))},
          {"permuted", info.permuted},
          {"order", info.sage_ordered ? "sage"
                    : g.hub_count > 0 ? "hub"
                                      : "none"},
          {"compressed",
           info.compressed
               ? json{{"bytes", info.compressed_bytes},
                      {"only", info.compressed_only},
                      {"bytes_per_edge", per_edge(info.compressed_bytes)},
                      {"weights", info.packed_weights
                                      ? json{{"bits", info.weight_width},
                                             {"bytes", info.packed_weight_bytes},
                                             {"bytes_per_edge", per_edge(info.packed_weight_bytes)}}
                                      : json(nullptr)}}
               : json(nullptr)},
          {"in_edges", info.in_edges},
          {"out_degree",
           {{"min", g.num_vertices() == 0 ? 0 : stats.min},
            {"max", stats.max},
            {"mean", mean},
            {"isolated", stats.isolated},
            {"histogram", histogram_json(stats)}}},
          {"partitions", partitions_json(g, partition_bytes)},
          {"hubs", hubs_json(g)},
          {"locality", locality ? locality_json(g) : json(nullptr)},
          {"host_memory", std::move(host)}};
}

std::string format_description(const nlohmann::json& j) {
  std::string out;
  out +=
      line("file", j["file"].get<std::string>() + " (" + format_bytes(j["file_bytes"]) +
                       ", format version " + std::to_string(j["format_version"].get<int>()) + ")");
  out += line("vertices", with_commas(j["vertices"]));
  out += line("edges", with_commas(j["edges"]) +
                           (j["symmetric"].get<bool>() ? " (symmetric)" : " (directed)") +
                           ", weights: " + j["weights"].get<std::string>());
  out += compressed_lines(j["compressed"]);
  out += line("in-edges", j["in_edges"].get<bool>()
                              ? "yes: each vertex's in-neighbours, for the pull direction"
                          : j["symmetric"].get<bool>()
                              ? "not needed (symmetric: the out-lists are the in-lists)"
                              : "no (partition-tool --in-edges adds them, which the pull "
                                "direction needs)");
  out += degree_lines(j["out_degree"]);
  out += partition_lines(j["partitions"]);
  const std::string order = j["order"];
  out += line("order", order == "sage"  ? "sage: hub sort, then SAGE's sampled reordering inside "
                                          "the hubs and inside the rest"
                       : order == "hub" ? "hub: hub sort"
                                        : "none: the input's");
  out += hub_lines(j["hubs"]);
  if (const json& l = j["locality"]; !l.is_null()) out += locality_lines(l);
  out += host_memory_line(j["host_memory"]);
  return out;
}

}  // namespace ooc::tools
