#include "algorithms.hpp"

#include <array>
#include <cmath>
#include <limits>
#include <optional>

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

// Integers as integers, inf for unreached, anything else to float precision and more.
void write_number(std::FILE* out, std::size_t vertex, double x) {
  if (std::isinf(x)) {
    std::fprintf(out, "%zu\tinf\n", vertex);
  } else if (x == std::floor(x) && x < 1e15) {
    std::fprintf(out, "%zu\t%.0f\n", vertex, x);
  } else {
    std::fprintf(out, "%zu\t%.9g\n", vertex, x);
  }
}

// bc's values against the serial reference: the engine counts paths and dependencies in float.
constexpr double kBcRelative = 1e-4;

const std::array kAlgorithms{
    Algorithm{
        .name = "bfs",
        .needs = {.source = true},
        .run =
            [](OocEngine& engine, const RunInput& in) {
              auto r = engine.bfs(in.source, in.run);
              return outcome_of(as_doubles(r.values, std::optional(kUnreachedLevel)), r);
            },
        .reference =
            [](const Graph& g, const RunInput& in) {
              return as_doubles(reference::bfs(g, in.source), std::optional(kUnreachedLevel));
            },
        .verify = exactly,
        .write_value = write_number,
    },
    Algorithm{
        .name = "sssp",
        .needs = {.source = true, .weights = true},
        .run =
            [](OocEngine& engine, const RunInput& in) {
              auto r = engine.sssp(in.source, in.run);
              return outcome_of(std::move(r.values), r);
            },
        .reference = [](const Graph& g,
                        const RunInput& in) { return reference::sssp(g, in.source); },
        .verify = exactly,
        .write_value = write_number,
    },
    Algorithm{
        .name = "cc",
        .needs = {},
        .run =
            [](OocEngine& engine, const RunInput& in) {
              auto r = engine.cc(in.run);
              return outcome_of(as_doubles(r.values), r);
            },
        .reference = [](const Graph& g, const RunInput&) { return as_doubles(reference::cc(g)); },
        .verify = exactly,
        .write_value = write_number,
    },
    Algorithm{
        .name = "pagerank",
        .needs = {.damping = true, .tolerance = true, .ranks = true},
        .run =
            [](OocEngine& engine, const RunInput& in) {
              auto r = engine.pagerank(
                  {.damping = in.damping, .tolerance = in.tolerance, .run = in.run});
              return outcome_of(as_doubles(r.values), r);
            },
        .reference = [](const Graph& g,
                        const RunInput& in) { return reference::pagerank(g, in.damping); },
        .verify =
            [](const std::vector<double>& values, const std::vector<double>& expected,
               const RunInput& in) {
              const std::vector<float> ranks(values.begin(), values.end());
              return reference::compare_l1(ranks, expected,
                                           reference::pagerank_l1_bound(in.damping, in.tolerance));
            },
        .write_value = write_number,
    },
    Algorithm{
        .name = "bc",
        .needs = {.source_set = true},
        .run =
            [](OocEngine& engine, const RunInput& in) {
              auto r = engine.bc(in.sources, in.run);
              Outcome o = outcome_of(std::move(r.values), r);
              o.phases = {{"forward", std::move(r.forward)}, {"backward", std::move(r.backward)}};
              return o;
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
        .write_value = write_number,
    },
};

// "bfs, sssp, cc, pagerank or bc"
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
