// CudaRunState (run_state.cuh): a CUDA run's device state and the start and end of an
// iteration's tasks, compiled once for every program.
#include "ooc/engine/cuda/run_state.cuh"

namespace ooc::detail {

CudaRunState::CudaRunState(const CudaRun& run, bool needs_weights, std::size_t heavy_item_bytes)
    : g_(run.graph),
      weighted_(needs_weights && g_.weighted()),
      edge_bytes_(weighted_ ? 8u : 4u),
      parts_(run.partitions),
      options_(run.options),
      plan_(run.plan),
      device_(run.device),
      link_(run.link),
      tier_(run.tier),
      pull_device_(run.device.in_lists ? *run.device.in_lists : run.device),
      pull_parts_(run.pull_partitions),
      // A task that reads the file compacts whatever the policy (choose_in_file).
      ws_(run.device.workspace(run.plan,
                               uses_compaction(run.options.transfer) || run.tier != nullptr,
                               heavy_item_bytes)),
      words_((std::uint64_t{run.graph.num_vertices()} + 63) / 64),
      cost_(options_.cost) {}

void CudaRunState::prepare_device(bool may_pull, const char* doing) {
  OOC_CUDA(cudaSetDevice(options_.device), doing);
  int sms = 0;
  OOC_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, options_.device), doing);
  max_blocks_ = static_cast<std::uint64_t>(sms) * 8;  // 8 blocks of 256 threads fill an SM
  const bool in_lists = may_pull && &pull_device_ != &device_;
  if (plan_.in_memory) {
    setup_bytes_ = device_.make_resident();
    if (in_lists) setup_bytes_ += pull_device_.make_resident();
    device_.group_lists(parts_, plan_.pull_blocks, ws_.staging[0]);
  } else if (plan_.cache_bytes > 0) {
    // A partition in the file costs its bytes at the storage's bandwidth, not the link's.
    std::vector<double> byte_cost;
    if (tier_ != nullptr && cost_.link_bandwidth > 0 && cost_.storage_bandwidth > 0) {
      for (std::uint32_t p = 0; p < parts_.size(); ++p)
        byte_cost.push_back(tier_->holds(p) ? 1.0 : cost_.link_bandwidth / cost_.storage_bandwidth);
    }
    setup_bytes_ = device_.fill_cache(parts_, plan_.cache_bytes, weighted_, compressed(false),
                                      {tier_, byte_cost, &setup_reads_});
  }
  if (!plan_.in_memory) device_.moved.resize(parts_.size());
  if (options_.transfer == TransferPolicy::unified && !plan_.in_memory) {
    device_.make_managed();
    if (in_lists) pull_device_.make_managed();
  }
}

cuda::RangeSet CudaRunState::start_tasks(std::span<const Task> tasks, const std::uint64_t* work,
                                         const char* doing) {
  const cudaStream_t s = stream(kDirect);
  const cuda::RangeSet all = upload_ranges(tasks);
  const bool compacting = std::any_of(tasks.begin(), tasks.end(), [](const Task& t) {
    return t.engine == TransferEngine::compaction;
  });
  if (compacting) d2h(ws_.host_work.data(), work, words_, s, doing);
  // The base event precedes every task: their streams wait for work_ready, recorded after it.
  if (options_.adapt_costs) costs_.start(s, doing);
  ws_.work_ready.record(s, doing);
  for (unsigned i = 0; i < kStagingBuffers; ++i)
    ws_.work_ready.wait_in(stream(i), doing);
  return all;
}

void CudaRunState::finish_tasks(IterationStats& stats, const char* doing) {
  for (unsigned i = 0; i < kStreams; ++i)
    ws_.streams[i].synchronize(doing);
  OOC_CUDA(cudaMemcpy(ws_.host_scalars.data(), ws_.scalars.data(),
                      (kLinesRead + 1) * sizeof(unsigned long long), cudaMemcpyDeviceToHost),
           doing);
  OOC_CUDA(cudaMemset(ws_.scalars.data(), 0, sizeof(unsigned long long)), doing);
  OOC_CUDA(cudaMemset(ws_.scalars.data() + kLinesRead, 0, sizeof(unsigned long long)), doing);
  stats.edges_processed += ws_.host_scalars[0];
  stats.bytes[static_cast<std::size_t>(TransferEngine::zerocopy)] +=
      ws_.host_scalars[kLinesRead] * cost_.request_bytes;
  if (options_.adapt_costs) cost_ = costs_.adapt(cost_, doing);
}

// Each task's partitions as vertex ranges, neighbouring partitions merged, in the host arrays;
// returns how many. Cached partitions are neighbours in the cache when they are in the graph: a
// range of them starts at its first partition's position.
std::uint32_t CudaRunState::host_ranges(std::span<const Task> tasks) {
  task_range_start_.clear();
  std::uint32_t r = 0;
  std::uint64_t words = 0;
  for (const Task& task : tasks) {
    task_range_start_.push_back(r);
    const bool from_cache = task.engine == TransferEngine::resident && cached();
    for (std::size_t k = 0; k < task.partitions.size(); ++k) {
      const Partition& p = parts_[task.partitions[k]];
      if (k > 0 && task.partitions[k - 1] + 1 == task.partitions[k]) {
        ws_.host_range_last[r - 1] = p.last_vertex;
        continue;
      }
      ws_.host_range_first[r] = p.first_vertex;
      ws_.host_range_last[r] = p.last_vertex;
      ws_.host_range_shift[r] =
          from_cache ? p.first_edge - device_.cache.position[task.partitions[k]] : 0;
      ws_.host_range_list_shift[r] = from_cache && device_.cache.compressed
                                         ? g_.compressed.offsets[p.first_vertex] -
                                               device_.cache.list_position[task.partitions[k]]
                                         : 0;
      ++r;
    }
  }
  task_range_start_.push_back(r);
  for (std::uint32_t i = 0; i < r; ++i) {
    ws_.host_range_prefix[i] = words;
    words += (std::uint64_t{ws_.host_range_last[i]} + 63) / 64 - ws_.host_range_first[i] / 64;
  }
  ws_.host_range_prefix[r] = words;
  task_words_ = words;
  return r;
}

