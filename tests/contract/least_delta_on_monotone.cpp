// A monotone program that declares a least delta per edge (it has no pending delta to hold back).
//
// expected error: OocGraph program: 'least_delta_per_edge' is for accumulative programs (a
// monotone one has no pending delta)
#include "ooc/engine/engine.hpp"

struct Program {
  using Value = std::uint32_t;
  static constexpr ooc::ProgramKind kind = ooc::ProgramKind::monotone;
  static constexpr bool needs_weights = false;
  static constexpr bool needs_symmetric = false;
  static constexpr ooc::Reduction combine = ooc::Reduction::min;
  OOC_HD Value init(ooc::vid_t v) const { return v == 0 ? 0 : ~Value{0}; }
  OOC_HD bool active_at_start(ooc::vid_t v) const { return v == 0; }
  OOC_HD double least_delta_per_edge() const { return 1.0; }
  OOC_HD bool relax(Value src, std::uint32_t, Value* dst) const {
    return ooc::lower_to(dst, src == ~Value{0} ? src : src + 1);
  }
};

int main() {
  ooc::OocEngine engine(ooc::Graph{});
  return static_cast<int>(engine.run(Program{}).values.size());
}
