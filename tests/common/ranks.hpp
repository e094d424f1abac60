#pragma once
// Ranks as threads of one process, for tests: body(rank, communicator) runs on `ranks` threads
// (thread_communicators); a rank that throws records a failure and stops the others.
#include <gtest/gtest.h>

#include <exception>
#include <memory>
#include <thread>
#include <vector>

#include "ooc/engine/communicator.hpp"

namespace ooc::test {

template <class Body>
void on_ranks(int ranks, Body&& body) {
  std::vector<std::unique_ptr<Communicator>> communicators = thread_communicators(ranks);
  std::vector<std::thread> threads;
  for (int r = 0; r < ranks; ++r) {
    threads.emplace_back([&, r] {
      std::shared_ptr<Communicator> communicator = std::move(communicators[r]);
      try {
        body(r, communicator);
      } catch (const std::exception& e) {
        ADD_FAILURE() << "rank " << r << ": " << e.what();
        communicator->abort(e.what());
      }
    });
  }
  for (std::thread& t : threads)
    t.join();
}

}  // namespace ooc::test
