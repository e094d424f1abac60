#include "ooc/engine/info.hpp"

#include "ooc/core/version.hpp"
#include "ooc/transfer/devices.hpp"

namespace ooc {

std::string build_info() {
  std::string text = std::string("OocGraph ") + kVersion + ", backends: cpu";
  if (kBuiltWithCuda) text += " cuda";
  return text + "\n" + describe_devices();
}

}  // namespace ooc
