#pragma once
// The GPUs this process can use, and how each is attached (PCIe link, NUMA node). Empty in a
// build without CUDA or on a machine without a GPU or driver.
#include <cstdint>
#include <string>
#include <vector>

namespace ooc {

struct DeviceInfo {
  int index = 0;
  std::string name;
  int compute_major = 0;
  int compute_minor = 0;
  int multiprocessors = 0;
  std::uint64_t total_memory = 0;
  std::uint64_t free_memory = 0;
  std::string pci_bus_id;  // "0000:3b:00.0"
  std::string pcie_link;   // "Gen5 x16", or "unknown" where the system does not say
  int numa_node = -1;      // -1: unknown or a single node
};

std::vector<DeviceInfo> list_devices();

// One line per device, or "no CUDA device" with the reason.
std::string describe_devices();

}  // namespace ooc
