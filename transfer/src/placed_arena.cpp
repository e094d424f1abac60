#include "ooc/transfer/placed_arena.hpp"

#include <hwloc.h>
#include <tbb/task_arena.h>
#include <tbb/task_scheduler_observer.h>

#include <cstdlib>
#include <map>
#include <mutex>

#include "ooc/transfer/devices.hpp"

namespace ooc {
namespace {

// Binds each worker thread to the node's CPUs as it enters the arena; the application thread
// that calls execute() is left as it is.
class Binder final : public tbb::task_scheduler_observer {
 public:
  Binder(tbb::task_arena& arena, hwloc_topology_t topology, hwloc_const_bitmap_t cpuset)
      : tbb::task_scheduler_observer(arena), topology_(topology), cpuset_(cpuset) {
    observe(true);
  }
  ~Binder() override { observe(false); }
  Binder(const Binder&) = delete;
  Binder& operator=(const Binder&) = delete;

  void on_scheduler_entry(bool worker) override {
    if (worker) hwloc_set_cpubind(topology_, cpuset_, HWLOC_CPUBIND_THREAD);
  }

 private:
  hwloc_topology_t topology_;
  hwloc_const_bitmap_t cpuset_;
};

std::string cpu_list(hwloc_const_bitmap_t set) {
  char* text = nullptr;
  if (hwloc_bitmap_list_asprintf(&text, set) < 0 || text == nullptr) return "?";
  std::string out = text;
  std::free(text);
  return out;
}

}  // namespace

struct PlacedArena::Impl {
  hwloc_topology_t topology = nullptr;
  hwloc_bitmap_t cpuset = nullptr;  // null: unbound
  std::string placement;
  tbb::task_arena arena;
  std::unique_ptr<Binder> binder;

  explicit Impl(int node) {
    const std::string unbound_because = find_cpus(node);
    if (!unbound_because.empty()) {
      placement = "all CPUs (unbound: " + unbound_because + ")";
      arena.initialize();
      return;
    }
    const int cpus = hwloc_bitmap_weight(cpuset);
    placement = "NUMA node " + std::to_string(node) + ": " + std::to_string(cpus) + " CPUs (" +
                cpu_list(cpuset) + ")";
    arena.initialize(cpus);
    binder = std::make_unique<Binder>(arena, topology, cpuset);
  }
  ~Impl() {
    binder.reset();
    arena.terminate();
    if (cpuset != nullptr) hwloc_bitmap_free(cpuset);
    if (topology != nullptr) hwloc_topology_destroy(topology);
  }
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  // Sets cpuset to the node's CPUs this process may use, or says why not.
  std::string find_cpus(int node) {
    if (node < 0) return "no NUMA node given";
    if (hwloc_topology_init(&topology) != 0 || hwloc_topology_load(topology) != 0)
      return "hwloc could not read the topology";
    const hwloc_obj_t obj =
        hwloc_get_numanode_obj_by_os_index(topology, static_cast<unsigned>(node));
    if (obj == nullptr) return "this machine has no NUMA node " + std::to_string(node);
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (set == nullptr) return "out of memory";
    hwloc_bitmap_and(set, obj->cpuset, hwloc_topology_get_allowed_cpuset(topology));
    if (hwloc_bitmap_iszero(set)) {
      hwloc_bitmap_free(set);
      return "this process may not run on NUMA node " + std::to_string(node) + "'s CPUs";
    }
    cpuset = set;
    return "";
  }
};

PlacedArena::PlacedArena(int numa_node) : impl_(std::make_unique<Impl>(numa_node)) {}
PlacedArena::~PlacedArena() = default;

void PlacedArena::execute(const std::function<void()>& f) {
  impl_->arena.execute(f);
}
int PlacedArena::concurrency() const {
  return impl_->arena.max_concurrency();
}
bool PlacedArena::bound() const {
  return impl_->cpuset != nullptr;
}
const std::string& PlacedArena::placement() const {
  return impl_->placement;
}

PlacedArena& compaction_arena(int device) {
  static std::mutex mutex;
  static std::map<int, std::unique_ptr<PlacedArena>> arenas;
  const std::lock_guard lock(mutex);
  auto& arena = arenas[device];
  if (!arena) {
    int node = -1;
    for (const DeviceInfo& d : list_devices()) {
      if (d.index == device) node = d.numa_node;
    }
    arena = std::make_unique<PlacedArena>(node);
  }
  return *arena;
}

}  // namespace ooc
