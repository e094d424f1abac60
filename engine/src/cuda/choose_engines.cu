// HyTGraph Algorithm 1 lines 4-12 on the GPU: each partition's engine from its counters, so
// that only the choices (and small counters) cross back to the host.
#include "ooc/engine/cuda/cuda_executor.cuh"
#include "ooc/kernels/cuda/launch.cuh"

namespace ooc::detail {
namespace {

__global__ void choose_engines_kernel(cuda::PartitionCounters* counters,
                                      const eid_t* partition_edges, std::uint32_t partitions,
                                      TransferPolicy policy, bool resident,
                                      const std::uint8_t* cached, const std::uint64_t* compressed,
                                      std::uint32_t bytes_per_edge, std::uint32_t weight_bits,
                                      CostConstants cost) {
  const std::uint64_t p = cuda::grid_thread();
  if (p >= partitions) return;
  cuda::PartitionCounters& c = counters[p];
  if (c.active_vertices == 0) return;
  const eid_t edges = partition_edges[p];
  PartitionActivity a{edges, c.active_vertices, c.active_edges, c.requests};
  if (compressed != nullptr) {
    a.filter_bytes = compressed_filter_bytes(compressed[p], edges, bytes_per_edge, weight_bits);
    a.compacted_bytes = compressed_compaction_bytes(c.list_bytes, c.active_edges, c.active_vertices,
                                                    bytes_per_edge, weight_bits);
  }
  const bool on_device = resident || (cached != nullptr && cached[p] != 0);
  c.engine = static_cast<std::uint32_t>(engine_for(policy, on_device, a, bytes_per_edge, cost));
}

}  // namespace

void launch_choose_engines(cuda::PartitionCounters* counters, const eid_t* partition_edges,
                           std::uint32_t partitions, TransferPolicy policy, bool resident,
                           const std::uint8_t* cached, const std::uint64_t* compressed,
                           std::uint32_t bytes_per_edge, std::uint32_t weight_bits,
                           const CostConstants& cost, unsigned blocks, cudaStream_t stream) {
  OOC_LAUNCH(choose_engines_kernel, blocks, kBlockThreads, stream, "choosing transfer engines",
             counters, partition_edges, partitions, policy, resident, cached, compressed,
             bytes_per_edge, weight_bits, cost);
}

}  // namespace ooc::detail
