#pragma once
// `partition-tool info`: what a .oocg holds — counts, out-degree statistics and histogram, the
// partition layout for a partition size, and the hubs — as JSON and as text made from it.
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace ooc::tools {

nlohmann::json describe_graph_file(const std::filesystem::path& path,
                                   std::uint64_t partition_bytes);
std::string format_description(const nlohmann::json& info);

}  // namespace ooc::tools
