#!/usr/bin/env bash
# On the GPU machine (device tool, carry .device): build the tools and run the full benchmark
# suite (grid 1k, Kronecker 24 and 26, uniform random 26) within one 10-minute call.
set -uo pipefail
source .device/env.sh
out=${OUT:-/tmp/ooc-out}
mkdir -p "$out"
start=$SECONDS
cmake --preset device >"$out/configure.log" 2>&1 &&
  cmake --build --preset device -j16 --target partition-tool ooc-run pcie-bench >"$out/build.log" 2>&1 ||
  { grep -E "error" -A5 "$out/build.log" | head -40; exit 1; }
echo "build: $((SECONDS - start)) s"
python3 bench/suite.py --bin build/device --out "$out/suite" --time-limit "${SUITE_SECONDS:-530}" \
  >"$out/suite.log" 2>&1
echo "suite: rc=$? ($((SECONDS - start)) s)"
grep -E "^\\$|stopped|Error|error" "$out/suite.log" | cut -c1-160 | tail -30
sed -n '1,40p' "$out/suite/suite.md"
