# The stages of scripts/device/run.sh, sourced by it: stage_NAME runs stage NAME's commands into
# $RESULTS/NAME, sets STAGE_NOTE (its line in the table) and returns non-zero when it failed.
# shellcheck shell=bash
# shellcheck disable=SC2154,SC2034  # B, RESULTS, SUMMARY and the variables come from run.sh; STAGE_NOTE goes back to it
readonly PARTITION_TOOL=$B/tools/partition-tool/partition-tool
readonly OOC_BENCH=$B/bench/ooc-bench

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
  for name in engine_gpu_test user_programs_gpu_test distributed_gpu_test gpu_smoke_test \
    exchange_gpu_test; do
    need "$B/tests/$name" || return 1
    shards=1
    [[ $name == engine_gpu_test ]] && shards=$GPU_SHARDS
    [[ $name == user_programs_gpu_test ]] && shards=2
    # Its one-rank shapes take 2 minutes each on one H200: one process ran past 460 s. On two
    # H200s, 8 shards at once (2026-11-29), its shape cases took 60-350 s each (chain the
    # longest), 4,435 s for the 39 cases that finished: the whole binary needs more than one
    # call's 540 s. Split it over calls with GPU_FILTER ('*CudaRanks.*', then '-*CudaRanks.*').
    [[ $name == distributed_gpu_test ]] && shards=4
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
  # 77: every test of the shard skipped (tests/common/test_main.cpp), as 2-GPU cases on one GPU.
  for i in "${rcs[@]}"; do ((i && i != 77)) && rc_gpu=1; done
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
# The sets of timings.json, by bench/device_timings.py (which writes the stage's note to a file).
stage_timings() {
  need "$OOC_RUN" "$PARTITION_TOOL" || return 1
  local note_file=$RESULTS/timings/stage-note.txt rc
  # shellcheck disable=SC2086  # TIMINGS is a list of set names
  STAGE_NOTE_FILE=$note_file python3 bench/device_timings.py run $TIMINGS
  rc=$?
  STAGE_NOTE=$(cat "$note_file" 2>/dev/null)
  rm -f "$note_file"
  return $rc
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
