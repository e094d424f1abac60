#!/usr/bin/env bash
# README command 2: set up, build and run every test. Exits non-zero on the first failure.
#  0. formatting (first: it takes seconds, and a run that fails on it should not take an hour)
#  1. the default build (CUDA when nvcc is found; GPU tests report SKIPPED without a GPU)
#  2. the CPU-only build, which must pass on its own; then a plain Release build as users make
#     it (no preset), with warnings as errors
#  3. host code under AddressSanitizer + UndefinedBehaviorSanitizer
#  4. the text readers under libFuzzer for a bounded time
#  5. install, then build and run examples/ against the installed tree, as a user would (the
#     C++ examples with their programs compiled by nvcc and by the host compiler alone, and the
#     Python one with the installed oocgraph module)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
source scripts/env.sh
start=$SECONDS
step() { printf '\n=== %s (%ds)\n' "$*" $((SECONDS - start)); }

# setup.sh installs numpy, pytest, scipy and networkx for Debian's python3: build and test the
# Python module for that interpreter, whichever python3 comes first on the PATH (pyenv, a venv).
python=/usr/bin/python3

step "clang-format"
git ls-files '*.cpp' '*.hpp' '*.cu' '*.cuh' | xargs clang-format --dry-run --Werror

step "default build"
cmake --preset default -DPython3_EXECUTABLE="$python" >/dev/null
cmake --build --preset default
# The Python tests are registered only when the interpreter has numpy and pytest: never skip silently.
if ! ctest --preset default -N -L python | grep -q 'Total Tests: [1-9]'; then
  echo "error: no Python tests in build/default ($python lacks numpy or pytest?)" >&2
  exit 1
fi
ctest --preset default

step "CPU-only build"
cmake --preset cpu-only -DPython3_EXECUTABLE="$python" >/dev/null
cmake --build --preset cpu-only
ctest --preset cpu-only

step "plain Release build (cmake -DCMAKE_BUILD_TYPE=Release, as a user builds)"
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DOOC_WARNINGS_AS_ERRORS=ON \
  -DOOC_BUILD_TESTS=OFF -DPython3_EXECUTABLE="$python" >/dev/null
cmake --build build/release

step "sanitizers (asan preset)"
cmake --preset asan >/dev/null
cmake --build --preset asan
ctest --preset asan

step "fuzzing the text readers"
bash scripts/fuzz.sh "${OOC_FUZZ_SECONDS:-30}"

step "examples against the installed tree"
rm -rf build/install build/examples
cmake --install build/default --prefix build/install >/dev/null
# Twice: the user programs compiled with nvcc where there is one (oocgraph_gpu_sources; they run
# on the GPU when there is one), and as host code alone.
for cuda in ON OFF; do
  rm -rf build/examples
  cmake -S examples -B build/examples -G Ninja -DCMAKE_PREFIX_PATH="$PWD/build/install" \
    -DOOC_EXAMPLES_CUDA=$cuda >/dev/null
  cmake --build build/examples
  ./build/examples/hello-ooc
  ./build/examples/widest-path
  ./build/examples/personalised-pagerank
done
# The Python module as installed (python/CMakeLists.txt: OOC_PYTHON_INSTALL_DIR).
PYTHONPATH="$(echo "$PWD"/build/install/lib/python3*/dist-packages)" "$python" examples/python/quickstart.py

step "all tests passed"
