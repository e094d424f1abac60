// ooc-run: runs BFS, SSSP, CC or PageRank on a .oocg graph (or one generated in memory) with
// OocEngine, prints a summary line per run, and optionally verifies the result against the
// serial reference, writes the values, the stats as JSON and a per-iteration trace. See
// docs/cli.md.
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <limits>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "ooc/core/error.hpp"
#include "ooc/core/units.hpp"
#include "ooc/engine/calibration.hpp"
#include "ooc/engine/engine.hpp"
#include "ooc/engine/mpi.hpp"
#include "ooc/engine/reference.hpp"
#include "ooc/partitioner/builder.hpp"
#include "ooc/partitioner/generators.hpp"
#include "ooc/partitioner/hub_sort.hpp"
#include "ooc/partitioner/oocg.hpp"
#include "ooc/transfer/devices.hpp"
#include "stats_json.hpp"
#include "tool_main.hpp"

namespace ooc::tools {
namespace {

struct Args {
  std::string algorithm;
  std::string graph, generate, weights;
  std::uint64_t seed = 1;
  std::optional<vid_t> source;
  std::optional<std::uint32_t> sources;  // bc: how many to sample
  std::string source_list;               // bc: the sources named
  std::string backend = "auto", transfer = "hybrid", partition_bytes = "32MiB", budget = "0";
  std::string priority = "on";
  std::string load_balance = "tiled";
  std::string direction = "push";
  std::string exchange = "auto";
  std::string exchange_rounds = "4";
  std::string pull_blocks = "1";
  std::string resident_slices = "4";
  std::string in_memory = "on";
  std::string cache = "on";
  std::string compressed = "on";
  std::string adapt_costs = "off";
  std::string calibration = "off";
  double priority_fraction = 0;
  std::uint64_t priority_min_edges = 1u << 20;
  float damping = 0.85f, tolerance = 1e-6f;
  std::uint32_t max_iterations = 0;
  bool verify = false, quiet = false;
  std::string output, json, trace, pagerank_reference;
  int repeat = 1;
  unsigned threads = 0;
  std::string devices;  // empty: GPU 0 (under mpirun: the rank's GPU on its host)
};

// Every algorithm's values as doubles (exact for 32-bit integers and floats), +inf where a
// vertex was not reached, indexed by the user's ids.
struct Outcome {
  std::vector<double> values;
  RunStats stats;
  bool converged = true;
  std::vector<RunStats> forward, backward;  // bc: each source's two runs
};

template <class T>
std::vector<double> as_doubles(const std::vector<T>& values, std::optional<T> unreached = {}) {
  std::vector<double> out(values.size());
  for (std::size_t v = 0; v < values.size(); ++v) {
    out[v] = unreached && values[v] == *unreached ? std::numeric_limits<double>::infinity()
                                                  : static_cast<double>(values[v]);
  }
  return out;
}

// "kron:SCALE[:EF]", "urand:SCALE[:EF]", "grid:ROWSxCOLS": undirected, hub sorted, weighted when
// asked (sssp asks for random:1-64 by default).
Graph generate_graph(const Args& a) {
  const auto colon = a.generate.find(':');
  const std::string kind = a.generate.substr(0, colon);
  const std::string rest = colon == std::string::npos ? "" : a.generate.substr(colon + 1);
  const auto bad = [&] {
    return InvalidInput("invalid --generate '" + a.generate +
                        "': expected kron:SCALE[:EF], urand:SCALE[:EF] or grid:ROWSxCOLS");
  };
  EdgeList edges;
  try {
    if (kind == "kron" || kind == "urand") {
      const auto second = rest.find(':');
      const auto scale = static_cast<unsigned>(std::stoul(rest.substr(0, second)));
      const auto ef = second == std::string::npos
                          ? 16u
                          : static_cast<unsigned>(std::stoul(rest.substr(second + 1)));
      edges = kind == "kron" ? generate_kronecker(scale, ef, a.seed)
                             : generate_uniform(scale, ef, a.seed);
    } else if (kind == "grid") {
      const auto x = rest.find('x');
      if (x == std::string::npos) throw bad();
      edges = generate_grid(static_cast<std::uint32_t>(std::stoul(rest.substr(0, x))),
                            static_cast<std::uint32_t>(std::stoul(rest.substr(x + 1))));
    } else {
      throw bad();
    }
  } catch (const std::logic_error&) {  // stoul
    throw bad();
  }
  BuildOptions options;
  options.undirected = true;
  const bool sssp = a.algorithm.find("sssp") != std::string::npos;
  const std::string weights = !a.weights.empty() ? a.weights : sssp ? "random:1-64" : "none";
  options.weights = parse_weight_spec(weights, a.seed);
  return hub_sort(build_graph(std::move(edges), options));
}

// One entry of a count option's list: a whole number from 1 to `most`, or `word` (when given)
// for 0.
std::uint32_t parse_count(const std::string& text, const char* option, std::uint32_t most,
                          const char* word = nullptr) {
  if (word != nullptr && text == word) return 0;
  std::uint32_t n = 0;
  const char* const end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, n);
  if (error != std::errc{} || stop != end || n == 0 || n > most) {
    throw InvalidInput(std::string(option) + " takes " +
                       (word != nullptr ? std::string(word) + " or " : std::string()) +
                       "whole numbers from 1 to " + std::to_string(most) +
                       ", or a list of them (got '" + text + "')");
  }
  return n;
}

std::uint32_t parse_rounds(const std::string& text) {
  return parse_count(text, "--exchange-rounds", kMaxExchangeRounds);
}

// "auto" is 0 (the GPU's L2 decides).
std::uint32_t parse_pull_blocks(const std::string& text) {
  return parse_count(text, "--pull-blocks", kMaxPullBlocks, "auto");
}

std::uint32_t parse_resident_slices(const std::string& text) {
  return parse_count(text, "--resident-slices", kMaxResidentSlices);
}

EngineOptions engine_options(const Args& a) {
  EngineOptions o;
  o.backend = parse_backend(a.backend);
  o.transfer = parse_transfer_policy(a.transfer.substr(0, a.transfer.find(',')));
  o.partition_bytes = parse_size(a.partition_bytes);
  o.device_budget = parse_size(a.budget);
  o.priority = a.priority.substr(0, a.priority.find(',')) == "on";
  o.load_balance = parse_load_balance(a.load_balance.substr(0, a.load_balance.find(',')));
  o.direction = parse_direction(a.direction.substr(0, a.direction.find(',')));
  o.exchange = parse_exchange(a.exchange.substr(0, a.exchange.find(',')));
  o.exchange_rounds = parse_rounds(a.exchange_rounds.substr(0, a.exchange_rounds.find(',')));
  o.pull_blocks = parse_pull_blocks(a.pull_blocks.substr(0, a.pull_blocks.find(',')));
  o.resident_slices =
      parse_resident_slices(a.resident_slices.substr(0, a.resident_slices.find(',')));
  o.in_memory = a.in_memory == "on";
  o.cache = a.cache == "on";
  o.compressed = a.compressed == "on";
  o.adapt_costs = a.adapt_costs == "on";
  o.priority_fraction = a.priority_fraction;
  o.priority_min_edges = a.priority_min_edges;
  return o;
}

// An engine Result as an Outcome, its values given as doubles.
template <class R>
Outcome outcome_of(std::vector<double> values, R& r) {
  Outcome o;
  o.values = std::move(values);
  o.stats = std::move(r.stats);
  o.converged = r.converged;
  return o;
}

Outcome run_once(OocEngine& engine, const Args& a, vid_t source,
                 const std::vector<vid_t>& bc_sources) {
  RunOptions run;
  run.max_iterations = a.max_iterations;
  if (a.algorithm == "bc") {
    auto r = engine.bc(bc_sources, run);
    Outcome o = outcome_of(std::move(r.values), r);
    o.forward = std::move(r.forward);
    o.backward = std::move(r.backward);
    return o;
  }
  if (a.algorithm == "bfs") {
    auto r = engine.bfs(source, run);
    return outcome_of(as_doubles(r.values, std::optional(kUnreachedLevel)), r);
  }
  if (a.algorithm == "sssp") {
    auto r = engine.sssp(source, run);
    return outcome_of(std::move(r.values), r);
  }
  if (a.algorithm == "cc") {
    auto r = engine.cc(run);
    return outcome_of(as_doubles(r.values), r);
  }
  PageRankOptions pr;
  pr.damping = a.damping;
  pr.tolerance = a.tolerance;
  pr.run = run;
  auto r = engine.pagerank(pr);
  return outcome_of(as_doubles(r.values), r);
}

// The serial reference's values, in the same form as an Outcome's.
std::vector<double> reference_values(const Graph& g, const std::string& algorithm, const Args& a,
                                     vid_t source, const std::vector<vid_t>& bc_sources) {
  if (algorithm == "bc") return reference::bc(g, bc_sources);
  if (algorithm == "bfs")
    return as_doubles(reference::bfs(g, source), std::optional(kUnreachedLevel));
  if (algorithm == "sssp") return reference::sssp(g, source);
  if (algorithm == "cc") return as_doubles(reference::cc(g));
  return reference::pagerank(g, a.damping);
}

// bc's values against the serial reference: the engine counts paths and dependencies in float.
constexpr double kBcRelative = 1e-4;

reference::Comparison compare(const std::string& algorithm, const Args& a,
                              const std::vector<double>& values,
                              const std::vector<double>& expected) {
  if (algorithm == "bc") return reference::compare_relative(values, expected, kBcRelative);
  if (algorithm != "pagerank") return reference::compare_exact(values, expected);
  const std::vector<float> ranks(values.begin(), values.end());
  return reference::compare_l1(ranks, expected,
                               reference::pagerank_l1_bound(a.damping, a.tolerance));
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  for (std::size_t at = 0; at <= text.size();) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    items.push_back(text.substr(at, comma - at));
    at = comma + 1;
  }
  return items;
}

