#!/usr/bin/env bash
# OocGraph on the lent GPU machine: build, tests, compute-sanitizer, the Kronecker-26 timings,
# the benchmark suite, pcie-bench and the micro-benchmarks, as named stages in one command.
#
#   here, once:      bash scripts/device/stage.sh          (oneTBB & co. into .device/, ignored)
#   device call:     bash scripts/device/run.sh build tests timings      with carry [".device"]
#
# Stages run in the order of --help whatever the order given. Every stage's logs and figures go
# under one results folder ($RESULTS); after each stage it is packed into $OUT/results.tar.gz,
# with $OUT/summary.txt beside it, so a call stopped at its limit still brings back what was
# done. A failed stage does not stop the ones after it; the exit status is 1 if any failed.
# bash scripts/device/run.sh --help lists the stages and the variables that change them.
set -uo pipefail

readonly ORDER=(build tests sanitizers pcie timings suite python microbench)
readonly ALL_TIMINGS=(policies unified mappings pr-mappings inmemory priority pagerank pr-1e6 partsize k22 gpus rounds ranks cache slices calibration compressed compressed-direction bc direction pull-blocks direction-graphs in-edges reorder mapping-graphs)
readonly DEFAULT_TIMINGS="policies unified mappings pr-mappings inmemory priority pagerank pr-1e6"

usage() {
  cat <<EOF
usage: bash scripts/device/run.sh STAGE... [--help]
       (VARIABLE=value before the command changes a stage, see below)

Run from anywhere in the repository on the GPU machine; the device call carries .device (made
by scripts/device/stage.sh here). Stages, in the order they run:

  build       cmake --preset device (Release, sm_90, Ninja) and cmake --build -j\$JOBS -- -k 0;
              on failure prints the first errors
  tests       the GPU test binaries as gtest shards at once (\$GPU_SHARDS), python_cuda, then
              ctest -L unit (-j16); a log per shard
  sanitizers  compute-sanitizer on ooc-run over a kron:12 graph (16 KiB partitions, edges in
              host memory, --verify): memcheck of bfs,sssp,pagerank under each policy, and of
              bfs,cc,pagerank pulling (--direction pull), memcheck of cc with the edges in GPU
              memory and of bfs,cc,pagerank,sssp gathering in 3 and 64 cache blocks there,
              memcheck of the GPU tests CudaResidentSlices (resident slices),
              racecheck of bfs, sssp and pagerank pushing and pulling and of bfs,pagerank in
              cache blocks, synccheck of bfs; every run under both mappings (\$SAN_MAPPINGS)
  pcie        pcie-bench --json --csv, with --plot (full) or --quick (\$PCIE)
  timings     generates Kronecker \$KRON_SCALE (edge factor 16, undirected, weights 1..64) once
              into \$GRAPH, timing it (/usr/bin/time -v), then one ooc-run per set in \$TIMINGS,
              each with --json and --trace; prints a table (best ms, iterations, GB moved,
              BFS's ratio to its lower bound against the measured pinned H2D peak)
  suite       python3 bench/suite.py --bin build/device, quick or full set (\$SUITE)
  python      ctest -L python (pytest of the oocgraph module on the CPU and the GPU), then
              bench/python_overhead.py on Kronecker \$PY_SCALE with the CUDA backend: a Python
              call's cost beyond the engine's against the run time, and ooc-run's time
  microbench  ooc-bench (Google Benchmark) on the host code: generation, CSR build, hub sort,
              SAGE's reordering, .oocg I/O, compaction, parsing, at OOC_BENCH_SCALE=\$BENCH_SCALE

Timing sets (\$TIMINGS; its default is under Variables). Edges in host memory (--in-memory
off), tiled mapping, priority on, PageRank tolerance 1e-3, unless the set says otherwise. A set
with PageRank first runs it at tolerance 1e-7 (once), and every PageRank run reports its L1
distance to that run:
  policies     bfs,sssp,cc   hybrid,filter,compaction,zerocopy     --repeat \$REPEAT
  unified      bfs,sssp,cc   unified (its setup copies the graph into managed memory)
  mappings     bfs,sssp,cc   hybrid,zerocopy  --load-balance \$MAPPINGS  --repeat \$REPEAT
  pr-mappings  pagerank      hybrid,filter    --load-balance \$MAPPINGS
  inmemory     bfs,sssp,cc with the edges in GPU memory, --load-balance \$MAPPINGS, --repeat 3
  priority     sssp,pagerank hybrid,filter    --priority on,off
  pagerank     pagerank      \$PR_POLICIES     --repeat \$PR_REPEAT
  pr-1e6       pagerank      hybrid, tolerance 1e-6
  partsize     bfs hybrid at --partition-bytes \$PART_SIZES, --repeat 2, one ooc-run each; then 1KiB,
               which is refused (its message names the smallest size allowed)
  k22          bfs,pagerank on --generate kron:22 (no file), hybrid,filter,compaction,zerocopy,
               tolerance 1e-4, --repeat 3 (the first CUDA timings)
  gpus         bfs,sssp,cc,pagerank hybrid --repeat \$REPEAT on GPU 0 alone, on GPUs 0,1 from one
               process (--devices 0,1) with each exchange (dense, sparse, auto), and as 2 ranks by
               mpirun (auto); pagerank with priority off on 1 and 2 GPUs, and the L1 distance
               between 1- and 2-GPU PageRank values (--output of each); a table per run and
               rank (time, iterations, bytes and GB/s, time in the exchange) and whether bfs,
               sssp and cc values equal one GPU's (2-GPU machine)
  rounds       bfs,sssp,cc,pagerank hybrid on GPUs 0,1 from one process, exchange auto, at each
               --exchange-rounds of \$ROUNDS, then as 2 ranks by mpirun (the defaults), --repeat
               \$REPEAT; the gpus set's table
  ranks        bfs,sssp,cc,pagerank hybrid as 2 ranks by mpirun, each under /usr/bin/time -v:
               each rank's peak resident memory against its share of the edges (KRON_SCALE=27
               for the 4.2 B-edge graph)
  calibration  bfs,sssp,cc,pagerank: hybrid with the default constants, each single policy, then
               hybrid with --calibration probe, with the probe and --adapt-costs on, and, after
               the pcie stage, with its JSON; then bfs,sssp,cc with priority off (the same
               iterations under every policy) under the four policies and hybrid probed and
               adapted; bench/policy_choices.py's tables of both (hybrid against the best
               single policy and against the per-iteration best, bfs iteration by iteration)
  compressed   the graph is generated with --compress (its lists sorted, so both runs read the
               same order); bfs,sssp,cc,pagerank hybrid, then bfs,sssp,cc filter, compaction and zerocopy,
               each with --compressed off then on, no cache (--in-memory off); then the bytes
               per edge of each of \$COMPRESSED_OTHERS at scale \$KRON_SCALE (generated with
               --compress, partition-tool info, deleted)
  compressed-direction  the graph generated with --compress; bfs,cc,pagerank,sssp out of core
               (hybrid) on the compressed lists with --direction push,auto, then bfs on the raw
               lists push,auto: the direction set's table, "+comp" marking compressed runs
  bc           bc from \$BC_SOURCES sampled sources (--sources, seed 1), then bfs from each of those
               sources: bc's time and bytes per phase, and its time over 2x the bfs times
  direction    bfs,cc,pagerank,sssp with --direction push,pull,auto, the edges in GPU memory
               (--repeat \$REPEAT), then out of core (hybrid) with push,auto and, for bfs and cc,
               pull: time, iterations pulled, edges read, bytes; values against push
  pull-blocks  bfs,cc,pagerank,sssp in GPU memory (--repeat \$REPEAT): --direction push, then
               pull,auto at each --pull-blocks of \$PULL_BLOCKS (GraphCage's cache blocking); the
               direction set's table, dir/N marking runs whose gathers went in N blocks
  mapping-graphs  the mappings where they differ in iterations: a \$MAPPING_GRID grid, generated
               (undirected, weights 1..64), a PageRank reference at 1e-7 on it, then
               bfs,sssp,cc,pagerank --load-balance \$MAPPINGS in GPU memory and out of core
               (hybrid), one run each; the set makes its own graph and deletes it
  direction-graphs  push against auto beyond kron-26: for each graph of \$DIRECTION_GRAPHS —
               urand at scale \$KRON_SCALE (edge factor 16), a \$DIRECTION_GRID grid — generated
               (undirected, weights 1..64), a PageRank reference at 1e-7 on it, then
               bfs,cc,pagerank,sssp --direction push,auto in GPU memory (--repeat \$REPEAT) and out
               of core (hybrid); the direction set's table per graph. The set makes its own
               graphs (not \$GRAPH) and deletes them
  in-edges     the pull direction on a directed graph: Kronecker \$KRON_SCALE generated
               directed (weights 1..64) with partition-tool --in-edges under /usr/bin/time -v,
               partition-tool info, then bfs,pagerank,sssp --direction push,pull,auto in GPU
               memory (--repeat \$REPEAT) and out of core (hybrid; sssp push,auto); the direction
               set's table. The set makes its own graph (not \$GRAPH) and deletes it
  reorder      hub order against SAGE's (partition-tool --reorder sage): for each graph of
               \$REORDER_GRAPHS — kron and urand at scale \$REORDER_SCALE (edge factor 16), a
               \$REORDER_GRID grid — generated (undirected, weights 1..64) once per order under
               /usr/bin/time -v, the summary line giving the reorder's own time; partition-tool
               info --locality on each (with \$REORDER_LOCALITY=1); then bfs,sssp,cc,pagerank
               --transfer zerocopy,hybrid --in-memory off on each (bfs and sssp from the default
               source, the same vertex in both orders); a table per graph of time, iterations, zero-copy GB
               and all GB, hub against sage, and whether the values are the same. Zero-copy GB
               count each list's lines on its own, as the engine does, so the order shows in
               the time more than in them. The set makes its own graphs (not \$GRAPH) and
               deletes them. About 4-5 minutes a scale-26 graph: run one graph a call
               (REORDER_GRAPHS=kron, then urand, then grid)
  cache        the edge cache: each of bfs,sssp,cc,pagerank hybrid with a budget of its vertex
               data and staging (from a probe run's --json) plus \$CACHE_SHARES percent of the
               edge bytes it reads (\$CACHE_OF), so out of core with the cache holding that share,
               \$CACHE_REPEAT runs each; a table of time, bytes moved and bytes served from the
               cache, values against the 0% run
  slices       pagerank at each of \$SLICES_TOLERANCES with --resident-slices \$RESIDENT_SLICES
               (--repeat \$REPEAT): the edges in GPU memory, then out of core with every list in the
               cache (the budget of the cache set's 100% of the stored bytes)

Variables (default):
  OUT            where results.tar.gz and summary.txt go (\$OUT of the device call; /tmp/ooc-out)
  RESULTS        the results folder, emptied first (/tmp/ooc-results)
  BUDGET_S       seconds this script may take, to keep under the call's timeout_s: a stage is
                 skipped (and counts as failed) when less than 20 s are left, and every command
                 is cut at what is left (570)
  JOBS           build parallelism (16);  BUILD_TARGETS  only these targets (all)
  GPU_FILTER     a gtest filter for the GPU tests (*: all, and python_cuda too)
  GPU_SHARDS     processes engine_gpu_test runs in, at once (8; user_programs_gpu_test 2)
  UNIT_TESTS     a ctest -R regex for the unit tests (all)
  SAN_POLICIES   (hybrid filter compaction zerocopy unified);  SAN_MAPPINGS  (tiled,warp)
  SAN_TESTS      a gtest filter: also memcheck engine_gpu_test on it (none)
  PCIE           full (every test, plots) | quick (--quick) | peak (--quick --only copy) (full)
  TIMINGS        ($DEFAULT_TIMINGS)
  KRON_SCALE     (26);  GRAPH  (/tmp/kron\${KRON_SCALE}w.oocg);  KEEP_GRAPH  1 keeps the file
                 and reuses one already there (0: generated afresh, deleted after);  COMPRESS  1
                 generates it with --compress for every set (0: only for the compressed sets)
  REPEAT         runs of each policies/mappings setting, the best reported (2)
  MAPPINGS       the mapping sets' --load-balance list (tiled,warp,ordered,decompose,
                 hierarchical);  MAPPING_GRID  the mapping-graphs set's grid, ROWSxCOLS (2048x2048)
  PULL_BLOCKS    the pull-blocks set's --pull-blocks list (1,auto,4,16)
  PR_POLICIES    (hybrid,filter,compaction,zerocopy,unified);  PR_REPEAT  (1)
  PART_SIZES     (32MiB 4MiB 1MiB 256KiB: the smallest kron-26 with weights allows)
  CACHE_PR_TOLERANCES  pagerank's tolerances in the cache set (1e-3)
  CACHE_OF       stored: shares of the bytes the cache keeps (a compressed graph's lists and
                 packed weights) | raw: of 4 bytes per target and 4 per weight (stored)
  RESIDENT_SLICES  the slices set's --resident-slices list (1,4);  SLICES_TOLERANCES  its
                 pagerank tolerances (1e-3 1e-2)
  CACHE_SLICES   the cache set's --resident-slices list (empty: the engine's default)
  CACHE_SHARES   (0 25 50 75);  CACHE_REPEAT  runs of each, the first choosing the cache by
                 edges per vertex, the later ones by the reuse measured before (1)
  SUITE          quick | full (quick);  SUITE_SECONDS  the suite's --time-limit (530)
  ROUNDS         the rounds set's --exchange-rounds list (1,2,4,8)
  COMPRESSED_OTHERS  the compressed set's other graphs ("urand grid"; empty: none)
  BC_SOURCES     the bc set's sampled sources (4)
  DIRECTION_GRAPHS  the direction-graphs set's graphs ("urand grid");  DIRECTION_GRID  its
                 grid, ROWSxCOLS (4096x4096)
  REORDER_GRAPHS the reorder set's graphs ("kron urand grid");  REORDER_SCALE  their scale (26)
  REORDER_GRID   its grid, ROWSxCOLS (8192x8192);  REORDER_ROUNDS  --reorder-rounds (the
                 tool's default, 2);  REORDER_LOCALITY  1 runs info --locality (1)
  SUITE_GPUS     the suite's --gpus: 2 adds 2-GPU runs, one process and mpirun (1)
  PY_SCALE       the python stage's Kronecker scale (22)
  BENCH_SCALE    (24);  BENCH_FILTER  (Generate|BuildCsr|HubSort|SageReorder|Oocg|Compaction|
                 ParseText)
  DRY_RUN        1: print the commands into the logs instead of running them

Examples:
  bash scripts/device/run.sh build tests sanitizers            # check a change
  bash scripts/device/run.sh build pcie timings                # the Kronecker-26 figures
  SUITE=full BUILD_TARGETS="partition-tool ooc-run pcie-bench" bash scripts/device/run.sh build suite
  PR_POLICIES=hybrid,filter PR_REPEAT=3 TIMINGS=pagerank bash scripts/device/run.sh build timings
  REORDER_GRAPHS=kron TIMINGS=reorder bash scripts/device/run.sh build timings   # hub vs sage
One device call runs at most 10 minutes, and BUDGET_S cuts what does not fit. From earlier
runs on an H200: build about 40 s, generating kron-26 about 57 s, pcie-bench 28 s (5 s quick),
the quick suite 140 s, the full suite 522 s before the ordered mapping and the directed
graph were added (so run it alone; SUITE_SECONDS bounds it).
EOF
}

# ---- arguments --------------------------------------------------------------------------------
want=()
for a in "$@"; do
  case $a in
    -h | --help) usage; exit 0 ;;
    *)
      ok=0
      for s in "${ORDER[@]}"; do [[ $a == "$s" ]] && ok=1; done
      if ((!ok)); then echo "run.sh: unknown stage '$a' (see --help)" >&2; exit 64; fi
      want+=("$a")
      ;;
  esac
