#include "ooc/engine/direction.hpp"

#include "ooc/engine/edge_cache.hpp"

namespace ooc {
namespace {

bool pull_pays(const DirectionSurvey& s, bool early_exit, bool on_device, std::uint64_t vertices,
               const DirectionState& state) {
  // Out of core, lists in the edge cache move no bytes. When neither direction moves any, a
  // program with a pull floor takes Beamer's switch, as in GPU memory; the others push, which
  // measured faster over cached compressed lists (docs/cost-model.md#direction).
  if (!on_device && (!early_exit || s.pull_bytes > 0 || s.push_bytes > 0))
    return s.pull_bytes < s.push_bytes;
  const auto frontier_edges = static_cast<double>(s.frontier_edges);
  const auto pull_edges = static_cast<double>(s.pull_edges);
  if (!early_exit) return frontier_edges >= kGatherShare * pull_edges;
  if (!state.pulled) return frontier_edges > pull_edges / kBottomUpAlpha;
  const bool shrinking = s.frontier_vertices < state.last_frontier;
  const bool small =
      static_cast<double>(s.frontier_vertices) < static_cast<double>(vertices) / kBottomUpBeta;
  return !(shrinking && small);
}

}  // namespace

DirectionSurvey survey_directions(std::span<const PartitionSurvey> push,
                                  std::span<const PartitionSurvey> pull, std::uint32_t edge_bytes,
                                  std::uint32_t request_bytes) {
  DirectionSurvey d;
  for (const PartitionSurvey& s : push) {
    d.frontier_vertices += s.activity.active_vertices;
    d.frontier_edges += s.activity.active_edges;
    if (s.activity.active_vertices > 0)
      d.push_bytes += link_bytes(s.engine, s.activity, edge_bytes, request_bytes);
  }
  for (const PartitionSurvey& s : pull) {
    if (s.activity.active_vertices == 0) continue;
    d.pull_vertices += s.activity.active_vertices;
    d.pull_edges += s.activity.active_edges;
    d.pull_bytes += link_bytes(s.engine, s.activity, edge_bytes, request_bytes);
  }
  return d;
}

bool choose_pull(const DirectionSurvey& s, bool early_exit, bool on_device, std::uint64_t vertices,
                 DirectionState& state) {
  const bool pull = s.frontier_vertices > 0 && s.pull_vertices > 0 &&
                    pull_pays(s, early_exit, on_device, vertices, state);
  state.pulled = pull;
  state.last_frontier = s.frontier_vertices;
  return pull;
}

}  // namespace ooc