// bc's sources (user ids): --source-list, or --sources K drawn with --seed, or --source, or the
// highest out-degree vertex. Checked against the graph here, before any run.
std::vector<vid_t> bc_sources_of(const Args& a, const OocEngine& engine) {
  std::vector<vid_t> out;
  if (!a.source_list.empty()) {
    for (const std::string& item : split_list(a.source_list)) {
      vid_t v = 0;
      const char* const end = item.data() + item.size();
      const auto [stop, error] = std::from_chars(item.data(), end, v);
      if (error != std::errc{} || stop != end || item.empty()) {
        throw InvalidInput("--source-list takes vertex ids separated by commas (got '" + item +
                           "')");
      }
      out.push_back(v);
    }
  } else if (a.sources) {
    out = engine.sample_sources(*a.sources, a.seed);
  } else {
    out = {a.source ? *a.source : engine.highest_degree_vertex()};
  }
  for (const vid_t v : out)
    engine.internal_id(v);
  return out;
}

std::string describe_sources(const Args& a, const std::vector<vid_t>& sources) {
  std::string ids;
  for (std::size_t i = 0; i < sources.size() && i < 8; ++i)
    ids += (i > 0 ? ", " : "") + std::to_string(sources[i]);
  if (sources.size() > 8) ids += ", ...";
  if (!a.source_list.empty()) return std::to_string(sources.size()) + " listed (" + ids + ")";
  if (a.sources) {
    return std::to_string(sources.size()) + " sampled with seed " + std::to_string(a.seed) +
           " from the vertices with out-edges (" + ids + ")";
  }
  return ids + (a.source ? "" : " (highest out-degree)");
}

