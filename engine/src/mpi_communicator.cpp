// The MPI communicator: MPI_Allreduce and MPI_Bcast in place, in chunks that fit MPI's int counts,
// MPI_Reduce_scatter_block and MPI_Allgather. Only the thread that called mpi_world() calls MPI
// (MPI_THREAD_FUNNELED); oneTBB's workers never do.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

#include "ooc/core/error.hpp"
#include "ooc/engine/mpi.hpp"

namespace ooc {
namespace {

MPI_Op mpi_op(Reduction op) {
  switch (op) {
    case Reduction::min:
      return MPI_MIN;
    case Reduction::max:
      return MPI_MAX;
    default:
      return MPI_SUM;
  }
}

void check(int status, const char* doing) {
  if (status == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(status, text, &length);
  throw Error(std::string("MPI failed ") + doing + ": " + std::string(text, length));
}

class MpiCommunicator final : public Communicator {
 public:
  MpiCommunicator() {
    int initialised = 0;
    MPI_Initialized(&initialised);
    if (initialised == 0) {
      int provided = 0;
      check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "to start");
      owns_mpi_ = true;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    MPI_Comm host = MPI_COMM_NULL;
    check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host),
          "to group the ranks by host");
    MPI_Comm_rank(host, &host_rank_);
    MPI_Comm_size(host, &host_size_);
    MPI_Comm_free(&host);
  }
  ~MpiCommunicator() override {
    if (owns_mpi_) MPI_Finalize();
  }
  MpiCommunicator(const MpiCommunicator&) = delete;
  MpiCommunicator& operator=(const MpiCommunicator&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int ranks_on_host() const override { return host_size_; }
  // This rank's number among those on its host.
  int host_rank() const { return host_rank_; }
  void all_reduce(std::span<std::uint32_t> data, Reduction op) override {
    reduce(data.data(), data.size(), MPI_UINT32_T, mpi_op(op));
  }
  void all_reduce(std::span<float> data, Reduction op) override {
    reduce(data.data(), data.size(), MPI_FLOAT, mpi_op(op));
  }
  void all_reduce(std::span<std::uint64_t> data, Reduction op) override {
    reduce(data.data(), data.size(), MPI_UINT64_T, mpi_op(op));
  }
  void all_reduce(std::span<double> data, Reduction op) override {
    reduce(data.data(), data.size(), MPI_DOUBLE, mpi_op(op));
  }
  void reduce_scatter(std::span<float> data, std::size_t block) override {
    scatter(data.data(), data.size(), block, MPI_FLOAT);
  }
  void reduce_scatter(std::span<double> data, std::size_t block) override {
    scatter(data.data(), data.size(), block, MPI_DOUBLE);
  }
  void all_or(std::span<std::uint32_t> data) override {
    reduce(data.data(), data.size(), MPI_UINT32_T, MPI_BOR);
  }
  void all_gather(std::span<const std::uint32_t> send, std::span<std::uint32_t> receive) override {
    if (receive.size() != send.size() * static_cast<std::size_t>(size_))
      throw Error("all_gather: the receiving array does not hold every rank's words");
    if (send.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
      throw Error("all_gather: more words than one MPI_Allgather carries");
    const auto n = static_cast<int>(send.size());
    check(MPI_Allgather(send.data(), n, MPI_UINT32_T, receive.data(), n, MPI_UINT32_T,
                        MPI_COMM_WORLD),
          "gathering the ranks' arrays");
  }
  void broadcast(std::span<std::uint32_t> data, int root) override {
    for (std::size_t at = 0; at < data.size(); at += kChunk) {
      const auto n = static_cast<int>(std::min(kChunk, data.size() - at));
      check(MPI_Bcast(data.data() + at, n, MPI_UINT32_T, root, MPI_COMM_WORLD),
            "handing a rank's array to the others");
    }
  }
  void abort(std::string_view) noexcept override { MPI_Abort(MPI_COMM_WORLD, 1); }

 private:
  static constexpr std::size_t kChunk = std::size_t{1} << 30;  // below INT_MAX elements

  template <class T>
  void reduce(T* data, std::size_t count, MPI_Datatype type, MPI_Op op) {
    for (std::size_t at = 0; at < count; at += kChunk) {
      const auto n = static_cast<int>(std::min(kChunk, count - at));
      check(MPI_Allreduce(MPI_IN_PLACE, data + at, n, type, op, MPI_COMM_WORLD),
            "combining the ranks' vertex arrays");
    }
  }

  // MPI_Reduce_scatter_block in place leaves this rank's block at the front: moved to its place.
  // A block past MPI's int count is all-reduced whole (every block's sums, in place), in chunks.
  template <class T>
  void scatter(T* data, std::size_t count, std::size_t block, MPI_Datatype type) {
    if (count != block * static_cast<std::size_t>(size_))
      throw Error("reduce_scatter: the array does not hold a block for every rank");
    if (block > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
      reduce(data, count, type, MPI_SUM);
      return;
    }
    check(MPI_Reduce_scatter_block(MPI_IN_PLACE, data, static_cast<int>(block), type, MPI_SUM,
                                   MPI_COMM_WORLD),
          "summing the ranks' vertex arrays");
    std::memmove(data + block * static_cast<std::size_t>(rank_), data, block * sizeof(T));
  }

  int rank_ = 0, size_ = 1;
  int host_rank_ = 0, host_size_ = 1;
  bool owns_mpi_ = false;
};

const std::shared_ptr<MpiCommunicator>& world() {
  static const std::shared_ptr<MpiCommunicator> world = std::make_shared<MpiCommunicator>();
  return world;
}

}  // namespace

bool built_with_mpi() {
  return true;
}

std::shared_ptr<Communicator> mpi_world() {
  return world();
}

int mpi_local_rank() {
  return world()->host_rank();
}

}  // namespace ooc
