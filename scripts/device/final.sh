#!/usr/bin/env bash
# On the GPU machine: a GPU test subset, the benchmark suite (--quick), and the Kronecker-26
# figures that need weights (SSSP, priority on and off) plus BFS and PageRank re-timed.
set -uo pipefail
source .device/env.sh
out=${OUT:-/tmp/ooc-out}
r=/tmp/final
rm -rf "$r" && mkdir -p "$r"
start=$SECONDS
cmake --preset device >"$r/configure.log" 2>&1 && cmake --build --preset device -j16 -- -k 0 >"$r/build.log" 2>&1 ||
  { grep -E "error" -A5 "$r/build.log" | head -60; exit 1; }
ctest --preset device -L gpu -R "kron_hybrid|star_|CudaBackendRuns|GpuSmoke" -j8 >"$r/gpu-tests.log" 2>&1
echo "gpu tests: $(grep -E 'tests passed|tests failed' "$r/gpu-tests.log") ($((SECONDS - start)) s)"
python3 bench/suite.py --bin build/device --out "$r/suite" --quick >"$r/suite.log" 2>&1
echo "suite: rc=$? ($((SECONDS - start)) s)"
bin=build/device/tools
g=/tmp/kron26w.oocg
"$bin/partition-tool/partition-tool" generate kron --scale 26 --edge-factor 16 --undirected --weights random:1-64 \
  -o "$g" -q
echo "generated ($((SECONDS - start)) s)"
ooc="$bin/ooc-run/ooc-run"
"$ooc" sssp,bfs --graph "$g" --transfer hybrid,filter,compaction,zerocopy --in-memory off --repeat 2 \
  --json "$r/k26-sssp-bfs.json" >"$r/k26-sssp-bfs.log" 2>&1
echo "sssp,bfs: rc=$? ($((SECONDS - start)) s)"
"$ooc" sssp --graph "$g" --transfer hybrid --priority off --in-memory off --json "$r/k26-sssp-plain.json" \
  >"$r/k26-sssp-plain.log" 2>&1
echo "sssp priority off: rc=$? ($((SECONDS - start)) s)"
"$ooc" bfs --graph "$g" --repeat 3 --json "$r/k26-bfs-inmemory.json" >"$r/k26-bfs-inmemory.log" 2>&1
timeout 100 "$ooc" pagerank --graph "$g" --transfer hybrid,filter --in-memory off --tolerance 1e-3 --priority on,off \
  --json "$r/k26-pr.json" --trace "$r/k26-pr-trace.csv" >"$r/k26-pr.log" 2>&1
echo "pagerank: rc=$? ($((SECONDS - start)) s)"
rm -f "$g"
tar czf "$out/final.tar.gz" -C /tmp final
cat "$r/suite/suite.md" 2>/dev/null | head -80
grep -hE "^(sssp|bfs|pagerank) on" "$r"/k26-*.log | cut -c1-220