// One of bc's phases, its runs for every source summed, as a summary line.
std::string phase_line(const std::vector<RunStats>& runs) {
  RunStats sum = runs.front();
  for (std::size_t i = 1; i < runs.size(); ++i)
    sum.add(runs[i]);
  return sum.summary();
}

struct Setting {
  TransferPolicy policy;
  bool priority;
  LoadBalance load_balance;
  Direction direction;
  Exchange exchange;
  std::uint32_t exchange_rounds;
  std::uint32_t pull_blocks;
  std::uint32_t resident_slices;
};

// Every (transfer policy, priority, load balance, direction, exchange, rounds, pull blocks,
// resident slices) asked for, policies outermost.
// The CPU backend has one mapping, one exchange, no cache blocking and no resident slices: a list
// of them would run the same thing again, so it takes the first; so does a run of one rank for the
// exchange and the rounds.
std::vector<Setting> settings(const Args& a, Backend backend, int ranks) {
  std::vector<LoadBalance> balances;
  for (const std::string& balance : split_list(a.load_balance))
    balances.push_back(parse_load_balance(balance));
  std::vector<Direction> directions;
  for (const std::string& direction : split_list(a.direction))
    directions.push_back(parse_direction(direction));
  std::vector<Exchange> exchanges;
  for (const std::string& exchange : split_list(a.exchange))
    exchanges.push_back(parse_exchange(exchange));
  if (backend != Backend::cuda) balances.resize(1);
  std::vector<std::uint32_t> rounds;
  for (const std::string& r : split_list(a.exchange_rounds))
    rounds.push_back(parse_rounds(r));
  if (backend != Backend::cuda || ranks == 1) exchanges.resize(1);
  if (ranks == 1) rounds.resize(1);
  std::vector<std::uint32_t> blocks;
  for (const std::string& b : split_list(a.pull_blocks))
    blocks.push_back(parse_pull_blocks(b));
  if (backend != Backend::cuda) blocks.resize(1);
  std::vector<std::uint32_t> slices;
  for (const std::string& n : split_list(a.resident_slices))
    slices.push_back(parse_resident_slices(n));
  if (backend != Backend::cuda) slices.resize(1);
  std::vector<Setting> out;
  for (const std::string& policy : split_list(a.transfer)) {
    for (const std::string& priority : split_list(a.priority)) {
      if (priority != "on" && priority != "off")
        throw InvalidInput("--priority takes on, off or on,off");
      for (const LoadBalance balance : balances) {
        for (const Direction direction : directions) {
          for (const Exchange exchange : exchanges) {
            for (const std::uint32_t r : rounds) {
              for (const std::uint32_t b : blocks) {
                for (const std::uint32_t n : slices) {
                  out.push_back({parse_transfer_policy(policy), priority == "on", balance,
                                 direction, exchange, r, b, n});
                }
              }
            }
          }
        }
      }
    }
  }
  return out;
}

// Out-edges of the vertices a bfs or sssp reached: what any engine must read at least once.
std::uint64_t reached_edges(const OocEngine& engine, const std::vector<double>& values) {
  std::uint64_t edges = 0;
  for (vid_t v = 0; v < values.size(); ++v) {
    if (!std::isinf(values[v])) edges += engine.graph().degree(engine.internal_id(v));
  }
  return edges;
}

// An order-independent digest of the values, to compare runs (policies) without the reference.
std::uint64_t digest(const std::vector<double>& values) {
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, values.size()), std::uint64_t{0},
      [&](const tbb::blocked_range<std::size_t>& r, std::uint64_t h) {
        for (std::size_t v = r.begin(); v < r.end(); ++v) {
          std::uint64_t x = std::bit_cast<std::uint64_t>(values[v]) ^ (v * 0x9e3779b97f4a7c15ull);
          x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
          x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
          h += x ^ (x >> 31);
        }
        return h;
      },
      std::plus<>());
}

// More partitions than this make each iteration's bookkeeping and copies visibly slower.
constexpr std::size_t kManyPartitions = 8192;

void warn_if_many_partitions(std::size_t partitions, const std::string& size) {
  if (partitions <= kManyPartitions) return;
  warn(with_commas(partitions) + " partitions of " + size +
       ": every iteration surveys and schedules each one, and copies that small run below the "
       "link's peak (Kronecker 26 BFS on an H200 took 1.5x the time of the default 32MiB with "
       "16,000 partitions, 4.5x with 64,000)");
}

// "vertex<TAB>value" per vertex in the user's ids; integers printed as integers, inf for unreached.
void write_values(const std::string& path, const std::vector<double>& values) {
  std::FILE* out = std::fopen(path.c_str(), "w");
  if (out == nullptr) throw IoError("cannot write '" + path + "': " + std::strerror(errno));
  for (std::size_t v = 0; v < values.size(); ++v) {
    const double x = values[v];
    if (std::isinf(x)) {
      std::fprintf(out, "%zu\tinf\n", v);
    } else if (x == std::floor(x) && x < 1e15) {
      std::fprintf(out, "%zu\t%.0f\n", v, x);
    } else {
      std::fprintf(out, "%zu\t%.9g\n", v, x);
    }
  }
  if (std::fclose(out) != 0) throw IoError("cannot write '" + path + "': " + std::strerror(errno));
}

