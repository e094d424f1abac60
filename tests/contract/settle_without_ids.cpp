// A settling program whose relax() does not take the edge's ids: it could not read its frontier.
// expected error: OocGraph program: 'settle' needs the relax() that takes the edge's ids (a
// settling program keeps its frontier in arrays of its own)
#include "ooc/engine/engine.hpp"

struct Program {
  using Value = std::uint32_t;
  static constexpr ooc::ProgramKind kind = ooc::ProgramKind::monotone;
  static constexpr ooc::Reduction combine = ooc::Reduction::min;
  static constexpr bool needs_weights = false;
  static constexpr bool needs_symmetric = false;
  OOC_HD Value init(ooc::vid_t v) const { return v == 0 ? 0 : ~Value{0}; }
  OOC_HD bool active_at_start(ooc::vid_t v) const { return v == 0; }
  OOC_HD bool relax(Value src, std::uint32_t, Value* dst) const {
    return ooc::lower_to(dst, src + 1);
  }
  OOC_HD bool settle(ooc::vid_t, std::uint32_t) const { return false; }
};

int main() {
  ooc::OocEngine engine(ooc::Graph{});
  return static_cast<int>(engine.run(Program{}).values.size());
}
