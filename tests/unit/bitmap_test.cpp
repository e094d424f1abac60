#include "ooc/kernels/bitmap.hpp"

#include <gtest/gtest.h>
#include <tbb/parallel_for.h>

namespace ooc {
namespace {

TEST(Bitmap, SetTestAndCount) {
  Bitmap b(200);
  EXPECT_EQ(b.count(), 0u);
  EXPECT_TRUE(b.set_atomic(3));
  EXPECT_FALSE(b.set_atomic(3));
  b.set(64);
  b.set(199);
  EXPECT_TRUE(b.test(64));
  EXPECT_EQ(b.count(), 3u);
  EXPECT_EQ(b.count(4, 199), 1u);
  EXPECT_EQ(b.count(3, 4), 1u);
  b.clear();
  EXPECT_EQ(b.count(), 0u);
}

TEST(Bitmap, ConcurrentSetsCountEachBitOnce) {
  Bitmap b(1 << 20);
  std::atomic<int> newly{0};
  tbb::parallel_for(0, 1 << 21, [&](int i) {
    if (b.set_atomic(static_cast<std::size_t>(i) % (1 << 20))) ++newly;
  });
  EXPECT_EQ(newly.load(), 1 << 20);
  EXPECT_EQ(b.count(), std::size_t{1} << 20);
}

}  // namespace
}  // namespace ooc