// A PageRank --output to measure runs against: "vertex<TAB>value" for every vertex, in order.
std::vector<double> read_ranks(const std::string& path, std::size_t vertices) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw IoError("cannot open '" + path + "': " + std::strerror(errno));
  std::string text(static_cast<std::size_t>(in.tellg()), '\0');
  in.seekg(0);
  if (!in.read(text.data(), static_cast<std::streamsize>(text.size())))
    throw IoError("cannot read '" + path + "'");
  std::vector<double> ranks;
  ranks.reserve(vertices);
  const char* p = text.data();
  const char* const end = p + text.size();
  while (p < end) {
    const auto bad = [&] {
      return InvalidInput(path + ": line " + with_commas(ranks.size() + 1) +
                          " is not 'vertex<TAB>rank' for vertex " + with_commas(ranks.size()) +
                          " (write the file with ooc-run pagerank --output)");
    };
    std::uint64_t v = 0;
    const std::from_chars_result id = std::from_chars(p, end, v);
    if (id.ec != std::errc{} || v != ranks.size() || id.ptr == end || *id.ptr != '\t') throw bad();
    double rank = 0;
    const std::from_chars_result value = std::from_chars(id.ptr + 1, end, rank);
    if (value.ec != std::errc{} || (value.ptr != end && *value.ptr != '\n')) throw bad();
    ranks.push_back(rank);
    p = value.ptr == end ? end : value.ptr + 1;
  }
  if (ranks.size() != vertices) {
    throw InvalidInput(path + " holds " + with_commas(ranks.size()) + " ranks, and the graph has " +
                       with_commas(vertices) + " vertices");
  }
  return ranks;
}

double l1_distance(const std::vector<double>& a, const std::vector<double>& b) {
  double sum = 0;
  for (std::size_t v = 0; v < a.size(); ++v)
    sum += std::abs(a[v] - b[v]);
  return sum;
}

// The link figures of GPU `device` in a pcie-bench --json: its pinned H2D peak, merged+aligned
// zero-copy reads (pinned by cudaHostAlloc, as the engine's edges are), and 128 B aligned lists
// of 8 and 32 elements.
LinkMeasurements read_pcie_bench(const std::string& path, int device) {
  std::ifstream in(path);
  if (!in) throw IoError("cannot open '" + path + "': " + std::strerror(errno));
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw InvalidInput(path + " is not a pcie-bench --json file: " + e.what());
  }
  const std::string gpu = "GPU " + std::to_string(device);
  const auto figure = [&](const char* test, const char* pattern, const char* param) {
    if (doc.contains("rows") && doc["rows"].is_array()) {
      for (const nlohmann::json& row : doc["rows"]) {
        if (row.value("device", -2) == device && row.value("test", "") == test &&
            row.value("pattern", "") == pattern && row.value("param", "") == param &&
            row.contains("gbps") && row["gbps"].is_number()) {
          return row["gbps"].get<double>();
        }
      }
    }
    throw InvalidInput(path + " has no '" + test + "' figure '" + pattern + "' (" + param +
                       ") for " + gpu + " (run pcie-bench with --only copy,zerocopy,lists or all)");
  };
  LinkMeasurements m;
  m.copy_gbps = figure("copy", "pinned H2D", "1 stream");
  m.zerocopy_gbps = figure("zerocopy", "merged+aligned", "cudaHostAlloc");
  m.list8_gbps = figure("lists", "128 B aligned", "L=8");
  m.list32_gbps = figure("lists", "128 B aligned", "L=32");
  return m;
}

// --calibration: the cost constants from a probe of the GPU's link or a pcie-bench JSON, and a
// line that says what they are.
std::string calibrate(const std::string& how, int device, CostConstants& cost) {
  if (how == "off") return "";
  LinkMeasurements m;
  std::string source;
  if (how == "probe") {
    if (list_devices().empty())
      throw Unsupported("--calibration probe measures a GPU's link: " + describe_devices());
    m = probe_link(device);
    source = "probe of GPU " + std::to_string(device);
  } else {
    m = read_pcie_bench(how, device);
    source = how + ", GPU " + std::to_string(device);
  }
  cost = calibrated(cost, m);
  char line[320];
  std::snprintf(line, sizeof line,
                "calibration (%s): copy %.1f GB/s, zero-copy %.1f GB/s, lists of 8 and 32 "
                "elements %.1f and %.1f GB/s: link %.1f GB/s, zero-copy round trip %.3f, gamma "
                "%.3f",
                source.c_str(), m.copy_gbps, m.zerocopy_gbps, m.list8_gbps, m.list32_gbps,
                cost.link_bandwidth / 1e9, cost.zerocopy_round_trip, cost.gamma);
  return line;
}

// The engine: one process, or one rank of `ranks` that reads only its own partitions' edges.
OocEngine make_engine(const Args& a, const EngineOptions& options,
                      const std::shared_ptr<Communicator>& ranks) {
  if (!ranks)
    return a.graph.empty() ? OocEngine(generate_graph(a), options)
                           : OocEngine::load(a.graph, options);
  return a.graph.empty() ? OocEngine(generate_graph(a), options, ranks)
                         : OocEngine::load(a.graph, options, ranks);
}

std::string rank_prefix(const OocEngine& engine) {
  if (engine.ranks() == 1) return "";
  return "rank " + std::to_string(engine.rank()) + "/" + std::to_string(engine.ranks()) + ": ";
}

