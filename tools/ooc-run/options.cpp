#include "options.hpp"

#include <charconv>
#include <cstdio>
#include <system_error>

#include "ooc/core/units.hpp"
#include "ooc/engine/engine.hpp"
#include "ooc/engine/pagerank_bound.hpp"

namespace ooc::tools {
namespace {

// `text` as a whole number of at least 1 of type T; 0 when it is not one.
template <class T>
T positive_whole(const std::string& text) {
  T n = 0;
  const char* const end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, n);
  return error == std::errc{} && stop == end ? n : 0;
}

// One entry of a count option's list: a whole number from 1 to `most`, or `word` (when given)
// for 0.
std::uint32_t parse_count(const std::string& text, std::uint32_t most, const char* word = nullptr) {
  if (word != nullptr && text == word) return 0;
  const auto n = positive_whole<std::uint32_t>(text);
  if (n == 0 || n > most) {
    throw InvalidInput("'" + text + "' is " +
                       (word != nullptr ? "neither " + std::string(word) + " nor" : "not") +
                       " a whole number from 1 to " + std::to_string(most));
  }
  return n;
}

// One entry of a number option's list (--damping, --tolerance, --l1).
template <class T = float>
T parse_number(const std::string& text) {
  T x = 0;
  const char* const end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, x);
  if (error != std::errc{} || stop != end || text.empty())
    throw InvalidInput("'" + text + "' is not a number");
  return x;
}

template <class T>
T first_of(const std::string& text, T (*parse_one)(std::string_view)) {
  return parse_one(split_list(text).front());
}

}  // namespace

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  for (std::size_t at = 0; at <= text.size();) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    items.push_back(text.substr(at, comma - at));
    at = comma + 1;
  }
  return items;
}

Priority parse_priority(const std::string& text) {
  return ooc::parse_priority(text);
}

// CLI11's words for a value outside its set, as the single value had before lists.
bool parse_compressed(const std::string& text) {
  if (text != "on" && text != "off") throw InvalidInput(text + " not in {on,off}");
  return text == "on";
}

float parse_damping(const std::string& text) {
  const float d = parse_number(text);
  if (!(d > 0 && d < 1)) throw InvalidInput("'" + text + "' is not strictly between 0 and 1");
  return d;
}

double parse_priority_delta(const std::string& text) {
  if (text == "auto") return kAutomaticDelta;
  const float d = parse_number(text);
  if (!(d >= 0)) throw InvalidInput("'" + text + "' is neither auto nor a number of at least 0");
  return d;
}

float parse_tolerance(const std::string& text) {
  const float t = parse_number(text);
  if (!(t > 0)) throw InvalidInput("'" + text + "' is not above 0");
  return t;
}

double parse_l1(const std::string& text) {
  const auto l1 = parse_number<double>(text);
  if (!(l1 > pagerank_least_l1() && l1 < 2)) {
    char least[32];
    std::snprintf(least, sizeof least, "%.3g", pagerank_least_l1());
    throw InvalidInput("'" + text + "' is not between " + least +
                       " (float ranks' rounding) and 2 (ranks that sum to 1 are at most 2 apart)");
  }
  return l1;
}

// "auto" is 0 (the backend's own).
std::uint32_t parse_rounds(const std::string& text) {
  return parse_count(text, kMaxExchangeRounds, "auto");
}

// "auto" is 0 (the GPU's L2 decides).
std::uint32_t parse_pull_blocks(const std::string& text) {
  return parse_count(text, kMaxPullBlocks, "auto");
}

std::uint32_t parse_resident_slices(const std::string& text) {
  return parse_count(text, kMaxResidentSlices);
}

std::uint64_t parse_frontier_loop(const std::string& text) {
  if (text == "off") return 0;
  const auto n = positive_whole<std::uint64_t>(text);
  if (n == 0)
    throw InvalidInput("'" + text + "' is neither off nor a whole number of edges of at least 1");
  return n;
}

