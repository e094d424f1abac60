#!/usr/bin/env bash
# On the GPU machine: GPU tests, then the Kronecker scale-26 measurements (generation time and
# memory, BFS and CC under each policy out of core and in memory, a PageRank pair), pcie-bench
# with plots, and the partitioner benchmarks on 16 cores. Everything lands in
# $OUT/results.tar.gz; a summary is printed last.
set -uo pipefail
source .device/env.sh
out=${OUT:-/tmp/ooc-out}
r=/tmp/results
rm -rf "$r" && mkdir -p "$r"
start=$SECONDS
nvidia-smi --query-gpu=name,memory.total,pcie.link.gen.current,pcie.link.width.current --format=csv,noheader | tee "$r/gpu.txt"
cmake --preset device >"$r/configure.log" 2>&1 && cmake --build --preset device -j16 -- -k 0 >"$r/build.log" 2>&1 ||
  { grep -E "error" -A5 "$r/build.log" | head -60; exit 1; }
ctest --preset device -L gpu -j8 --timeout 300 >"$r/gpu-tests.log" 2>&1
echo "gpu tests: $(grep -E 'tests passed|tests failed' "$r/gpu-tests.log") ($((SECONDS - start)) s)"
grep -E "\*\*\*Failed" "$r/gpu-tests.log" | head -10
bin=build/device/tools
g=/tmp/kron26.oocg
/usr/bin/time -v "$bin/partition-tool/partition-tool" generate kron --scale 26 --edge-factor 16 --undirected -o "$g" \
  >"$r/generate.log" 2>"$r/generate-time.log"
echo "generate: $(grep -E 'Elapsed|Maximum resident' "$r/generate-time.log" | tr -s ' ' | tr '\n' ' ') file $(stat -c %s "$g")"
"$bin/partition-tool/partition-tool" info "$g" >"$r/info.txt" 2>&1 && head -4 "$r/info.txt"
ooc="$bin/ooc-run/ooc-run"
"$ooc" bfs,cc --graph "$g" --transfer hybrid,filter,compaction,zerocopy --in-memory off --repeat 2 \
  --json "$r/k26-bfs-cc.json" >"$r/k26-bfs-cc.log" 2>&1
echo "bfs,cc out of core: rc=$? ($((SECONDS - start)) s)"
"$ooc" bfs --graph "$g" --repeat 3 --json "$r/k26-bfs-inmemory.json" >"$r/k26-bfs-inmemory.log" 2>&1
echo "bfs in memory: rc=$? ($((SECONDS - start)) s)"
timeout 150 "$ooc" pagerank --graph "$g" --transfer hybrid,filter --in-memory off --tolerance 1e-3 \
  --json "$r/k26-pr.json" >"$r/k26-pr.log" 2>&1
echo "pagerank: rc=$? ($((SECONDS - start)) s)"
rm -f "$g"
build/device/tools/pcie-bench/pcie-bench --json "$r/pcie.json" --csv "$r/pcie.csv" --plot "$r/pcie-plots" \
  >"$r/pcie.txt" 2>"$r/pcie.err"
echo "pcie-bench: rc=$? ($((SECONDS - start)) s)"
OOC_BENCH_SCALE=24 build/device/bench/ooc-bench --benchmark_filter='Generate|BuildCsr|HubSort|Oocg|Compaction|ParseText' \
  --benchmark_min_time=0.1 >"$r/ooc-bench.txt" 2>&1
echo "ooc-bench: rc=$? ($((SECONDS - start)) s)"
tar czf "$out/results.tar.gz" -C /tmp results
grep -E "^(bfs|cc|pagerank) on" "$r"/k26-*.log | sed 's/^.*log://' | cut -c1-200
head -30 "$r/pcie.txt"