// Every rank's totals for the first rank's JSON: time, edges, bytes moved, exchange.
nlohmann::json per_rank(Communicator& ranks, const RunStats& stats) {
  constexpr std::size_t kFields = 6;
  std::vector<double> all(kFields * static_cast<std::size_t>(ranks.size()), 0.0);
  double exchanged = 0, exchange_seconds = 0, nccl_seconds = 0;
  for (const IterationStats& it : stats.iterations) {
    exchanged += static_cast<double>(it.exchange_bytes);
    exchange_seconds += it.exchange_seconds;
    nccl_seconds += it.nccl_seconds;
  }
  const std::array<double, kFields> mine{stats.seconds,
                                         static_cast<double>(stats.edges_processed()),
                                         static_cast<double>(stats.total_bytes()),
                                         exchanged,
                                         exchange_seconds,
                                         nccl_seconds};
  std::copy(mine.begin(), mine.end(), all.begin() + kFields * ranks.rank());
  ranks.all_reduce(all, Reduction::sum);  // each slot has one non-zero contributor
  nlohmann::json out = nlohmann::json::array();
  for (std::size_t r = 0; r < static_cast<std::size_t>(ranks.size()); ++r) {
    const double* f = all.data() + kFields * r;
    out.push_back({{"rank", r},
                   {"seconds", f[0]},
                   {"edges_processed", static_cast<std::uint64_t>(f[1])},
                   {"total_bytes", static_cast<std::uint64_t>(f[2])},
                   {"exchange_bytes", static_cast<std::uint64_t>(f[3])},
                   {"exchange_seconds", f[4]},
                   {"nccl_seconds", f[5]}});
  }
  return out;
}

