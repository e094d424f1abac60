#include "ooc/core/buffer.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <string>
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

TEST(Buffer, SparseMemoryIsAddressSpaceUntilTouched) {
  // More than most hosts' RAM plus swap: a mapping that reserved its size would be refused by
  // Linux's default overcommit heuristic. Under vm.overcommit_memory=2 (no overcommit) the kernel
  // ignores MAP_NORESERVE and no allocation may exceed the commit limit.
  std::ifstream overcommit("/proc/sys/vm/overcommit_memory");
  int mode = 0;
  if (overcommit >> mode && mode == 2) GTEST_SKIP() << "vm.overcommit_memory is 2";
  constexpr std::size_t kBytes = std::size_t{64} << 30;
  Buffer<std::uint64_t> b;
  ASSERT_NO_THROW(b = Buffer<std::uint64_t>::allocate(kBytes / 8, sparse_host_memory()));
  b[b.size() / 2] = 42;  // one page (or huge page) committed
  EXPECT_EQ(b[b.size() / 2], 42u);
  EXPECT_EQ(sparse_host_memory().name(), "sparse pageable");
}

TEST(Buffer, TransparentHugePagesModeIsTheBracketedWord) {
  const std::string path = ::testing::TempDir() + "thp_enabled_" + std::to_string(::getpid());
  const auto mode_of = [&](const std::string& text) {
    std::ofstream(path) << text;
    return transparent_huge_pages(path);
  };
  EXPECT_EQ(mode_of("always [madvise] never\n"), "madvise");
  EXPECT_EQ(mode_of("[always] madvise never\n"), "always");
  EXPECT_EQ(mode_of("always madvise [never]\n"), "never");
  EXPECT_EQ(mode_of("no brackets here\n"), "");
  EXPECT_EQ(mode_of(""), "");
  std::remove(path.c_str());
  EXPECT_EQ(transparent_huge_pages(path), "");  // unreadable
}

}  // namespace
}  // namespace ooc
