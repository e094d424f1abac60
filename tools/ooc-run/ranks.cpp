#include "ranks.hpp"

#include <algorithm>
#include <array>
#include <exception>
#include <memory>
#include <mutex>
#include <numeric>
#include <thread>
#include <type_traits>

#include "ooc/core/error.hpp"
#include "ooc/engine/mpi.hpp"
#include "ooc/transfer/devices.hpp"
#include "run.hpp"
#include "stats_json.hpp"

namespace ooc::tools {
namespace {

std::vector<int> all_devices() {
  std::vector<int> out(list_devices().size());
  std::iota(out.begin(), out.end(), 0);
  return out;
}

// An iteration's trace fields (stats_json.hpp) as whole numbers and as seconds, apart: a sum of
// doubles would round counts and bytes past 2^53.
template <class Field>
constexpr bool kSeconds = std::is_floating_point_v<std::remove_cvref_t<Field>>;

std::pair<std::size_t, std::size_t> trace_field_counts() {
  std::size_t whole = 0, seconds = 0;
  const IterationStats none;
  for_each_trace_field(none, [&](const std::string&, const auto& field) {
    ++(kSeconds<decltype(field)> ? seconds : whole);
  });
  return {whole, seconds};
}

}  // namespace

std::vector<int> parse_devices(const std::string& text) {
  if (text == "all") {
    std::vector<int> out = all_devices();
    if (out.empty()) throw Unsupported("--devices all: " + describe_devices());
    return out;
  }
  std::vector<int> out;
  for (const std::string& item : split_list(text)) {
    const bool digits =
        !item.empty() && item.size() <= 4 &&
        std::all_of(item.begin(), item.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!digits) throw InvalidInput("'" + item + "' is not a GPU number (give 0,1 or all)");
    const int d = std::stoi(item);
    if (std::find(out.begin(), out.end(), d) != out.end())
      throw InvalidInput("GPU " + item + " is listed twice");
    out.push_back(d);
  }
  return out;
}

int device_of_mpi_rank(const Args& a) {
  const int local = mpi_local_rank();
  if (parse_backend(a.backend) == Backend::cpu) return 0;
  const std::vector<int> devices = a.devices.empty() ? all_devices() : parse_devices(a.devices);
  if (devices.empty()) return 0;  // no GPU here: the CPU backend, or a clear error from the engine
  if (static_cast<std::size_t>(local) >= devices.size()) {
    throw InvalidInput("this is rank " + std::to_string(local + 1) + " on its host, which has " +
                       std::to_string(devices.size()) +
                       " GPU(s) for ranks: start at most one rank per GPU on each host, or run "
                       "--backend cpu");
  }
  return devices[static_cast<std::size_t>(local)];
}

int run_on_devices(const Args& a, const std::vector<int>& devices) {
  const int n = static_cast<int>(devices.size());
  std::vector<std::unique_ptr<Communicator>> communicators = thread_communicators(n);
  std::vector<int> status(devices.size(), 0);
  std::mutex failure_mutex;
  int failed_rank = -1;
  std::exception_ptr failure;
  std::vector<std::thread> threads;
  for (int r = 0; r < n; ++r) {
    threads.emplace_back([&, r] {
      const std::shared_ptr<Communicator> communicator = std::move(communicators[r]);
      try {
        status[static_cast<std::size_t>(r)] = run_all(a, communicator, devices[r]);
      } catch (const std::exception& e) {
        {
          const std::lock_guard lock(failure_mutex);
          if (!failure) {
            failed_rank = r;
            failure = std::current_exception();
          }
        }
        communicator->abort(e.what());
      }
    });
  }
  for (std::thread& t : threads)
    t.join();
  if (failure) {
    try {
      std::rethrow_exception(failure);
    } catch (const std::exception& e) {
      throw Error("rank " + std::to_string(failed_rank) + " of " + std::to_string(n) + " (GPU " +
                  std::to_string(devices[static_cast<std::size_t>(failed_rank)]) +
                  "): " + e.what());
    }
  }
  return *std::max_element(status.begin(), status.end());
}

nlohmann::json per_rank(Communicator& ranks, const RunStats& stats) {
  constexpr std::size_t kFields = 11;
  std::vector<double> all(kFields * static_cast<std::size_t>(ranks.size()), 0.0);
  double exchanged = 0, exchange_seconds = 0, nccl_seconds = 0, wait_seconds = 0;
  for (const IterationStats& it : stats.iterations) {
    exchanged += static_cast<double>(it.exchange_bytes);
    exchange_seconds += it.exchange_seconds;
    nccl_seconds += it.nccl_seconds;
    wait_seconds += it.wait_seconds;
  }
  const std::array<double, kFields> mine{stats.seconds,
                                         static_cast<double>(stats.edges_processed()),
                                         static_cast<double>(stats.total_bytes()),
                                         exchanged,
                                         exchange_seconds,
                                         nccl_seconds,
                                         wait_seconds,
                                         static_cast<double>(stats.host_pinned_bytes),
                                         static_cast<double>(stats.host_resident_bytes),
                                         static_cast<double>(stats.storage_bytes()),
                                         static_cast<double>(stats.host_memory)};
  std::copy(mine.begin(), mine.end(), all.begin() + kFields * ranks.rank());
  ranks.all_reduce(all, Reduction::sum);  // each slot has one non-zero contributor
  nlohmann::json out = nlohmann::json::array();
  for (std::size_t r = 0; r < static_cast<std::size_t>(ranks.size()); ++r) {
    const double* f = all.data() + kFields * r;
    out.push_back({{"rank", r},
                   {"seconds", f[0]},
                   {"edges_processed", static_cast<std::uint64_t>(f[1])},
                   {"total_bytes", static_cast<std::uint64_t>(f[2])},
                   {"exchange_bytes", static_cast<std::uint64_t>(f[3])},
                   {"exchange_seconds", f[4]},
                   {"nccl_seconds", f[5]},
                   {"wait_seconds", f[6]},
                   {"host_pinned_bytes", static_cast<std::uint64_t>(f[7])},
                   {"host_resident_bytes", static_cast<std::uint64_t>(f[8])},
                   {"storage_bytes", static_cast<std::uint64_t>(f[9])},
                   {"host_memory", static_cast<std::uint64_t>(f[10])}});
  }
  return out;
}

std::vector<std::vector<IterationStats>> every_rank_iterations(Communicator& ranks,
                                                               const RunStats& stats) {
  const auto n = static_cast<std::size_t>(ranks.size());
  const auto me = static_cast<std::size_t>(ranks.rank());
  std::vector<std::uint64_t> counts(n, 0);
  counts[me] = stats.iterations.size();
  ranks.all_reduce(counts, Reduction::sum);
  // A fixed layout, ranks x iterations x fields, each rank filling its own slot: a sum gathers.
  const std::size_t most = *std::max_element(counts.begin(), counts.end());
  const auto [whole_fields, seconds_fields] = trace_field_counts();
  std::vector<std::uint64_t> whole(n * most * whole_fields, 0);
  std::vector<double> seconds(n * most * seconds_fields, 0.0);
  for (std::size_t i = 0; i < stats.iterations.size(); ++i) {
    std::uint64_t* w = whole.data() + (me * most + i) * whole_fields;
    double* t = seconds.data() + (me * most + i) * seconds_fields;
    for_each_trace_field(stats.iterations[i], [&](const std::string&, const auto& field) {
      if constexpr (kSeconds<decltype(field)>) {
        *t++ = field;
      } else {
        *w++ = static_cast<std::uint64_t>(field);
      }
    });
  }
  if (most > 0) {
    ranks.all_reduce(whole, Reduction::sum);
    ranks.all_reduce(seconds, Reduction::sum);
  }
  std::vector<std::vector<IterationStats>> out(n);
  for (std::size_t r = 0; r < n; ++r) {
    out[r].resize(counts[r]);
    for (std::size_t i = 0; i < counts[r]; ++i) {
      const std::uint64_t* w = whole.data() + (r * most + i) * whole_fields;
      const double* t = seconds.data() + (r * most + i) * seconds_fields;
      for_each_trace_field(out[r][i], [&](const std::string&, auto& field) {
        if constexpr (kSeconds<decltype(field)>) {
          field = *t++;
        } else {
          field = static_cast<std::remove_cvref_t<decltype(field)>>(*w++);
        }
      });
    }
  }
  return out;
}

}  // namespace ooc::tools