done
if ((${#want[@]} == 0)); then usage >&2; exit 64; fi
stages=()
for s in "${ORDER[@]}"; do
  for w in "${want[@]}"; do if [[ $w == "$s" ]]; then stages+=("$s"); break; fi; done
done

cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
OUT=${OUT:-/tmp/ooc-out}
RESULTS=${RESULTS:-/tmp/ooc-results}
BUDGET_S=${BUDGET_S:-570}
JOBS=${JOBS:-16}
BUILD_TARGETS=${BUILD_TARGETS:-}
GPU_FILTER=${GPU_FILTER:-*}
GPU_SHARDS=${GPU_SHARDS:-8}
SAN_POLICIES=${SAN_POLICIES:-hybrid filter compaction zerocopy unified}
SAN_MAPPINGS=${SAN_MAPPINGS:-tiled,warp}
MAPPINGS=${MAPPINGS:-tiled,warp,ordered,decompose,hierarchical}
MAPPING_GRID=${MAPPING_GRID:-2048x2048}
PULL_BLOCKS=${PULL_BLOCKS:-1,auto,4,16}
SAN_TESTS=${SAN_TESTS:-}
PCIE=${PCIE:-full}
TIMINGS=${TIMINGS:-$DEFAULT_TIMINGS}
KRON_SCALE=${KRON_SCALE:-26}
GRAPH=${GRAPH:-/tmp/kron${KRON_SCALE}w.oocg}
readonly PR_REFERENCE=/tmp/ooc-pagerank-1e-7.tsv
KEEP_GRAPH=${KEEP_GRAPH:-0}
COMPRESS=${COMPRESS:-0}
REPEAT=${REPEAT:-2}
PR_POLICIES=${PR_POLICIES:-hybrid,filter,compaction,zerocopy,unified}
PR_REPEAT=${PR_REPEAT:-1}
PART_SIZES=${PART_SIZES:-32MiB 4MiB 1MiB 256KiB}
CACHE_SHARES=${CACHE_SHARES:-0 25 50 75}
CACHE_OF=${CACHE_OF:-stored}
RESIDENT_SLICES=${RESIDENT_SLICES:-1,4}
SLICES_TOLERANCES=${SLICES_TOLERANCES:-1e-3 1e-2}
CACHE_REPEAT=${CACHE_REPEAT:-1}
CACHE_PR_TOLERANCES=${CACHE_PR_TOLERANCES:-1e-3}
SUITE=${SUITE:-quick}
SUITE_SECONDS=${SUITE_SECONDS:-530}
SUITE_GPUS=${SUITE_GPUS:-1}
ROUNDS=${ROUNDS:-1,2,4,8}
COMPRESSED_OTHERS=${COMPRESSED_OTHERS-urand grid}
BC_SOURCES=${BC_SOURCES:-4}
DIRECTION_GRAPHS=${DIRECTION_GRAPHS:-urand grid}
DIRECTION_GRID=${DIRECTION_GRID:-4096x4096}
REORDER_GRAPHS=${REORDER_GRAPHS:-kron urand grid}
REORDER_SCALE=${REORDER_SCALE:-26}
REORDER_GRID=${REORDER_GRID:-8192x8192}
REORDER_ROUNDS=${REORDER_ROUNDS:-}
REORDER_LOCALITY=${REORDER_LOCALITY:-1}
UNIT_TESTS=${UNIT_TESTS:-}
BENCH_SCALE=${BENCH_SCALE:-24}
PY_SCALE=${PY_SCALE:-22}
BENCH_FILTER=${BENCH_FILTER:-Generate|BuildCsr|HubSort|SageReorder|Oocg|Compaction|ParseText}
DRY_RUN=${DRY_RUN:-0}

for t in $TIMINGS; do
  ok=0
  for s in "${ALL_TIMINGS[@]}"; do [[ $t == "$s" ]] && ok=1; done
  if ((!ok)); then echo "run.sh: unknown timing set '$t' in TIMINGS (see --help)" >&2; exit 64; fi
done
case $PCIE in full | quick | peak) ;; *) echo "run.sh: PCIE must be full, quick or peak" >&2; exit 64 ;; esac
case $SUITE in quick | full) ;; *) echo "run.sh: SUITE must be quick or full" >&2; exit 64 ;; esac

