// A monotone program whose ranks would add their copies up.
// expected error: OocGraph program: 'combine' must be 'static constexpr ooc::Reduction combine =
// ooc::Reduction::min' (or max)
#include "ooc/engine/engine.hpp"

struct Program {
  using Value = std::uint32_t;
  static constexpr ooc::ProgramKind kind = ooc::ProgramKind::monotone;
  static constexpr bool needs_weights = false;
  static constexpr bool needs_symmetric = false;
  static constexpr ooc::Reduction combine = ooc::Reduction::sum;
  OOC_HD Value init(ooc::vid_t v) const { return v == 0 ? 0 : ~Value{0}; }
  OOC_HD bool active_at_start(ooc::vid_t v) const { return v == 0; }
  OOC_HD bool relax(Value src, std::uint32_t, Value* dst) const {
    return ooc::lower_to(dst, src + 1);
  }
};

int main() {
  ooc::OocEngine engine(ooc::Graph{});
  return static_cast<int>(engine.run(Program{}).values.size());
}
