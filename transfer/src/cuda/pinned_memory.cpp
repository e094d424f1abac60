#include "ooc/transfer/pinned_memory.hpp"

#include <hwloc.h>

#include <map>
#include <memory>
#include <mutex>

#include "ooc/core/cuda_check.hpp"
#include "ooc/core/units.hpp"
#include "ooc/transfer/devices.hpp"

namespace ooc {
namespace {

// Binds this thread's memory allocation to one NUMA node while alive (when the machine has more
// than one and the GPU's is known); restores the previous policy after.
class NumaBinding {
 public:
  explicit NumaBinding(int node) {
    if (node < 0 || hwloc_topology_init(&topology_) != 0) return;
    if (hwloc_topology_load(topology_) != 0 ||
        hwloc_get_nbobjs_by_type(topology_, HWLOC_OBJ_NUMANODE) < 2)
      return;
    hwloc_obj_t obj = hwloc_get_numanode_obj_by_os_index(topology_, static_cast<unsigned>(node));
    previous_ = hwloc_bitmap_alloc();
    if (obj == nullptr || previous_ == nullptr) return;
    if (hwloc_get_membind(topology_, previous_, &policy_,
                          HWLOC_MEMBIND_THREAD | HWLOC_MEMBIND_BYNODESET) != 0)
      return;
    bound_ = hwloc_set_membind(topology_, obj->nodeset, HWLOC_MEMBIND_BIND,
                               HWLOC_MEMBIND_THREAD | HWLOC_MEMBIND_BYNODESET) == 0;
  }
  ~NumaBinding() {
    if (bound_)
      hwloc_set_membind(topology_, previous_, policy_,
                        HWLOC_MEMBIND_THREAD | HWLOC_MEMBIND_BYNODESET);
    if (previous_ != nullptr) hwloc_bitmap_free(previous_);
    if (topology_ != nullptr) hwloc_topology_destroy(topology_);
  }
  NumaBinding(const NumaBinding&) = delete;
  NumaBinding& operator=(const NumaBinding&) = delete;

 private:
  hwloc_topology_t topology_ = nullptr;
  hwloc_bitmap_t previous_ = nullptr;
  hwloc_membind_policy_t policy_ = HWLOC_MEMBIND_DEFAULT;
  bool bound_ = false;
};

class PinnedMemory final : public HostMemory {
 public:
  explicit PinnedMemory(int device) : device_(device) {
    for (const DeviceInfo& d : list_devices()) {
      if (d.index == device) numa_node_ = d.numa_node;
    }
  }
  void* allocate(std::size_t bytes) override {
    OOC_CUDA(cudaSetDevice(device_), "allocating pinned host memory");
    const NumaBinding near_gpu(numa_node_);
    void* p = nullptr;
    const cudaError_t err = cudaHostAlloc(&p, bytes, cudaHostAllocMapped | cudaHostAllocPortable);
    if (err != cudaSuccess) {
      cudaGetLastError();
      throw OutOfMemory("cannot pin " + format_bytes(bytes) +
                        " of host memory for the GPU (cudaHostAlloc: " + cudaGetErrorString(err) +
                        ")");
    }
    return p;
  }
  void deallocate(void* p, std::size_t) noexcept override { cudaFreeHost(p); }
  std::string_view name() const override { return "pinned"; }

 private:
  int device_;
  int numa_node_ = -1;
};

}  // namespace

HostMemory& pinned_memory(int device) {
  static std::mutex mutex;
  static std::map<int, std::unique_ptr<PinnedMemory>> memories;
  const std::lock_guard lock(mutex);
  auto& memory = memories[device];
  if (!memory) memory = std::make_unique<PinnedMemory>(device);
  return *memory;
}

}  // namespace ooc
