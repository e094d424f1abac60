#pragma once
// Progress of long work. Library code marks its long steps with a ProgressStep and advances it
// as chunks finish; a tool installs a ProgressSink (a bar on a terminal, nothing otherwise).
// Without a sink the cost is one relaxed atomic add per call.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>

namespace ooc {

class ProgressSink {
 public:
  virtual ~ProgressSink() = default;
  // fraction in [0, 1]; called at most every 100 ms per step, from any thread, never at once.
  virtual void update(std::string_view step, double fraction, double seconds) = 0;
  virtual void finish(std::string_view step, double seconds) = 0;
};

// Process-wide; nullptr (the default) silences progress.
void set_progress_sink(ProgressSink* sink) noexcept;
ProgressSink* progress_sink() noexcept;

class ProgressStep {
 public:
  ProgressStep(std::string_view name, std::uint64_t total);
  ~ProgressStep();
  ProgressStep(const ProgressStep&) = delete;
  ProgressStep& operator=(const ProgressStep&) = delete;

  // Thread-safe; call per chunk of work, not per element.
  void advance(std::uint64_t amount);

 private:
  using Clock = std::chrono::steady_clock;
  std::string name_;
  std::uint64_t total_;
  std::atomic<std::uint64_t> done_{0};
  std::atomic<std::int64_t> next_report_ns_;
  Clock::time_point start_;
  std::mutex report_;
  ProgressSink* sink_;
};

}  // namespace ooc
