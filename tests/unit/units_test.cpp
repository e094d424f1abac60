#include "ooc/core/units.hpp"

#include <gtest/gtest.h>

#include "ooc/core/error.hpp"

namespace ooc {
namespace {

TEST(ParseSize, AcceptsBinaryAndDecimalUnits) {
  EXPECT_EQ(parse_size("4096"), 4096u);
  EXPECT_EQ(parse_size("32MiB"), 32u << 20);
  EXPECT_EQ(parse_size("32m"), 32u << 20);
  EXPECT_EQ(parse_size("8 GiB"), std::uint64_t{8} << 30);
  EXPECT_EQ(parse_size("8GB"), 8'000'000'000u);
  EXPECT_EQ(parse_size("1.5KiB"), 1536u);
  EXPECT_EQ(parse_size("2tib"), std::uint64_t{2} << 40);
}

TEST(ParseSize, RejectsWithAMessageThatSaysWhy) {
  try {
    parse_size("32 parsecs");
    FAIL() << "no exception";
  } catch (const InvalidInput& e) {
    EXPECT_STREQ(e.what(),
                 "invalid size '32 parsecs': unknown unit 'parsecs' (expected a number with an "
                 "optional unit, e.g. 32MiB, 8GB, 4096)");
  }
  EXPECT_THROW(parse_size("MiB"), InvalidInput);
  EXPECT_THROW(parse_size("-4MiB"), InvalidInput);
  EXPECT_THROW(parse_size(""), InvalidInput);
}

TEST(FormatBytes, PicksAReadableUnit) {
  EXPECT_EQ(format_bytes(512), "512 B");
  EXPECT_EQ(format_bytes(32u << 20), "32.0 MiB");
  EXPECT_EQ(format_bytes(std::uint64_t{9} << 30), "9.00 GiB");
}

}  // namespace
}  // namespace ooc
