#pragma once
// `partition-tool info`: what a .oocg holds — counts, out-degree statistics and histogram, the
// partition layout for a partition size, the order and the hubs, and on request the order's
// locality (measure_locality) — as JSON and as text made from it.
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace ooc::tools {

nlohmann::json describe_graph_file(const std::filesystem::path& path, std::uint64_t partition_bytes,
                                   bool locality);
std::string format_description(const nlohmann::json& info);

}  // namespace ooc::tools