# oneTBB and the other carried packages, the CUDA toolkit on the PATH, NCCL_NVLS_ENABLE=0.
if ! ls .device/debs/*.deb >/dev/null 2>&1; then
  echo "run.sh: no .device/debs (run scripts/device/stage.sh here, carry .device); going on without" >&2
fi
# shellcheck source=scripts/device/env.sh
source scripts/device/env.sh

readonly B=build/device
readonly OOC_RUN=$B/tools/ooc-run/ooc-run
readonly PARTITION_TOOL=$B/tools/partition-tool/partition-tool
readonly PCIE_BENCH=$B/tools/pcie-bench/pcie-bench
readonly OOC_BENCH=$B/bench/ooc-bench
readonly GPU_TEST=$B/tests/engine_gpu_test

T0=$SECONDS
rm -rf "$RESULTS" && mkdir -p "$RESULTS" "$OUT" || exit 1
SUMMARY=$RESULTS/summary.txt

# ---- helpers ----------------------------------------------------------------------------------
left() { echo $((BUDGET_S - (SECONDS - T0))); }

# note LINE...: a line of the summary (summary.txt, printed at the end).
note() { printf '%s\n' "$@" >>"$SUMMARY"; }

# bounded CAP CMD...: run CMD for at most CAP seconds and never past the budget (exit 124 when cut).
bounded() {
  local cap=$1 t
  shift
  t=$(left)
  t=$((t - 10 < cap ? t - 10 : cap))
  if ((t < 5)); then
    echo "run.sh: no time left for: $*" >&2
    return 124
  fi
  if [[ $DRY_RUN == 1 ]]; then
    echo "+ timeout $t $*"
    return 0
  fi
  timeout -k 10 "$t" "$@"
}

# need FILE...: the binaries a stage runs; says which one is missing.
need() {
  local f
  for f in "$@"; do
    if [[ ! -x $f && $DRY_RUN != 1 ]]; then
      STAGE_NOTE="missing $f (run the build stage)"
      return 1
    fi
  done
}

# ctest_count LOG: "passed/total" from ctest's summary line, or what went wrong. CTest 3.25
# writes "100% tests passed, 0 tests failed out of N", newer ones leave out ", 0 tests failed".
ctest_count() {
  local line failed total
  line=$(grep -E 'tests passed(, [0-9]+ tests? failed)? out of [0-9]+' "$1" | tail -1)
  if [[ -z $line ]]; then
    grep -qE 'No tests were found' "$1" && echo "no tests found" || echo "no summary"
    return
  fi
  total=$(sed -E 's/.* out of ([0-9]+).*/\1/' <<<"$line")
  failed=0
  [[ $line =~ ([0-9]+)\ tests?\ failed ]] && failed=${BASH_REMATCH[1]}
  echo "$((total - failed))/$total passed"
}

# Pack the results folder into $OUT: one tarball, split if it passes the 16 MiB a file may have.
pack() {
  cp "$SUMMARY" "$OUT/summary.txt" 2>/dev/null
  rm -f "$OUT"/results.tar.gz "$OUT"/results.tar.gz.part-*
  tar czf "$OUT/results.tar.gz" -C "$(dirname "$RESULTS")" "$(basename "$RESULTS")" 2>/dev/null || return
  if (($(stat -c %s "$OUT/results.tar.gz") > 16 * 1024 * 1024 - 4096)); then
    split -b 15M -d -a 1 "$OUT/results.tar.gz" "$OUT/results.tar.gz.part-" && rm -f "$OUT/results.tar.gz"
    note "results.tar.gz was split into results.tar.gz.part-*: cat them together"
  fi
}

# ---- build ------------------------------------------------------------------------------------
stage_build() {
  local d=$RESULTS/build t=$SECONDS targets=()
  if ! bounded 180 cmake --preset device >"$d/configure.log" 2>&1; then
    STAGE_NOTE="configure failed: build/configure.log"
    tail -n 30 "$d/configure.log" | sed 's/^/    /'
    return 1
  fi
  local configured=$((SECONDS - t))
  # shellcheck disable=SC2206  # a list of target names, split on spaces
  [[ -n $BUILD_TARGETS ]] && targets=(--target $BUILD_TARGETS)
  if ! bounded 600 cmake --build --preset device -j "$JOBS" "${targets[@]}" -- -k 0 >"$d/build.log" 2>&1; then
    STAGE_NOTE="$(grep -c '^FAILED:' "$d/build.log") targets failed (configure ${configured} s): build/build.log"
    # The first errors, loudly: where each failed target starts, and what the compiler said.
    grep -E -A6 '^FAILED:|error[: ]|Error [0-9]|ninja: error' "$d/build.log" | head -60 | sed 's/^/    /'
    note "build errors:" "$(grep -E -m 10 'error[: ]' "$d/build.log")"
    return 1
  fi
  STAGE_NOTE="configure ${configured} s, ${BUILD_TARGETS:-all targets}, $(grep -c 'warning:' "$d/build.log") warnings"
  return 0
}

# ---- tests ------------------------------------------------------------------------------------
# gpu_count DIR: passed, failed, skipped and not-ended GPU tests from the shards' gtest logs.
gpu_count() {
  local ok failed skipped started
  ok=$(cat "$1"/gpu-*.log 2>/dev/null | grep -cE '^\[       OK \] ')
  failed=$(cat "$1"/gpu-*.log 2>/dev/null | grep -cE '^\[  FAILED  \] .*\([0-9]+ ms\)$')
  skipped=$(cat "$1"/gpu-*.log 2>/dev/null | grep -cE '^\[  SKIPPED \] .*\([0-9]+ ms\)$')
  started=$(cat "$1"/gpu-*.log 2>/dev/null | grep -cE '^\[ RUN      \] ')
  echo "$ok passed, $failed failed, $skipped skipped, $((started - ok - failed - skipped)) not ended"
}

stage_tests() {
  local d=$RESULTS/tests rc_gpu=0 rc_unit unit_regex=() name shards i pids=() rcs=()
  [[ -n $UNIT_TESTS ]] && unit_regex=(-R "$UNIT_TESTS")
  # Each GPU test binary runs as a few gtest shards at once: a process pays the CUDA set-up
  # once (about 2 s) for all its tests, where ctest would pay it per test.
  for name in engine_gpu_test user_programs_gpu_test distributed_gpu_test gpu_smoke_test; do
    need "$B/tests/$name" || return 1
    shards=1
    [[ $name == engine_gpu_test ]] && shards=$GPU_SHARDS
    [[ $name == user_programs_gpu_test ]] && shards=2
    for ((i = 0; i < shards; i++)); do
      bounded 540 env GTEST_TOTAL_SHARDS="$shards" GTEST_SHARD_INDEX="$i" "$B/tests/$name" \
        "--gtest_filter=$GPU_FILTER" >"$d/gpu-$name-$i.log" 2>&1 &
      pids+=($!)
    done
  done
  for i in "${pids[@]}"; do
    wait "$i"
    rcs+=($?)
  done
  for i in "${rcs[@]}"; do ((i)) && rc_gpu=1; done
  # The module's pytest on the GPU, with the whole set only.
  if [[ $GPU_FILTER == "*" ]]; then
    bounded 300 ctest --preset device -R '^python_cuda$' --no-tests=error >"$d/python-cuda.log" 2>&1 ||
      rc_gpu=1
  fi
  bounded 300 ctest --preset device -L unit "${unit_regex[@]}" -j 16 --no-tests=error \
    >"$d/unit-tests.log" 2>&1
  rc_unit=$?
  STAGE_NOTE="gpu ${GPU_FILTER:+(--gtest_filter=$GPU_FILTER) }$(gpu_count "$d")$([[ $GPU_FILTER == "*" ]] && echo ", python_cuda $(ctest_count "$d/python-cuda.log")"); unit ${UNIT_TESTS:+(-R $UNIT_TESTS) }$(ctest_count "$d/unit-tests.log")"
  note "gpu tests: rc=$rc_gpu $(gpu_count "$d")" \
    "unit tests: rc=$rc_unit $(grep -E 'tests passed' "$d/unit-tests.log")"
  if ((rc_gpu || rc_unit)); then
    {
      grep -hE '^\[  FAILED  \] .*\([0-9]+ ms\)$' "$d"/gpu-*.log | head -20
      # A shard that crashed or was cut: the test it was in.
      for i in "$d"/gpu-*.log; do
        tail -n 1 "$i" | grep -qE '^\[  (PASSED|FAILED) ' || echo "$(basename "$i"): ended in $(grep -E '^\[ RUN ' "$i" | tail -n 1)"
      done
      grep -hE '\*\*\*(Failed|Exception|Timeout)|Not Run' "$d/unit-tests.log" "$d/python-cuda.log" 2>/dev/null | head -20
    } | sed 's/^/    /' | tee -a "$SUMMARY"
    return 1
  fi
  return 0
}

