// A warp per neighbour list, EMOGI (VLDB'21) §4.3: how the length of the lists a zero-copy
// kernel reads bounds its bandwidth. A warp load of L < 32 four-byte elements becomes one
// request of at most 4L bytes, so short lists cannot fill PCIe however many warps run; this
// is why OocGraph sends partitions of short active lists to the copy engines instead.
// One warp per list, as many warps as lists, as the engine gives each active vertex a warp.
// Three layouts per length L (bandwidth counts only the L elements of each list):
//   end to end         lists back to back, the array starting 4 B past a 128 B boundary as in
//                      a CSR whose earlier lists hold an odd number of edges; read merged
//   end to end, shift  the same lists, each warp starting at the 128 B boundary at or below
//                      its list and idling the lanes before it (EMOGI §4.3.2, Listing 2)
//   128 B aligned      each list starts on its own 128 B line (padding between lists)
#include <algorithm>
#include <array>
#include <string>

#include "suite.hpp"

namespace pcie_bench {
namespace {

constexpr std::array<std::uint32_t, 9> kLengths{1, 2, 4, 8, 16, 32, 64, 128, 256};

struct Variant {
  const char* pattern;
  bool aligned_layout;
  bool shift_to_line;
};

constexpr std::array<Variant, 3> kVariants{{{"end to end", false, false},
                                            {"end to end, shift (EMOGI)", false, true},
                                            {"128 B aligned", true, false}}};

std::uint64_t round_up(std::uint64_t value, std::uint64_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

// As many lists as fit the buffer in the padded layout, and no more than plan.list_bytes of
// elements: every variant of one length reads the same lists.
std::uint64_t list_count(const Plan& plan, std::uint32_t length) {
  const std::uint64_t words = plan.zero_copy_bytes / sizeof(std::uint32_t) - kWordsPerLine;
  return std::min(words / round_up(length, kWordsPerLine),
                  plan.list_bytes / (sizeof(std::uint32_t) * length));
}

ListLayout layout_of(const Variant& variant, std::uint64_t count, std::uint32_t length) {
  if (variant.aligned_layout) return {count, length, round_up(length, kWordsPerLine), 0};
  return {count, length, length, 1};
}

}  // namespace

void run_list_tests(Bench& bench) {
  const std::uint32_t* words = bench.mapped_words();
  for (const std::uint32_t length : kLengths) {
    const std::uint64_t count = list_count(bench.plan(), length);
    for (const Variant& variant : kVariants) {
      const ListLayout layout = layout_of(variant, count, length);
      Row row;
      row.test = "lists";
      row.pattern = variant.pattern;
      row.param = "L=" + std::to_string(length);
      row.x = length;
      row.bytes = count * length * sizeof(std::uint32_t);
      row.sample = bench.time_reads(
          [&](unsigned long long* total) {
            read_lists(words, layout, variant.shift_to_line, total, bench.stream());
          },
          count * length, row.pattern + " " + row.param);
      row.note = std::to_string(count) + " lists";
      bench.add(std::move(row));
    }
  }
}

}  // namespace pcie_bench