// Runs every algorithm and setting asked for; returns the exit status (kExitMismatch when a
// verification failed). With `ranks` this process is one rank of a distributed run: the first
// prints the graph, the checks and the files, every rank its own summary lines.
int run_all(const Args& a, const std::shared_ptr<Communicator>& ranks, int device) {
  int status = 0;
  EngineOptions options = engine_options(a);
  options.device = device;
  settings(a, Backend::cuda, 2);  // every listed name is checked before a long load
  const std::string calibration = calibrate(a.calibration, device, options.cost);
  OocEngine engine = make_engine(a, options, ranks);
  const Graph& g = engine.graph();
  const bool lead = engine.rank() == 0;  // prints the graph and the checks, writes the files
  // The serial reference needs every edge: a rank that read only its own reads the file again.
  Graph whole;
  const auto whole_graph = [&]() -> const Graph& {
    if (engine.ranks() == 1 || a.graph.empty()) return g;
    if (whole.num_vertices() == 0) whole = read_oocg(a.graph);
    return whole;
  };
  if (lead) warn_if_many_partitions(engine.partitions().size(), a.partition_bytes);
  if (lead && !a.quiet && !calibration.empty()) std::printf("%s\n", calibration.c_str());
  if (lead && engine.ranks() > 1) {
    std::vector<bool> owns(static_cast<std::size_t>(engine.ranks()), false);
    for (const std::uint32_t owner : engine.owners())
      owns[owner] = true;
    const auto idle = std::count(owns.begin(), owns.end(), false);
    if (idle > 0) {
      warn(std::to_string(idle) + " of " + std::to_string(engine.ranks()) +
           " ranks own no partition (the graph has " + std::to_string(engine.partitions().size()) +
           " partition(s)" + " of " + a.partition_bytes +
           "): they only take part in the exchange; a smaller " +
           "--partition-bytes gives every rank a share");
    }
  }
  const std::vector<std::string> algorithms = split_list(a.algorithm);
  for (const std::string& algorithm : algorithms) {
    if (algorithm != "bfs" && algorithm != "sssp" && algorithm != "cc" && algorithm != "pagerank" &&
        algorithm != "bc") {
      throw InvalidInput("unknown algorithm '" + algorithm +
                         "' (expected bfs, sssp, cc, pagerank or bc)");
    }
  }
  const bool has_bc = std::find(algorithms.begin(), algorithms.end(), "bc") != algorithms.end();
  const std::vector<vid_t> bc_sources = has_bc ? bc_sources_of(a, engine) : std::vector<vid_t>{};
  const bool needs_source =
      std::any_of(algorithms.begin(), algorithms.end(),
                  [](const std::string& x) { return x == "bfs" || x == "sssp"; });
  const vid_t source = a.source ? *a.source : needs_source ? engine.highest_degree_vertex() : 0;
  if (needs_source) engine.internal_id(source);  // range check before any output
  if (!a.quiet && lead) {
    std::printf("graph: %s, %s vertices, %s edges (%s, weights %s), %zu partitions of %s\n",
                a.graph.empty() ? a.generate.c_str() : a.graph.c_str(),
                with_commas(g.num_vertices()).c_str(), with_commas(g.num_edges()).c_str(),
                g.symmetric        ? "symmetric"
                : g.has_in_edges() ? "directed, with in-edges"
                                   : "directed",
                std::string(to_string(g.weight_type)).c_str(), engine.partitions().size(),
                a.partition_bytes.c_str());
    if (needs_source) {
      std::printf("source: %u%s, %s out-edges\n", source, a.source ? "" : " (highest out-degree)",
                  with_commas(g.degree(engine.internal_id(source))).c_str());
    }
    if (has_bc) std::printf("bc sources: %s\n", describe_sources(a, bc_sources).c_str());
  }
  std::ofstream trace;
  if (!a.trace.empty() && lead) {
    trace.open(a.trace);
    if (!trace) throw IoError("cannot write '" + a.trace + "'");
    write_trace_header(trace);
  }
  // Read before any run, so that a bad file costs no run time.
  std::vector<double> reference_ranks;
  const bool ranks_measured =
      !a.pagerank_reference.empty() && lead &&
      std::find(algorithms.begin(), algorithms.end(), "pagerank") != algorithms.end();
  if (ranks_measured) reference_ranks = read_ranks(a.pagerank_reference, g.num_vertices());
  nlohmann::json runs = nlohmann::json::array();
  Outcome last;
  int run_index = 0;
  for (const std::string& algorithm : algorithms) {
    Args one = a;
    one.algorithm = algorithm;
    std::vector<double> expected;  // the reference, computed once per algorithm
    for (const auto& [policy, priority, balance, direction, exchange, rounds, blocks, slices] :
         settings(a, engine.backend(), engine.ranks())) {
      engine.configure({.transfer = policy,
                        .priority = priority,
                        .load_balance = balance,
                        .direction = direction,
                        .exchange = exchange,
                        .exchange_rounds = rounds,
                        .pull_blocks = blocks,
                        .resident_slices = slices});
      for (int r = 0; r < a.repeat; ++r, ++run_index) {
        last = run_once(engine, one, source, bc_sources);
        nlohmann::json j = to_json(last.stats);
        std::string accuracy;
        if (ranks_measured && algorithm == "pagerank") {
          const double l1 = l1_distance(last.values, reference_ranks);
          j["l1_to_reference"] = l1;
          char line[64];
          std::snprintf(line, sizeof line, "; L1 %.2e to the reference", l1);
          accuracy = line;
        }
        if (!a.quiet) {
          std::printf("%s%s%s%s\n", rank_prefix(engine).c_str(), last.stats.summary().c_str(),
                      accuracy.c_str(), last.converged ? "" : " (stopped before converging)");
          if (!last.forward.empty()) {
            std::printf("  %s\n  %s\n", phase_line(last.forward).c_str(),
                        phase_line(last.backward).c_str());
          }
        }
        if (!last.forward.empty()) {
          nlohmann::json forward = nlohmann::json::array(), backward = nlohmann::json::array();
          for (const RunStats& f : last.forward)
            forward.push_back(to_json(f));
          for (const RunStats& b : last.backward)
            backward.push_back(to_json(b));
          j["sources"] = bc_sources;
          j["phases"] = {{"forward", forward}, {"backward", backward}};
        }
        if (ranks) j["ranks"] = per_rank(*ranks, last.stats);
        j["values_digest"] = digest(last.values);
        if (algorithm == "bfs" || algorithm == "sssp")
          j["reached_edges"] = reached_edges(engine, last.values);
        runs.push_back(std::move(j));
        if (trace.is_open()) write_trace(trace, run_index, last.stats);
      }
      if (a.verify && lead) {
        if (expected.empty())
          expected = reference_values(whole_graph(), algorithm, a, source, bc_sources);
        const reference::Comparison c = compare(algorithm, a, last.values, expected);
        std::printf(
            "verify %s %s, priority %s%s%s%s%s: %s\n", algorithm.c_str(),
            std::string(to_string(policy)).c_str(), priority ? "on" : "off",
            engine.backend() == Backend::cuda ? (", " + std::string(to_string(balance))).c_str()
                                              : "",
            direction == Direction::push
                ? ""
                : (", direction " + std::string(to_string(direction))).c_str(),
            last.stats.pull_blocks > 1
                ? (", " + std::to_string(last.stats.pull_blocks) + " cache blocks").c_str()
                : "",
            engine.backend() == Backend::cuda && engine.ranks() > 1
                ? (", " + std::string(to_string(exchange)) + " exchange").c_str()
                : "",
            c.equal ? "ok, matches the serial reference" : ("MISMATCH: " + c.message).c_str());
        if (!c.equal) status = kExitMismatch;
      }
    }
  }
  if (!a.json.empty() && lead) {
    std::ofstream json(a.json);
    json << nlohmann::json{{"graph", a.graph.empty() ? a.generate : a.graph},
                           {"vertices", g.num_vertices()},
                           {"edges", g.num_edges()},
                           {"source", needs_source ? nlohmann::json(source) : nlohmann::json()},
                           {"ranks", engine.ranks()},
                           {"calibration", a.calibration},
                           {"adapt_costs", options.adapt_costs},
                           {"cost",
                            {{"link_bandwidth", options.cost.link_bandwidth},
                             {"zerocopy_round_trip", options.cost.zerocopy_round_trip},
                             {"gamma", options.cost.gamma},
                             {"alpha", options.cost.alpha},
                             {"beta", options.cost.beta},
                             {"compaction_bandwidth", options.cost.compaction_bandwidth}}},
                           {"runs", runs}}
                .dump(2)
         << '\n';
    if (!json) throw IoError("cannot write '" + a.json + "'");
  }
  if (!a.output.empty() && lead) write_values(a.output, last.values);
  return status;
}

std::vector<int> all_devices() {
  std::vector<int> out(list_devices().size());
  std::iota(out.begin(), out.end(), 0);
  return out;
}

// --devices: "all", or GPU numbers separated by commas, each once.
std::vector<int> parse_devices(const std::string& text) {
  if (text == "all") {
    std::vector<int> out = all_devices();
    if (out.empty()) throw Unsupported("--devices all: " + describe_devices());
    return out;
  }
  std::vector<int> out;
  for (const std::string& item : split_list(text)) {
    const bool digits =
        !item.empty() && item.size() <= 4 &&
        std::all_of(item.begin(), item.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!digits) throw InvalidInput("'" + item + "' is not a GPU number (give 0,1 or all)");
    const int d = std::stoi(item);
    if (std::find(out.begin(), out.end(), d) != out.end())
      throw InvalidInput("GPU " + item + " is listed twice");
    out.push_back(d);
  }
  return out;
}

