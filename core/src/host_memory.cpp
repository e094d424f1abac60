#include "ooc/core/host_memory.hpp"

#include <fstream>
#include <string>

namespace ooc {

std::uint64_t available_memory() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib) {
    std::getline(meminfo, unit);
    if (key == "MemAvailable:") return kib * 1024;
  }
  return 0;
}

std::uint64_t spare_memory() {
  return available_memory() / 10 * 8;
}

}  // namespace ooc
