#pragma once
// `partition-tool info`: what a .oocg holds — counts, out-degree statistics and histogram, the
// partition layout for a partition size, the order and the hubs, and on request the order's
// locality (measure_locality) — as JSON and as text made from it.
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace ooc::tools {

// host_memory > 0: also the plan of a run on the CPU backend with that much host memory for the
// lists (plan_host_memory), under "host_memory"; null otherwise.
nlohmann::json describe_graph_file(const std::filesystem::path& path, std::uint64_t partition_bytes,
                                   bool locality, std::uint64_t host_memory = 0);
std::string format_description(const nlohmann::json& info);

}  // namespace ooc::tools