// The GPU of an MPI rank: its place among the ranks on its host picks one of --devices (all of
// the host's GPUs when not given). The CPU backend's ranks need none.
int device_of_mpi_rank(const Args& a) {
  const int local = mpi_local_rank();
  if (parse_backend(a.backend) == Backend::cpu) return 0;
  const std::vector<int> devices = a.devices.empty() ? all_devices() : parse_devices(a.devices);
  if (devices.empty()) return 0;  // no GPU here: the CPU backend, or a clear error from the engine
  if (static_cast<std::size_t>(local) >= devices.size()) {
    throw InvalidInput("this is rank " + std::to_string(local + 1) + " on its host, which has " +
                       std::to_string(devices.size()) +
                       " GPU(s) for ranks: start at most one rank per GPU on each host, or run "
                       "--backend cpu");
  }
  return devices[static_cast<std::size_t>(local)];
}

// Several GPUs from one process: a rank per GPU, each on its own thread, over the same exchange
// as MPI ranks. The first rank to fail stops the others; its line is the one reported.
int run_on_devices(const Args& a, const std::vector<int>& devices) {
  const int n = static_cast<int>(devices.size());
  std::vector<std::unique_ptr<Communicator>> communicators = thread_communicators(n);
  std::vector<int> status(devices.size(), 0);
  std::mutex failure_mutex;
  int failed_rank = -1;
  std::exception_ptr failure;
  std::vector<std::thread> threads;
  for (int r = 0; r < n; ++r) {
    threads.emplace_back([&, r] {
      const std::shared_ptr<Communicator> communicator = std::move(communicators[r]);
      try {
        status[static_cast<std::size_t>(r)] = run_all(a, communicator, devices[r]);
      } catch (const std::exception& e) {
        {
          const std::lock_guard lock(failure_mutex);
          if (!failure) {
            failed_rank = r;
            failure = std::current_exception();
          }
        }
        communicator->abort(e.what());
      }
    });
  }
  for (std::thread& t : threads)
    t.join();
  if (failure) {
    try {
      std::rethrow_exception(failure);
    } catch (const std::exception& e) {
      throw Error("rank " + std::to_string(failed_rank) + " of " + std::to_string(n) + " (GPU " +
                  std::to_string(devices[static_cast<std::size_t>(failed_rank)]) +
                  "): " + e.what());
    }
  }
  return *std::max_element(status.begin(), status.end());
}

// An option that takes on or off, with its default shown in --help.
void add_switch(CLI::App& app, const std::string& name, std::string& value,
                const std::string& help) {
  app.add_option(name, value, help)->check(CLI::IsMember({"on", "off"}))->capture_default_str();
}

}  // namespace
}  // namespace ooc::tools

