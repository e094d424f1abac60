#include "ooc/core/atomics.hpp"

#include <gtest/gtest.h>
#include <tbb/parallel_for.h>

#include <cstdint>

namespace ooc {
namespace {

TEST(Atomics, MinAndMaxReturnThePreviousValue) {
  std::uint32_t x = 10;
  EXPECT_EQ(atomic_min(&x, 7u), 10u);
  EXPECT_EQ(x, 7u);
  EXPECT_EQ(atomic_min(&x, 9u), 7u);
  EXPECT_EQ(x, 7u);
  EXPECT_EQ(atomic_max(&x, 12u), 7u);
  EXPECT_EQ(x, 12u);
  float f = 2.5f;
  EXPECT_EQ(atomic_min(&f, 1.25f), 2.5f);
  EXPECT_EQ(f, 1.25f);
}

TEST(Atomics, ConcurrentUpdatesLoseNothing) {
  std::uint32_t minimum = UINT32_MAX;
  std::uint32_t count = 0;
  double sum = 0;
  tbb::parallel_for(1u, 100001u, [&](std::uint32_t i) {
    atomic_min(&minimum, i);
    atomic_add(&count, 1u);
    atomic_add(&sum, 0.5);
  });
  EXPECT_EQ(minimum, 1u);
  EXPECT_EQ(count, 100000u);
  EXPECT_DOUBLE_EQ(sum, 50000.0);
}

TEST(Atomics, ExchangeTakesTheValue) {
  float delta = 0.75f;
  EXPECT_EQ(atomic_exchange(&delta, 0.0f), 0.75f);
  EXPECT_EQ(delta, 0.0f);
}

TEST(Atomics, CompareAndSwapWritesOnlyOverTheExpectedValue) {
  std::uint32_t x = 5;
  EXPECT_EQ(atomic_cas(&x, 4u, 9u), 5u);
  EXPECT_EQ(x, 5u);
  EXPECT_EQ(atomic_cas(&x, 5u, 9u), 5u);
  EXPECT_EQ(x, 9u);
}

}  // namespace
}  // namespace ooc