# ---- sanitizers -------------------------------------------------------------------------------
SAN_FAILED=()
SAN_RUNS=0
# san NAME TOOL CMD...: one compute-sanitizer run into sanitizers/NAME.log.
san() {
  local name=$1 tool=$2 log rc
  shift 2
  log=$RESULTS/sanitizers/$name.log
  bounded 300 compute-sanitizer --tool "$tool" --error-exitcode 9 "$@" >"$log" 2>&1
  rc=$?
  SAN_RUNS=$((SAN_RUNS + 1))
  note "$(printf '%-24s rc=%-3s %s verified;%s' "$name" "$rc" "$(grep -c 'matches the serial reference' "$log")" \
    "$(grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY|MISMATCH' "$log" | sort | uniq -c | tr -s ' ' | tr '\n' ';')")"
  ((rc)) && SAN_FAILED+=("$name(rc=$rc)")
}

stage_sanitizers() {
  need "$OOC_RUN" || return 1
  if ! command -v compute-sanitizer >/dev/null && [[ $DRY_RUN != 1 ]]; then
    STAGE_NOTE="compute-sanitizer not found"
    return 1
  fi
  SAN_FAILED=()
  SAN_RUNS=0
  local small=(--generate kron:12 --partition-bytes 16KiB --in-memory off --tolerance 1e-4
    --load-balance "$SAN_MAPPINGS" --verify)
  local t alg
  for t in $SAN_POLICIES; do
    san "memcheck-$t" memcheck "$OOC_RUN" bfs,sssp,pagerank "${small[@]}" --transfer "$t"
    san "memcheck-pull-$t" memcheck "$OOC_RUN" bfs,cc,pagerank "${small[@]}" --transfer "$t" \
      --direction pull
  done
  # The edges in GPU memory: the resident path, and the gathers in cache blocks.
  san memcheck-resident-cc memcheck "$OOC_RUN" cc --generate kron:12 --budget 1GiB \
    --load-balance "$SAN_MAPPINGS" --verify
  # Resident partitions in slices, each processed once more: the GPU tests that make them on small
  # graphs (ooc-run keeps the minimum edges per slice, which a kron:12 graph never reaches). Their
  # kernels are the filter tasks' (racecheck-pagerank reprocesses those); under racecheck these
  # tests ran past 300 s on an H200.
  need "$GPU_TEST" && san memcheck-slices memcheck "$GPU_TEST" '--gtest_filter=*CudaResidentSlices*'
  san memcheck-pull-blocks memcheck "$OOC_RUN" bfs,cc,pagerank,sssp --generate kron:12 \
    --budget 1GiB --direction pull --pull-blocks 3,64 --tolerance 1e-4 --load-balance "$SAN_MAPPINGS" --verify
  san racecheck-pull-blocks racecheck "$OOC_RUN" bfs,pagerank --generate kron:12 --budget 1GiB \
    --direction pull --pull-blocks 3 --tolerance 1e-4 --verify
  for alg in bfs sssp pagerank; do
    san "racecheck-$alg" racecheck "$OOC_RUN" "$alg" "${small[@]}" --direction push,pull
  done
  san synccheck-bfs synccheck "$OOC_RUN" bfs "${small[@]}"
  if [[ -n $SAN_TESTS ]]; then
    need "$GPU_TEST" || return 1
    san memcheck-gtest memcheck "$GPU_TEST" "--gtest_filter=$SAN_TESTS"
  fi
  if ((${#SAN_FAILED[@]})); then
    STAGE_NOTE="${#SAN_FAILED[@]} of $SAN_RUNS runs failed: ${SAN_FAILED[*]}"
    return 1
  fi
  STAGE_NOTE="$SAN_RUNS runs clean (no sanitizer error, --verify matched)"
  return 0
}

# ---- pcie -------------------------------------------------------------------------------------
stage_pcie() {
  need "$PCIE_BENCH" || return 1
  local d=$RESULTS/pcie args=(--json "$RESULTS/pcie/pcie.json" --csv "$RESULTS/pcie/pcie.csv")
  case $PCIE in
    full) args+=(--plot "$d/plots") ;;
    quick) args+=(--quick) ;;
    peak) args+=(--quick --only copy) ;;
  esac
  if ! bounded 240 "$PCIE_BENCH" "${args[@]}" >"$d/pcie.txt" 2>"$d/pcie.err"; then
    STAGE_NOTE="pcie-bench failed: pcie/pcie.err"
    tail -n 5 "$d/pcie.err" | sed 's/^/    /'
    return 1
  fi
  STAGE_NOTE="$PCIE: $(grep -m 1 -E 'pinned H2D +1 stream' "$d/pcie.txt" | tr -s ' ' | cut -c1-80)"
  note "$(grep -E '^\S.*\s(copy|zerocopy)\s' "$d/pcie.txt" | cut -c1-100)"
  return 0
}

# ---- timings ----------------------------------------------------------------------------------
TIMING_FAILED=()
# cache_plan: each program's vertex data and staging (one iteration of each with --json) and
# the graph's stored bytes (partition-tool info --json), once per call, for cache_budget.
cache_plan() {
  local d=$RESULTS/timings
  [[ -s $d/$k-cacheplan.json && -s $d/info.json ]] && return 0
  bounded 120 "$OOC_RUN" bfs,sssp,cc,pagerank --graph "$GRAPH" "${host[@]}" --max-iterations 1 \
    -q --json "$d/$k-cacheplan.json" >"$d/$k-cacheplan.log" 2>&1 &&
    bounded 60 "$PARTITION_TOOL" info "$GRAPH" --json >"$d/info.json" 2>>"$d/$k-cacheplan.log" &&
    return 0
  note "cache: no plan (timings/$k-cacheplan.log)"
  TIMING_FAILED+=("$k-cacheplan")
  return 1
}

# cache_budget ALGO SHARE: ALGO's vertex data and staging plus SHARE percent of the edge bytes
# it reads, raw or as the cache stores them ($CACHE_OF).
cache_budget() {
  python3 - "$RESULTS/timings/$k-cacheplan.json" "$RESULTS/timings/info.json" "$1" "$2" \
    "$CACHE_OF" <<'EOF'
import json, sys
plan, info, algo, share, of = sys.argv[1:]
info = json.load(open(info))
for r in json.load(open(plan))["runs"]:
    if r["algorithm"] != algo:
        continue
    m = r["memory"]
    edges = m["edge_bytes"]
    c = info.get("compressed")
    if of == "stored" and c and r.get("compressed"):
        weighted = m["edge_bytes"] > 4 * info["edges"]
        edges = c["bytes"]
        if weighted:
            edges += c["weights"]["bytes"] if c.get("weights") else 4 * info["edges"]
    print(m["vertex_bytes"] + m["staging_bytes"] + edges * int(share) // 100)
EOF
}

# timing NAME CAP ARGS...: one ooc-run into timings/NAME.{log,json,csv}.
timing() {
  local name=$1 cap=$2 d=$RESULTS/timings rc t=$SECONDS
  shift 2
  bounded "$cap" "$OOC_RUN" "$@" --json "$d/$name.json" --trace "$d/$name.csv" >"$d/$name.log" 2>&1
  rc=$?
  note "$(printf '%-20s rc=%-3s %4d s' "$name" "$rc" $((SECONDS - t)))"
  ((rc)) && TIMING_FAILED+=("$name(rc=$rc)")
}

# timing_mpi NAME CAP ARGS...: the same, as 2 ranks by mpirun (each rank under $RANK_WRAP, if set).
RANK_WRAP=()
timing_mpi() {
  local name=$1 cap=$2 d=$RESULTS/timings rc t=$SECONDS mpi=(mpirun -np 2 -x NCCL_NVLS_ENABLE)
  shift 2
  (($(id -u) == 0)) && mpi+=(--allow-run-as-root)
  bounded "$cap" "${mpi[@]}" "${RANK_WRAP[@]}" "$OOC_RUN" "$@" --json "$d/$name.json" >"$d/$name.log" 2>&1
  rc=$?
  note "$(printf '%-20s rc=%-3s %4d s' "$name" "$rc" $((SECONDS - t)))"
  ((rc)) && TIMING_FAILED+=("$name(rc=$rc)")
}

# Per run and rank of the gpus/ranks sets: time, iterations, bytes and GB/s, exchange; and
# whether each run's values equal the first file's (bfs, sssp, cc: digests).
ranks_table() {
  python3 - "$@" <<'EOF'
import json, os, sys
files = [p for p in sys.argv[1:] if os.path.exists(p)]
first = {}
print("%-16s %-8s %-6s %3s %4s %9s %6s %9s %7s %9s %8s %8s %6s %5s  %s" % (
    "set", "algo", "exch", "rnd", "rank", "ms", "iters", "GB moved", "GB/s", "exch GB", "exch ms",
    "nccl ms", "sparse", "exchs", "values"))
for path in files:
    name = os.path.basename(path)[:-5]
    try:
        runs = json.load(open(path))["runs"]
    except (OSError, ValueError, KeyError) as e:
        print("%-16s unreadable: %s" % (name, e))
        continue
    best = {}
    for r in runs:
        key = (r["algorithm"], r.get("exchange") or "-", r.get("exchange_rounds") or "-")
        if key not in best or r["seconds"] < best[key]["seconds"]:
            best[key] = r
    for (algo, exchange, rounds), r in best.items():
        if algo != "pagerank":
            first.setdefault(algo, r["values_digest"])
            same = "same as first" if r["values_digest"] == first[algo] else "DIFFERENT"
        else:
            same = "L1 %.3g" % r["l1_to_reference"] if "l1_to_reference" in r else ""
        per = r.get("ranks") or [{"rank": 0, "seconds": r["seconds"], "total_bytes": r["total_bytes"],
                                  "exchange_bytes": 0, "exchange_seconds": 0}]
        its = r.get("per_iteration", [])
        sparse = sum(1 for it in its if it.get("sparse_exchange"))
        exchanges = sum(it.get("exchange_rounds", 0) for it in its)
        for p in per:
            print("%-16s %-8s %-6s %3s %4s %9.1f %6d %9.2f %7.1f %9.2f %8.1f %8.1f %6d %5d  %s" % (
                name, algo, exchange, rounds, p["rank"], r["seconds"] * 1e3, r["iterations"],
                p["total_bytes"] / 1e9, p["total_bytes"] / 1e9 / max(p["seconds"], 1e-9),
                p["exchange_bytes"] / 1e9, p["exchange_seconds"] * 1e3,
                p.get("nccl_seconds", 0) * 1e3, sparse, exchanges, same))
EOF
}

# The cache set's runs: per algorithm and cache share, time, bytes and values against share 0.
cache_table() {
  python3 - "$@" <<'EOF'
import json, os, re, sys
print("%-17s %6s %4s %9s %6s %9s %6s %9s %9s %9s  %s" % (
    "algo", "share", "run", "cache GB", "parts", "ms", "iters", "GB moved", "GB cached",
    "x share 0", "values (L1 to 1e-7)"))
rows = {}
for path in sys.argv[1:]:
    m = re.search(r"-cache-([\w.-]+)-(\d+)\.json$", path)
    if not m or not os.path.exists(path):
        continue
    rows[(m.group(1), int(m.group(2)))] = json.load(open(path))["runs"]
# Run 1 chooses the cache by edges per vertex; later runs by the reuse the earlier ones measured.
for (algo, share), runs in sorted(rows.items()):
    base = rows.get((algo, 0), [None])[0]
    for i, r in enumerate(runs):
        same = ""
        if "l1_to_reference" in r:
            same = "%.2e" % r["l1_to_reference"]
        elif base:
            same = "same" if r["values_digest"] == base["values_digest"] else "DIFFER"
        ratio = "%.2f" % (r["seconds"] / base["seconds"]) if base else ""
        print("%-17s %5d%% %4d %9.2f %6d %9.1f %6d %9.2f %9.2f %9s  %s" % (
            algo, share, i + 1, r["cache_bytes"] / 1e9, r["cache_partitions"], r["seconds"] * 1e3,
            r["iterations"], r["total_bytes"] / 1e9, r["cached_bytes"] / 1e9, ratio, same))
EOF
}

# The direction set's runs: per algorithm, edges and direction, the best time, the iterations
# that pulled, the edges read and the bytes moved, and whether the values equal push's.
direction_table() {
  python3 - "$@" <<'EOF'
import json, os, sys
print("%-9s %-10s %-7s %9s %7s %9s %9s %9s  %s" % (
    "algo", "edges", "dir", "best ms", "pulled", "iters", "G edges", "GB moved", "values"))
# dir: the direction asked for, then /N when the gathers ran in N cache blocks.
best = {}
for path in sys.argv[1:]:
    if not os.path.exists(path):
        print("%s: no results" % os.path.basename(path))
        continue
    for r in json.load(open(path))["runs"]:
        edges = ("in-memory" if r["in_memory"] else "host") + ("+comp" if r.get("compressed") else "")
        direction = r.get("direction", "push")
        if r.get("pull_blocks", 1) > 1:
            direction += "/%d" % r["pull_blocks"]
        key = (r["algorithm"], edges, direction)
        if key not in best or r["seconds"] < best[key]["seconds"]:
            best[key] = r
for (algo, edges, direction), r in sorted(best.items()):
    base = best.get((algo, edges, "push"))
    if "l1_to_reference" in r:
        same = "L1 %.2e" % r["l1_to_reference"]
    elif base:
        same = "same as push" if r["values_digest"] == base["values_digest"] else "DIFFER"
    else:
        same = ""
    print("%-9s %-10s %-7s %9.1f %7d %9d %9.2f %9.2f  %s" % (
        algo, edges, direction, r["seconds"] * 1e3, r.get("pull_iterations", 0),
        r["iterations"], r["edges_processed"] / 1e9, r["total_bytes"] / 1e9, same))
EOF
}

# The pinned H2D peak, for BFS's lower bound: from the pcie stage, else measured now (a few s).
timing_peak() {
  local j=$RESULTS/pcie/pcie.json
  if [[ ! -s $j ]]; then
    j=$RESULTS/timings/peak.json
    bounded 60 "$PCIE_BENCH" --quick --only copy --quiet --json "$j" >/dev/null 2>&1
  fi
  # GPU 0's "pinned H2D peak" row, the figure pcie-bench's '% peak' and bench/suite.py use.
  python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["peak_gbps"]["0"])' "$j" 2>/dev/null
}

# Best time per setting of every timings/*.json, one line each.
timing_table() {
  python3 - "$@" <<'EOF'
import json, os, sys
peak = float(sys.argv[1]) if sys.argv[1] else None
print("%-16s %-8s %-10s %-9s %-4s %-13s %9s %6s %9s %7s %8s  %s" % (
    "set", "algo", "policy", "edges", "prio", "map/pulled", "best ms", "iters", "GB moved",
    "x bound", "L1 1e-7", "every run (ms)"))
for path in sys.argv[2:]:
    name = os.path.basename(path)[:-5]
    try:
        runs = json.load(open(path))["runs"]
    except (OSError, ValueError, KeyError) as e:
        print("%-16s unreadable: %s" % (name, e))
        continue
    groups = {}
    for r in runs:
        mapping = r["load_balance"]
        if r.get("direction", "push") != "push":
            mapping += "/%s:%d" % (r["direction"], r.get("pull_iterations", 0))
        key = (r["algorithm"], r["transfer"], "in-memory" if r["in_memory"] else "host",
               "on" if r["priority"] else "off", mapping)
        groups.setdefault(key, []).append(r)
    for key, rs in groups.items():
        best = min(rs, key=lambda r: r["seconds"])
        bound = ""
        if peak and key[0] == "bfs" and best.get("reached_edges"):
            bound = "%.2f" % (best["seconds"] / (4 * best["reached_edges"] / (peak * 1e9)))
        every = " ".join("%.1f" % (r["seconds"] * 1e3) for r in rs) if len(rs) > 1 else ""
        l1 = "%.2e" % best["l1_to_reference"] if "l1_to_reference" in best else ""
        print("%-16s %-8s %-10s %-9s %-4s %-13s %9.1f %6d %9.2f %7s %8s  %s" % (
            name, *key, best["seconds"] * 1e3, best["iterations"], best["total_bytes"] / 1e9,
            bound, l1, every))
EOF
}

# The reorder set's table: per graph, algorithm and policy, hub order against SAGE's.
reorder_table() {
  python3 - "$@" <<'EOF'
import json, os, re, sys
runs = {}
for path in sys.argv[1:]:
    m = re.search(r"reorder-(\w+)-(hub|sage)\.json$", path)
    if not m or not os.path.exists(path):
        continue
    for r in json.load(open(path))["runs"]:
        runs.setdefault((m.group(1), r["algorithm"], r["transfer"]), {})[m.group(2)] = r
print("%-6s %-9s %-9s %9s %9s %6s %6s %7s %8s %8s %8s %8s  %s" % (
    "graph", "algo", "policy", "hub ms", "sage ms", "x", "it hub", "it sage", "zc GB h", "zc GB s",
    "GB hub", "GB sage", "values"))
for (graph, algo, policy), o in sorted(runs.items()):
    h, s = o.get("hub"), o.get("sage")
    if not h or not s:
        print("%-6s %-9s %-9s  missing: %s" % (graph, algo, policy, "hub" if not h else "sage"))
        continue
    same = ""
    if algo != "pagerank":
        same = "same" if h.get("values_digest") == s.get("values_digest") else "DIFFER"
    print("%-6s %-9s %-9s %9.1f %9.1f %6.2f %6d %7d %8.2f %8.2f %8.2f %8.2f  %s" % (
        graph, algo, policy, h["seconds"] * 1e3, s["seconds"] * 1e3, s["seconds"] / h["seconds"],
        h["iterations"], s["iterations"], h["bytes"]["zerocopy"] / 1e9, s["bytes"]["zerocopy"] / 1e9,
        h["total_bytes"] / 1e9, s["total_bytes"] / 1e9, same))
EOF
}

# generate_graph NAME FILE ARGS...: partition-tool generate ARGS -o FILE, its output in
# timings/NAME-generate.log and, where /usr/bin/time is, its wall time and peak memory in
# timings/NAME-time.log. On failure it says so, counts NAME-generate as failed, removes FILE and
# returns 1.
generate_graph() {
  local name=$1 file=$2 d=$RESULTS/timings timev=()
  shift 2
  [[ -x /usr/bin/time ]] && timev=(/usr/bin/time -v -o "$d/$name-time.log")
  bounded 400 "${timev[@]}" "$PARTITION_TOOL" generate "$@" -o "$file" >"$d/$name-generate.log" 2>&1 &&
    return 0
  note "$name: generating failed: timings/$name-generate.log"
  TIMING_FAILED+=("$name-generate")
  rm -f "$file"
  return 1
}

# generate_time NAME: the wall time and peak memory generate_graph measured, on one line.
generate_time() {
  grep -hE 'Elapsed|Maximum resident' "$RESULTS/timings/$1-time.log" 2>/dev/null | tr -s ' \t' ' ' |
    tr '\n' ';'
}

# The reorder set: each graph of $REORDER_GRAPHS in hub order and in SAGE's, generated, measured
# (info --locality) and run, one after the other so that one graph's file is on disk at a time.
timing_reorder() {
  local d=$RESULTS/timings kind order name file shape rounds=() t
  [[ -n $REORDER_ROUNDS ]] && rounds=(--reorder-rounds "$REORDER_ROUNDS")
  for kind in $REORDER_GRAPHS; do
    case $kind in
      kron | urand) shape=(--scale "$REORDER_SCALE" --edge-factor 16) ;;
      grid) shape=(--rows "${REORDER_GRID%x*}" --cols "${REORDER_GRID#*x}") ;;
      *)
        note "reorder: unknown graph '$kind' in REORDER_GRAPHS (kron, urand, grid)"
        TIMING_FAILED+=("reorder-$kind")
        continue ;;
    esac
    for order in hub sage; do
      name=reorder-$kind-$order
      file=/tmp/ooc-$name.oocg
      t=$SECONDS
      generate_graph "$name" "$file" "$kind" "${shape[@]}" --undirected --weights random:1-64 \
        --reorder "$order" "${rounds[@]}" || continue
      # The summary line gives the order and the time it took ("sage order (2 rounds) in 21.30 s").
      note "$name: generated in $((SECONDS - t)) s: $(tail -n 1 "$d/$name-generate.log")" \
        "  $(generate_time "$name")"
      if [[ $REORDER_LOCALITY == 1 ]]; then
        bounded 300 "$PARTITION_TOOL" info "$file" --locality --json >"$d/$name-info.json" 2>&1
        note "  locality: $(python3 -c 'import json, sys
