#!/usr/bin/env bash
# README command 2: set up, build and run every test. Exits non-zero on the first failure, and
# prints each stage's time and CTest test count at the end (the test binaries run as gtest shards,
# OOC_TEST_SHARDS, a process each rather than one per case). Each purpose is covered by one stage:
#
#  stage          purpose
#  formatting     clang-format over the tracked sources (first: seconds, and a run that fails on
#                 it should not take half an hour)
#  release        the CUDA code compiles (when nvcc is found) with warnings as errors, at -O3 as
#                 a user's plain Release build sees it (preset `release`), with every target:
#                 tools, benchmarks, the Python module; the host tests with the full test
#                 products (program x shape x policy x priority x ...); the Python module's and
#                 bench/'s tests; the GPU tests, which report SKIPPED without a GPU
#  sanitizers     the project without CUDA builds and passes its tests, under AddressSanitizer +
#                 UndefinedBehaviorSanitizer at -O1 (preset `asan`): every test, the long
#                 products as pairwise sets (tests/common/products.hpp) that still run every
#                 value of every axis; every error-message and bad-input test whole
#  fuzzing        the text readers under libFuzzer for a bounded time
#  examples       install the release build, then build and run examples/ against the installed
#                 tree as a user would (the C++ examples with their programs compiled by nvcc and
#                 by the host compiler alone, and the Python one with the installed module)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
source scripts/env.sh
start=$SECONDS
stage_names=() stage_seconds=() stage_tests=()
stage_start=$SECONDS
step() {
  stage_start=$SECONDS
  printf '\n=== %s (%ds)\n' "$*" $((SECONDS - start))
}
# done_stage NAME TESTS: records the stage that just ended.
done_stage() {
  stage_names+=("$1")
  stage_seconds+=($((SECONDS - stage_start)))
  stage_tests+=("$2")
}
# ctest_run LOG ARGS...: ctest (a failure stops the script), its output also in LOG; sets `tests`
# to the number of tests it ran.
ctest_run() {
  local log=$1
  shift
  ctest "$@" 2>&1 | tee "$log"
  tests=$(sed -nE 's/.* tests failed out of ([0-9]+)$/\1/p' "$log" | tail -n 1)
}

# setup.sh installs numpy, pytest, scipy and networkx for Debian's python3: build and test the
# Python module for that interpreter, whichever python3 comes first on the PATH (pyenv, a venv).
python=/usr/bin/python3

step "formatting"
files=$(git ls-files '*.cpp' '*.hpp' '*.cu' '*.cuh')
echo "$files" | xargs clang-format --dry-run --Werror
done_stage formatting "$(echo "$files" | wc -l) files"

step "release build (CUDA when nvcc is found, -O3, full test products)"
cmake --preset release -DPython3_EXECUTABLE="$python" -DOOC_TEST_SHARDS=ON >/dev/null
cmake --build --preset release
# The Python tests are registered only when the interpreter has numpy and pytest: never skip silently.
if ! ctest --preset release -N -L python | grep -q 'Total Tests: [1-9]'; then
  echo "error: no Python tests in build/release ($python lacks numpy or pytest?)" >&2
  exit 1
fi
mkdir -p build/logs
ctest_run build/logs/release.log --preset release
done_stage release "$tests"

step "sanitizers (asan preset: no CUDA, pairwise test products)"
cmake --preset asan -DOOC_TEST_SHARDS=ON >/dev/null
cmake --build --preset asan
ctest_run build/logs/asan.log --preset asan
done_stage sanitizers "$tests"

step "fuzzing the text readers"
bash scripts/fuzz.sh "${OOC_FUZZ_SECONDS:-30}" 2>&1 | tee build/logs/fuzz.log
done_stage fuzzing "$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1 inputs/p' build/logs/fuzz.log)"

step "examples against the installed tree"
rm -rf build/install build/examples
cmake --install build/release --prefix build/install >/dev/null
# Twice: the user programs compiled with nvcc where there is one (oocgraph_gpu_sources; they run
# on the GPU when there is one), and as host code alone.
runs=0
for cuda in ON OFF; do
  rm -rf build/examples
  cmake -S examples -B build/examples -G Ninja -DCMAKE_PREFIX_PATH="$PWD/build/install" \
    -DOOC_EXAMPLES_CUDA=$cuda >/dev/null
  cmake --build build/examples
  for example in hello-ooc widest-path personalised-pagerank; do
    "./build/examples/$example"
    runs=$((runs + 1))
  done
done
# The Python module as installed (python/CMakeLists.txt: OOC_PYTHON_INSTALL_DIR).
PYTHONPATH="$(echo "$PWD"/build/install/lib/python3*/dist-packages)" "$python" examples/python/quickstart.py
done_stage examples "$((runs + 1)) programs"

step "all tests passed"
printf '%-12s %8s  %s\n' stage seconds tests
for i in "${!stage_names[@]}"; do
  printf '%-12s %8d  %s\n' "${stage_names[$i]}" "${stage_seconds[$i]}" "${stage_tests[$i]}"
done
printf '%-12s %8d\n' total $((SECONDS - start))
