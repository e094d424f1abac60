#!/usr/bin/env bash
# Fuzzes the text readers: builds the `fuzz` preset (clang, libFuzzer, ASan + UBSan) and runs
# fuzz_text_readers for a bounded time, seeded from tests/data. Exits non-zero when libFuzzer
# finds a crash, a sanitizer report or an unexpected exception; the input that caused it is
# left in build/fuzz/artifacts/.
#   usage: scripts/fuzz.sh [seconds]     (default 60)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
source scripts/env.sh

cmake --preset fuzz >/dev/null
cmake --build --preset fuzz --target fuzz_text_readers

corpus=build/fuzz/corpus/text_readers
artifacts=build/fuzz/artifacts/
mkdir -p "$corpus" "$artifacts"
# The first folder is the growing corpus; tests/data only seeds it and is never written to.
./build/fuzz/tests/fuzz/fuzz_text_readers -max_total_time="$seconds" -print_final_stats=1 \
  -dict=tests/fuzz/text_readers.dict -artifact_prefix="$artifacts" "$corpus" tests/data