l = json.load(open(sys.argv[1]))["locality"]
print("%.3f value sectors per tile; %d BFS: %d target lines read together, %d list by list" % (
    l["sectors_per_tile"], l["traversals"], l["shared_lines"], l["list_lines"]))' "$d/$name-info.json" 2>/dev/null)"
      fi
      # BFS and SSSP start from the default source, the same users' vertex in both orders.
      timing "$name" 300 bfs,sssp,cc,pagerank --graph "$file" --in-memory off --transfer zerocopy,hybrid \
        --tolerance 1e-3
      rm -f "$file"
    done
  done
  note "" "$(reorder_table "$d"/reorder-*.json 2>&1)"
}

# Push against auto on graphs of other shapes than kron-26 (DIRECTION_GRAPHS), each with its own
# PageRank reference.
# pr_reference NAME FILE OUT: PageRank at tolerance 1e-7 on FILE into OUT, which the set's
# PageRank runs measure their L1 distance to; a failure is noted (and returns 1).
pr_reference() {
  bounded 300 "$OOC_RUN" pagerank --graph "$2" --tolerance 1e-7 -q --output "$3" \
    >"$RESULTS/timings/$1-pr-reference.log" 2>&1 && return 0
  note "$1: pagerank reference failed: timings/$1-pr-reference.log"
  return 1
}

