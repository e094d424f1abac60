#pragma once
// The ranks' link between GPUs: one NCCL communicator per rank, on the rank's GPU. The host
// Communicator (MPI between processes, or threads of one process) bootstraps it by carrying
// NCCL's unique id from rank 0 to the others, and MPI stays the launcher only: every vertex
// array moves through NCCL (NVLink, PCIe peer-to-peer, InfiniBand or RoCE, as NCCL finds).
#include <cuda_runtime.h>
#include <nccl.h>

#include <cstddef>
#include <cstdint>

#include "ooc/engine/communicator.hpp"

namespace ooc::detail {

class NcclLink {
 public:
  // Collective: every rank constructs its link at the same point, each on its own GPU.
  NcclLink(Communicator& host, int device);
  NcclLink(const NcclLink&) = delete;
  NcclLink& operator=(const NcclLink&) = delete;
  ~NcclLink();

  // Element-wise over all ranks, in place in device memory, on `stream`; returns when it is
  // done. While it waits it polls NCCL's asynchronous error state: a failed peer or network
  // makes it abort the communicator and throw, naming NCCL's reason.
  void all_reduce(std::uint32_t* data, std::size_t n, Reduction op, cudaStream_t stream);
  void all_reduce(float* data, std::size_t n, Reduction op, cudaStream_t stream);
  // The same out of place: `receive` gets the reduction, `send` keeps this rank's own.
  void all_reduce(const std::uint32_t* send, std::uint32_t* receive, std::size_t n, Reduction op,
                  cudaStream_t stream);
  void all_reduce(const float* send, float* receive, std::size_t n, Reduction op,
                  cudaStream_t stream);
  // The sums over all ranks of `data` (size() * block values), in place: rank r's block,
  // data[r * block, (r + 1) * block), gets its sums (Communicator::reduce_scatter); waits the same
  // way.
  void reduce_scatter(float* data, std::size_t block, cudaStream_t stream);
  // `count` words from every rank into `receive`, rank r's at r * count; waits the same way.
  void all_gather(const std::uint64_t* send, std::uint64_t* receive, std::size_t count,
                  cudaStream_t stream);
  void all_gather(const std::uint32_t* send, std::uint32_t* receive, std::size_t count,
                  cudaStream_t stream);
  int rank() const { return rank_; }
  int size() const { return size_; }

 private:
  void reduce(const void* send, void* receive, std::size_t n, ncclDataType_t type, Reduction op,
              cudaStream_t stream);
  void gather(const void* send, void* receive, std::size_t count, ncclDataType_t type,
              cudaStream_t stream);
  void wait(cudaStream_t stream, const char* doing);
  void check(ncclResult_t status, const char* doing);

  ncclComm_t comm_ = nullptr;
  int device_, rank_, size_;
  bool failed_ = false;
};

}  // namespace ooc::detail
