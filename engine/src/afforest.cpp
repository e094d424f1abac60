// Connected components: Afforest (Sutton, Ben-Nun and Bader, "Optimizing Parallel Graph
// Connectivity Computation via Subgraph Sampling", IPDPS 2018), the algorithm of GAP's cc.cc,
// out of core; and min-label propagation, the Cc program, which ranks run.
//
// Afforest keeps a union-find forest on the processor (programs.hpp, union_link). It links every
// vertex to the first two neighbours of its list (two rounds, each followed by pointing every
// vertex at its root), finds the largest tree from 1024 sampled vertices, and then streams the
// lists of only the vertices outside that tree, as one ordinary run over the transfer engines
// (AfforestLink). On a graph with a giant component nearly every list is never read: the run's
// survey finds most partitions without an active edge. The forest's roots are each component's
// smallest internal id. docs/programs.md, "Connected components".
//
// Across ranks each rank links its own vertices' lists into a forest of its own, and after the
// sampling and after the last pass the ranks merge their forests (Forest::merge): every rank
// gathers every other rank's parent of each vertex, in chunks of the vertex range, and links the
// vertex to it. One gather of V ids a merge, whatever the forests' shapes. The merged forests
// are the same on every rank.
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <random>

#include "engine_impl.hpp"
#include "ooc/engine/detail/forest_merge.hpp"
#include "ooc/engine/ownership.hpp"
#include "ooc/partitioner/compress.hpp"
#include "ooc/transfer/pinned_memory.hpp"

namespace ooc {
namespace {

constexpr std::uint32_t kSampleRounds = 2;  // neighbours linked per vertex (GAP's default)
constexpr std::uint32_t kGiantSamples = 1024;
constexpr std::uint64_t kGiantSeed = 8;
// A merge gathers at most this many ids at once (256 MiB), whatever the number of ranks (a graph
// of fewer vertices gathers them all at once).
constexpr vid_t kMergeIds = vid_t{1} << 26;

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// The first kSampleRounds targets of every list (a rank's: of its own vertices, `owned`), round
// r's of v at heads[r * n + v], kNoVertex past a list's end; raw lists read in place, a
// compressed-only graph's decoded from the head of its first block. Returns how many there are.
std::uint64_t gather_heads(const Graph& g, const Bitmap* owned, vid_t* heads) {
  const vid_t n = g.num_vertices();
  return tbb::parallel_reduce(
      tbb::blocked_range<vid_t>(0, n), std::uint64_t{0},
      [&](const tbb::blocked_range<vid_t>& range, std::uint64_t found) {
        for (vid_t v = range.begin(); v < range.end(); ++v) {
          std::array<vid_t, kSampleRounds> head;
          head.fill(kNoVertex);
          const eid_t degree = owned == nullptr || owned->test(v) ? g.degree(v) : 0;
          if (g.has_raw_lists()) {
            std::copy_n(g.targets.data() + g.offsets[v], std::min<eid_t>(degree, kSampleRounds),
                        head.begin());
          } else {
            decode_head(g.compressed.bytes.data() + g.compressed.offsets[v], degree, kSampleRounds,
                        head.data());
          }
          for (std::uint32_t r = 0; r < kSampleRounds; ++r)
            heads[std::uint64_t{r} * n + v] = head[r];
          found += std::min<eid_t>(degree, kSampleRounds);
        }
        return found;
      },
      std::plus<>());
}

// The forest, where the backend reads it: device memory on the GPU, host memory on the CPU.
class Forest {
 public:
  Forest(const detail::DeviceGraph* device, vid_t n) : device_(device), n_(n) {
    if (device_ == nullptr) {
      host_ = Buffer<vid_t>::allocate(n);
      parent_ = host_.data();
    } else {
      memory_ = detail::device_allocate(*device_, std::uint64_t{n} * sizeof(vid_t), "cc's forest");
      parent_ = static_cast<vid_t*>(memory_.get());
    }
  }
  vid_t* parent() const { return parent_; }

