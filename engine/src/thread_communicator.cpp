// Ranks as threads of one process: all_reduce through shared memory and a barrier. Each rank
// reduces one slice of the elements across every rank's buffer and writes the result back into
// all of them, so the work is spread and no temporary is needed. reduce_scatter: each rank sums
// its own block. all_gather: each rank copies every rank's published buffer; broadcast: the
// root's.
#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <string>

#include "ooc/core/error.hpp"
#include "ooc/engine/communicator.hpp"

namespace ooc {
namespace {

// A barrier that a failing rank can break, so that the others stop instead of waiting forever.
class BreakableBarrier {
 public:
  explicit BreakableBarrier(int parties) : parties_(parties) {}
  void arrive_and_wait() {
    std::unique_lock lock(mutex_);
    if (!broken_.empty()) throw Error(broken_);
    const std::uint64_t generation = generation_;
    if (++arrived_ == parties_) {
      arrived_ = 0;
      ++generation_;
      changed_.notify_all();
      return;
    }
    changed_.wait(lock, [&] { return generation_ != generation || !broken_.empty(); });
    if (generation_ == generation) throw Error(broken_);
  }
  void break_with(std::string why) {
    const std::lock_guard lock(mutex_);
    if (broken_.empty()) broken_ = std::move(why);
    changed_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  int parties_, arrived_ = 0;
  std::uint64_t generation_ = 0;
  std::string broken_;
};

struct Shared {
  explicit Shared(int ranks)
      : barrier(ranks),
        buffers(static_cast<std::size_t>(ranks)),
        sent(static_cast<std::size_t>(ranks)) {}
  BreakableBarrier barrier;
  std::vector<void*> buffers;              // all_reduce's, reduced in place
  std::vector<const std::uint32_t*> sent;  // all_gather's
};

template <class T>
T combine(T a, T b, Reduction op) {
  switch (op) {
    case Reduction::min:
      return std::min(a, b);
    case Reduction::max:
      return std::max(a, b);
    default:
      return a + b;
  }
}

template <class T>
auto combining(Reduction op) {
  return [op](T a, T b) { return combine(a, b, op); };
}

class ThreadCommunicator final : public Communicator {
 public:
  ThreadCommunicator(std::shared_ptr<Shared> shared, int rank)
      : shared_(std::move(shared)), rank_(rank) {}
  int rank() const override { return rank_; }
  int size() const override { return static_cast<int>(shared_->buffers.size()); }
  int ranks_on_host() const override { return size(); }
  void all_reduce(std::span<std::uint32_t> data, Reduction op) override {
    reduce(data, combining<std::uint32_t>(op));
  }
  void all_reduce(std::span<float> data, Reduction op) override {
    reduce(data, combining<float>(op));
  }
  void all_reduce(std::span<std::uint64_t> data, Reduction op) override {
    reduce(data, combining<std::uint64_t>(op));
  }
  void all_reduce(std::span<double> data, Reduction op) override {
    reduce(data, combining<double>(op));
  }
  void reduce_scatter(std::span<float> data, std::size_t block) override {
    scatter_sums(data, block);
  }
  void reduce_scatter(std::span<double> data, std::size_t block) override {
    scatter_sums(data, block);
  }
  void all_or(std::span<std::uint32_t> data) override {
    reduce(data, [](std::uint32_t a, std::uint32_t b) { return a | b; });
  }
  void all_gather(std::span<const std::uint32_t> send, std::span<std::uint32_t> receive) override {
    if (receive.size() != send.size() * static_cast<std::size_t>(size()))
      throw Error("all_gather: the receiving array does not hold every rank's words");
    shared_->sent[static_cast<std::size_t>(rank_)] = send.data();
    shared_->barrier.arrive_and_wait();  // every buffer is published
    for (std::size_t r = 0; r < shared_->sent.size(); ++r)
      std::copy_n(shared_->sent[r], send.size(), receive.data() + r * send.size());
    shared_->barrier.arrive_and_wait();  // every rank has read every buffer
  }
  void broadcast(std::span<std::uint32_t> data, int root) override {
    if (root < 0 || root >= size()) throw Error("broadcast: no rank " + std::to_string(root));
    if (rank_ == root) shared_->sent[static_cast<std::size_t>(root)] = data.data();
    shared_->barrier.arrive_and_wait();  // the root's buffer is published
    if (rank_ != root)
      std::copy_n(shared_->sent[static_cast<std::size_t>(root)], data.size(), data.data());
    shared_->barrier.arrive_and_wait();  // every rank has read it
  }
  void abort(std::string_view why) noexcept override {
    shared_->barrier.break_with("rank " + std::to_string(rank_) + " failed: " + std::string(why));
  }

 private:
  template <class T, class Combine>
  void reduce(std::span<T> data, Combine combine) {
    shared_->buffers[static_cast<std::size_t>(rank_)] = data.data();
    shared_->barrier.arrive_and_wait();  // every buffer is published
    const auto ranks = static_cast<std::size_t>(size());
    const std::size_t slice = (data.size() + ranks - 1) / ranks;
    const std::size_t first = std::min(data.size(), slice * static_cast<std::size_t>(rank_));
    const std::size_t last = std::min(data.size(), first + slice);
    for (std::size_t i = first; i < last; ++i) {
      T acc = static_cast<T*>(shared_->buffers[0])[i];
      for (std::size_t r = 1; r < ranks; ++r)
        acc = combine(acc, static_cast<T*>(shared_->buffers[r])[i]);
      for (std::size_t r = 0; r < ranks; ++r)
        static_cast<T*>(shared_->buffers[r])[i] = acc;
    }
    shared_->barrier.arrive_and_wait();  // every slice is written back
  }

  // Each rank sums its own block over every rank's buffer into its own: no rank writes another's
  // block, so they need no order among themselves.
  template <class T>
  void scatter_sums(std::span<T> data, std::size_t block) {
    const auto ranks = static_cast<std::size_t>(size());
    if (data.size() != block * ranks)
      throw Error("reduce_scatter: the array does not hold a block for every rank");
    shared_->buffers[static_cast<std::size_t>(rank_)] = data.data();
    shared_->barrier.arrive_and_wait();  // every buffer is published
    const std::size_t first = block * static_cast<std::size_t>(rank_);
    for (std::size_t r = 0; r < ranks; ++r) {
      if (r == static_cast<std::size_t>(rank_)) continue;
      const T* other = static_cast<const T*>(shared_->buffers[r]);
      for (std::size_t i = first; i < first + block; ++i)
        data[i] += other[i];
    }
    shared_->barrier.arrive_and_wait();  // every rank has read its block of every buffer
  }

  std::shared_ptr<Shared> shared_;
  int rank_;
};

}  // namespace

std::vector<std::unique_ptr<Communicator>> thread_communicators(int ranks) {
  if (ranks < 1) throw InvalidInput("a run needs at least one rank, not " + std::to_string(ranks));
  auto shared = std::make_shared<Shared>(ranks);
  std::vector<std::unique_ptr<Communicator>> out;
  for (int r = 0; r < ranks; ++r)
    out.push_back(std::make_unique<ThreadCommunicator>(shared, r));
  return out;
}

}  // namespace ooc
