#include "ooc/core/progress.hpp"

namespace ooc {
namespace {

std::atomic<ProgressSink*> g_sink{nullptr};
constexpr std::int64_t kReportEveryNs = 100'000'000;

}  // namespace

void set_progress_sink(ProgressSink* sink) noexcept {
  g_sink.store(sink);
}
ProgressSink* progress_sink() noexcept {
  return g_sink.load();
}

ProgressStep::ProgressStep(std::string_view name, std::uint64_t total)
    : name_(name),
      total_(total == 0 ? 1 : total),
      next_report_ns_(kReportEveryNs),
      start_(Clock::now()),
      sink_(progress_sink()) {}

ProgressStep::~ProgressStep() {
  if (sink_ == nullptr) return;
  const std::chrono::duration<double> elapsed = Clock::now() - start_;
  sink_->finish(name_, elapsed.count());
}

void ProgressStep::advance(std::uint64_t amount) {
  const std::uint64_t done = done_.fetch_add(amount, std::memory_order_relaxed) + amount;
  if (sink_ == nullptr) return;
  const std::int64_t now =
      std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start_).count();
  std::int64_t due = next_report_ns_.load(std::memory_order_relaxed);
  if (now < due) return;
  if (!next_report_ns_.compare_exchange_strong(due, now + kReportEveryNs)) return;
  std::unique_lock lock(report_, std::try_to_lock);
  if (!lock) return;
  const double fraction = static_cast<double>(done) / static_cast<double>(total_);
  sink_->update(name_, fraction > 1.0 ? 1.0 : fraction, static_cast<double>(now) * 1e-9);
}

}  // namespace ooc
