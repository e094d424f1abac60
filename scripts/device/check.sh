#!/usr/bin/env bash
# On the GPU machine (device tool, carry .device): build the device preset, run the GPU and host
# tests, compute-sanitizer (memcheck on every policy, racecheck on two programs), and a first
# out-of-core timing on Kronecker scale 22. Logs go to $OUT; a short summary is printed last.
set -uo pipefail
source .device/env.sh
out=${OUT:-/tmp/ooc-out}
mkdir -p "$out"
nvidia-smi --query-gpu=name,memory.total,pcie.link.gen.current,pcie.link.width.current --format=csv,noheader
start=$SECONDS
cmake --preset device >"$out/configure.log" 2>&1 || { tail -40 "$out/configure.log"; exit 1; }
if ! cmake --build --preset device -j16 -- -k 0 >"$out/build.log" 2>&1; then
  grep -E "error|Error" -A6 "$out/build.log" | head -80
  exit 1
fi
echo "build: $((SECONDS - start)) s"
ctest --preset device -L gpu -j8 --timeout 300 >"$out/gpu-tests.log" 2>&1
echo "gpu tests: rc=$? $(grep -E 'tests passed|tests failed' "$out/gpu-tests.log")"
grep -E "\*\*\*Failed|Exception" "$out/gpu-tests.log" | head -20
ctest --preset device -L unit -j16 >"$out/unit-tests.log" 2>&1
echo "unit tests: rc=$? $(grep -E 'tests passed|tests failed' "$out/unit-tests.log")"
run=build/device/tools/ooc-run/ooc-run
small=(--generate kron:12 --partition-bytes 16KiB --in-memory off --tolerance 1e-4)
for t in hybrid filter compaction zerocopy unified; do
  for alg in bfs sssp pagerank; do
    compute-sanitizer --tool memcheck --error-exitcode 9 "$run" "$alg" "${small[@]}" --transfer "$t" --verify \
      >"$out/memcheck-$t-$alg.log" 2>&1
    echo "memcheck $t $alg: rc=$? $(grep -E 'ERROR SUMMARY' "$out/memcheck-$t-$alg.log")"
  done
done
compute-sanitizer --tool memcheck --error-exitcode 9 "$run" cc --generate kron:12 --budget 1GiB --verify \
  >"$out/memcheck-resident-cc.log" 2>&1
echo "memcheck resident cc: rc=$? $(grep -E 'ERROR SUMMARY' "$out/memcheck-resident-cc.log")"
for alg in bfs pagerank; do
  compute-sanitizer --tool racecheck --error-exitcode 9 "$run" "$alg" "${small[@]}" --verify >"$out/racecheck-$alg.log" 2>&1
  echo "racecheck $alg: rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$out/racecheck-$alg.log")"
done
# First timings: Kronecker scale 22 generated in memory, edges kept in host memory.
for t in hybrid filter compaction zerocopy; do
  for alg in bfs pagerank; do
    "$run" "$alg" --generate kron:22 --in-memory off --transfer "$t" --repeat 3 --tolerance 1e-4 -q \
      --json "$out/k22-$alg-$t.json" >/dev/null 2>"$out/k22-$alg-$t.err"
    python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['runs']; print(sys.argv[2], sys.argv[3], ' '.join('%.3f' % x['seconds'] for x in r), r[-1]['iterations'], r[-1]['total_bytes'])" \
      "$out/k22-$alg-$t.json" "$alg" "$t" 2>/dev/null || { echo "k22 $alg $t failed:"; tail -3 "$out/k22-$alg-$t.err"; }
  done
done
echo "total: $((SECONDS - start)) s"
