// EngineOptions::adapt_costs on the GPU (cost_adapter.hpp): the timed spans of an iteration's
// tasks, and the cost constants they move.
#include <algorithm>
#include <cstddef>
#include <utility>

#include "ooc/core/cuda_check.hpp"
#include "ooc/engine/cuda/cost_adapter.hpp"

namespace ooc::detail {

void CostAdapter::start(cudaStream_t s, const char* doing) {
  if (timers_.empty()) timers_.emplace_back(true);
  timers_[0].record(s, doing);
}

void CostAdapter::time_from(cudaStream_t s, const char* doing) {
  const std::size_t at = 1 + 2 * timed_.size();
  while (timers_.size() < at + 2)
    timers_.emplace_back(true);
  timers_[at].record(s, doing);
}

void CostAdapter::time_to(cudaStream_t s, const Span& what, const char* doing) {
  timers_[2 + 2 * timed_.size()].record(s, doing);
  timed_.push_back(what);
}

// Only spans that no span of the other engine overlaps count (EngineTimings). Filter spans
// overlap each other (the staging streams share the link), so their time is the length of their
// union; zero-copy spans run one after another on the direct stream.
CostConstants CostAdapter::adapt(const CostConstants& cost, const char* doing) {
  std::vector<std::pair<double, double>> spans(timed_.size());
  for (std::size_t i = 0; i < timed_.size(); ++i) {
    for (const std::size_t k : {0, 1}) {
      float ms = 0;
      OOC_CUDA(cudaEventElapsedTime(&ms, timers_[0].get(), timers_[1 + 2 * i + k].get()), doing);
      (k == 0 ? spans[i].first : spans[i].second) = static_cast<double>(ms) * 1e-3;
    }
  }
  const auto alone = [&](std::size_t i) {
    for (std::size_t j = 0; j < spans.size(); ++j) {
      if (timed_[j].engine != timed_[i].engine && spans[j].first < spans[i].second &&
          spans[i].first < spans[j].second)
        return false;
    }
    return true;
  };
  EngineTimings t;
  std::vector<std::pair<double, double>> filter;
  double share = 0;
  for (std::size_t i = 0; i < timed_.size(); ++i) {
    if (!alone(i)) continue;
    if (timed_[i].engine == TransferEngine::filter) {
      filter.push_back(spans[i]);
      t.filter_bytes += timed_[i].amount;
    } else {
      t.zerocopy_seconds += spans[i].second - spans[i].first;
      t.zerocopy_requests += timed_[i].amount;
      share += timed_[i].amount * timed_[i].share;
    }
  }
  std::sort(filter.begin(), filter.end());
  double reached = 0;
  for (const auto& [from, to] : filter) {
    t.filter_seconds += std::max(0.0, to - std::max(from, reached));
    reached = std::max(reached, to);
  }
  if (t.zerocopy_requests > 0) t.zerocopy_share = share / t.zerocopy_requests;
  timed_.clear();
  return adapted(cost, t);
}

}  // namespace ooc::detail
