#pragma once
// GPU tests call OOC_REQUIRE_GPU() first: without a usable GPU they report SKIPPED (never
// passed, never failed), so CI machines without one stay green and honest.
#include <gtest/gtest.h>

#include "ooc/transfer/devices.hpp"

#define OOC_REQUIRE_GPU()                                                         \
  do {                                                                            \
    if (::ooc::list_devices().empty()) GTEST_SKIP() << ::ooc::describe_devices(); \
  } while (false)
