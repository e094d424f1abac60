#pragma once
// The groups of tests, each measuring one way OocGraph moves edges across PCIe. Each adds its
// rows to the Bench (one GPU) it is given; run_all_gpus measures every GPU at once.
#include <vector>

#include "bench.hpp"

namespace pcie_bench {

// copy_tests.cpp: cudaMemcpyAsync pinned/pageable, H2D/D2H, 1 and several streams. With
// reference_only, just the pinned H2D 1-stream copy, the row marked as the peak (peak.hpp).
void run_copy_tests(Bench& bench, bool reference_only);
// copy_tests.cpp: pinned H2D copies of 4 KiB, 16 KiB ... plan.copy_bytes.
void run_size_sweep(Bench& bench);
// zero_copy_tests.cpp: naive, merged+aligned, misaligned; cudaHostAlloc vs cudaHostRegister.
void run_zero_copy_tests(Bench& bench);
// zero_copy_tests.cpp: merged+aligned with 1, 2, 4 ... one-warp blocks per SM.
void run_block_sweep(Bench& bench);
// list_tests.cpp: a warp per neighbour list, L = 1 .. 256, three layouts.
void run_list_tests(Bench& bench);
// unified_test.cpp: cudaMallocManaged + read-mostly, GPU first touch.
void run_unified_test(Bench& bench);
// all_gpus.cpp: pinned copies and merged+aligned zero-copy on every GPU at once, one host
// thread per GPU; rows with device kAllDevices and the aggregate bandwidth.
std::vector<Row> run_all_gpus(const std::vector<int>& devices, const Plan& plan);

}  // namespace pcie_bench
