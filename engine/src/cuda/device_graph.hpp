#pragma once
// DeviceGraph's definition, for the CUDA sources.
#include <string>

#include "../cuda_backend.hpp"
#include "ooc/transfer/device_array.hpp"

namespace ooc::detail {

struct DeviceGraph {
  int device = 0;
  std::string name;
  const Graph* graph = nullptr;
  DeviceArray<eid_t> offsets;
  DeviceArray<vid_t> partition_first;  // partitions + 1
  DeviceArray<eid_t> partition_edges;  // partitions
  // Device pointers to the pinned host edges (zero-copy reads them).
  const vid_t* mapped_targets = nullptr;
  const std::uint32_t* mapped_weights = nullptr;
  // In-memory mode: the edges copied once.
  DeviceArray<vid_t> resident_targets;
  DeviceArray<std::uint32_t> resident_weights;
  // Unified policy: the edges in managed memory, read-mostly.
  vid_t* managed_targets = nullptr;
  std::uint32_t* managed_weights = nullptr;

  DeviceGraph() = default;
  DeviceGraph(const DeviceGraph&) = delete;
  DeviceGraph& operator=(const DeviceGraph&) = delete;
  ~DeviceGraph();

  // Copies the edges to the device once; returns the bytes copied now (0 when already there).
  std::uint64_t make_resident();
  // Managed copy of the edges; refuses when they exceed the GPU's free memory, because
  // oversubscribed managed memory can hang a shared GPU.
  void make_managed();
};

}  // namespace ooc::detail
