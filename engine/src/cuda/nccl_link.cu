#include <array>
#include <cstring>
#include <string>
#include <thread>

#include "ooc/core/cuda_check.hpp"
#include "ooc/core/error.hpp"
#include "ooc/engine/cuda/nccl_link.hpp"

namespace ooc::detail {
namespace {

ncclRedOp_t nccl_op(Reduction op) {
  switch (op) {
    case Reduction::min:
      return ncclMin;
    case Reduction::max:
      return ncclMax;
    default:
      return ncclSum;
  }
}

}  // namespace

NcclLink::NcclLink(Communicator& host, int device)
    : device_(device), rank_(host.rank()), size_(host.size()) {
  // NCCL's unique id travels as 16 words that every rank but 0 leaves zero: a sum is a broadcast.
  static_assert(sizeof(ncclUniqueId) % sizeof(std::uint64_t) == 0);
  std::array<std::uint64_t, sizeof(ncclUniqueId) / sizeof(std::uint64_t)> words{};
  ncclUniqueId id{};
  if (host.rank() == 0) {
    check(ncclGetUniqueId(&id), "creating NCCL's unique id");
    std::memcpy(words.data(), &id, sizeof id);
  }
  host.all_reduce(words, Reduction::sum);
  std::memcpy(&id, words.data(), sizeof id);
  OOC_CUDA(cudaSetDevice(device), "selecting the GPU for NCCL");
  check(ncclCommInitRank(&comm_, host.size(), id, host.rank()), "joining the ranks over NCCL");
}

NcclLink::~NcclLink() {
  if (comm_ == nullptr) return;
  cudaSetDevice(device_);
  // After a failure a peer may never answer: abort rather than wait for it.
  if (failed_) {
    ncclCommAbort(comm_);
  } else {
    ncclCommDestroy(comm_);
  }
}

void NcclLink::check(ncclResult_t status, const char* doing) {
  if (status == ncclSuccess || status == ncclInProgress) return;
  failed_ = true;
  const char* last = comm_ != nullptr ? ncclGetLastError(comm_) : nullptr;
  throw CudaError(std::string(doing) + ": NCCL: " + ncclGetErrorString(status) +
                  (last != nullptr && *last != '\0' ? std::string(" (") + last + ")" : ""));
}

void NcclLink::all_reduce(std::uint32_t* data, std::size_t n, Reduction op, cudaStream_t stream) {
  reduce(data, data, n, ncclUint32, op, stream);
}
void NcclLink::all_reduce(float* data, std::size_t n, Reduction op, cudaStream_t stream) {
  reduce(data, data, n, ncclFloat32, op, stream);
}
void NcclLink::all_reduce(const std::uint32_t* send, std::uint32_t* receive, std::size_t n,
                          Reduction op, cudaStream_t stream) {
  reduce(send, receive, n, ncclUint32, op, stream);
}
void NcclLink::all_reduce(const float* send, float* receive, std::size_t n, Reduction op,
                          cudaStream_t stream) {
  reduce(send, receive, n, ncclFloat32, op, stream);
}

void NcclLink::reduce(const void* send, void* receive, std::size_t n, ncclDataType_t type,
                      Reduction op, cudaStream_t stream) {
  const char* doing = "exchanging vertex values over NCCL";
  check(ncclAllReduce(send, receive, n, type, nccl_op(op), comm_, stream), doing);
  wait(stream, doing);
}

void NcclLink::reduce_scatter(float* data, std::size_t block, cudaStream_t stream) {
  const char* doing = "summing vertex deltas over NCCL";
  // In place: this rank's block of the array it sends is where its sums land.
  check(ncclReduceScatter(data, data + block * static_cast<std::size_t>(rank_), block, ncclFloat32,
                          ncclSum, comm_, stream),
        doing);
  wait(stream, doing);
}

void NcclLink::all_gather(const std::uint64_t* send, std::uint64_t* receive, std::size_t count,
                          cudaStream_t stream) {
  gather(send, receive, count, ncclUint64, stream);
}
void NcclLink::all_gather(const std::uint32_t* send, std::uint32_t* receive, std::size_t count,
                          cudaStream_t stream) {
  gather(send, receive, count, ncclUint32, stream);
}

void NcclLink::gather(const void* send, void* receive, std::size_t count, ncclDataType_t type,
                      cudaStream_t stream) {
  const char* doing = "exchanging changed vertices over NCCL";
  check(ncclAllGather(send, receive, count, type, comm_, stream), doing);
  wait(stream, doing);
}

void NcclLink::wait(cudaStream_t stream, const char* doing) {
  for (;;) {
    const cudaError_t done = cudaStreamQuery(stream);
    if (done == cudaSuccess) return;
    if (done != cudaErrorNotReady) {
      failed_ = true;
      OOC_CUDA(done, doing);
    }
    ncclResult_t async = ncclSuccess;
    check(ncclCommGetAsyncError(comm_, &async), doing);
    check(async, doing);
    std::this_thread::yield();
  }
}

}  // namespace ooc::detail
