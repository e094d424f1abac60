// A max-combining program that declares a pull floor (the engine would stop gathering early,
// wrongly).
//
// expected error: OocGraph program: 'pull_floor' is for programs that combine with min
#include "ooc/engine/engine.hpp"

struct Program {
  using Value = std::uint32_t;
  static constexpr ooc::ProgramKind kind = ooc::ProgramKind::monotone;
  static constexpr bool needs_weights = true;
  static constexpr bool needs_symmetric = false;
  static constexpr ooc::Reduction combine = ooc::Reduction::max;
  OOC_HD Value init(ooc::vid_t v) const { return v == 0 ? ~Value{0} : 0; }
  OOC_HD bool active_at_start(ooc::vid_t v) const { return v == 0; }
  OOC_HD Value offer(Value src, std::uint32_t weight) const { return src < weight ? src : weight; }
  OOC_HD Value pull_floor(Value least) const { return least; }
  OOC_HD bool relax(Value src, std::uint32_t weight, Value* dst) const {
    const Value candidate = offer(src, weight);
    return candidate > ooc::atomic_load(dst) && ooc::atomic_max(dst, candidate) < candidate;
  }
};

int main() {
  ooc::OocEngine engine(ooc::Graph{});
  return static_cast<int>(engine.run(Program{}).values.size());
}