timing_direction_graphs() {
  local d=$RESULTS/timings kind name file shape reference g
  for kind in $DIRECTION_GRAPHS; do
    case $kind in
      urand) shape=(--scale "$KRON_SCALE" --edge-factor 16) ;;
      grid) shape=(--rows "${DIRECTION_GRID%x*}" --cols "${DIRECTION_GRID#*x}") ;;
      *)
        note "direction-graphs: unknown graph '$kind' in DIRECTION_GRAPHS (urand, grid)"
        TIMING_FAILED+=("direction-$kind")
        continue ;;
    esac
    name=direction-$kind
    file=/tmp/ooc-$name.oocg
    reference=/tmp/ooc-$name-pagerank.tsv
    generate_graph "$name" "$file" "$kind" "${shape[@]}" --undirected --weights random:1-64 ||
      continue
    g=(--graph "$file")
    pr_reference "$name" "$file" "$reference" && g+=(--pagerank-reference "$reference")
    timing "$name-inmemory" 300 bfs,cc,pagerank,sssp "${g[@]}" --direction push,auto \
      --tolerance 1e-3 --repeat "$REPEAT"
    timing "$name-host" 300 bfs,cc,pagerank,sssp "${g[@]}" --in-memory off --direction push,auto \
      --tolerance 1e-3
    note "$kind:" "$(direction_table "$d/$name-"{inmemory,host}.json 2>&1)"
    rm -f "$file" "$reference"
  done
}

timing_mapping_graphs() {
  local d=$RESULTS/timings name=mapping-grid file=/tmp/ooc-mapping-grid.oocg
  local reference=/tmp/ooc-mapping-grid-pagerank.tsv g
  generate_graph "$name" "$file" grid --rows "${MAPPING_GRID%x*}" --cols "${MAPPING_GRID#*x}" \
    --undirected --weights random:1-64 || return
  g=(--graph "$file")
  pr_reference "$name" "$file" "$reference" && g+=(--pagerank-reference "$reference")
  timing "$name-inmemory" 300 bfs,sssp,cc,pagerank "${g[@]}" --load-balance "$MAPPINGS" --tolerance 1e-3
  timing "$name-host" 300 bfs,sssp,cc,pagerank "${g[@]}" --in-memory off --transfer hybrid \
    --load-balance "$MAPPINGS" --tolerance 1e-3
  rm -f "$file" "$reference"
}

timing_in_edges() {
  local d=$RESULTS/timings name=in-edges file=/tmp/ooc-in-edges.oocg
  local reference=/tmp/ooc-in-edges-pagerank.tsv g
  generate_graph "$name" "$file" kron --scale "$KRON_SCALE" --edge-factor 16 --weights random:1-64 \
    --in-edges || return
  note "$name: $(generate_time "$name")"
  bounded 60 "$PARTITION_TOOL" info "$file" >"$d/$name-info.log" 2>&1
  g=(--graph "$file")
  pr_reference "$name" "$file" "$reference" && g+=(--pagerank-reference "$reference")
  timing "$name-inmemory" 300 bfs,pagerank,sssp "${g[@]}" --direction push,pull,auto \
    --tolerance 1e-3 --repeat "$REPEAT"
  timing "$name-host" 300 bfs,pagerank "${g[@]}" --in-memory off --direction push,pull,auto \
    --tolerance 1e-3
  timing "$name-host-sssp" 200 sssp "${g[@]}" --in-memory off --direction push,auto
  note "directed kron-$KRON_SCALE with in-edges:" \
    "$(direction_table "$d/$name-"{inmemory,host,host-sssp}.json 2>&1)"
  rm -f "$file" "$reference"
}