  // Makes every vertex a root, then per round links each vertex to that round's neighbour and
  // points every vertex at its root. `heads` as gather_heads writes them, where only the vertices
  // of `ranges` (a rank's) have any; on the GPU, pinned host memory that the kernels read in place,
  // only those ranges.
  void sample(const vid_t* heads, std::span<const std::pair<vid_t, vid_t>> ranges) {
    if (device_ != nullptr) {
      detail::afforest_sample(*device_, parent_, heads, n_, kSampleRounds, ranges);
      return;
    }
    tbb::parallel_for(vid_t{0}, n_, [&](vid_t v) { parent_[v] = v; });
    for (std::uint32_t r = 0; r < kSampleRounds; ++r) {
      const vid_t* round = heads + std::uint64_t{r} * n_;
      tbb::parallel_for(vid_t{0}, n_, [&](vid_t v) {
        if (round[v] != kNoVertex) union_link(parent_, v, round[v]);
      });
      compress();
    }
  }
  void compress() {
    if (device_ != nullptr) {
      detail::afforest_compress(*device_, parent_, n_);
      return;
    }
    tbb::parallel_for(vid_t{0}, n_, [&](vid_t v) { union_compress(parent_, v); });
  }
  // The root that most of kGiantSamples vertices drawn uniformly have (the forest compressed).
  vid_t giant() const {
    std::mt19937_64 random(kGiantSeed);
    std::uniform_int_distribution<vid_t> any(0, n_ - 1);
    std::vector<vid_t> at(kGiantSamples), roots(kGiantSamples);
    for (vid_t& v : at)
      v = any(random);
    if (device_ != nullptr) {
      detail::afforest_gather(*device_, parent_, at, roots.data());
    } else {
      std::transform(at.begin(), at.end(), roots.begin(), [&](vid_t v) { return parent_[v]; });
    }
    std::sort(roots.begin(), roots.end());
    vid_t best = roots[0];
    std::size_t best_count = 0;
    for (std::size_t i = 0; i < roots.size();) {
      std::size_t j = i;
      while (j < roots.size() && roots[j] == roots[i])
        ++j;
      if (j - i > best_count) {
        best = roots[i];
        best_count = j - i;
      }
      i = j;
    }
    return best;
  }
  // Merges this rank's forest with the other ranks' (each compressed), the same on every rank
  // (detail::merge_forests says how). Adds the bytes this rank received to `bytes`.
  void merge(Communicator& ranks, std::uint64_t& bytes) {
    const auto size = static_cast<vid_t>(ranks.size());
    const vid_t chunk = std::clamp<vid_t>(kMergeIds / size, 1, std::max<vid_t>(n_, 1));
    bytes += std::uint64_t{size - 1} * n_ * sizeof(vid_t);
    if (device_ != nullptr) {
      if (gathered_memory_ == nullptr) {
        gathered_memory_ = detail::device_allocate(
            *device_, std::uint64_t{size} * chunk * sizeof(vid_t), "cc's gathered parents");
      }
      detail::afforest_merge(*device_, parent_, n_, chunk,
                             static_cast<vid_t*>(gathered_memory_.get()));
      return;
    }
    if (gathered_.size() < std::uint64_t{size} * chunk)
      gathered_ = Buffer<vid_t>::allocate(std::uint64_t{size} * chunk);
    detail::merge_forests(ranks, parent_, n_, chunk, gathered_.span());
  }
  Buffer<vid_t> to_host() {
    if (device_ == nullptr) return std::move(host_);
    Buffer<vid_t> out = Buffer<vid_t>::allocate(n_);
    detail::copy_to_host(*device_, out.data(), parent_, std::uint64_t{n_} * sizeof(vid_t));
    return out;
  }