// All tasks' ranges go up in one copy.
cuda::RangeSet CudaRunState::upload_ranges(std::span<const Task> tasks) {
  const std::uint32_t r = host_ranges(tasks);
  const char* doing = "uploading the task ranges";
  const cudaStream_t s = stream(kDirect);
  OOC_CUDA(cudaMemcpyAsync(ws_.range_first.data(), ws_.host_range_first.data(), r * sizeof(vid_t),
                           cudaMemcpyHostToDevice, s),
           doing);
  OOC_CUDA(cudaMemcpyAsync(ws_.range_last.data(), ws_.host_range_last.data(), r * sizeof(vid_t),
                           cudaMemcpyHostToDevice, s),
           doing);
  OOC_CUDA(cudaMemcpyAsync(ws_.range_prefix.data(), ws_.host_range_prefix.data(),
                           (r + 1) * sizeof(std::uint64_t), cudaMemcpyHostToDevice, s),
           doing);
  const bool shifted = cached(), lists_shifted = shifted && device_.cache.compressed;
  if (shifted) {
    OOC_CUDA(cudaMemcpyAsync(ws_.range_shift.data(), ws_.host_range_shift.data(), r * sizeof(eid_t),
                             cudaMemcpyHostToDevice, s),
             doing);
  }
  if (lists_shifted) {
    OOC_CUDA(cudaMemcpyAsync(ws_.range_list_shift.data(), ws_.host_range_list_shift.data(),
                             r * sizeof(eid_t), cudaMemcpyHostToDevice, s),
             doing);
  }
  return {ws_.range_first.data(),
          ws_.range_last.data(),
          ws_.range_prefix.data(),
          shifted ? ws_.range_shift.data() : nullptr,
          lists_shifted ? ws_.range_list_shift.data() : nullptr,
          r};
}

cuda::OffsetEdges CudaRunState::edges_for(TransferEngine engine) const {
  const DeviceGraph& d = lists(pulling_);
  switch (engine) {
    case TransferEngine::resident:
      if (cached()) {
        return {d.offsets.data(), d.cache.targets.data(),
                weighted_ ? d.cache.weights.data() : nullptr, 0};
      }
      return {d.offsets.data(), d.resident_targets.data(),
              weighted_ ? d.resident_weights.data() : nullptr, 0};
    case TransferEngine::unified:
      return {d.offsets.data(), d.managed_targets, weighted_ ? d.managed_weights : nullptr, 0};
    default:
      return {d.offsets.data(), d.mapped_targets, weighted_ ? d.mapped_weights : nullptr, 0};
  }
}

std::optional<cuda::CompressedEdges> CudaRunState::compressed_edges(TransferEngine engine) const {
  if (engine == TransferEngine::zerocopy && compressed()) {
    cuda::PackedWeights weights{};
    if (weighted_ && packed()) {
      const CompressedTargets& c = g_.compressed;
      weights = {device_.mapped_packed_weights,
                 device_.mapped_packed_weights + c.packed_weights.size(), c.weight_width,
                 c.weight_base};
    }
    return cuda::CompressedEdges{device_.offsets.data(),
                                 device_.compressed_offsets.data(),
                                 device_.mapped_compressed,
                                 device_.mapped_compressed + g_.compressed.bytes.size(),
                                 weighted_ && !packed() ? device_.mapped_weights : nullptr,
                                 weights};
  }
  if (engine == TransferEngine::resident && cached() && device_.cache.compressed) {
    // The cache keeps the weights beside the compressed lists, packed when the graph packs them.
    const EdgeCache& cache = device_.cache;
    cuda::PackedWeights weights{};
    if (weighted_ && cache.packed.size() > 0) {
      const CompressedTargets& c = g_.compressed;
      weights = {cache.packed.data(), cache.packed.data() + cache.packed.size(), c.weight_width,
                 c.weight_base};
    }
    return cuda::CompressedEdges{
        device_.offsets.data(),
        device_.compressed_offsets.data(),
        cache.lists.data(),
        cache.lists_end(),
        weighted_ && cache.packed.size() == 0 ? cache.weights.data() : nullptr,
        weights};
  }
  return std::nullopt;
}

void CudaRunState::choose_in_file(PartitionSurvey& survey, std::uint32_t p) const {
  if (!in_file(p) || survey.activity.active_vertices == 0) return;
  price_in_file(survey.activity, edge_bytes_,
                compressed(false) ? kCompressedIndexBytes : kCompactionIndexBytes, kUncountedReads);
  TransferEngine engine = engine_for(options_.transfer, false, survey.activity, edge_bytes_, cost_);
  if (engine == TransferEngine::zerocopy || engine == TransferEngine::unified)
    engine = TransferEngine::compaction;
  survey.engine = engine;
}

}  // namespace ooc::detail
