// relax() takes the weight as a float: it would compile through a conversion of the bits and run
// wrong (weight_as_float() reads an f32 weight).
// expected error: OocGraph program: missing or wrong 'bool relax(Value, std::uint32_t weight,
// Value* dst) const'
#include "ooc/engine/engine.hpp"

struct Program {
  using Value = float;
  static constexpr ooc::ProgramKind kind = ooc::ProgramKind::monotone;
  static constexpr bool needs_weights = true;
  static constexpr bool needs_symmetric = false;
  OOC_HD Value init(ooc::vid_t v) const { return v == 0 ? 0.0f : 1e30f; }
  OOC_HD bool active_at_start(ooc::vid_t v) const { return v == 0; }
  OOC_HD bool relax(Value src, float weight, Value* dst) const {
    return ooc::lower_to(dst, src + weight);
  }
};

int main() {
  ooc::OocEngine engine(ooc::Graph{});
  return static_cast<int>(engine.run(Program{}).values.size());
}
