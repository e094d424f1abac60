// `combine` on a Value the ranks cannot combine (nor the atomics take).
// expected error: OocGraph program: 'Value' must be std::uint32_t or float
#include "ooc/engine/engine.hpp"

struct Program {
  using Value = std::int32_t;
  static constexpr ooc::ProgramKind kind = ooc::ProgramKind::monotone;
  static constexpr bool needs_weights = false;
  static constexpr bool needs_symmetric = false;
  static constexpr ooc::Reduction combine = ooc::Reduction::max;
  OOC_HD Value init(ooc::vid_t v) const { return v == 0 ? 100 : 0; }
  OOC_HD bool active_at_start(ooc::vid_t v) const { return v == 0; }
  OOC_HD bool relax(Value src, std::uint32_t, Value* dst) const {
    if (src - 1 <= *dst) return false;
    *dst = src - 1;
    return true;
  }
};

int main() {
  ooc::OocEngine engine(ooc::Graph{});
  return static_cast<int>(engine.run(Program{}).values.size());
}
