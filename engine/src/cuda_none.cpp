// A build without CUDA: the CUDA backend's functions (detail/cuda_backend.hpp) exist, and say how
// to get the backend. The engine calls them only on the CUDA backend, which such a build never
// chooses, so that the engine itself needs no #if.
#include "ooc/core/error.hpp"
#include "ooc/engine/calibration.hpp"
#include "ooc/engine/detail/cuda_backend.hpp"

namespace ooc::detail {
namespace {

[[noreturn]] void no_cuda() {
  throw Unsupported("this build has no CUDA backend (configure with -DOOC_WITH_CUDA=ON)");
}

}  // namespace

void pin_edges(Graph&, int, PinLists) {
  no_cuda();
}
std::shared_ptr<DeviceGraph> make_device_graph(Graph&, std::span<const Partition>,
                                               const EngineOptions&, const RankSetup*,
                                               const TierSetup*) {
  no_cuda();
}
void add_in_lists(DeviceGraph&, Graph&, std::span<const Partition>, const RankSetup*) {
  no_cuda();
}
std::vector<const void*> lists_pinned_whole(const DeviceGraph&) {
  no_cuda();
}
std::uint64_t pinned_host_bytes(const DeviceGraph&) {
  no_cuda();
}
std::string device_name(const DeviceGraph&) {
  no_cuda();
}
std::uint64_t device_l2_bytes(const DeviceGraph&) {
  no_cuda();
}
ExchangeCalibration exchange_calibration(const DeviceGraph&) {
  no_cuda();
}
std::uint64_t device_budget(const DeviceGraph&, std::uint64_t) {
  no_cuda();
}

std::unique_ptr<ValuesExecutor<Bfs::Value>> make_cuda_executor(const Bfs&, const CudaRun&) {
  no_cuda();
}
std::unique_ptr<ValuesExecutor<SsspU32::Value>> make_cuda_executor(const SsspU32&, const CudaRun&) {
  no_cuda();
}
std::unique_ptr<ValuesExecutor<SsspF32::Value>> make_cuda_executor(const SsspF32&, const CudaRun&) {
  no_cuda();
}
std::unique_ptr<ValuesExecutor<Cc::Value>> make_cuda_executor(const Cc&, const CudaRun&) {
  no_cuda();
}
std::unique_ptr<ValuesExecutor<PageRank::Value>> make_cuda_executor(const PageRank&,
                                                                    const CudaRun&) {
  no_cuda();
}
std::unique_ptr<ValuesExecutor<BatchForward::Value>> make_cuda_executor(const BatchForward&,
                                                                        const CudaRun&) {
  no_cuda();
}
std::unique_ptr<ValuesExecutor<BatchBackward::Value>> make_cuda_executor(const BatchBackward&,
                                                                         const CudaRun&) {
  no_cuda();
}
std::unique_ptr<ValuesExecutor<AfforestLink::Value>> make_cuda_executor(const AfforestLink&,
                                                                        const CudaRun&) {
  no_cuda();
}
std::unique_ptr<ValuesExecutor<KCorePeel::Value>> make_cuda_executor(const KCorePeel&,
                                                                     const CudaRun&) {
  no_cuda();
}
std::unique_ptr<ValuesExecutor<KCoreRankedPeel::Value>> make_cuda_executor(const KCoreRankedPeel&,
                                                                           const CudaRun&) {
  no_cuda();
}
std::unique_ptr<ValuesExecutor<SccReach::Value>> make_cuda_executor(const SccReach&,
                                                                    const CudaRun&) {
  no_cuda();
}
void restart_cuda_executor(ValuesExecutor<KCorePeel::Value>&, const KCorePeel&, const vid_t*,
                           std::uint64_t) {
  no_cuda();
}
void restart_cuda_executor(ValuesExecutor<KCoreRankedPeel::Value>&, const KCoreRankedPeel&,
                           const vid_t*, std::uint64_t) {
  no_cuda();
}
std::uint32_t kcore_open_next_shell(const DeviceGraph&, const KCoreState&, vid_t, KCoreLists&) {
  no_cuda();
}
void afforest_sample(const DeviceGraph&, vid_t*, const vid_t*, vid_t, std::uint32_t,
                     std::span<const std::pair<vid_t, vid_t>>) {
  no_cuda();
}
void afforest_compress(const DeviceGraph&, vid_t*, vid_t) {
  no_cuda();
}
void afforest_gather(const DeviceGraph&, const vid_t*, std::span<const vid_t>, vid_t*) {
  no_cuda();
}
void afforest_merge(const DeviceGraph&, vid_t*, vid_t, vid_t, vid_t*) {
  no_cuda();
}
void count_triangles(const DeviceGraph&, const TriangleBlock&, const TriangleBlock&,
                     unsigned long long*, unsigned long long*) {
  no_cuda();
}
void release_held(DeviceGraph&) {
  no_cuda();
}

std::shared_ptr<void> device_allocate(const DeviceGraph&, std::size_t, const char*) {
  no_cuda();
}
void device_fill(const DeviceGraph&, void*, int, std::size_t) {
  no_cuda();
}
void copy_to_device(const DeviceGraph&, void*, const void*, std::size_t) {
  no_cuda();
}
void copy_to_host(const DeviceGraph&, void*, const void*, std::size_t) {
  no_cuda();
}
std::uint64_t device_free_bytes(const DeviceGraph&) {
  no_cuda();
}
void batch_reset(const DeviceGraph&, const BatchState&, vid_t, std::span<const vid_t>) {
  no_cuda();
}
void batch_add_dependencies(const DeviceGraph&, const BatchState&, vid_t, double*) {
  no_cuda();
}

}  // namespace ooc::detail

namespace ooc {

LinkMeasurements probe_link(int) {
  throw Unsupported("the link probe needs a build with the CUDA backend");
}

}  // namespace ooc
