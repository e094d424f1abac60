#pragma once
// A oneTBB arena whose worker threads run on the CPUs of one NUMA node, bound there with hwloc
// as they join it. The CUDA backend runs CPU compaction (HyTGraph §III-A, §VI-B) in the arena of
// the GPU's node: the gathering threads then read edges that are local to them (pinned memory
// is placed on that node too, pinned_memory.hpp) and never compete with the driver's thread
// across the socket link. On a machine with one NUMA node it is an ordinary arena.
#include <functional>
#include <memory>
#include <string>

namespace ooc {

class PlacedArena {
 public:
  // numa_node: an OS NUMA node index. -1, or a node this machine does not have: all CPUs,
  // unbound (placement() says which).
  explicit PlacedArena(int numa_node);
  ~PlacedArena();
  PlacedArena(const PlacedArena&) = delete;
  PlacedArena& operator=(const PlacedArena&) = delete;

  // Runs f on the calling thread inside the arena: the oneTBB algorithms it calls use the
  // arena's (bound) workers. The calling thread itself is never rebound.
  void execute(const std::function<void()>& f);
  int concurrency() const;
  bool bound() const;
  // "NUMA node 1: 16 CPUs (16-31)" or "all CPUs (unbound: ...why...)".
  const std::string& placement() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The arena near GPU `device` (its NUMA node from list_devices()), made on first use and kept
// for the life of the process.
PlacedArena& compaction_arena(int device);

}  // namespace ooc
