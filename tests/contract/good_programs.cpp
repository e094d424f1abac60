// Programs that keep the contract, in each of its forms: this file must compile, warnings as
// errors, with every program run through OocEngine::run(). With OOC_CONTRACT_CONCEPTS_ONLY it
// checks the concepts alone (nvcc's front end evaluates them too).
#include <cstdint>

#if defined(OOC_CONTRACT_CONCEPTS_ONLY)
#include "ooc/engine/batch_programs.hpp"
#include "ooc/engine/programs.hpp"
#else
#include "ooc/engine/engine.hpp"
#endif

// Monotone, max-combining, pulls (the widest path of docs/programs.md).
struct WidestPath {
  using Value = std::uint32_t;
  static constexpr ooc::ProgramKind kind = ooc::ProgramKind::monotone;
  static constexpr bool needs_weights = true;
  static constexpr bool needs_symmetric = false;
  static constexpr ooc::Reduction combine = ooc::Reduction::max;
  ooc::vid_t source;
  OOC_HD Value init(ooc::vid_t v) const { return v == source ? ~Value{0} : 0; }
  OOC_HD bool active_at_start(ooc::vid_t v) const { return v == source; }
  OOC_HD Value offer(Value src, std::uint32_t weight) const { return src < weight ? src : weight; }
  OOC_HD bool relax(Value src, std::uint32_t weight, Value* dst) const {
    const Value candidate = offer(src, weight);
    return candidate > ooc::atomic_load(dst) && ooc::atomic_max(dst, candidate) < candidate;
  }
};

// Monotone, ordered, with a pull floor; members noexcept (the signatures still match).
struct Hops {
  using Value = std::uint32_t;
  static constexpr ooc::ProgramKind kind = ooc::ProgramKind::monotone;
  static constexpr ooc::Reduction combine = ooc::Reduction::min;
  static constexpr bool needs_weights = false;
  static constexpr bool needs_symmetric = false;
  static constexpr bool ordered = true;
  ooc::vid_t source;
  OOC_HD Value init(ooc::vid_t v) const noexcept { return v == source ? 0 : ~Value{0}; }
  OOC_HD bool active_at_start(ooc::vid_t v) const noexcept { return v == source; }
  OOC_HD Value offer(Value src, std::uint32_t) const noexcept {
    return src == ~Value{0} ? src : src + 1;
  }
  OOC_HD Value pull_floor(Value least) const noexcept { return offer(least, 0); }
  OOC_HD bool relax(Value src, std::uint32_t w, Value* dst) const noexcept {
    return ooc::lower_to(dst, offer(src, w));
  }
};

// Monotone, taking the edge's ids.
struct UphillHops {
  using Value = std::uint32_t;
  static constexpr ooc::ProgramKind kind = ooc::ProgramKind::monotone;
  static constexpr ooc::Reduction combine = ooc::Reduction::min;
  static constexpr bool needs_weights = false;
  static constexpr bool needs_symmetric = false;
  ooc::vid_t source;
  OOC_HD Value init(ooc::vid_t v) const { return v == source ? 0 : ~Value{0}; }
  OOC_HD bool active_at_start(ooc::vid_t v) const { return v == source; }
  OOC_HD bool relax(Value src, std::uint32_t, Value* dst, ooc::vid_t from, ooc::vid_t to) const {
    return from < to && ooc::lower_to(dst, src + 1);
  }
};

// Accumulative, pulls (personalised PageRank).
struct PersonalisedPageRank {
  using Value = float;
  static constexpr ooc::ProgramKind kind = ooc::ProgramKind::accumulative;
  static constexpr bool needs_weights = false;
  static constexpr bool needs_symmetric = false;
  static constexpr bool ordered = true;
  ooc::vid_t source;
  float damping;
  float threshold;
  OOC_HD Value init(ooc::vid_t) const { return 0.0f; }
  OOC_HD Value init_delta(ooc::vid_t v) const { return v == source ? 1.0f : 0.0f; }
  OOC_HD bool active_at_start(ooc::vid_t v) const { return v == source; }
  OOC_HD Value message(Value delta, ooc::eid_t out_degree) const {
    return damping * delta / static_cast<float>(out_degree);
  }
  OOC_HD Value offer(Value message, std::uint32_t) const { return message; }
  OOC_HD bool relax(Value message, std::uint32_t, Value* dst) const {
    const float before = ooc::atomic_add(dst, message);
    return before < threshold && before + message >= threshold;
  }
};

static_assert(ooc::MonotoneProgram<WidestPath> && !ooc::AccumulativeProgram<WidestPath>);
static_assert(ooc::MonotoneProgram<Hops> && ooc::PullFloorProgram<Hops>);
static_assert(ooc::MonotoneProgram<UphillHops> && !ooc::PullProgram<UphillHops>);
static_assert(ooc::AccumulativeProgram<PersonalisedPageRank> &&
              !ooc::MonotoneProgram<PersonalisedPageRank>);
static_assert(ooc::GraphProgram<ooc::Bfs> && ooc::GraphProgram<ooc::PageRank> &&
              ooc::GraphProgram<ooc::BatchBackward> && ooc::SettlingProgram<ooc::BatchForward>);
static_assert(!ooc::GraphProgram<int> && !ooc::GraphProgram<ooc::Reduction>);

// A weight taken as float converts, so the engine's call would compile; the concept refuses it.
struct FloatWeight : Hops {
  OOC_HD bool relax(Value src, float, Value* dst) const { return ooc::lower_to(dst, src + 1); }
};
static_assert(!ooc::GraphProgram<FloatWeight>);

#if !defined(OOC_CONTRACT_CONCEPTS_ONLY)
int main() {
  ooc::OocEngine engine(ooc::Graph{});
  std::size_t n = engine.run(WidestPath{0}).values.size();
  n += engine.run(Hops{0}).values.size();
  n += engine.run(UphillHops{0}).values.size();
  n += engine.run(PersonalisedPageRank{0, 0.85f, 1e-6f}).values.size();
  return n == 0 ? 0 : 1;
}
#endif
