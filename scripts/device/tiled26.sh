#!/usr/bin/env bash
# On the GPU machine (device tool, carry .device): build the device preset, run every GPU test
# (both load-balancing mappings), compute-sanitizer on the tiled kernels, then Kronecker scale 26
# with the edges in host memory: hybrid (and zero-copy BFS) under the tiled and the warp mapping,
# in-memory BFS under both, hybrid PageRank to 1e-6 with its trace. Logs go to $OUT.
set -uo pipefail
source .device/env.sh
out=${OUT:-/tmp/ooc-out}
mkdir -p "$out"
start=$SECONDS
nvidia-smi --query-gpu=name,memory.total,pcie.link.gen.current,pcie.link.width.current --format=csv,noheader
cmake --preset device >"$out/configure.log" 2>&1 || { tail -40 "$out/configure.log"; exit 1; }
if ! cmake --build --preset device -j16 -- -k 0 >"$out/build.log" 2>&1; then
  grep -E "error|warning" -A6 "$out/build.log" | head -80
  exit 1
fi
echo "build: $((SECONDS - start)) s"
ctest --preset device -L gpu -j12 --timeout 300 >"$out/gpu-tests.log" 2>&1
echo "gpu tests: rc=$? $(grep -E 'tests passed|tests failed' "$out/gpu-tests.log") ($((SECONDS - start)) s)"
grep -E "\*\*\*Failed|Exception" "$out/gpu-tests.log" | head -20
ctest --preset device -L unit -j16 >"$out/unit-tests.log" 2>&1
echo "unit tests: rc=$? $(grep -E 'tests passed|tests failed' "$out/unit-tests.log")"
run=build/device/tools/ooc-run/ooc-run
small=(--generate kron:12 --partition-bytes 16KiB --in-memory off --tolerance 1e-4 --load-balance tiled)
for t in hybrid compaction zerocopy; do
  for alg in bfs pagerank; do
    compute-sanitizer --tool memcheck --error-exitcode 9 "$run" "$alg" "${small[@]}" --transfer "$t" --verify \
      >"$out/memcheck-$t-$alg.log" 2>&1
    echo "memcheck tiled $t $alg: rc=$? $(grep -E 'ERROR SUMMARY' "$out/memcheck-$t-$alg.log")"
  done
done
for alg in bfs sssp pagerank; do
  compute-sanitizer --tool racecheck --error-exitcode 9 "$run" "$alg" "${small[@]}" --verify >"$out/racecheck-$alg.log" 2>&1
  echo "racecheck tiled $alg: rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$out/racecheck-$alg.log")"
done
compute-sanitizer --tool synccheck --error-exitcode 9 "$run" bfs "${small[@]}" --verify >"$out/synccheck-bfs.log" 2>&1
echo "synccheck tiled bfs: rc=$? $(grep -E 'ERROR SUMMARY' "$out/synccheck-bfs.log")"
echo "sanitizers done ($((SECONDS - start)) s)"
build/device/tools/pcie-bench/pcie-bench --quick --only copy --json "$out/pcie-copy.json" 2>&1 | grep "pinned H2D" | head -2
g=/tmp/kron26w.oocg
build/device/tools/partition-tool/partition-tool generate kron --scale 26 --edge-factor 16 --undirected \
  --weights random:1-64 -o "$g" -q
echo "generated ($((SECONDS - start)) s)"
"$run" bfs,sssp,cc --graph "$g" --transfer hybrid,zerocopy --in-memory off --load-balance tiled,warp --repeat 2 \
  --json "$out/k26-lb.json" >"$out/k26-lb.log" 2>&1
echo "bfs,sssp,cc: rc=$? ($((SECONDS - start)) s)"
"$run" bfs --graph "$g" --load-balance tiled,warp --repeat 3 --json "$out/k26-inmemory.json" >"$out/k26-inmemory.log" 2>&1
echo "in-memory bfs: rc=$? ($((SECONDS - start)) s)"
timeout 120 "$run" pagerank --graph "$g" --transfer hybrid,filter --in-memory off --load-balance tiled,warp \
  --tolerance 1e-3 --json "$out/k26-pr.json" >"$out/k26-pr.log" 2>&1
echo "pagerank 1e-3: rc=$? ($((SECONDS - start)) s)"
timeout 100 "$run" pagerank --graph "$g" --transfer hybrid --in-memory off --tolerance 1e-6 \
  --json "$out/k26-pr-1e6.json" --trace "$out/k26-pr-1e6.csv" >"$out/k26-pr-1e6.log" 2>&1
echo "pagerank 1e-6: rc=$? ($((SECONDS - start)) s)"
rm -f "$g"
grep -hE "^(cc|bfs|sssp|pagerank) on" "$out"/k26-*.log | sed -E 's/ edges processed, bytes:/ e,/' | cut -c1-230
echo "total: $((SECONDS - start)) s"