std::uint32_t parse_loop_hops(const std::string& text) {
  if (text == "auto") return kAutomaticLoopHops;
  const auto n = positive_whole<std::uint32_t>(text);
  if (n > kMaxFrontierLoopHops || (n == 0 && text != "0")) {
    throw InvalidInput("'" + text + "' is neither auto nor a whole number from 0 to " +
                       std::to_string(kMaxFrontierLoopHops));
  }
  return n;
}

EngineOptions engine_options(const Args& a) {
  EngineOptions o;
  o.backend = parse_backend(a.backend);
  o.transfer = first_of(a.transfer, parse_transfer_policy);
  o.partition_bytes = parse_size(a.partition_bytes);
  o.device_budget = parse_size(a.budget);
  o.host_memory = parse_size(a.host_memory);
  o.priority = parse_list(a.priority, parse_priority).front();
  o.load_balance = first_of(a.load_balance, parse_load_balance);
  o.direction = first_of(a.direction, parse_direction);
  o.exchange = first_of(a.exchange, parse_exchange);
  o.exchange_rounds = parse_list(a.exchange_rounds, parse_rounds).front();
  o.pull_blocks = parse_list(a.pull_blocks, parse_pull_blocks).front();
  o.resident_slices = parse_list(a.resident_slices, parse_resident_slices).front();
  o.frontier_loop_edges = parse_list(a.frontier_loop, parse_frontier_loop).front();
  o.frontier_loop_hops = parse_list(a.loop_hops, parse_loop_hops).front();
  o.cc = first_of(a.cc, parse_cc_algorithm);
  o.in_memory = a.in_memory == "on";
  o.cache = a.cache == "on";
  o.compressed = parse_list(a.compressed, parse_compressed).front();
  o.adapt_costs = a.adapt_costs == "on";
  o.priority_fraction = a.priority_fraction;
  o.priority_delta = parse_priority_delta(a.priority_delta);
  o.priority_min_edges = a.priority_min_edges;
  return o;
}

// The CPU backend has one mapping, one exchange, no cache blocking and no resident slices: a list
// of them would run the same thing again, so it takes the first; so does a run of one rank for the
// exchange and the rounds.
std::vector<RunSettings> settings(const Args& a, Backend backend, int ranks) {
  const auto policies = parse_list(a.transfer, parse_transfer_policy);
  const auto priorities = parse_list(a.priority, parse_priority);
  auto balances = parse_list(a.load_balance, parse_load_balance);
  const auto directions = parse_list(a.direction, parse_direction);
  auto exchanges = parse_list(a.exchange, parse_exchange);
  auto rounds = parse_list(a.exchange_rounds, parse_rounds);
  auto blocks = parse_list(a.pull_blocks, parse_pull_blocks);
  auto slices = parse_list(a.resident_slices, parse_resident_slices);
  auto ccs = parse_list(a.cc, parse_cc_algorithm);
  const auto loops = parse_list(a.frontier_loop, parse_frontier_loop);
  auto hops = parse_list(a.loop_hops, parse_loop_hops);
  if (backend != Backend::cuda) balances.resize(1);
  if (backend != Backend::cuda || ranks == 1) exchanges.resize(1);
  if (ranks == 1) rounds.resize(1);
  if (backend != Backend::cuda) blocks.resize(1);
  if (backend != Backend::cuda) slices.resize(1);
  if (backend != Backend::cuda) hops.resize(1);
  std::vector<RunSettings> out;
  for (const TransferPolicy policy : policies)
    for (const Priority priority : priorities)
      for (const LoadBalance balance : balances)
        for (const Direction direction : directions)
          for (const Exchange exchange : exchanges)
            for (const std::uint32_t r : rounds)
              for (const std::uint32_t b : blocks)
                for (const std::uint32_t n : slices)
                  for (const CcAlgorithm cc : ccs)
                    for (const std::uint64_t loop : loops)
                      for (const std::uint32_t hop : hops)
                        out.push_back({policy, priority, balance, direction, exchange, r, b, n, cc,
                                       loop, hop});
  return out;
}

}  // namespace ooc::tools
