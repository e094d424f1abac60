#include "calibration.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "ooc/core/error.hpp"
#include "ooc/engine/calibration.hpp"
#include "ooc/transfer/devices.hpp"

namespace ooc::tools {
namespace {

// The link figures of GPU `device` in a pcie-bench --json: its pinned H2D peak, merged+aligned
// zero-copy reads (pinned by cudaHostAlloc, as the engine's edges are), and 128 B aligned lists
// of 8 and 32 elements.
LinkMeasurements read_pcie_bench(const std::string& path, int device) {
  std::ifstream in(path);
  if (!in) throw IoError("cannot open '" + path + "': " + std::strerror(errno));
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw InvalidInput(path + " is not a pcie-bench --json file: " + e.what());
  }
  const std::string gpu = "GPU " + std::to_string(device);
  const auto figure = [&](const char* test, const char* pattern, const char* param) {
    if (doc.contains("rows") && doc["rows"].is_array()) {
      for (const nlohmann::json& row : doc["rows"]) {
        if (row.value("device", -2) == device && row.value("test", "") == test &&
            row.value("pattern", "") == pattern && row.value("param", "") == param &&
            row.contains("gbps") && row["gbps"].is_number()) {
          return row["gbps"].get<double>();
        }
      }
    }
    throw InvalidInput(path + " has no '" + test + "' figure '" + pattern + "' (" + param +
                       ") for " + gpu + " (run pcie-bench with --only copy,zerocopy,lists or all)");
  };
  LinkMeasurements m;
  m.copy_gbps = figure("copy", "pinned H2D", "1 stream");
  m.zerocopy_gbps = figure("zerocopy", "merged+aligned", "cudaHostAlloc");
  m.list8_gbps = figure("lists", "128 B aligned", "L=8");
  m.list32_gbps = figure("lists", "128 B aligned", "L=32");
  return m;
}

}  // namespace

std::string calibrate(const std::string& how, int device, CostConstants& cost) {
  if (how == "off") return "";
  LinkMeasurements m;
  std::string source;
  if (how == "probe") {
    if (list_devices().empty())
      throw Unsupported("--calibration probe measures a GPU's link: " + describe_devices());
    m = probe_link(device);
    source = "probe of GPU " + std::to_string(device);
  } else {
    m = read_pcie_bench(how, device);
    source = how + ", GPU " + std::to_string(device);
  }
  cost = calibrated(cost, m);
  char line[320];
  std::snprintf(line, sizeof line,
                "calibration (%s): copy %.1f GB/s, zero-copy %.1f GB/s, lists of 8 and 32 "
                "elements %.1f and %.1f GB/s: link %.1f GB/s, zero-copy round trip %.3f, gamma "
                "%.3f",
                source.c_str(), m.copy_gbps, m.zerocopy_gbps, m.list8_gbps, m.list32_gbps,
                cost.link_bandwidth / 1e9, cost.zerocopy_round_trip, cost.gamma);
  return line;
}

}  // namespace ooc::tools
