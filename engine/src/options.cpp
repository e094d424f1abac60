#include "ooc/engine/options.hpp"

#include <array>
#include <string>
#include <utility>

#include "ooc/core/error.hpp"

namespace ooc {
namespace {

constexpr std::array<std::pair<std::string_view, Backend>, 3> kBackends{
    {{"auto", Backend::automatic}, {"cpu", Backend::cpu}, {"cuda", Backend::cuda}}};
constexpr std::array<std::pair<std::string_view, TransferPolicy>, 5> kPolicies{
    {{"hybrid", TransferPolicy::hybrid},
     {"filter", TransferPolicy::filter},
     {"compaction", TransferPolicy::compaction},
     {"zerocopy", TransferPolicy::zerocopy},
     {"unified", TransferPolicy::unified}}};
constexpr std::array<std::pair<std::string_view, LoadBalance>, 5> kLoadBalances{
    {{"tiled", LoadBalance::tiled},
     {"warp", LoadBalance::warp},
     {"ordered", LoadBalance::ordered},
     {"decompose", LoadBalance::decompose},
     {"hierarchical", LoadBalance::hierarchical}}};

constexpr std::array<std::pair<std::string_view, Exchange>, 3> kExchanges{
    {{"dense", Exchange::dense}, {"sparse", Exchange::sparse}, {"auto", Exchange::automatic}}};

constexpr std::array<std::pair<std::string_view, Direction>, 3> kDirections{
    {{"push", Direction::push}, {"pull", Direction::pull}, {"auto", Direction::automatic}}};

constexpr std::array<std::pair<std::string_view, Priority>, 3> kPriorities{
    {{"on", Priority::on}, {"off", Priority::off}, {"auto", Priority::automatic}}};

constexpr std::array<std::pair<std::string_view, CcAlgorithm>, 2> kCcAlgorithms{
    {{"afforest", CcAlgorithm::afforest}, {"labels", CcAlgorithm::labels}}};

constexpr std::array<std::pair<std::string_view, PushRule>, 3> kPushRules{
    {{"auto", PushRule::automatic},
     {"per-edge", PushRule::per_edge},
     {"per-vertex", PushRule::per_vertex}}};

template <class T, std::size_t N>
T parse(std::string_view name, const std::array<std::pair<std::string_view, T>, N>& table,
        const char* what) {
  std::string accepted;
  for (const auto& [text, value] : table) {
    if (text == name) return value;
    accepted += (accepted.empty() ? "" : ", ") + std::string(text);
  }
  throw InvalidInput("unknown " + std::string(what) + " '" + std::string(name) +
                     "' (expected one of: " + accepted + ")");
}

template <class T, std::size_t N>
std::string_view name_of(T value, const std::array<std::pair<std::string_view, T>, N>& table) {
  for (const auto& [text, v] : table) {
    if (v == value) return text;
  }
  return "?";
}

}  // namespace

RunSettings run_settings(const EngineOptions& options) {
  return {.transfer = options.transfer,
          .priority = options.priority,
          .load_balance = options.load_balance,
          .direction = options.direction,
          .exchange = options.exchange,
          .exchange_rounds = options.exchange_rounds,
          .pull_blocks = options.pull_blocks,
          .resident_slices = options.resident_slices,
          .cc = options.cc,
          .frontier_loop_edges = options.frontier_loop_edges,
          .frontier_loop_hops = options.frontier_loop_hops};
}

void apply(const RunSettings& settings, EngineOptions& options) {
  options.transfer = settings.transfer;
  options.priority = settings.priority;
  options.load_balance = settings.load_balance;
  options.direction = settings.direction;
  options.exchange = settings.exchange;
  options.exchange_rounds = settings.exchange_rounds;
  options.pull_blocks = settings.pull_blocks;
  options.resident_slices = settings.resident_slices;
  options.cc = settings.cc;
  options.frontier_loop_edges = settings.frontier_loop_edges;
  options.frontier_loop_hops = settings.frontier_loop_hops;
}

void check(const RunSettings& settings) {
  if (settings.frontier_loop_hops > kMaxFrontierLoopHops &&
      settings.frontier_loop_hops != kAutomaticLoopHops) {
    throw InvalidInput("frontier loop hops must be from 0 to " +
                       std::to_string(kMaxFrontierLoopHops) + ", or automatic (got " +
                       std::to_string(settings.frontier_loop_hops) + ")");
  }
  if (settings.resident_slices == 0 || settings.resident_slices > kMaxResidentSlices) {
    throw InvalidInput("resident slices must be from 1 to " + std::to_string(kMaxResidentSlices) +
                       " (got " + std::to_string(settings.resident_slices) + ")");
  }
  if (settings.exchange_rounds > kMaxExchangeRounds) {
    throw InvalidInput("exchange rounds must be from 1 to " + std::to_string(kMaxExchangeRounds) +
                       ", or 0 for the backend's own (got " +
                       std::to_string(settings.exchange_rounds) + ")");
  }
  if (settings.pull_blocks > kMaxPullBlocks) {
    throw InvalidInput("pull blocks must be from 1 to " + std::to_string(kMaxPullBlocks) +
                       ", or 0 for the GPU's L2 to decide (got " +
                       std::to_string(settings.pull_blocks) + ")");
  }
}

std::string_view to_string(Backend b) {
  return name_of(b, kBackends);
}
std::string_view to_string(TransferPolicy p) {
  return name_of(p, kPolicies);
}
std::string_view to_string(LoadBalance b) {
  return name_of(b, kLoadBalances);
}
std::string_view to_string(Exchange e) {
  return name_of(e, kExchanges);
}
std::string_view to_string(Direction d) {
  return name_of(d, kDirections);
}
std::string_view to_string(Priority p) {
  return name_of(p, kPriorities);
}
std::string_view to_string(CcAlgorithm a) {
  return name_of(a, kCcAlgorithms);
}
std::string_view to_string(PushRule r) {
  return name_of(r, kPushRules);
}
Backend parse_backend(std::string_view name) {
  return parse(name, kBackends, "backend");
}
TransferPolicy parse_transfer_policy(std::string_view name) {
  return parse(name, kPolicies, "transfer policy");
}
LoadBalance parse_load_balance(std::string_view name) {
  return parse(name, kLoadBalances, "load balance");
}
Exchange parse_exchange(std::string_view name) {
  return parse(name, kExchanges, "exchange");
}
Direction parse_direction(std::string_view name) {
  return parse(name, kDirections, "direction");
}
Priority parse_priority(std::string_view name) {
  return parse(name, kPriorities, "priority");
}

CcAlgorithm parse_cc_algorithm(std::string_view name) {
  return parse(name, kCcAlgorithms, "cc algorithm");
}
PushRule parse_push_rule(std::string_view name) {
  return parse(name, kPushRules, "push rule");
}

}  // namespace ooc
