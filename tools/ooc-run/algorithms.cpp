#include "algorithms.hpp"

#include <array>
#include <cmath>
#include <limits>
#include <optional>

#include "ooc/engine/kcore_program.hpp"
#include "options.hpp"

namespace ooc::tools {
namespace {

template <class T>
std::vector<double> as_doubles(const std::vector<T>& values, std::optional<T> unreached = {}) {
  std::vector<double> out(values.size());
  for (std::size_t v = 0; v < values.size(); ++v) {
    out[v] = unreached && values[v] == *unreached ? std::numeric_limits<double>::infinity()
                                                  : static_cast<double>(values[v]);
  }
  return out;
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

reference::Comparison exactly(const std::vector<double>& values,
                              const std::vector<double>& expected, const RunInput&) {
  return reference::compare_exact(values, expected);
}

// Integers as integers, inf for unreached, anything else to float precision and more; tabs apart.
void write_numbers(std::FILE* out, std::size_t vertex, std::span<const double> values) {
  std::fprintf(out, "%zu", vertex);
  for (const double x : values) {
    if (std::isinf(x)) {
      std::fprintf(out, "\tinf");
    } else if (x == std::floor(x) && x < 1e15) {
      std::fprintf(out, "\t%.0f", x);
    } else {
      std::fprintf(out, "\t%.9g", x);
    }
  }
  std::fputc('\n', out);
}

// bc's values against the serial reference: the engine counts paths and dependencies in float.
constexpr double kBcRelative = 1e-4;
// closeness's: sums of 1 / level, added in another order.
constexpr double kClosenessRelative = 1e-9;

// Levels from each source, vertex-major (Outcome::columns); `level_of(i)` gives source i's.
template <class LevelsOf>
std::vector<double> interleaved(std::size_t sources, LevelsOf&& level_of) {
  std::vector<double> out;
  for (std::size_t i = 0; i < sources; ++i) {
    const std::vector<std::uint32_t> levels = level_of(i);
    if (out.empty()) out.resize(levels.size() * sources);
    for (std::size_t v = 0; v < levels.size(); ++v) {
      out[v * sources + i] = levels[v] == kUnreachedLevel ? std::numeric_limits<double>::infinity()
                                                          : static_cast<double>(levels[v]);
    }
  }
  return out;
}

// A batched traversal's result as an Outcome, each batch's runs under its phases.
Outcome batched(BatchResult& r) {
  Outcome o = outcome_of(std::move(r.values), r);
  o.phases = {{"forward", std::move(r.forward)}};
  if (!r.backward.empty()) o.phases.emplace_back("backward", std::move(r.backward));
  return o;
}

const std::array kAlgorithms{
    Algorithm{
        .name = "bfs",
        .needs = {.source = true, .many_sources = true, .priority = true},
        .run =
            [](OocEngine& engine, const RunInput& in) {
              if (in.sources.empty()) {
                auto r = engine.bfs(in.source, in.run);
                return outcome_of(as_doubles(r.values, std::optional(kUnreachedLevel)), r);
              }
              LevelsResult r = engine.bfs(in.sources, in.run, in.batch);
              Outcome o = outcome_of(
                  interleaved(r.levels.size(), [&](std::size_t i) { return r.levels[i]; }), r);
              o.columns = in.sources.size();
              return o;
            },
        .reference =
            [](const Graph& g, const RunInput& in) {
              if (in.sources.empty())
                return as_doubles(reference::bfs(g, in.source), std::optional(kUnreachedLevel));
              return interleaved(in.sources.size(),
                                 [&](std::size_t i) { return reference::bfs(g, in.sources[i]); });
            },
        .verify = exactly,
        .write_value = write_numbers,
    },
    Algorithm{
        .name = "sssp",
        .needs = {.source = true, .weights = true, .priority = true},
        .run =
            [](OocEngine& engine, const RunInput& in) {
              auto r = engine.sssp(in.source, in.run);
              return outcome_of(std::move(r.values), r);
            },
        .reference = [](const Graph& g,
                        const RunInput& in) { return reference::sssp(g, in.source); },
        .verify = exactly,
        .write_value = write_numbers,
    },
    Algorithm{
        .name = "cc",
        .needs = {.priority = true},
        .run =
            [](OocEngine& engine, const RunInput& in) {
              auto r = engine.cc(in.run);
              return outcome_of(as_doubles(r.values), r);
            },
        .reference = [](const Graph& g, const RunInput&) { return as_doubles(reference::cc(g)); },
        .verify = exactly,
        .write_value = write_numbers,
    },
    Algorithm{
        .name = "pagerank",
        .needs = {.damping = true, .tolerance = true, .ranks = true, .priority = true},
        .run =
            [](OocEngine& engine, const RunInput& in) {
              auto r = engine.pagerank({.damping = in.damping,
                                        .tolerance = in.tolerance,
                                        .l1 = in.l1,
                                        .push = in.push,
                                        .run = in.run});
              return outcome_of(as_doubles(r.values), r);
            },
        .reference = [](const Graph& g,
                        const RunInput& in) { return reference::pagerank(g, in.damping); },
        .verify =
            [](const std::vector<double>& values, const std::vector<double>& expected,
               const RunInput& in) {
              const std::vector<float> ranks(values.begin(), values.end());
              // --l1: the accuracy promised.
              return reference::compare_l1(
                  ranks, expected,
                  in.l1 > 0
                      ? in.l1
                      : reference::pagerank_l1_bound(in.damping, in.tolerance, in.max_in_degree));
            },
        .write_value = write_numbers,
    },
    Algorithm{
        .name = "bc",
        .needs = {.source_set = true},
        .run =
            [](OocEngine& engine, const RunInput& in) {
              BatchResult r = engine.bc(in.sources, in.run, in.batch);
              return batched(r);
            },
        .reference =
            [](const Graph& g, const RunInput& in) {
              return reference::bc(g, {in.sources.begin(), in.sources.end()});
            },
        .verify =
            [](const std::vector<double>& values, const std::vector<double>& expected,
               const RunInput&) {
              return reference::compare_relative(values, expected, kBcRelative);
            },
        .write_value = write_numbers,
    },
    Algorithm{
        .name = "closeness",
        .needs = {.source_set = true},
        .run =
            [](OocEngine& engine, const RunInput& in) {
              BatchResult r = engine.closeness(in.sources, in.run, in.batch);
              return batched(r);
            },
        .reference =
            [](const Graph& g, const RunInput& in) {
              return reference::closeness(g, {in.sources.begin(), in.sources.end()});
            },
        .verify =
            [](const std::vector<double>& values, const std::vector<double>& expected,
               const RunInput&) {
              return reference::compare_relative(values, expected, kClosenessRelative);
            },
        .write_value = write_numbers,
    },
    Algorithm{
        .name = "tc",
        .needs = {},
        .run =
            [](OocEngine& engine, const RunInput& in) {
              TriangleResult r = engine.triangles(in.run);
              return outcome_of(as_doubles(r.values), r);
            },
        .reference = [](const Graph& g,
                        const RunInput&) { return as_doubles(reference::triangles(g)); },
        .verify = exactly,
        .write_value = write_numbers,
    },
    Algorithm{
        .name = "kcore",
        .needs = {.priority = true},
        .run =
            [](OocEngine& engine, const RunInput& in) {
              KCoreResult r = engine.kcore(in.run);
              return outcome_of(as_doubles(r.values, std::optional(KCoreState::kUnpeeled)), r);
            },
        .reference = [](const Graph& g,
                        const RunInput&) { return as_doubles(reference::kcore(g)); },
        .verify = exactly,
        .write_value = write_numbers,
    },
    Algorithm{
        .name = "scc",
        .needs = {},
        .run =
            [](OocEngine& engine, const RunInput& in) {
              SccResult r = engine.scc(in.run);
              return outcome_of(as_doubles(r.values), r);
            },
        .reference = [](const Graph& g, const RunInput&) { return as_doubles(reference::scc(g)); },
        .verify = exactly,
        .write_value = write_numbers,
    },
};

// "bfs, sssp, cc, pagerank, bc, closeness, tc, kcore or scc"
std::string names() {
  std::string out;
  for (std::size_t i = 0; i < kAlgorithms.size(); ++i) {
    if (i > 0) out += i + 1 == kAlgorithms.size() ? " or " : ", ";
    out += kAlgorithms[i].name;
  }
  return out;
}

}  // namespace

std::span<const Algorithm> algorithms() {
  return kAlgorithms;
}

std::vector<const Algorithm*> parse_algorithms(const std::string& list) {
  return parse_list(list, [](const std::string& name) {
    for (const Algorithm& algorithm : kAlgorithms) {
      if (algorithm.name == name) return &algorithm;
    }
    throw InvalidInput("unknown algorithm '" + name + "' (expected " + names() + ")");
  });
}

}  // namespace ooc::tools
