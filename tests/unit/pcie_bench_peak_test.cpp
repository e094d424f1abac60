// pcie-bench's '% peak': one measurement per GPU, the copy test's pinned H2D 1-stream row, is the
// figure that the table's '% peak', the JSON's peak_gbps and the plots' dashed line all show.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "peak.hpp"

namespace pcie_bench {
namespace {

// A row that moved `gbps` GB/s: 1e9 bytes in 1000 / gbps ms.
Row measured(int device, std::string test, std::string param, double gbps, bool peak = false) {
  Row row;
  row.device = device;
  row.test = std::move(test);
  row.pattern = "pinned H2D";
  row.param = std::move(param);
  row.bytes = 1'000'000'000;
  row.sample = Sample{1000 / gbps, 1000 / gbps, 1000 / gbps};
  row.peak = peak;
  return row;
}

TEST(PcieBenchPeak, IsThePeakRowEvenWhenAnotherPinnedH2DRowIsFaster) {
  // The old peak was the best of every pinned H2D copy and sweep point (here 55.4, a sweep
  // point), so the row the table showed as the reference read 99.5% and the plots' line stood
  // at a figure no row named.
  std::vector<Row> rows{measured(0, "copy", "1 stream", 55.13, true),
                        measured(0, "copy", "4 streams", 54.29),
                        measured(0, "sweep", "64.0 MiB", 55.4)};
  const auto peaks = apply_peaks(rows);
  ASSERT_EQ(peaks.size(), 1u);
  EXPECT_EQ(peaks.at(0), rows[0].gbps());
  EXPECT_EQ(rows[0].percent_of_peak, 100.0);
  EXPECT_EQ(rows[0].note, "pinned H2D peak");
  EXPECT_NEAR(rows[1].percent_of_peak, 100 * 54.29 / 55.13, 1e-9);
  EXPECT_GT(rows[2].percent_of_peak, 100.0);
  EXPECT_EQ(rows[2].note, "");
}

TEST(PcieBenchPeak, ExactlyOneHundredPercentWhateverTheFigure) {
  for (const double gbps : {0.3, 12.345678901, 55.13, 63.999999, 1e3 / 7}) {
    std::vector<Row> rows{measured(0, "copy", "1 stream", gbps, true)};
    apply_peaks(rows);
    EXPECT_EQ(rows[0].percent_of_peak, 100.0) << gbps;
  }
}

TEST(PcieBenchPeak, AllGpusRowsAreOverTheSumOfThePeaks) {
  std::vector<Row> rows{measured(0, "copy", "1 stream", 50, true),
                        measured(1, "copy", "1 stream", 40, true),
                        measured(kAllDevices, "copy", "2 GPUs at once", 45)};
  const auto peaks = apply_peaks(rows);
  EXPECT_EQ(peaks.at(0), rows[0].gbps());
  EXPECT_EQ(peaks.at(1), rows[1].gbps());
  EXPECT_EQ(peaks.at(kAllDevices), rows[0].gbps() + rows[1].gbps());
  EXPECT_NEAR(rows[2].percent_of_peak, 50.0, 1e-9);
  EXPECT_EQ(rows[2].note, "");  // the aggregate is measured, not a peak
  EXPECT_EQ(rows[1].percent_of_peak, 100.0);
}

TEST(PcieBenchPeak, NoPeakRowLeavesPercentUnsetAndSkippedRowsAlone) {
  std::vector<Row> rows{measured(0, "zerocopy", "", 40)};
  Row skipped;
  skipped.peak = true;  // a skipped row cannot be the peak
  skipped.note = "cannot run";
  rows.push_back(skipped);
  EXPECT_TRUE(apply_peaks(rows).empty());
  EXPECT_EQ(rows[0].percent_of_peak, 0.0);
  EXPECT_EQ(rows[1].note, "cannot run");
}

TEST(PcieBenchPeak, KeepsARowsOwnNoteAfterTheName) {
  std::vector<Row> rows{measured(0, "copy", "1 stream", 50, true)};
  rows[0].note = "1 GiB";
  apply_peaks(rows);
  EXPECT_EQ(rows[0].note, "pinned H2D peak; 1 GiB");
}

TEST(PcieBenchPeak, RefusesTwoPeakRowsForOneGpu) {
  std::vector<Row> rows{measured(0, "copy", "1 stream", 50, true),
                        measured(0, "copy", "1 stream", 51, true)};
  EXPECT_THROW(apply_peaks(rows), std::logic_error);
}

}  // namespace
}  // namespace pcie_bench