 private:
  const detail::DeviceGraph* device_;
  vid_t n_;
  Buffer<vid_t> host_;
  std::shared_ptr<void> memory_;
  vid_t* parent_ = nullptr;
  Buffer<vid_t> gathered_;                 // merge(), on the CPU
  std::shared_ptr<void> gathered_memory_;  // merge(), on the GPU
};

}  // namespace

void detail::merge_forests(Communicator& ranks, vid_t* parent, vid_t n, vid_t chunk,
                           std::span<vid_t> gathered) {
  const auto size = static_cast<vid_t>(ranks.size());
  const auto self = static_cast<vid_t>(ranks.rank());
  for (vid_t first = 0, count = 0; first < n; first += count) {
    count = std::min(chunk, n - first);
    ranks.all_gather(std::span<const vid_t>(parent + first, count),
                     gathered.first(std::uint64_t{size} * count));
    tbb::parallel_for(vid_t{0}, count, [&](vid_t i) {
      for (vid_t r = 0; r < size; ++r) {
        const vid_t to = gathered[std::uint64_t{r} * count + i];
        if (r != self && to != first + i) union_link(parent, first + i, to);
      }
    });
  }
  tbb::parallel_for(vid_t{0}, n, [&](vid_t v) { union_compress(parent, v); });
}

// A group checks a request once, before its ranks run it (engine.cpp says why).
Result<vid_t> OocEngine::cc(const RunOptions& run) {
  if (grouped()) {
    lead().begin_run(detail::info_of<Cc>("cc"), run);
    return on_group([&](OocEngine& e) { return e.cc(run); });
  }
  // Afforest samples the head of every list outside the runs' tasks, which the host tier does
  // not serve: a graph beyond host memory takes label propagation.
  const bool afforest = options().cc == CcAlgorithm::afforest && host_tier() == nullptr;
  detail::RawRun<Cc> raw = afforest ? cc_afforest(run) : cc_labels(run);
  raw.stats.method = afforest ? "afforest" : "labels";
  if (!afforest && options().cc == CcAlgorithm::afforest) {
    raw.stats.choices.emplace_back(
        "labels: Afforest reads every list's head outside the host "
        "tier's tasks");
  }
  // Labels are the smallest internal id of each component; users want the smallest user id.
  const Graph& g = graph();
  std::vector<vid_t> smallest(g.num_vertices(), kNoVertex);
  tbb::parallel_for(vid_t{0}, g.num_vertices(),
                    [&](vid_t v) { atomic_min(&smallest[raw.values[v]], g.original_id(v)); });
  tbb::parallel_for(vid_t{0}, g.num_vertices(),
                    [&](vid_t v) { raw.values[v] = smallest[raw.values[v]]; });
  return {to_user_ids(raw.values.data()), std::move(raw.stats), raw.converged};
}

detail::RawRun<Cc> OocEngine::cc_labels(const RunOptions& run) {
  return run_builtin(Cc{}, begin_run(detail::info_of<Cc>("cc"), run));
}

detail::RawRun<Cc> OocEngine::cc_afforest(const RunOptions& run) {
  const Graph& g = graph();
  const vid_t n = g.num_vertices();
  detail::ProgramInfo info = detail::info_of<AfforestLink>("cc");
  info.own_vertex_bytes = sizeof(vid_t);  // the forest (the heads are gone before the run)
  info.pushes_only = true;
  info.values_unused = true;  // the ranks merge their forests after the pass instead
  const detail::DeviceGraph* device = impl_->device.get();
  Forest forest(device, n);
  detail::RunSetup setup = begin_run(info, run);
  setup.read_values = false;  // the answer is the forest
  // The heads: on the GPU gathered once and kept pinned for later runs, in this run's setup; on
  // the CPU read from the lists in the run, as GAP does.
  auto start = Clock::now();
  Buffer<vid_t> local_heads;
  const vid_t* heads = nullptr;
  std::uint64_t links = 0;
  if (device != nullptr) {
    if (impl_->list_heads.empty()) {
      impl_->list_heads = Buffer<vid_t>::allocate(std::uint64_t{kSampleRounds} * n,
                                                  pinned_memory(options().device));
      impl_->list_head_count = gather_heads(g, rank_view().owned, impl_->list_heads.data());
    }
    heads = impl_->list_heads.data();
    links = impl_->list_head_count;
  }
  Communicator* const ranks = impl_->communicator.get();
  // The ranks' clocks start together, as run_builtin's do: a rank whose heads took longer to
  // gather would otherwise make the others wait in the first merge, inside the run.
  if (ranks != nullptr) barrier(*ranks);
  const double heads_setup = seconds_since(start);
  start = Clock::now();
  if (device == nullptr) {
    local_heads = Buffer<vid_t>::allocate(std::uint64_t{kSampleRounds} * n);
    links = gather_heads(g, rank_view().owned, local_heads.data());
    heads = local_heads.data();
  }
  IterationStats sampling;
  sampling.active_vertices = n;
  sampling.edges_processed = links;
  const std::vector<std::pair<vid_t, vid_t>> ranges =
      ranks == nullptr ? std::vector<std::pair<vid_t, vid_t>>{{0, n}}
                       : owned_vertex_ranges(impl_->partitions, impl_->owners,
                                             static_cast<std::uint32_t>(ranks->rank()));
  if (device != nullptr) {  // the kernels read whole 128-byte lines of the heads, in place
    std::uint64_t words = 0;
    for (const auto& [first, last] : ranges)
      words += first == last ? 0 : (std::uint64_t{last} + 31) / 32 * 32 - (first & ~vid_t{31});
    sampling.bytes[static_cast<std::size_t>(TransferEngine::zerocopy)] =
        kSampleRounds * words * sizeof(vid_t);
  }
  forest.sample(heads, ranges);
  if (ranks != nullptr) {
    const auto merging = Clock::now();
    forest.merge(*ranks, sampling.exchange_bytes);
    sampling.exchange_seconds = seconds_since(merging);
  }
  const vid_t giant = n == 0 ? kNoVertex : forest.giant();
  sampling.seconds = seconds_since(start);
  sampling.compute_seconds = sampling.seconds - sampling.exchange_seconds;  // the merge apart

  detail::RawRun<AfforestLink> last = run_builtin(AfforestLink{forest.parent(), giant}, setup);
  start = Clock::now();
  forest.compress();
  if (ranks != nullptr && !last.stats.iterations.empty()) {
    IterationStats& pass = last.stats.iterations.back();
    const auto merging = Clock::now();
    forest.merge(*ranks, pass.exchange_bytes);
    pass.exchange_seconds += seconds_since(merging);
  }
  const double compress_seconds = seconds_since(start);

  detail::RawRun<Cc> raw;
  raw.stats = std::move(last.stats);
  std::vector<IterationStats> pass = std::move(raw.stats.iterations);
  raw.stats.iterations.clear();
  raw.stats.iterations.push_back(sampling);
  for (IterationStats& it : pass) {
    it.iteration = static_cast<std::uint32_t>(raw.stats.iterations.size());
    raw.stats.iterations.push_back(it);
  }
  raw.stats.seconds += sampling.seconds + compress_seconds;
  raw.stats.setup_seconds += heads_setup;
  raw.converged = last.converged;
  start = Clock::now();
  raw.values = forest.to_host();
  raw.stats.readback_seconds += seconds_since(start);
  return raw;
}

}  // namespace ooc