stage_timings() {
  need "$OOC_RUN" "$PARTITION_TOOL" || return 1
  local d=$RESULTS/timings k=k$KRON_SCALE ts g=(--graph "$GRAPH") host=(--in-memory off)
  TIMING_FAILED=()
  local file_sets=0
  for ts in $TIMINGS; do
    [[ $ts != k22 && $ts != reorder && $ts != direction-graphs && $ts != in-edges && $ts != mapping-graphs ]] &&
      file_sets=1
  done
  if ((file_sets)); then
    if [[ $KEEP_GRAPH == 1 && -s $GRAPH ]]; then
      note "graph: reusing $GRAPH (KEEP_GRAPH=1)"
    else
      local t=$SECONDS timev=()
      [[ -x /usr/bin/time ]] && timev=(/usr/bin/time -v -o "$d/generate-time.log")
      local compress=()
      [[ $COMPRESS == 1 || " $TIMINGS " =~ \ (compressed|compressed-direction)\  ]] && compress=(--compress)
      if ! bounded 300 "${timev[@]}" "$PARTITION_TOOL" generate kron --scale "$KRON_SCALE" --edge-factor 16 \
        --undirected --weights random:1-64 "${compress[@]}" -o "$GRAPH" >"$d/generate.log" 2>&1; then
        STAGE_NOTE="generating kron-$KRON_SCALE failed: timings/generate.log"
        tail -n 5 "$d/generate.log" | sed 's/^/    /'
        rm -f "$GRAPH"
        return 1
      fi
      note "generate kron-$KRON_SCALE: $((SECONDS - t)) s, file $(stat -c %s "$GRAPH" 2>/dev/null) bytes;" \
        "  $(grep -hE 'Elapsed|Maximum resident' "$d/generate-time.log" 2>/dev/null | tr -s ' \t' ' ' | tr '\n' ';')"
    fi
    bounded 60 "$PARTITION_TOOL" info "$GRAPH" >"$d/info.txt" 2>&1
    # PageRank is judged at a measured accuracy: the L1 distance of every run's ranks to a run at
    # tolerance 1e-7 (edges in GPU memory when they fit), which ooc-run prints and --json keeps.
    if [[ " $TIMINGS " =~ \ (pr-mappings|priority|pagerank|pr-1e6|gpus|rounds|ranks|cache|slices|calibration|compressed|compressed-direction|direction|pull-blocks)\  ]]; then
      local t=$SECONDS
      if bounded 300 "$OOC_RUN" pagerank "${g[@]}" --tolerance 1e-7 -q --output "$PR_REFERENCE" \
        >"$d/pr-reference.log" 2>&1; then
        g+=(--pagerank-reference "$PR_REFERENCE")
        note "pagerank reference (tolerance 1e-7): $((SECONDS - t)) s"
      else
        note "pagerank reference failed: timings/pr-reference.log"
      fi
    fi
  fi
  local peak
  peak=$(timing_peak)
  note "pinned H2D peak: ${peak:-not measured} GB/s"
  for ts in $TIMINGS; do
    case $ts in
      policies) timing "$k-policies" 240 bfs,sssp,cc "${g[@]}" "${host[@]}" \
        --transfer hybrid,filter,compaction,zerocopy --repeat "$REPEAT" ;;
      unified) timing "$k-unified" 240 bfs,sssp,cc "${g[@]}" "${host[@]}" --transfer unified ;;
      mappings) timing "$k-mappings" 300 bfs,sssp,cc "${g[@]}" "${host[@]}" --transfer hybrid,zerocopy \
        --load-balance "$MAPPINGS" --repeat "$REPEAT" ;;
      pr-mappings) timing "$k-pr-mappings" 300 pagerank "${g[@]}" "${host[@]}" --transfer hybrid,filter \
        --load-balance "$MAPPINGS" --tolerance 1e-3 ;;
      inmemory) timing "$k-inmemory" 120 bfs,sssp,cc "${g[@]}" --load-balance "$MAPPINGS" --repeat 3 ;;
      priority) timing "$k-priority" 180 sssp,pagerank "${g[@]}" "${host[@]}" --transfer hybrid,filter \
        --priority on,off --tolerance 1e-3 ;;
      pagerank) timing "$k-pagerank" 300 pagerank "${g[@]}" "${host[@]}" --transfer "$PR_POLICIES" \
        --tolerance 1e-3 --repeat "$PR_REPEAT" ;;
      pr-1e6) timing "$k-pr-1e6" 150 pagerank "${g[@]}" "${host[@]}" --transfer hybrid --tolerance 1e-6 ;;
      partsize)
        local size
        for size in $PART_SIZES; do
          timing "$k-partsize-$size" 120 bfs "${g[@]}" "${host[@]}" --partition-bytes "$size" --repeat 2
        done
        bounded 60 "$OOC_RUN" bfs "${g[@]}" "${host[@]}" --partition-bytes 1KiB >"$d/$k-partsize-1KiB.log" 2>&1
        note "1KiB partitions: exit $?: $(tail -n 1 "$d/$k-partsize-1KiB.log")" ;;
      k22) timing k22 180 bfs,pagerank --generate kron:22 "${host[@]}" \
        --transfer hybrid,filter,compaction,zerocopy --repeat 3 --tolerance 1e-4 ;;
      gpus)
        local four=(bfs,sssp,cc,pagerank "${g[@]}" "${host[@]}" --tolerance 1e-3 --repeat "$REPEAT")
        timing "$k-1gpu" 240 "${four[@]}" --devices 0
        timing "$k-2gpus" 240 "${four[@]}" --devices 0,1 --exchange dense,sparse,auto
        timing_mpi "$k-2ranks" 240 "${four[@]}"
        timing "$k-1gpu-pr-off" 120 pagerank "${g[@]}" "${host[@]}" --tolerance 1e-3 --priority off --devices 0
        timing "$k-2gpus-pr-off" 120 pagerank "${g[@]}" "${host[@]}" --tolerance 1e-3 --priority off --devices 0,1
        # PageRank on 1 and 2 GPUs: the L1 distance between their normalised ranks.
        timing "$k-1gpu-pr-out" 120 pagerank "${g[@]}" "${host[@]}" --tolerance 1e-3 --devices 0 -q \
          --output "$d/pr-1gpu.tsv"
        timing "$k-2gpus-pr-out" 120 pagerank "${g[@]}" "${host[@]}" --tolerance 1e-3 --devices 0,1 -q \
          --output "$d/pr-2gpus.tsv"
        note "pagerank, tolerance 1e-3: L1 distance between the 1-GPU and 2-GPU ranks:" \
          "$(paste "$d/pr-1gpu.tsv" "$d/pr-2gpus.tsv" | awk '$1 != $3 { bad = 1 } { x = $2 - $4; s += x < 0 ? -x : x }
            END { if (bad) print "vertex order differs"; else printf "%.3g over %d vertices\n", s, NR }')"
        rm -f "$d/pr-1gpu.tsv" "$d/pr-2gpus.tsv"
        note "" "$(ranks_table "$d/$k-1gpu.json" "$d/$k-2gpus.json" "$d/$k-2ranks.json" \
          "$d/$k-1gpu-pr-off.json" "$d/$k-2gpus-pr-off.json" 2>&1)" ;;
      rounds)
        timing "$k-rounds" 300 bfs,sssp,cc,pagerank "${g[@]}" "${host[@]}" --tolerance 1e-3 \
          --repeat "$REPEAT" --devices 0,1 --exchange-rounds "$ROUNDS"
        timing_mpi "$k-rounds-2ranks" 240 bfs,sssp,cc,pagerank "${g[@]}" "${host[@]}" --tolerance 1e-3 \
          --repeat "$REPEAT"
        note "" "$(ranks_table "$d/$k-rounds.json" "$d/$k-rounds-2ranks.json" 2>&1)" ;;
      ranks)
        # Each rank's peak memory, from GNU time, into timings/$k-ranks.time.<rank>.
        RANK_WRAP=(sh -c '/usr/bin/time -v -o "$0.$OMPI_COMM_WORLD_RANK" "$@"' "$d/$k-ranks.time")
        timing_mpi "$k-ranks" 400 bfs,sssp,cc,pagerank "${g[@]}" "${host[@]}" --tolerance 1e-3
        RANK_WRAP=()
        note "$(grep -H 'Maximum resident' "$d/$k-ranks.time".* 2>&1)" \
          "$(grep -hE '^(rank [0-9]+/[0-9]+: )?(bfs|sssp|cc|pagerank) on' "$d/$k-ranks.log" | cut -c1-220)"
        note "" "$(ranks_table "$d/$k-ranks.json" 2>&1)" ;;
      calibration)
        timing "$k-calibration-off" 300 bfs,sssp,cc,pagerank "${g[@]}" "${host[@]}" --tolerance 1e-3 \
          --transfer hybrid,filter,compaction,zerocopy
        timing "$k-calibration-probe" 120 bfs,sssp,cc,pagerank "${g[@]}" "${host[@]}" --tolerance 1e-3 \
          --calibration probe
        note "$(grep -h '^calibration' "$d/$k-calibration-probe.log")"
        timing "$k-calibration-adapted" 120 bfs,sssp,cc,pagerank "${g[@]}" "${host[@]}" \
          --tolerance 1e-3 --calibration probe --adapt-costs on
        if [[ -s $RESULTS/pcie/pcie.json ]]; then
          timing "$k-calibration-pcie" 120 bfs,sssp,cc,pagerank "${g[@]}" "${host[@]}" --tolerance 1e-3 \
            --calibration "$RESULTS/pcie/pcie.json"
          note "$(grep -h '^calibration' "$d/$k-calibration-pcie.log")"
        fi
        # Priority off: every policy runs the same iterations, so hybrid's choices can be
        # compared with the fastest policy of each iteration.
        timing "$k-levels-off" 240 bfs,sssp,cc "${g[@]}" "${host[@]}" --priority off \
          --transfer hybrid,filter,compaction,zerocopy
        timing "$k-levels-adapted" 120 bfs,sssp,cc "${g[@]}" "${host[@]}" --priority off \
          --calibration probe --adapt-costs on
        note "" "$(python3 bench/policy_choices.py "$d/$k-calibration-"*.json 2>&1)" \
          "" "$(python3 bench/policy_choices.py --iterations bfs "$d/$k-levels-"*.json 2>&1)" ;;
      compressed)
        local raw_or_not
        for raw_or_not in off on; do
          timing "$k-compressed-$raw_or_not" 300 bfs,sssp,cc,pagerank "${g[@]}" "${host[@]}" \
            --tolerance 1e-3 --compressed "$raw_or_not"
        done
        for raw_or_not in off on; do
          timing "$k-compressed-single-$raw_or_not" 240 bfs,sssp,cc "${g[@]}" "${host[@]}" \
            --transfer filter,compaction,zerocopy --compressed "$raw_or_not"
        done
        note "kron-$KRON_SCALE: $(grep -h '^compressed' "$d/info.txt")" \
          "values, compressed against raw: $(python3 - "$d/$k-compressed"-{off,on,single-off,single-on}.json <<'EOF'
import json, sys
runs = {}
for path in sys.argv[1:]:
    try:
        for r in json.load(open(path))["runs"]:
            runs.setdefault((r["algorithm"], r["transfer"]), []).append(r.get("values_digest"))
    except OSError:
        pass
print("; ".join("%s %s %s" % (a, t, "same" if len(set(d)) == 1 and len(d) == 2 else "DIFFER %s" % d)
                for (a, t), d in sorted(runs.items()) if a != "pagerank"))
