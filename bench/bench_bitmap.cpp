// Frontier bitmap operations of the CPU backend: counting active vertices over a range.
#include <benchmark/benchmark.h>

#include "ooc/kernels/bitmap.hpp"

namespace {

void BM_BitmapCount(benchmark::State& state) {
  const auto bits = static_cast<std::size_t>(state.range(0));
  ooc::Bitmap b(bits);
  for (std::size_t i = 0; i < bits; i += 7)
    b.set(i);
  for (auto _ : state)
    benchmark::DoNotOptimize(b.count());
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bits / 8));
}
BENCHMARK(BM_BitmapCount)->Arg(1 << 20)->Arg(1 << 26)->UseRealTime();

}  // namespace