int main(int argc, char** argv) {
  using namespace ooc;
  using namespace ooc::tools;
  CLI::App app{"Runs a graph algorithm with OocGraph's out-of-core engine.", "ooc-run"};
  Args a;
  app.add_option("ALGORITHM", a.algorithm,
                 "bfs | sssp | cc | pagerank | bc, or several separated by commas")
      ->required();
  // Not checked here: a missing file is reported by the loader, which names the rank under MPI.
  auto* graph = app.add_option("-g,--graph", a.graph, ".oocg file made by partition-tool");
  auto* generate = app.add_option(
      "--generate", a.generate,
      "Generate in memory instead: kron:SCALE[:EF] | urand:SCALE[:EF] | grid:ROWSxCOLS "
      "(undirected, hub sorted; sssp gets weights random:1-64)");
  graph->excludes(generate);
  app.add_option("--weights", a.weights, "With --generate: file | none | random:LO-HI");
  app.add_option("--seed", a.seed, "Seed of --generate and of bc's --sources")
      ->capture_default_str();
  app.add_option("-s,--source", a.source,
                 "Source vertex for bfs/sssp, and bc's one source (default: the highest "
                 "out-degree)")
      ->type_name("VERTEX");
  auto* sources = app.add_option("--sources", a.sources,
                                 "bc: sample K distinct sources among the vertices with out-edges "
                                 "(--seed); the values are sums over them (scale by V/K)")
                      ->type_name("K");
  auto* source_list =
      app.add_option("--source-list", a.source_list, "bc: the sources, ids separated by commas")
          ->type_name("LIST");
  sources->excludes(source_list);
  app.add_option("--backend", a.backend, "auto | cpu | cuda")->capture_default_str();
  app.add_option("--devices", a.devices,
                 "GPUs to run on, a rank each: 0 (default), 1, 0,1 or all (under mpirun: "
                 "the GPUs its ranks take on each host, in order; default all)")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            if (text == "all") return {};
            try {
              parse_devices(text);
              return {};
            } catch (const Error& e) {
              return e.what();
            }
          },
          "LIST"));
  app.add_option("-t,--transfer", a.transfer, "hybrid | filter | compaction | zerocopy | unified")
      ->capture_default_str();
  app.add_option("--partition-bytes", a.partition_bytes, "Edge data per partition")
      ->check(size_validator())
      ->capture_default_str();
  app.add_option("--budget", a.budget,
                 "Device memory the engine may use (0: CUDA takes 90% of free memory)")
      ->check(size_validator())
      ->capture_default_str();
  add_switch(app, "--in-memory", a.in_memory,
             "Keep all edges on the GPU when they fit the budget: on | off (off: edges stay "
             "in host memory, no cache either)");
  add_switch(app, "--cache", a.cache,
             "When the edges do not fit the budget, keep the partitions that the budget "
             "leaves room for on the GPU (CUDA): on | off");
  add_switch(app, "--compressed", a.compressed,
             "When the graph holds compressed lists and packed weights (partition-tool "
             "--compress), filter, compaction and zero-copy tasks and the edge cache read "
             "them: on | off (off: raw arrays only)");
  add_switch(app, "--adapt-costs", a.adapt_costs,
             "After each iteration, move the cost model's link bandwidth and zero-copy "
             "round trip toward what the iteration's copies and zero-copy kernels took "
             "(CUDA): on | off");
  app.add_option("--priority", a.priority,
                 "Priority scheduling (urgency order, deferral, reprocessing): on | off | on,off "
                 "(both in turn)")
      ->capture_default_str();
  app.add_option(
         "--load-balance", a.load_balance,
         "CUDA advance mapping: tiled (SAGE) | warp | ordered (tiled; pagerank's short lists "
         "walked in vertex order as warp does) | decompose | hierarchical (Raval et al.; the last "
         "three push only and pull tiled), or a list (each in turn)")
      ->capture_default_str();
  app.add_option("--direction", a.direction,
                 "push | pull (vertices gather from their in-neighbours: a symmetric graph or one "
                 "written with partition-tool --in-edges; one GPU or the CPU) | auto (per "
                 "iteration, whichever reads fewer edges in GPU "
                 "memory or moves fewer bytes out of core), or a list")
      ->capture_default_str();
  app.add_option("--pull-blocks", a.pull_blocks,
                 "CUDA, in GPU memory: gathers of an iteration that pulls run range by range of "
                 "source ids, each range's values in the L2 (GraphCage's cache blocking): 1 "
                 "(none; blocking measured slower on Kronecker graphs) | auto (ranges of half the "
                 "L2, none when the values fit it) | N up to 64, or a list")
      ->capture_default_str();
  app.add_option("--resident-slices", a.resident_slices,
                 "CUDA, pagerank and cc with priority on: the partitions in GPU memory or in the "
                 "edge cache run as N tasks of equal active edges one after another, each once "
                 "more over the vertices it activated, so later ones start from what earlier ones "
                 "pushed (1: one task), N up to 256, or a list")
      ->capture_default_str();
  app.add_option("--exchange", a.exchange,
                 "ranks on GPUs: dense | sparse | auto (sparse when it moves fewer bytes), or a "
                 "list")
      ->capture_default_str();
  app.add_option("--exchange-rounds", a.exchange_rounds,
                 "ranks: exchanges in an iteration whose active edges are at least a quarter of "
                 "the graph's, each after an equal share of a rank's tasks (1: once per "
                 "iteration), or a list")
      ->capture_default_str();
  app.add_option("--priority-fraction", a.priority_fraction,
                 "Priority: share of the work each iteration takes, most urgent first (0: 0.1 of "
                 "the active "
                 "edges for bfs/sssp, 0.8 of the pending delta for pagerank)")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  app.add_option("--priority-min-edges", a.priority_min_edges,
                 "Priority: never fewer active edges per iteration")
      ->capture_default_str();
  app.add_option("--damping", a.damping, "PageRank damping, in (0, 1)")->capture_default_str();
  app.add_option("--tolerance", a.tolerance,
                 "PageRank: per-vertex delta threshold (ranks around 1)")
      ->capture_default_str();
  app.add_option("--max-iterations", a.max_iterations,
                 "Stop after N iterations (0: until converged)");
  app.add_option("--calibration", a.calibration,
                 "The cost model's link constants: off (the defaults, measured on an H200) | "
                 "probe (measure this GPU's link first, about 0.1 s) | a pcie-bench --json FILE")
      ->capture_default_str();
  app.add_option("--pagerank-reference", a.pagerank_reference,
                 "A pagerank --output (say, of a run at --tolerance 1e-7): each pagerank run "
                 "reports the L1 distance of its ranks to it");
  app.add_flag("--verify", a.verify, "Check against the serial reference; exit 2 on a mismatch");
  app.add_option("-o,--output", a.output,
                 "Write 'vertex<TAB>value' per vertex (user ids; inf = unreached)");
  app.add_option("--json", a.json, "Write the runs' statistics as JSON");
  app.add_option("--trace", a.trace, "Write per-iteration statistics as CSV");
  app.add_option("--repeat", a.repeat, "Run N times (statistics of each)")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  add_threads_option(app, a.threads);
  app.add_flag("-q,--quiet", a.quiet, "Only errors and the verification result");

  int status = 0;
  std::shared_ptr<Communicator> ranks;
  const int rc = run_main(app, argc, argv, [&] {
    if (a.graph.empty() && a.generate.empty())
      throw InvalidInput("give a graph: --graph FILE or --generate kron:SCALE");
    const auto threads = limit_threads(a.threads);
    // Under mpirun every process is a rank; MPI is started only then.
    if (!launched_by_mpi()) {
      const std::vector<int> devices =
          a.devices.empty() ? std::vector<int>{0} : parse_devices(a.devices);
      if (devices.size() > 1) {
        status = run_on_devices(a, devices);  // the ranks' loads would interleave a progress bar
      } else {
        const ProgressBar progress(a.quiet);
        status = run_all(a, nullptr, devices.front());
      }
      return;
    }
    try {
      ranks = mpi_world();
      const int device = device_of_mpi_rank(a);
      const ProgressBar progress(a.quiet || ranks->rank() != 0);
      status = run_all(a, ranks->size() > 1 ? ranks : nullptr, device);
    } catch (const std::exception& e) {
      if (!ranks || ranks->size() == 1) throw;
      // One line naming the rank, then every rank stops (MPI_Abort): none waits forever.
      std::fprintf(stderr, "ooc-run: rank %d of %d: %s\n", ranks->rank(), ranks->size(), e.what());
      std::fflush(stderr);
      ranks->abort(e.what());
      throw;
    }
  });
  return rc != 0 ? rc : status;
}
