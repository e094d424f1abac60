#include "ooc/transfer/placed_arena.hpp"

#include <gtest/gtest.h>
#include <hwloc.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace ooc {
namespace {

// The calling thread's CPU binding, as hwloc reports it.
struct Binding {
  hwloc_topology_t topology = nullptr;
  hwloc_const_bitmap_t node0 = nullptr;
  Binding() {
    hwloc_topology_init(&topology);
    hwloc_topology_load(topology);
    if (const hwloc_obj_t obj = hwloc_get_numanode_obj_by_os_index(topology, 0); obj != nullptr)
      node0 = obj->cpuset;
  }
  ~Binding() { hwloc_topology_destroy(topology); }
  Binding(const Binding&) = delete;
  Binding& operator=(const Binding&) = delete;
  // Whether this thread may run only on node 0's CPUs (vacuous where node 0 holds them all).
  bool within_node0() const {
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    hwloc_get_cpubind(topology, set, HWLOC_CPUBIND_THREAD);
    const bool in = node0 != nullptr && hwloc_bitmap_isincluded(set, node0) != 0;
    hwloc_bitmap_free(set);
    return in;
  }
  std::string current() const {
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    hwloc_get_cpubind(topology, set, HWLOC_CPUBIND_THREAD);
    char* text = nullptr;
    hwloc_bitmap_list_asprintf(&text, set);
    std::string out = text;
    std::free(text);
    hwloc_bitmap_free(set);
    return out;
  }
};

TEST(PlacedArena, WithoutANodeItIsAnUnboundArena) {
  PlacedArena arena(-1);
  EXPECT_FALSE(arena.bound());
  EXPECT_EQ(arena.placement(), "all CPUs (unbound: no NUMA node given)");
  EXPECT_GE(arena.concurrency(), 1);
  int ran = 0;
  arena.execute([&] { ran = 1; });
  EXPECT_EQ(ran, 1);
}

TEST(PlacedArena, ANodeTheMachineLacksIsNamed) {
  PlacedArena arena(4096);
  EXPECT_FALSE(arena.bound());
  EXPECT_EQ(arena.placement(), "all CPUs (unbound: this machine has no NUMA node 4096)");
}

// Every machine has NUMA node 0: its workers run there, and the caller keeps its binding.
TEST(PlacedArena, WorkersRunOnTheNodesCpusAndTheCallerIsNotRebound) {
  const Binding binding;
  ASSERT_NE(binding.node0, nullptr);
  PlacedArena arena(0);
  ASSERT_TRUE(arena.bound()) << arena.placement();
  EXPECT_EQ(arena.placement().rfind("NUMA node 0: ", 0), 0u) << arena.placement();
  const std::string before = binding.current();
  std::atomic<int> tasks{0}, outside{0}, on_workers{0};
  arena.execute([&] {
    tbb::parallel_for(0, 64, [&](int) {
      ++tasks;
      if (tbb::this_task_arena::current_thread_index() != 0) ++on_workers;
      if (!binding.within_node0()) ++outside;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));  // let workers join
    });
  });
  EXPECT_EQ(tasks.load(), 64);
  EXPECT_EQ(outside.load(), 0);
  EXPECT_EQ(binding.current(), before);
  if (arena.concurrency() > 1) {
    EXPECT_GT(on_workers.load(), 0);
  }
}

}  // namespace
}  // namespace ooc
