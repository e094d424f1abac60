#!/usr/bin/env bash
# On the GPU machine: the Kronecker-26 figures perf26.sh and final.sh left out — CC re-timed,
# the unified policy, PageRank under zero-copy and compaction, and hybrid PageRank to 1e-6.
set -uo pipefail
source .device/env.sh
out=${OUT:-/tmp/ooc-out}
r=/tmp/complete
rm -rf "$r" && mkdir -p "$r"
start=$SECONDS
cmake --preset device >"$r/configure.log" 2>&1 && cmake --build --preset device -j16 --target partition-tool ooc-run \
  >"$r/build.log" 2>&1 || { grep -E "error" -A5 "$r/build.log" | head -40; exit 1; }
bin=build/device/tools
g=/tmp/kron26w.oocg
"$bin/partition-tool/partition-tool" generate kron --scale 26 --edge-factor 16 --undirected --weights random:1-64 -o "$g" -q
echo "generated ($((SECONDS - start)) s)"
ooc="$bin/ooc-run/ooc-run"
"$ooc" cc,bfs,sssp --graph "$g" --transfer hybrid,filter,compaction,zerocopy,unified --in-memory off \
  --json "$r/k26-cc-unified.json" >"$r/k26-cc-unified.log" 2>&1
echo "cc and unified: rc=$? ($((SECONDS - start)) s)"
timeout 120 "$ooc" pagerank --graph "$g" --transfer zerocopy,compaction,unified --in-memory off --tolerance 1e-3 \
  --json "$r/k26-pr-more.json" >"$r/k26-pr-more.log" 2>&1
echo "pagerank more: rc=$? ($((SECONDS - start)) s)"
timeout 150 "$ooc" pagerank --graph "$g" --transfer hybrid --in-memory off --tolerance 1e-6 \
  --json "$r/k26-pr-1e6.json" --trace "$r/k26-pr-1e6.csv" >"$r/k26-pr-1e6.log" 2>&1
echo "pagerank 1e-6: rc=$? ($((SECONDS - start)) s)"
rm -f "$g"
tar czf "$out/complete.tar.gz" -C /tmp complete
grep -hE "^(cc|bfs|sssp|pagerank) on" "$r"/*.log | cut -c1-200
