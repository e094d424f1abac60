#include "group.hpp"

#include <exception>
#include <iterator>
#include <mutex>
#include <optional>
#include <thread>

#include "ooc/core/error.hpp"

namespace ooc::detail {

void on_threads(std::size_t ranks, const std::function<void(std::size_t)>& body,
                const std::function<void(std::size_t, const char*)>& fail) {
  std::mutex mutex;
  std::exception_ptr failure;
  std::vector<std::thread> threads;
  for (std::size_t r = 0; r < ranks; ++r) {
    threads.emplace_back([&, r] {
      try {
        body(r);
      } catch (const Cancelled&) {
        // Every rank agreed to stop at the same iteration (drive()): none waits for this one,
        // and the ranks' links stay usable for the next run.
        const std::lock_guard lock(mutex);
        if (!failure) failure = std::current_exception();
      } catch (const std::exception& e) {
        {
          const std::lock_guard lock(mutex);
          if (!failure) failure = std::current_exception();
        }
        fail(r, e.what());
      }
    });
  }
  for (std::thread& t : threads)
    t.join();
  if (failure) std::rethrow_exception(failure);
}

std::vector<OocEngine> make_group(
    const EngineOptions& options,
    const std::function<OocEngine(const EngineOptions&, std::shared_ptr<Communicator>)>& make) {
  const std::size_t n = options.devices.size();
  std::vector<std::unique_ptr<Communicator>> links = thread_communicators(static_cast<int>(n));
  std::vector<std::shared_ptr<Communicator>> shared(std::make_move_iterator(links.begin()),
                                                    std::make_move_iterator(links.end()));
  std::vector<std::optional<OocEngine>> made(n);
  on_threads(
      n,
      [&](std::size_t r) {
        EngineOptions o = options;
        o.device = options.devices[r];
        o.devices.clear();
        made[r].emplace(make(o, shared[r]));
      },
      [&](std::size_t r, const char* why) { shared[r]->abort(why); });
  std::vector<OocEngine> group;
  for (std::optional<OocEngine>& e : made)
    group.push_back(std::move(*e));
  return group;
}

Graph share(const std::shared_ptr<Graph>& whole) {
  const auto view = [&]<class T>(Buffer<T>& buffer) {
    return Buffer<T>::view(buffer.data(), buffer.size(), whole);
  };
  Graph& w = *whole;
  Graph g;
  g.offsets = view(w.offsets);
  g.targets = view(w.targets);
  g.weights = view(w.weights);
  g.original_ids = view(w.original_ids);
  g.compressed.offsets = view(w.compressed.offsets);
  g.compressed.bytes = view(w.compressed.bytes);
  g.compressed.packed_weights = view(w.compressed.packed_weights);
  g.compressed.weight_width = w.compressed.weight_width;
  g.compressed.weight_base = w.compressed.weight_base;
  g.in_edges.offsets = view(w.in_edges.offsets);
  g.in_edges.sources = view(w.in_edges.sources);
  g.in_edges.weights = view(w.in_edges.weights);
  g.weight_type = w.weight_type;
  g.hub_count = w.hub_count;
  g.sage_ordered = w.sage_ordered;
  g.symmetric = w.symmetric;
  return g;
}

}  // namespace ooc::detail
