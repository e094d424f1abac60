#include "ooc/core/buffer.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

namespace ooc {
namespace {

TEST(Buffer, LargeAndSmallAllocationsHoldTheirData) {
  for (std::size_t n : {std::size_t{0}, std::size_t{3}, std::size_t{1} << 20}) {
    auto b = Buffer<std::uint64_t>::allocate(n);
    ASSERT_EQ(b.size(), n);
    std::iota(b.begin(), b.end(), std::uint64_t{7});
    if (n > 0) {
      EXPECT_EQ(b[0], 7u);
      EXPECT_EQ(b[n - 1], 7u + n - 1);
    }
  }
}

TEST(Buffer, MoveTransfersOwnershipAndViewKeepsOwnerAlive) {
  const std::vector<int> values{1, 2, 3};
  auto a = Buffer<int>::copy_of(values);
  Buffer<int> b = std::move(a);
  EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move): moved-from state is specified
  ASSERT_EQ(b.size(), 3u);
  auto owner = std::make_shared<std::vector<int>>(values);
  auto view = Buffer<int>::view(owner->data(), owner->size(), owner);
  owner.reset();
  EXPECT_EQ(view[2], 3);
}

}  // namespace
}  // namespace ooc
