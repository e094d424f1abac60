// The test binaries' main: GoogleTest's, except that a run whose tests were all skipped (a GPU
// test without a GPU) exits with kSkipped rather than 0, so that CTest reports it skipped
// (SKIP_RETURN_CODE) when it runs a whole gtest shard as one test (tests/CMakeLists.txt).
#include <gtest/gtest.h>

namespace {
constexpr int kSkipped = 77;  // the automake convention, which CTest's SKIP_RETURN_CODE takes
}  // namespace

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  const int rc = RUN_ALL_TESTS();
  const testing::UnitTest& run = *testing::UnitTest::GetInstance();
  if (rc == 0 && run.successful_test_count() == 0 && run.skipped_test_count() > 0) return kSkipped;
  return rc;
}
