// No Value type.
// expected error: OocGraph program: missing 'using Value = ...;'
#include "ooc/engine/engine.hpp"

struct Program {
  static constexpr ooc::ProgramKind kind = ooc::ProgramKind::monotone;
  static constexpr bool needs_weights = false;
  static constexpr bool needs_symmetric = false;
  OOC_HD std::uint32_t init(ooc::vid_t v) const { return v == 0 ? 0 : ~0u; }
  OOC_HD bool active_at_start(ooc::vid_t v) const { return v == 0; }
  OOC_HD bool relax(std::uint32_t src, std::uint32_t, std::uint32_t* dst) const {
    return ooc::lower_to(dst, src + 1);
  }
};

int main() {
  ooc::OocEngine engine(ooc::Graph{});
  return static_cast<int>(engine.run(Program{}).values.size());
}
