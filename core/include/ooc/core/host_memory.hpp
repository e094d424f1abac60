#pragma once
// What this machine's memory can spare: the default of the engine's host tier
// (EngineOptions::host_memory, ooc-run --host-memory) and of partition-tool's builds (--memory).
#include <cstdint>

namespace ooc {

// The memory the kernel says this machine can give without swapping (MemAvailable in
// /proc/meminfo), or 0 where that is unknown.
std::uint64_t available_memory();

// What a load or a build may take by default: 80% of available_memory(), leaving the rest to the
// page cache and the programs beside it; 0 where that is unknown.
std::uint64_t spare_memory();

}  // namespace ooc
