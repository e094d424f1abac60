#include "ooc/transfer/devices.hpp"

namespace ooc {

std::vector<DeviceInfo> list_devices() {
  return {};
}

std::string describe_devices() {
  return "no CUDA device (this build has no CUDA backend)";
}

}  // namespace ooc