EOF
)"
        local kind other=/tmp/ooc-compressed-other.oocg
        for kind in $COMPRESSED_OTHERS; do
          local extra=()
          [[ $kind == urand ]] && extra=(--edge-factor 16)
          if bounded 200 "$PARTITION_TOOL" generate "$kind" --scale "$KRON_SCALE" "${extra[@]}" --undirected \
            --weights random:1-64 --compress -o "$other" >"$d/generate-$kind.log" 2>&1; then
            note "$kind-$KRON_SCALE: $(tail -n 1 "$d/generate-$kind.log")"
          else
            note "$kind-$KRON_SCALE --compress failed: timings/generate-$kind.log"
          fi
          rm -f "$other"
        done ;;
      bc)
        timing "$k-bc" 300 bc "${g[@]}" "${host[@]}" --sources "$BC_SOURCES"
        local source bfs_files=()
        for source in $(python3 -c 'import json, sys
print(*json.load(open(sys.argv[1]))["runs"][0]["sources"])' "$d/$k-bc.json" 2>/dev/null); do
          timing "$k-bc-bfs-$source" 120 bfs "${g[@]}" "${host[@]}" -s "$source"
          bfs_files+=("$d/$k-bc-bfs-$source.json")
        done
        note "$(grep -hE '^(bc sources|bc on|  bc )' "$d/$k-bc.log")" \
          "$(python3 - "$d/$k-bc.json" "${bfs_files[@]}" <<'EOF'
import json, sys
bc = json.load(open(sys.argv[1]))["runs"][0]
bfs = [json.load(open(p))["runs"][0]["seconds"] for p in sys.argv[2:]]
for phase in ("forward", "backward"):
    runs = bc["phases"][phase]
    print("bc %-8s %8.1f ms  %6.2f GB moved  (per source: %s ms)" % (
        phase, 1e3 * sum(r["seconds"] for r in runs), sum(r["total_bytes"] for r in runs) / 1e9,
        ", ".join("%.1f" % (1e3 * r["seconds"]) for r in runs)))
print("bfs from the same sources: %.1f ms (%s ms); bc %.1f ms = %.2f x (2 x bfs)" % (
    1e3 * sum(bfs), ", ".join("%.1f" % (1e3 * s) for s in bfs), 1e3 * bc["seconds"],
    bc["seconds"] / (2 * sum(bfs)) if bfs else float("nan")))
EOF
)" ;;
      direction)
        local dirs=(--direction push,pull,auto --tolerance 1e-3)
        timing "$k-direction-inmemory" 300 bfs,cc,pagerank,sssp "${g[@]}" "${dirs[@]}" --repeat "$REPEAT"
        timing "$k-direction-host" 300 bfs,cc,pagerank,sssp "${g[@]}" "${host[@]}" --tolerance 1e-3 \
          --direction push,auto
        timing "$k-direction-host-pull" 200 bfs,cc "${g[@]}" "${host[@]}" --direction pull
        note "$(direction_table "$d/$k-direction-"{inmemory,host,host-pull}.json 2>&1)" ;;
      pull-blocks)
        # GraphCage's cache blocking in GPU memory: push once, then pull and auto at each
        # --pull-blocks of $PULL_BLOCKS.
        timing "$k-pull-blocks-push" 200 bfs,cc,pagerank,sssp "${g[@]}" --direction push \
          --tolerance 1e-3 --repeat "$REPEAT"
        timing "$k-pull-blocks" 400 bfs,cc,pagerank,sssp "${g[@]}" --direction pull,auto \
          --pull-blocks "$PULL_BLOCKS" --tolerance 1e-3 --repeat "$REPEAT"
        note "$(direction_table "$d/$k-pull-blocks"{-push,}.json 2>&1)" ;;
      compressed-direction)
        timing "$k-compressed-direction" 300 bfs,cc,pagerank,sssp "${g[@]}" "${host[@]}" \
          --tolerance 1e-3 --compressed on --direction push,auto
        timing "$k-compressed-direction-raw" 120 bfs "${g[@]}" "${host[@]}" --compressed off \
          --direction push,auto
        note "$(direction_table "$d/$k-compressed-direction"{,-raw}.json 2>&1)" ;;
      direction-graphs) timing_direction_graphs ;;
      in-edges) timing_in_edges ;;
      mapping-graphs) timing_mapping_graphs ;;
      reorder) timing_reorder ;;
      cache)
        local algo share budget name tol names=(bfs sssp cc)
        cache_plan || continue
        for tol in $CACHE_PR_TOLERANCES; do names+=("pagerank_tol$tol"); done
        for name in "${names[@]}"; do
          algo=${name%%_tol*}
          tol=1e-3
          [[ $name == pagerank_tol* ]] && tol=${name#pagerank_tol}
          for share in $CACHE_SHARES; do
            budget=$(cache_budget "$algo" "$share") || budget=""
            if [[ -z $budget ]]; then
              note "cache: no plan for $algo (timings/$k-cacheplan.log)"
              TIMING_FAILED+=("$k-cache-$algo")
              break
            fi
            timing "$k-cache-$name-$share" 120 "$algo" "${g[@]}" --budget "$budget" --tolerance "$tol" \
              --repeat "$CACHE_REPEAT" ${CACHE_SLICES:+--resident-slices "$CACHE_SLICES"}
          done
        done
        note "" "$(cache_table "$d/$k-cache-"*.json 2>&1)" ;;
      slices)
        local budget tol
        cache_plan || continue
        budget=$(cache_budget pagerank 100) || budget=""
        for tol in $SLICES_TOLERANCES; do
          timing "$k-slices-memory-$tol" 150 pagerank "${g[@]}" --tolerance "$tol" \
            --resident-slices "$RESIDENT_SLICES" --repeat "$REPEAT"
          [[ -n $budget ]] && timing "$k-slices-cache-$tol" 150 pagerank "${g[@]}" --budget "$budget" \
            --tolerance "$tol" --resident-slices "$RESIDENT_SLICES" --repeat "$REPEAT"
        done ;;
    esac
  done
  [[ $KEEP_GRAPH == 1 ]] || rm -f "$GRAPH"
  rm -f "$PR_REFERENCE"
  local jsons=() j
  for ts in $TIMINGS; do
    [[ $ts == reorder ]] && continue  # its own table
    for j in "$d/$([[ $ts == k22 ]] && echo k22 || echo "$k-$ts")"{,-*}.json; do
      [[ -e $j ]] && jsons+=("$j")
    done
  done
  ((${#jsons[@]})) && note "" "$(timing_table "${peak:-}" "${jsons[@]}" 2>&1)"
  if ((${#TIMING_FAILED[@]})); then
    # A set cut by its timeout leaves no JSON; its log keeps the runs that finished.
    note "summary lines of the failed sets:" \
      "$(grep -hE '^(bfs|sssp|cc|pagerank) on' "$d"/*.log | sed -E 's/ edges processed, bytes:/ e,/' | cut -c1-200)"
    STAGE_NOTE="failed: ${TIMING_FAILED[*]}"
    return 1
  fi
  STAGE_NOTE="sets: $TIMINGS (graph kron-$KRON_SCALE, peak ${peak:-?} GB/s)"
  return 0
}

# ---- suite ------------------------------------------------------------------------------------
stage_suite() {
  need "$OOC_RUN" "$PARTITION_TOOL" "$PCIE_BENCH" || return 1
  local d=$RESULTS/suite args=(--bin "$B" --out "$RESULTS/suite" --gpus "$SUITE_GPUS")
  [[ $SUITE == quick ]] && args+=(--quick)
  local limit=$SUITE_SECONDS l
  l=$(($(left) - 40))
  ((l < limit)) && limit=$l
  if ! bounded $((limit + 30)) env PYTHONUNBUFFERED=1 python3 bench/suite.py "${args[@]}" --time-limit "$limit" \
    >"$d/suite.log" 2>&1; then
    STAGE_NOTE="$SUITE set failed: suite/suite.log"
    grep -E 'Error|error' "$d/suite.log" | tail -n 5 | sed 's/^/    /'
    note "$(tail -n 20 "$d/suite.log")"
    return 1
  fi
  STAGE_NOTE="$SUITE set, --time-limit $limit, $(grep -c '| skipped: ' "$d/suite.md" 2>/dev/null) runs skipped"
  note "$(sed -n '1,40p' "$d/suite.md" 2>/dev/null)"
  return 0
}

# ---- python -----------------------------------------------------------------------------------
stage_python() {
  local d=$RESULTS/python
  if [[ ! -d $B/python/oocgraph ]]; then
    STAGE_NOTE="the oocgraph module was not built (build/configure.log says why)"
    grep -i 'oocgraph\|pybind11\|python3' "$RESULTS/build/configure.log" | head -5 | sed 's/^/    /'
    return 1
  fi
  bounded 300 ctest --preset device -L python --verbose >"$d/tests.log" 2>&1
  local rc=$?
  note "python tests: rc=$rc $(grep -E 'tests passed' "$d/tests.log")" \
    "$(grep -E '^[0-9]+: .*(passed|failed|skipped|SKIPPED)' "$d/tests.log")"
  if ! bounded 300 env PYTHONUNBUFFERED=1 python3 bench/python_overhead.py --bin "$B" --scale "$PY_SCALE" \
    --backend cuda --json "$d/overhead.json" >"$d/overhead.txt" 2>&1; then
    STAGE_NOTE="python_overhead.py failed: python/overhead.txt"
    tail -n 10 "$d/overhead.txt" | sed 's/^/    /'
    return 1
  fi
  note "$(cat "$d/overhead.txt")"
  STAGE_NOTE="ctest -L python rc=$rc; overhead at kron-$PY_SCALE in python/overhead.txt"
  return $rc
}

# ---- microbench -------------------------------------------------------------------------------
stage_microbench() {
  need "$OOC_BENCH" || return 1
  local d=$RESULTS/microbench
  if ! bounded 300 env OOC_BENCH_SCALE="$BENCH_SCALE" "$OOC_BENCH" "--benchmark_filter=$BENCH_FILTER" \
    --benchmark_min_time=0.1 "--benchmark_out=$d/ooc-bench.json" --benchmark_out_format=json \
    >"$d/ooc-bench.txt" 2>&1; then
    STAGE_NOTE="ooc-bench failed: microbench/ooc-bench.txt"
    return 1
  fi
  STAGE_NOTE="OOC_BENCH_SCALE=$BENCH_SCALE, $(grep -cE '^BM_' "$d/ooc-bench.txt") benchmarks"
  note "$(grep -E '^BM_' "$d/ooc-bench.txt" | cut -c1-120)"
  return 0
}

# ---- main -------------------------------------------------------------------------------------
gpu=$(nvidia-smi --query-gpu=name,memory.total,pcie.link.gen.current,pcie.link.width.current,driver_version \
  --format=csv,noheader 2>/dev/null | head -8)
commit=$(git rev-parse --short HEAD 2>/dev/null || echo "no git")
{
  echo "run.sh ${stages[*]} on $(hostname), $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "commit: $commit$(git status --porcelain 2>/dev/null | grep -q . && echo ' (with uncommitted changes)')"
  echo "GPU: ${gpu:-none found (nvidia-smi)}"
  echo "cores: $(nproc)"
} | tee "$SUMMARY"

failed=()
table=()
for s in "${stages[@]}"; do
  mkdir -p "$RESULTS/$s"
  note "" "## $s"
  t=$SECONDS
  STAGE_NOTE=""
  if (($(left) < 20)); then
    status=SKIPPED
    STAGE_NOTE="no time left (BUDGET_S=$BUDGET_S)"
    failed+=("$s")
  elif "stage_$s"; then
    status=ok
  else
    status=FAILED
    failed+=("$s")
  fi
  line=$(printf '%-11s %-7s %4d s  %s' "$s" "$status" $((SECONDS - t)) "$STAGE_NOTE")
  echo "$line"
  table+=("$line")
  note "$line"
  pack
done

if [[ -x $OOC_RUN ]]; then note "" "$("$OOC_RUN" --version 2>&1 | head -3)"; fi
note "" "total: $((SECONDS - T0)) s; results: $RESULTS, packed into $OUT/results.tar.gz"
pack
echo
cat "$SUMMARY"
echo
printf '%s\n' "${table[@]}"
if ((${#failed[@]})); then
  echo "FAILED: ${failed[*]} ($((SECONDS - T0)) s)"
  exit 1
fi
echo "all ${#stages[@]} stages ok ($((SECONDS - T0)) s)"
