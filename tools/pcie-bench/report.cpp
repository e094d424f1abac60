// The results of a run: the aligned table, and the CSV and JSON files that plot_pcie.py and
// later comparisons read. The '% peak' column and peak_gbps come from peak.cpp.
#include "report.hpp"

#include <cuda_runtime_api.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>

#include "ooc/core/error.hpp"
#include "ooc/core/units.hpp"
#include "ooc/transfer/devices.hpp"

namespace pcie_bench {
namespace {

std::string device_label(int device) {
  return device == kAllDevices ? "all" : std::to_string(device);
}

// The swept values are whole numbers (bytes, L, streams): all their digits, no exponent.
std::string whole(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

std::string fixed(double value, int decimals) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

using Cells = std::array<std::string, 8>;
constexpr Cells kHeader{"GPU", "test", "pattern", "param", "bytes/run", "GB/s", "% peak", "note"};

Cells cells_of(const Row& row) {
  const bool measured = row.sample.has_value();
  return {device_label(row.device),
          row.test,
          row.pattern,
          row.param,
          ooc::format_bytes(row.bytes),
          measured ? fixed(row.gbps(), 2) : "-",
          measured && row.percent_of_peak > 0 ? fixed(row.percent_of_peak, 1) : "-",
          row.note};
}

std::ofstream open_output(const std::string& path) {
  std::ofstream out(path);
  if (!out) throw ooc::IoError("cannot write " + path);
  return out;
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text)
    quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

nlohmann::json optional_number(bool present, double value) {
  return present ? nlohmann::json(value) : nlohmann::json(nullptr);
}

nlohmann::json row_json(const Row& row) {
  const bool measured = row.sample.has_value();
  return {{"device", row.device},
          {"test", row.test},
          {"pattern", row.pattern},
          {"param", row.param},
          {"x", row.x},
          {"bytes", row.bytes},
          {"median_ms", optional_number(measured, measured ? row.sample->median_ms : 0)},
          {"gbps", optional_number(measured, row.gbps())},
          {"min_gbps", optional_number(measured, row.slowest_gbps())},
          {"max_gbps", optional_number(measured, row.fastest_gbps())},
          {"percent_of_peak", optional_number(measured, row.percent_of_peak)},
          {"peak", row.peak},
          {"skipped", !measured},
          {"note", row.note}};
}

nlohmann::json devices_json(const std::vector<ooc::DeviceInfo>& devices) {
  nlohmann::json list = nlohmann::json::array();
  for (const ooc::DeviceInfo& d : devices) {
    list.push_back({{"index", d.index},
                    {"name", d.name},
                    {"compute_capability",
                     std::to_string(d.compute_major) + "." + std::to_string(d.compute_minor)},
                    {"multiprocessors", d.multiprocessors},
                    {"total_memory", d.total_memory},
                    {"free_memory", d.free_memory},
                    {"pci_bus_id", d.pci_bus_id},
                    {"pcie_link", d.pcie_link},
                    {"numa_node", d.numa_node}});
  }
  return list;
}

nlohmann::json machine_json() {
  std::array<char, 256> host{};
  gethostname(host.data(), host.size() - 1);
  int runtime = 0;
  int driver = 0;
  static_cast<void>(cudaRuntimeGetVersion(&runtime));
  static_cast<void>(cudaDriverGetVersion(&driver));
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  return {{"host", host.data()},
          {"unix_time", std::chrono::duration_cast<std::chrono::seconds>(now).count()},
          {"cuda_runtime", runtime},
          {"cuda_driver", driver},
          {"cpu_threads", sysconf(_SC_NPROCESSORS_ONLN)}};
}

nlohmann::json plan_json(const Plan& plan) {
  return {{"zero_copy_bytes", plan.zero_copy_bytes}, {"copy_bytes", plan.copy_bytes},
          {"list_bytes", plan.list_bytes},           {"blocks_bytes", plan.blocks_bytes},
          {"unified_bytes", plan.unified_bytes},     {"warmup_runs", plan.repeats.warmup},
          {"timed_runs", plan.repeats.timed}};
}

}  // namespace

void print_table(std::ostream& out, const std::vector<Row>& rows) {
  std::vector<Cells> table{kHeader};
  for (const Row& row : rows)
    table.push_back(cells_of(row));
  std::array<std::size_t, kHeader.size()> width{};
  for (const Cells& cells : table) {
    for (std::size_t c = 0; c < cells.size(); ++c)
      width[c] = std::max(width[c], cells[c].size());
  }
  constexpr std::array<bool, kHeader.size()> kRightAligned{false, false, false, false,
                                                           true,  true,  true,  false};
  for (const Cells& cells : table) {
    std::string line;
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const std::string pad(width[c] - cells[c].size(), ' ');
      const bool last = c + 1 == cells.size();
      line += kRightAligned[c] ? pad + cells[c] : cells[c] + (last ? "" : pad);
      if (!last) line += "  ";
    }
    out << line << '\n';
  }
}

void write_csv(const std::string& path, const std::vector<Row>& rows) {
  std::ofstream out = open_output(path);
  out << "device,test,pattern,param,x,bytes,median_ms,gbps,min_gbps,max_gbps,percent_of_peak,"
         "note\n";
  for (const Row& row : rows) {
    const bool measured = row.sample.has_value();
    const auto number = [&](double value) { return measured ? fixed(value, 4) : std::string(); };
    out << device_label(row.device) << ',' << csv_field(row.test) << ',' << csv_field(row.pattern)
        << ',' << csv_field(row.param) << ',' << whole(row.x) << ',' << row.bytes << ','
        << number(measured ? row.sample->median_ms : 0) << ',' << number(row.gbps()) << ','
        << number(row.slowest_gbps()) << ',' << number(row.fastest_gbps()) << ','
        << number(row.percent_of_peak) << ',' << csv_field(row.note) << '\n';
  }
  if (!out) throw ooc::IoError("cannot write " + path);
}

void write_json(const std::string& path, const std::vector<Row>& rows,
                const std::map<int, double>& peaks, const Plan& plan,
                const std::vector<ooc::DeviceInfo>& devices) {
  nlohmann::json doc{{"tool", "pcie-bench"},
                     {"format", 1},
                     {"machine", machine_json()},
                     {"devices", devices_json(devices)},
                     {"plan", plan_json(plan)},
                     {"rows", nlohmann::json::array()},
                     {"peak_gbps", nlohmann::json::object()}};
  for (const auto& [device, peak] : peaks)
    doc["peak_gbps"][device_label(device)] = peak;
  for (const Row& row : rows)
    doc["rows"].push_back(row_json(row));
  std::ofstream out = open_output(path);
  out << doc.dump(2) << '\n';
  if (!out) throw ooc::IoError("cannot write " + path);
}

}  // namespace pcie_bench
