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
# This file sets up and runs the stages of stages.sh; the help is run.help, the timing sets are
# timings.json (run by bench/device_timings.py), the tables are bench/device_report.py.
set -uo pipefail

readonly ORDER=(build tests sanitizers pcie timings suite python microbench)
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
DEFAULT_TIMINGS=$(python3 bench/device_timings.py default) || exit 1

usage() {
  sed "s/@DEFAULT_TIMINGS@/$DEFAULT_TIMINGS/" scripts/device/run.help |
    while IFS= read -r line; do
      if [[ $line == @SETS@ ]]; then python3 bench/device_timings.py help; else printf '%s\n' "$line"; fi
    done
}

# ---- arguments --------------------------------------------------------------------------------
want=()
for a in "$@"; do
  case $a in
    -h | --help) usage; exit 0 ;;
    *)
      [[ " ${ORDER[*]} " == *" $a "* ]] || { echo "run.sh: unknown stage '$a' (see --help)" >&2; exit 64; }
      want+=("$a") ;;
  esac
done
if ((${#want[@]} == 0)); then usage >&2; exit 64; fi
stages=()
for s in "${ORDER[@]}"; do [[ " ${want[*]} " == *" $s "* ]] && stages+=("$s"); done

# Every variable, with its default (run.help says what each does); exported for device_timings.py.
: "${OUT:=/tmp/ooc-out}" "${RESULTS:=/tmp/ooc-results}" "${BUDGET_S:=570}" "${JOBS:=16}"
: "${BUILD_TARGETS:=}" "${GPU_FILTER:=*}" "${GPU_SHARDS:=8}" "${UNIT_TESTS:=}"
: "${SAN_POLICIES:=hybrid filter compaction zerocopy unified}" "${SAN_MAPPINGS:=tiled,warp}" "${SAN_TESTS:=}"
: "${MAPPINGS:=tiled,warp,ordered,decompose,hierarchical}" "${MAPPING_GRID:=2048x2048}"
: "${PULL_BLOCKS:=1,auto,4,16}" "${PCIE:=full}" "${TIMINGS:=$DEFAULT_TIMINGS}" "${KRON_SCALE:=26}"
: "${GRAPH:=/tmp/kron${KRON_SCALE}w.oocg}" "${KEEP_GRAPH:=0}" "${COMPRESS:=0}" "${REPEAT:=2}"
: "${PR_POLICIES:=hybrid,filter,compaction,zerocopy,unified}" "${PR_REPEAT:=1}"
: "${PART_SIZES:=32MiB 4MiB 1MiB 256KiB}" "${CACHE_SHARES:=0 25 50 75}" "${CACHE_OF:=stored}"
: "${RESIDENT_SLICES:=1,4}" "${SLICES_TOLERANCES:=1e-3 1e-2}" "${CACHE_REPEAT:=1}" "${CACHE_SLICES:=}"
: "${CACHE_PR_TOLERANCES:=1e-3}" "${SUITE:=quick}" "${SUITE_SECONDS:=530}" "${SUITE_GPUS:=1}"
: "${ROUNDS:=1,2,4,8}" "${SCALING_BUDGET:=6GiB}" "${COMPRESSED_OTHERS=urand grid}" "${BC_SOURCES:=4}"
: "${DIRECTION_GRAPHS:=urand grid}" "${DIRECTION_GRID:=4096x4096}" "${REORDER_GRAPHS:=kron urand grid}"
: "${REORDER_SCALE:=26}" "${REORDER_GRID:=8192x8192}" "${REORDER_ROUNDS:=}" "${REORDER_LOCALITY:=1}"
: "${HD_GRID:=4096x4096}" "${ROAD_VERTICES:=24000000}"
: "${BENCH_SCALE:=24}" "${PY_SCALE:=22}" "${DRY_RUN:=0}"
: "${BENCH_FILTER:=Generate|BuildCsr|HubSort|SageReorder|Oocg|Compaction|ParseText}"
export OUT RESULTS BUDGET_S KRON_SCALE GRAPH KEEP_GRAPH COMPRESS REPEAT MAPPINGS MAPPING_GRID PULL_BLOCKS \
  PR_POLICIES PR_REPEAT PART_SIZES CACHE_SHARES CACHE_OF RESIDENT_SLICES SLICES_TOLERANCES CACHE_REPEAT \
  CACHE_SLICES CACHE_PR_TOLERANCES ROUNDS SCALING_BUDGET COMPRESSED_OTHERS BC_SOURCES DIRECTION_GRAPHS \
  DIRECTION_GRID REORDER_GRAPHS REORDER_SCALE REORDER_GRID REORDER_ROUNDS REORDER_LOCALITY HD_GRID \
  ROAD_VERTICES DRY_RUN

# shellcheck disable=SC2086  # TIMINGS is a list of set names
python3 bench/device_timings.py check $TIMINGS || exit 64
case $PCIE in full | quick | peak) ;; *) echo "run.sh: PCIE must be full, quick or peak" >&2; exit 64 ;; esac
case $SUITE in quick | full) ;; *) echo "run.sh: SUITE must be quick or full" >&2; exit 64 ;; esac

# oneTBB and the other carried packages, the CUDA toolkit on the PATH, NCCL_NVLS_ENABLE=0.
if ! ls .device/debs/*.deb >/dev/null 2>&1; then
  echo "run.sh: no .device/debs (run scripts/device/stage.sh here, carry .device); going on without" >&2
fi
# DRY_RUN runs nothing that needs them (and leaves /opt/devdeps alone).
# shellcheck source=scripts/device/env.sh
[[ $DRY_RUN == 1 ]] || source scripts/device/env.sh

export B=build/device
readonly OOC_RUN=$B/tools/ooc-run/ooc-run
readonly PCIE_BENCH=$B/tools/pcie-bench/pcie-bench
readonly GPU_TEST=$B/tests/engine_gpu_test

T0=$SECONDS
RUN_T0=$(date +%s)
export RUN_T0
rm -rf "$RESULTS" && mkdir -p "$RESULTS" "$OUT" || exit 1
export SUMMARY=$RESULTS/summary.txt
exec 3>&1  # DRY_RUN's "+ COMMAND" lines, past the logs that a stage's output goes to

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
    echo "+ $*" >&3
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
  local line failed=0 total
  line=$(grep -E 'tests passed(, [0-9]+ tests? failed)? out of [0-9]+' "$1" | tail -1)
  if [[ -z $line ]]; then
    grep -qE 'No tests were found' "$1" && echo "no tests found" || echo "no summary"
    return
  fi
  total=$(sed -E 's/.* out of ([0-9]+).*/\1/' <<<"$line")
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

# shellcheck source=scripts/device/stages.sh
source scripts/device/stages.sh

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
