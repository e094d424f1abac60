// A monotone program (its width only grows, as widest path's) that does not say how the ranks
// combine its values: they would keep the smallest copy.
// expected error: OocGraph program: monotone, so needs 'static constexpr ooc::Reduction combine'
#include "ooc/engine/engine.hpp"

struct Program {
  using Value = std::uint32_t;
  static constexpr ooc::ProgramKind kind = ooc::ProgramKind::monotone;
  static constexpr bool needs_weights = true;
  static constexpr bool needs_symmetric = false;
  OOC_HD Value init(ooc::vid_t v) const { return v == 0 ? ~Value{0} : 0; }
  OOC_HD bool active_at_start(ooc::vid_t v) const { return v == 0; }
  OOC_HD bool relax(Value src, std::uint32_t weight, Value* dst) const {
    const Value candidate = src < weight ? src : weight;
    return ooc::atomic_max(dst, candidate) < candidate;
  }
};

int main() {
  ooc::OocEngine engine(ooc::Graph{});
  return static_cast<int>(engine.run(Program{}).values.size());
}
