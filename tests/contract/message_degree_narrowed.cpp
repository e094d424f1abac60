// message() takes the out-degree as a 32-bit vid_t: a degree above 2^32 would wrap.
// expected error: OocGraph program: accumulative, so needs 'Value message(Value delta, eid_t
// out_degree) const'
#include "ooc/engine/engine.hpp"

struct Program {
  using Value = float;
  static constexpr ooc::ProgramKind kind = ooc::ProgramKind::accumulative;
  static constexpr bool needs_weights = false;
  static constexpr bool needs_symmetric = false;
  OOC_HD Value init(ooc::vid_t) const { return 0.0f; }
  OOC_HD Value init_delta(ooc::vid_t v) const { return v == 0 ? 1.0f : 0.0f; }
  OOC_HD bool active_at_start(ooc::vid_t v) const { return v == 0; }
  OOC_HD Value message(Value delta, ooc::vid_t out_degree) const {
    return delta / static_cast<float>(out_degree);
  }
  OOC_HD bool relax(Value m, std::uint32_t, Value* dst) const {
    return ooc::atomic_add(dst, m) < 1e-6f;
  }
};

int main() {
  ooc::OocEngine engine(ooc::Graph{});
  return static_cast<int>(engine.run(Program{}).values.size());
}
