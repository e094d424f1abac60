#pragma once
// Several GPUs from one process (EngineOptions::devices): a rank per GPU, each on its own thread,
// linked by thread communicators.
#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "ooc/engine/engine.hpp"

namespace ooc::detail {

// Runs body(rank) on a thread per rank; the first exception (if any) is rethrown after every
// thread has ended. A failing rank calls fail(rank, what) so that the others stop waiting for it.
void on_threads(std::size_t ranks, const std::function<void(std::size_t)>& body,
                const std::function<void(std::size_t, const char*)>& fail);

// One engine per GPU of options.devices, each made on its own thread (they join NCCL together).
std::vector<OocEngine> make_group(
    const EngineOptions& options,
    const std::function<OocEngine(const EngineOptions&, std::shared_ptr<Communicator>)>& make);

// A Graph whose arrays (compressed lists and in-edges included) are views of `whole`'s: the ranks
// of a group share one copy.
Graph share(const std::shared_ptr<Graph>& whole);

}  // namespace ooc::detail
