#include "run.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "algorithms.hpp"
#include "calibration.hpp"
#include "engine_setup.hpp"
#include "ooc/core/units.hpp"
#include "ooc/partitioner/compress.hpp"
#include "ooc/partitioner/oocg.hpp"
#include "outputs.hpp"
#include "ranks.hpp"
#include "stats_json.hpp"
#include "tool_main.hpp"

namespace ooc::tools {
namespace {

std::string rank_prefix(const OocEngine& engine) {
  if (engine.ranks() == 1) return "";
  return "rank " + std::to_string(engine.rank()) + "/" + std::to_string(engine.ranks()) + ": ";
}

// Out-edges of the vertices a bfs or sssp reached: what any engine must read at least once.
std::uint64_t reached_edges(const OocEngine& engine, const std::vector<double>& values) {
  std::uint64_t edges = 0;
  for (vid_t v = 0; v < values.size(); ++v) {
    if (!std::isinf(values[v])) edges += engine.graph().degree(engine.internal_id(v));
  }
  return edges;
}

// One phase of a run (a batched traversal's forward or backward), its runs for every batch summed,
// as a summary line.
std::string phase_line(const std::vector<RunStats>& runs) {
  RunStats sum = runs.front();
  for (std::size_t i = 1; i < runs.size(); ++i)
    sum.add(runs[i]);
  return sum.summary();
}

// "; tolerance 0.01", where a list of `name`s (of `entries`) runs an algorithm that `takes` it
// more than once.
std::string list_note(const char* separator, const char* name, std::size_t entries, bool takes,
                      float value) {
  if (entries < 2 || !takes) return "";
  char note[64];
  std::snprintf(note, sizeof note, "%s%s %g", separator, name, static_cast<double>(value));
  return note;
}

// The whole list for an algorithm that takes it; its first entry for one that does not, since
// every other entry would run the same thing again.
std::vector<float> taken(const std::vector<float>& list, bool takes) {
  return takes ? list : std::vector<float>{list.front()};
}

// A float as "%g" shows it, for JSON: 1e-06 rather than 9.99999997e-07.
double as_shown(float x) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", static_cast<double>(x));
  return std::strtod(text, nullptr);
}

// The runs of one invocation: it checks what was asked before a graph is loaded, describes the
// graph once, runs on each engine it is given and writes the files at the end.
class Runner {
 public:
  Runner(const Args& a, std::shared_ptr<Communicator> ranks);
  const std::vector<bool>& compressed() const { return compressed_; }
  bool weighted() const {
    return any([](const Needs& n) { return n.weights; });
  }
  // The first engine: the sources, the graph's description, the trace's header.
  void start(OocEngine& engine, const std::string& calibration);
  void run(OocEngine& engine, bool compressed);
  // Writes --json and --output; returns the exit status.
  int finish(const EngineOptions& options);

 private:
  template <class Need>
  bool any(Need need) const {
    return std::any_of(algorithms_.begin(), algorithms_.end(),
                       [&](const Algorithm* x) { return need(x->needs); });
  }
  // Whether an algorithm runs from the set of sources: it takes one, or it can and one was given.
  bool takes_sources(const Needs& n) const {
    return n.source_set || (n.many_sources && sources_given(a_));
  }
  void describe(const OocEngine& engine) const;
  std::vector<RunInput> inputs(const Algorithm& algorithm) const;
  std::string list_notes(const char* separator, const Algorithm& algorithm,
                         const RunInput& in) const;
  void run_once(OocEngine& engine, const Algorithm& algorithm, const RunInput& in);
  void trace(const RunStats& stats);
  nlohmann::json record(const OocEngine& engine, const Algorithm& algorithm, std::string& note);
  void verify(const OocEngine& engine, std::size_t which, const RunInput& in,
              const RunSettings& setting, bool compressed);
  const Graph& whole_graph(const OocEngine& engine);

