#!/usr/bin/env bash
# On the GPU machine (device tool, carry .device): the final code's build and GPU tests, a
# pcie-bench run with plots, and kron-26 PageRank (1e-3) under hybrid and filter three times
# each, for the spread of their ratio. Everything it writes is packed into $OUT/final.tgz.
set -uo pipefail
source .device/env.sh
out=${OUT:-/tmp/ooc-out}
r=/tmp/final-check
rm -rf "$r" && mkdir -p "$r"
start=$SECONDS
cmake --preset device >"$r/configure.log" 2>&1 && cmake --build --preset device -j16 -- -k 0 >"$r/build.log" 2>&1 ||
  { grep -E "error|warning" -A5 "$r/build.log" | head -60; exit 1; }
echo "build: $((SECONDS - start)) s"
ctest --preset device -L gpu -j12 --timeout 300 >"$r/gpu-tests.log" 2>&1
echo "gpu tests: rc=$? $(grep -E 'tests passed|tests failed' "$r/gpu-tests.log") ($((SECONDS - start)) s)"
ctest --preset device -L unit -j16 >"$r/unit-tests.log" 2>&1
echo "unit tests: rc=$? $(grep -E 'tests passed|tests failed' "$r/unit-tests.log")"
build/device/tools/pcie-bench/pcie-bench --json "$r/pcie.json" --plot "$r/pcie-plots" >"$r/pcie.txt" 2>&1
echo "pcie-bench: rc=$? ($((SECONDS - start)) s)"
g=/tmp/kron26w.oocg
build/device/tools/partition-tool/partition-tool generate kron --scale 26 --edge-factor 16 --undirected \
  --weights random:1-64 -o "$g" -q
echo "generated ($((SECONDS - start)) s)"
timeout 150 build/device/tools/ooc-run/ooc-run pagerank --graph "$g" --transfer hybrid,filter --in-memory off \
  --tolerance 1e-3 --repeat 3 --json "$r/k26-pr.json" >"$r/k26-pr.log" 2>&1
echo "pagerank: rc=$? ($((SECONDS - start)) s)"
rm -f "$g"
tar czf "$out/final.tgz" -C /tmp final-check
grep -E "^0 +(copy|zerocopy) " "$r/pcie.txt" | cut -c1-100
grep -E "^pagerank on" "$r/k26-pr.log" | cut -c1-160
echo "total: $((SECONDS - start)) s"
