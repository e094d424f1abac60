#include <cuda_runtime_api.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include "ooc/core/units.hpp"
#include "ooc/transfer/devices.hpp"

namespace ooc {
namespace {

std::string read_sysfs(const std::string& path) {
  std::ifstream in(path);
  std::string value;
  std::getline(in, value);
  return value;
}

// PCIe speed in GT/s -> generation (2.5 -> 1, 5 -> 2, 8 -> 3, 16 -> 4, 32 -> 5, 64 -> 6).
std::string pcie_generation(const std::string& speed) {
  const double gts = std::atof(speed.c_str());
  if (gts <= 0) return "";
  static constexpr double kRates[] = {2.5, 5, 8, 16, 32, 64};
  for (int g = 0; g < 6; ++g) {
    if (gts <= kRates[g] * 1.01) return "Gen" + std::to_string(g + 1);
  }
  return speed;
}

void describe_link(DeviceInfo& d) {
  const std::string dir = "/sys/bus/pci/devices/" + d.pci_bus_id + "/";
  const std::string gen = pcie_generation(read_sysfs(dir + "current_link_speed"));
  const std::string width = read_sysfs(dir + "current_link_width");
  d.pcie_link = gen.empty() || width.empty() ? "unknown" : gen + " x" + width;
  const std::string numa = read_sysfs(dir + "numa_node");
  d.numa_node = numa.empty() ? -1 : std::atoi(numa.c_str());
}

std::string& last_reason() {
  static std::string reason;
  return reason;
}

}  // namespace

std::vector<DeviceInfo> list_devices() {
  std::vector<DeviceInfo> devices;
  int count = 0;
  if (cudaError_t err = cudaGetDeviceCount(&count); err != cudaSuccess) {
    // No driver or no device: a normal situation for this function, not an error.
    last_reason() = cudaGetErrorString(err);
    cudaGetLastError();
    return devices;
  }
  last_reason() = count == 0 ? "no device found" : "";
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, i) != cudaSuccess) continue;
    DeviceInfo d;
    d.index = i;
    d.name = prop.name;
    d.compute_major = prop.major;
    d.compute_minor = prop.minor;
    d.multiprocessors = prop.multiProcessorCount;
    d.total_memory = prop.totalGlobalMem;
    char bus[32] = {};
    if (cudaDeviceGetPCIBusId(bus, sizeof bus, i) == cudaSuccess) {
      d.pci_bus_id = bus;
      std::transform(d.pci_bus_id.begin(), d.pci_bus_id.end(), d.pci_bus_id.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    }
    int previous = 0;
    cudaGetDevice(&previous);
    std::size_t free_bytes = 0, total_bytes = 0;
    if (cudaSetDevice(i) == cudaSuccess &&
        cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess) {
      d.free_memory = free_bytes;
    }
    cudaSetDevice(previous);
    describe_link(d);
    devices.push_back(std::move(d));
  }
  return devices;
}

std::string describe_devices() {
  const auto devices = list_devices();
  if (devices.empty()) return "no CUDA device (" + last_reason() + ")";
  std::ostringstream out;
  for (const auto& d : devices) {
    out << "GPU " << d.index << ": " << d.name << ", sm_" << d.compute_major << d.compute_minor
        << ", " << d.multiprocessors << " SMs, " << format_bytes(d.total_memory) << " ("
        << format_bytes(d.free_memory) << " free), PCIe " << d.pcie_link << " at " << d.pci_bus_id;
    if (d.numa_node >= 0) out << ", NUMA node " << d.numa_node;
    out << '\n';
  }
  std::string text = out.str();
  text.pop_back();
  return text;
}

}  // namespace ooc