  const Args& a_;
  std::shared_ptr<Communicator> ranks_;
  std::vector<const Algorithm*> algorithms_;
  std::vector<bool> compressed_;
  std::vector<float> dampings_;
  std::vector<float> tolerances_;
  std::vector<double> l1s_;  // --l1, in place of the tolerances; {0}: not given
  std::vector<PushRule> pushes_;
  std::FILE* report_;  // the summary lines
  bool lead_ = true;   // prints the graph and the checks, writes the files
  bool needs_source_ = false;
  vid_t source_ = 0;
  std::vector<vid_t> sources_;  // of an algorithm that takes a set
  nlohmann::json graph_;        // what --json says of the graph
  std::optional<OutputStream> trace_;
  std::vector<double> reference_ranks_;  // --pagerank-reference, read before any run
  // Per algorithm and damping (pagerank's reference depends on it), the reference, computed once.
  std::map<std::pair<std::size_t, float>, std::vector<double>> expected_;
  std::optional<std::uint64_t> max_in_degree_;  // the graph's, once pagerank's --verify needs it
  // The serial reference needs every edge, raw: a rank, or a compressed-only file's one rank,
  // reads the file again.
  Graph whole_;
  nlohmann::json runs_ = nlohmann::json::array();
  Outcome last_;
  const Algorithm* last_algorithm_ = nullptr;
  int run_index_ = 0;
  int status_ = 0;
};

Runner::Runner(const Args& a, std::shared_ptr<Communicator> ranks)
    : a_(a),
      ranks_(std::move(ranks)),
      algorithms_(parse_algorithms(a.algorithm)),
      compressed_(parse_list(a.compressed, parse_compressed)),
      dampings_(parse_list(a.damping, parse_damping)),
      tolerances_(parse_list(a.tolerance, parse_tolerance)),
      l1s_(a.l1.empty() ? std::vector<double>{0} : parse_list(a.l1, parse_l1)),
      pushes_(parse_list(a.push, parse_push_rule)),
      report_(report_stream(a)) {
  settings(a, Backend::cuda, 2);  // every listed name is checked before a long load
  check_sources(a);
}

void Runner::start(OocEngine& engine, const std::string& calibration) {
  lead_ = engine.rank() == 0;
  if (lead_) warn_if_many_partitions(engine.partitions().size(), a_.partition_bytes);
  if (lead_ && !a_.quiet && !calibration.empty())
    std::fprintf(report_, "%s\n", calibration.c_str());
  if (lead_ && engine.ranks() > 1) warn_if_idle_ranks(engine, a_.partition_bytes);
  if (lead_) warn_if_ranks_lack_huge_pages(engine);
  if (any([&](const Needs& n) { return takes_sources(n); })) sources_ = source_set_of(a_, engine);
  needs_source_ = any([&](const Needs& n) { return n.source && !takes_sources(n); });
  source_ = a_.source ? *a_.source : needs_source_ ? engine.highest_degree_vertex() : 0;
  if (needs_source_) engine.internal_id(source_);  // range check before any output
  if (!a_.quiet && lead_) describe(engine);
  const std::optional<ExchangeCalibration> nccl = engine.exchange_calibration();
  if (!a_.quiet && lead_ && nccl) std::fprintf(report_, "%s\n", ooc::describe(*nccl).c_str());
  if (!a_.trace.empty() && lead_) {
    trace_.emplace(a_.trace);
    trace_->write(trace_header());
  }
  if (!a_.pagerank_reference.empty() && lead_ && any([](const Needs& n) { return n.ranks; }))
    reference_ranks_ = read_ranks(a_.pagerank_reference, engine.graph().num_vertices());
  const Graph& g = engine.graph();
  graph_ = {{"graph", a_.graph.empty() ? a_.generate : a_.graph},
            {"vertices", g.num_vertices()},
            {"edges", g.num_edges()},
            {"source", needs_source_ ? nlohmann::json(source_) : nlohmann::json()},
            {"ranks", engine.ranks()},
            {"nccl_setup_seconds", nccl ? nlohmann::json(nccl->setup_seconds) : nlohmann::json()}};
}

void Runner::describe(const OocEngine& engine) const {
  const Graph& g = engine.graph();
  std::fprintf(report_, "graph: %s, %s vertices, %s edges (%s, weights %s), %zu partitions of %s\n",
               a_.graph.empty() ? a_.generate.c_str() : a_.graph.c_str(),
               with_commas(g.num_vertices()).c_str(), with_commas(g.num_edges()).c_str(),
               g.symmetric        ? "symmetric"
               : g.has_in_edges() ? "directed, with in-edges"
                                  : "directed",
               std::string(to_string(g.weight_type)).c_str(), engine.partitions().size(),
               a_.partition_bytes.c_str());
  if (needs_source_) {
    std::fprintf(report_, "source: %u%s, %s out-edges\n", source_,
                 a_.source ? "" : " (highest out-degree)",
                 with_commas(g.degree(engine.internal_id(source_))).c_str());
  }
  for (const Algorithm* algorithm : algorithms_) {
    if (!takes_sources(algorithm->needs)) continue;
    std::fprintf(report_, "%s sources: %s\n", std::string(algorithm->name).c_str(),
                 describe_sources(a_, sources_).c_str());
  }
}

// One input per damping, tolerance (or --l1) and push rule the algorithm takes, dampings
// outermost.
std::vector<RunInput> Runner::inputs(const Algorithm& algorithm) const {
  const std::vector<PushRule> pushes =
      algorithm.needs.tolerance ? pushes_ : std::vector<PushRule>{pushes_.front()};
  const std::vector<double> l1s = algorithm.needs.tolerance ? l1s_ : std::vector<double>{0};
  std::vector<RunInput> out;
  for (const float damping : taken(dampings_, algorithm.needs.damping)) {
    for (const float tolerance : taken(tolerances_, algorithm.needs.tolerance)) {
      for (const double l1 : l1s) {
        for (const PushRule push : pushes) {
          RunInput in;
          in.source = source_;
          if (takes_sources(algorithm.needs)) in.sources = sources_;
          in.batch = a_.batch;
          in.damping = damping;
          in.tolerance = tolerance;
          in.l1 = l1;
          in.push = push;
          in.run.max_iterations = a_.max_iterations;
          out.push_back(in);
        }
      }
    }
  }
  return out;
}

// "; damping 0.5; tolerance 0.01": the entries of the lists that run the algorithm more than once.
std::string Runner::list_notes(const char* separator, const Algorithm& algorithm,
                               const RunInput& in) const {
  std::string push;
  if (pushes_.size() > 1 && algorithm.needs.tolerance)
    push = std::string(separator) + "push " + std::string(to_string(in.push));
  return list_note(separator, "damping", dampings_.size(), algorithm.needs.damping, in.damping) +
         list_note(separator, "tolerance", tolerances_.size(), algorithm.needs.tolerance,
                   in.tolerance) +
         list_note(separator, "l1", l1s_.size(), algorithm.needs.tolerance,
                   static_cast<float>(in.l1)) +
         push;
}

void Runner::run(OocEngine& engine, bool compressed) {
  const std::vector<RunSettings> all = settings(a_, engine.backend(), engine.ranks());
  // An algorithm that --priority does not change runs once where the settings differ in it alone.
  const auto again = [&](const Algorithm& algorithm, std::size_t k) {
    if (algorithm.needs.priority) return false;
    return std::any_of(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(k),
                       [&](RunSettings earlier) {
                         earlier.priority = all[k].priority;
                         return earlier == all[k];
                       });
  };
  for (std::size_t i = 0; i < algorithms_.size(); ++i) {
    const Algorithm& algorithm = *algorithms_[i];
    for (const RunInput& in : inputs(algorithm)) {
      for (std::size_t k = 0; k < all.size(); ++k) {
        if (again(algorithm, k)) continue;
        const RunSettings& setting = all[k];
        engine.configure(setting);
        for (int r = 0; r < a_.repeat; ++r)
          run_once(engine, algorithm, in);
        if (a_.verify && lead_) verify(engine, i, in, setting, compressed);
      }
    }
  }
}

void Runner::run_once(OocEngine& engine, const Algorithm& algorithm, const RunInput& in) {
  last_ = algorithm.run(engine, in);
  last_algorithm_ = &algorithm;
  std::string note = list_notes("; ", algorithm, in);
  nlohmann::json j = record(engine, algorithm, note);
  if (algorithm.needs.damping) j["damping"] = as_shown(in.damping);
  if (algorithm.needs.tolerance) {
    // --l1: the accuracy asked for, and the tolerance it chose.
    j["tolerance"] = as_shown(in.l1 > 0 ? static_cast<float>(last_.stats.tolerance) : in.tolerance);
    if (in.l1 > 0) j["l1"] = in.l1;
    j["push"] = to_string(in.push);
  }
  if (!a_.quiet) {
    std::fprintf(report_, "%s%s%s%s\n", rank_prefix(engine).c_str(), last_.stats.summary().c_str(),
                 note.c_str(), last_.converged ? "" : " (stopped before converging)");
    for (const auto& [name, runs] : last_.phases)
      std::fprintf(report_, "  %s\n", phase_line(runs).c_str());
  }
  runs_.push_back(std::move(j));
  trace(last_.stats);
  ++run_index_;
}

// --trace: every rank's iterations, gathered to the first rank (which writes them) through the
// host link, so that each rank's timeline is there; one rank is rank 0.
void Runner::trace(const RunStats& stats) {
  if (a_.trace.empty()) return;
  if (!ranks_) {
    trace_->write(trace_rows(run_index_, 0, stats.iterations));
    return;
  }
  const std::vector<std::vector<IterationStats>> all = every_rank_iterations(*ranks_, stats);
  if (!trace_) return;
  for (std::size_t r = 0; r < all.size(); ++r)
    trace_->write(trace_rows(run_index_, static_cast<int>(r), all[r]));
}

// The last run's statistics for --json; `note` gains its distance to --pagerank-reference.
nlohmann::json Runner::record(const OocEngine& engine, const Algorithm& algorithm,
                              std::string& note) {
  nlohmann::json j = to_json(last_.stats);
  if (!reference_ranks_.empty() && algorithm.needs.ranks) {
    const double l1 = l1_distance(last_.values, reference_ranks_);
    j["l1_to_reference"] = l1;
    char line[64];
    std::snprintf(line, sizeof line, "; L1 %.2e to the reference", l1);
    note = line + note;
  }
  if (!last_.phases.empty()) {
    j["sources"] = sources_;
    j["phases"] = nlohmann::json::object();
    for (const auto& [name, runs] : last_.phases) {
      nlohmann::json each = nlohmann::json::array();
      for (const RunStats& run : runs)
        each.push_back(to_json(run));
      j["phases"][name] = std::move(each);
    }
  }
  if (ranks_) j["ranks"] = per_rank(*ranks_, last_.stats);
  j["values_digest"] = digest(last_.values);
  if (algorithm.needs.source && last_.columns == 1)
    j["reached_edges"] = reached_edges(engine, last_.values);
  return j;
}

// One line per setting: the last run's values against the serial reference.
void Runner::verify(const OocEngine& engine, std::size_t which, const RunInput& in,
                    const RunSettings& setting, bool compressed) {
  const Algorithm& algorithm = *algorithms_[which];
  std::vector<double>& expected = expected_[{which, in.damping}];
  if (expected.empty()) expected = algorithm.reference(whole_graph(engine), in);
  RunInput checked = in;
  if (algorithm.needs.ranks) {
    if (!max_in_degree_) max_in_degree_ = reference::max_in_degree(whole_graph(engine));
    checked.max_in_degree = *max_in_degree_;
  }
  const reference::Comparison c = algorithm.verify(last_.values, expected, checked);
  const bool cuda = engine.backend() == Backend::cuda;
  std::string how(to_string(setting.transfer));
  // As the run took it (a batched bfs runs bulk-synchronous), and only where it has the setting.
  if (algorithm.needs.priority) how += last_.stats.priority ? ", priority on" : ", priority off";
  if (cuda) how += ", " + std::string(to_string(setting.load_balance));
  if (setting.direction != Direction::automatic)
    how += ", direction " + std::string(to_string(setting.direction));
  if (!last_.stats.method.empty()) how += ", " + last_.stats.method;
  if (last_.stats.pull_blocks > 1)
    how += ", " + std::to_string(last_.stats.pull_blocks) + " cache blocks";
  if (cuda && engine.ranks() > 1)
    how += ", " + std::string(to_string(setting.exchange)) + " exchange";
  if (compressed_.size() > 1) how += compressed ? ", compressed on" : ", compressed off";
  how += list_notes(", ", algorithm, in);
  std::fprintf(report_, "verify %s %s: %s\n", std::string(algorithm.name).c_str(), how.c_str(),
               c.equal ? "ok, matches the serial reference" : ("MISMATCH: " + c.message).c_str());
  if (!c.equal) status_ = kExitMismatch;
}

const Graph& Runner::whole_graph(const OocEngine& engine) {
  const Graph& g = engine.graph();
  if ((engine.ranks() == 1 && g.has_raw_lists() && engine.lists_in_memory()) || a_.graph.empty())
    return g;
  if (whole_.num_vertices() == 0) {
    whole_ = read_oocg(a_.graph);
    decode_raw_lists(whole_);  // a compressed-only file's: the references read raw lists
  }
  return whole_;
}

int Runner::finish(const EngineOptions& options) {
  if (trace_) trace_->finish();
  if (!a_.json.empty() && lead_) {
    nlohmann::json doc = graph_;
    doc["calibration"] = a_.calibration;
    doc["adapt_costs"] = options.adapt_costs;
    doc["cost"] = {{"link_bandwidth", options.cost.link_bandwidth},
                   {"zerocopy_round_trip", options.cost.zerocopy_round_trip},
                   {"gamma", options.cost.gamma},
                   {"alpha", options.cost.alpha},
                   {"beta", options.cost.beta},
                   {"compaction_bandwidth", options.cost.compaction_bandwidth}};
    doc["runs"] = std::move(runs_);
    OutputStream json(a_.json);
    json.write(doc.dump(2) + '\n');
    json.finish();
  }
  if (!a_.output.empty() && lead_)
    write_values(a_.output, *last_algorithm_, last_.values, last_.columns);
  return status_;
}

}  // namespace

int run_all(const Args& a, const std::shared_ptr<Communicator>& ranks, int device) {
  Runner runner(a, ranks);  // every name and list checked before a long load
  EngineOptions options = engine_options(a);
  options.device = device;
  const std::string calibration = calibrate(a.calibration, device, options.cost);
  bool first = true;
  for (const bool compressed : runner.compressed()) {
    options.compressed = compressed;
    OocEngine engine = make_engine(a, options, ranks, runner.weighted());
    if (first) runner.start(engine, calibration);
    first = false;
    runner.run(engine, compressed);
  }
  return runner.finish(options);
}

}  // namespace ooc::tools
