#!/usr/bin/env bash
# README command 1: set up, build, and run the main job — generate a Kronecker graph, look at
# it, and run BFS, SSSP, CC, PageRank and betweenness centrality (from 2 sampled sources) on it
# with OocEngine, each verified against the serial reference. The engine uses the GPU when there is one (--backend auto), else the CPU.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
source scripts/env.sh
cmake --preset default >/dev/null
cmake --build --preset default
bin=build/default/tools
scale="${OOC_DEMO_SCALE:-20}"
graph=build/demo/kron${scale}.oocg
mkdir -p build/demo
$bin/partition-tool/partition-tool generate kron --scale "$scale" --edge-factor 16 --undirected \
  --weights random:1-64 -o "$graph"
$bin/partition-tool/partition-tool info "$graph"
for algorithm in bfs sssp cc pagerank bc; do
  echo
  extra=()
  [[ $algorithm == bc ]] && extra=(--sources 2)
  $bin/ooc-run/ooc-run "$algorithm" --graph "$graph" --partition-bytes 8MiB --tolerance 1e-4 \
    "${extra[@]}" --verify
done
