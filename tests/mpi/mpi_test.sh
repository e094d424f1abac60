#!/usr/bin/env bash
# ooc-run as ranks under mpirun, CPU backend (what CI can run without a GPU):
#   same-values   2 ranks give the values of 1 rank: bfs, sssp and cc digests equal, pagerank and
#                 all of them verified against the serial reference, from a file and generated;
#                 --trace has every run's rows for rank 0 and rank 1, in the same iterations;
#                 their exchange time is not split (no NCCL, no wait: GPU ranks' figures)
#   compressed-pull  2 ranks reading compressed lists (symmetric) and compressed lists with in-edges
#                 (directed), from files with and without the raw lists (--compress-only), pushing,
#                 pulling and choosing, give the values of 1 rank and the serial reference's; they
#                 read compressed lists and pull, and --json gives each rank's pinned host bytes
#   batches       2 ranks run bc and closeness from 40 sampled sources in batches of 16, and bfs
#                 from three sources at once, on raw and compressed lists: verified against the
#                 serial references, and bfs's columns equal to one rank's
#   kcore         2 ranks peel kron-11's cores and count its triangles on raw and compressed lists:
#                 verified against the serial references, and equal to one rank's
#   host-tier     2 ranks on this host split --host-memory: each tiers its own partitions against
#                 half of it (--json's ranks give the shares), reads the rest from the file, and
#                 gives one rank's values with every list in memory, verified
#   missing-graph a rank whose graph is missing on its host stops every rank within seconds, with
#                 one line naming the rank and the cause
#   killed-rank   a rank killed mid-run (SIGKILL) stops the job within seconds, never a hang
#   unwritable-output  an --output in a missing folder stops every rank within seconds, before the
#                 graph is made, with one line from the first rank (which writes the files)
#   bad-devices   a rank given a GPU it cannot have stops the job within seconds, with one line
#                 naming the rank and the cause: on GPUs (--devices 0,N) rank 1's GPU N does not
#                 exist; with no GPU visible (the CPU backend's case, as on a machine without
#                 GPUs) --devices 7 lists one GPU for two ranks, and rank 1 has none
# usage: [BACKEND=cuda] mpi_test.sh CASE OOC_RUN PARTITION_TOOL MPIEXEC
#   (BACKEND=cuda runs missing-graph, killed-rank and bad-devices on GPUs, a rank each: the GPU
#   machine)
set -euo pipefail
case_name=$1 ooc_run=$2 partition_tool=$3 mpiexec=$4
backend=${BACKEND:-cpu}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Each case's mpirun keeps its session files in its own folder: in one shared /tmp/ompi.HOST.UID,
# two cases run at once (ctest -j) raced, one removing the folder as the other made its own in it
# ("A call to mkdir was unable to create the desired directory", CI 2026-12-05).
export OMPI_MCA_orte_tmpdir_base=$tmp
mpirun=("$mpiexec" --oversubscribe -np 2)
[ "$(id -u)" -ne 0 ] || mpirun+=(--allow-run-as-root)
fail() { echo "FAIL: $*" >&2; exit 1; }

case $case_name in
  same-values)
    "$partition_tool" generate kron --scale 12 --edge-factor 8 --undirected --weights random:1-64 \
      -o "$tmp/g.oocg" -q
    common=(bfs,sssp,cc,pagerank --backend cpu --threads 1 --partition-bytes 8KiB --tolerance 1e-6
            --transfer hybrid,filter --verify -q)
    "$ooc_run" "${common[@]}" --graph "$tmp/g.oocg" --json "$tmp/one.json" >"$tmp/one.log"
    "${mpirun[@]}" "$ooc_run" "${common[@]}" --graph "$tmp/g.oocg" --json "$tmp/two.json" \
      --trace "$tmp/two.csv" >"$tmp/two.log" || fail "2 ranks: $(cat "$tmp/two.log")"
    "${mpirun[@]}" "$ooc_run" "${common[@]}" --generate kron:12:8 --json "$tmp/gen.json" \
      >"$tmp/gen.log" || fail "2 ranks, generated: $(cat "$tmp/gen.log")"
    for log in two gen; do
      [ "$(grep -c 'ok, matches the serial reference' "$tmp/$log.log")" -eq 8 ] ||
        fail "$log: not every run verified: $(cat "$tmp/$log.log")"
    done
    python3 - "$tmp/one.json" "$tmp/two.json" "$tmp/two.csv" <<'PY'
import csv, json, sys
one, two = (json.load(open(p)) for p in sys.argv[1:3])
# The trace: per run, rank 0's and rank 1's rows, in the same iterations, as many as --json says.
timelines = {}
for row in csv.DictReader(open(sys.argv[3])):
    timelines.setdefault(int(row["run"]), {}).setdefault(int(row["rank"]), []).append(int(row["iteration"]))
    assert float(row["wait_seconds"]) == 0, row
assert sorted(timelines) == list(range(len(two["runs"]))), sorted(timelines)
for run, ranks in timelines.items():
    assert sorted(ranks) == [0, 1], (run, sorted(ranks))
    assert ranks[0] == ranks[1] == list(range(two["runs"][run]["iterations"])), (run, ranks)
assert two["ranks"] == 2 and one["ranks"] == 1, (one["ranks"], two["ranks"])
for a, b in zip(one["runs"], two["runs"]):
    if a["algorithm"] != "pagerank":
        assert a["values_digest"] == b["values_digest"], (a["algorithm"], a["transfer"])
    assert [r["rank"] for r in b["ranks"]] == [0, 1]
    assert all(r["exchange_bytes"] > 0 for r in b["ranks"]), b["ranks"]
    # The CPU's ranks do not split their exchange time into NCCL and waiting (GPU ranks do).
    assert all(r["nccl_seconds"] == r["wait_seconds"] == 0 for r in b["ranks"]), b["ranks"]
    # Each rank moves part of the edges: neither moves what one rank alone moves (one rank's cc
    # is Afforest, which moves fewer; ranks propagate labels).
    if a["transfer"] == "filter" and a["method"] == b["method"]:
        assert all(0 < r["total_bytes"] < a["total_bytes"] for r in b["ranks"]), b["ranks"]
print("same values on 1 and 2 ranks:", len(one["runs"]), "runs")
PY
    ;;
  compressed-pull)
    "$partition_tool" generate kron --scale 12 --edge-factor 8 --undirected --weights random:1-64 \
      --compress -o "$tmp/sym.oocg" -q
    "$partition_tool" generate kron --scale 12 --edge-factor 8 --weights random:1-64 --compress \
      --in-edges -o "$tmp/dir.oocg" -q
    "$partition_tool" generate kron --scale 12 --edge-factor 8 --undirected --weights random:1-64 \
      --compress-only -o "$tmp/sym-only.oocg" -q
    "$partition_tool" generate kron --scale 12 --edge-factor 8 --weights random:1-64 \
      --compress-only --in-edges -o "$tmp/dir-only.oocg" -q
    for graph in sym dir sym-only dir-only; do
      algorithms=bfs,sssp,cc,pagerank
      [[ $graph = dir* ]] && algorithms=bfs,sssp,pagerank
      common=("$algorithms" --backend cpu --threads 1 --partition-bytes 8KiB --tolerance 1e-6
              --direction push,pull,auto --compressed on --verify -q --graph "$tmp/$graph.oocg")
      "$ooc_run" "${common[@]}" --json "$tmp/$graph-one.json" >"$tmp/$graph-one.log"
      "${mpirun[@]}" "$ooc_run" "${common[@]}" --json "$tmp/$graph-two.json" >"$tmp/$graph-two.log" ||
        fail "$graph, 2 ranks: $(cat "$tmp/$graph-two.log")"
      runs=$(( $(tr ',' '\n' <<<"$algorithms" | wc -l) * 3 ))
      [ "$(grep -c 'ok, matches the serial reference' "$tmp/$graph-two.log")" -eq "$runs" ] ||
        fail "$graph: not every run verified: $(cat "$tmp/$graph-two.log")"
      python3 - "$tmp/$graph-one.json" "$tmp/$graph-two.json" <<'PY'
import json, sys
one, two = (json.load(open(p)) for p in sys.argv[1:])
assert two["ranks"] == 2, two["ranks"]
for a, b in zip(one["runs"], two["runs"]):
    name = (a["algorithm"], a["direction"])
    if a["algorithm"] != "pagerank":
        assert a["values_digest"] == b["values_digest"], name
    assert b["compressed"], name
    assert [r["host_pinned_bytes"] for r in b["ranks"]] == [0, 0], name  # the CPU pins nothing
    if a["direction"] == "pull" and a["method"] != "afforest":  # Afforest does not pull
        assert b["pull_iterations"] > 0, name
        assert a["pull_iterations"] > 0, name
print(sys.argv[1], "same values on 1 and 2 ranks, compressed, pulling:", len(one["runs"]), "runs")
PY
    done
    ;;
  batches)
    "$partition_tool" generate kron --scale 11 --edge-factor 8 --undirected --compress \
      -o "$tmp/g.oocg" -q
    for compressed in off on; do
      common=(--backend cpu --threads 1 --partition-bytes 4KiB --compressed "$compressed"
              --graph "$tmp/g.oocg" -q)
      "${mpirun[@]}" "$ooc_run" bc,closeness "${common[@]}" --sources 40 --batch 16 --verify \
        --json "$tmp/two.json" >"$tmp/two.log" || fail "2 ranks: $(cat "$tmp/two.log")"
      [ "$(grep -c 'ok, matches the serial reference' "$tmp/two.log")" -eq 2 ] ||
        fail "compressed $compressed: not every run verified: $(cat "$tmp/two.log")"
      "$ooc_run" bfs "${common[@]}" --sources 3,17,400 --output "$tmp/one.tsv" >/dev/null
      "${mpirun[@]}" "$ooc_run" bfs "${common[@]}" --sources 3,17,400 --output "$tmp/two.tsv" \
        >"$tmp/bfs.log" || fail "2 ranks, bfs: $(cat "$tmp/bfs.log")"
      cmp -s "$tmp/one.tsv" "$tmp/two.tsv" || fail "compressed $compressed: bfs columns differ"
      python3 - "$tmp/two.json" <<'PY'
import json, sys
two = json.load(open(sys.argv[1]))
assert two["ranks"] == 2, two["ranks"]
for run in two["runs"]:
    assert run["batch"] == 16, (run["algorithm"], run["batch"])
    assert all(r["exchange_bytes"] > 0 for r in run["ranks"]), run["ranks"]
print("bc and closeness on 2 ranks:", [r["algorithm"] for r in two["runs"]])
PY
    done
    ;;
  kcore)
    "$partition_tool" generate kron --scale 11 --edge-factor 8 --undirected -o "$tmp/g.oocg" -q
    for compressed in off on; do
      common=(kcore --backend cpu --threads 1 --partition-bytes 4KiB --compressed "$compressed"
              --graph "$tmp/g.oocg" -q)
      "$ooc_run" "${common[@]}" --output "$tmp/one.tsv" >/dev/null
      "${mpirun[@]}" "$ooc_run" "${common[@]}" --verify --output "$tmp/two.tsv" \
        >"$tmp/two.log" || fail "2 ranks: $(cat "$tmp/two.log")"
      grep -q 'ok, matches the serial reference' "$tmp/two.log" ||
        fail "compressed $compressed: not verified: $(cat "$tmp/two.log")"
      cmp -s "$tmp/one.tsv" "$tmp/two.tsv" || fail "compressed $compressed: core numbers differ"
      tc=(tc "${common[@]:1}")
      "$ooc_run" "${tc[@]}" --output "$tmp/one-tc.tsv" >/dev/null
      "${mpirun[@]}" "$ooc_run" "${tc[@]}" --verify --output "$tmp/two-tc.tsv" \
        >"$tmp/two-tc.log" || fail "tc, 2 ranks: $(cat "$tmp/two-tc.log")"
      grep -q 'ok, matches the serial reference' "$tmp/two-tc.log" ||
        fail "tc, compressed $compressed: not verified: $(cat "$tmp/two-tc.log")"
      cmp -s "$tmp/one-tc.tsv" "$tmp/two-tc.tsv" || fail "compressed $compressed: triangles differ"
    done
    ;;
  host-tier)
    "$partition_tool" generate kron --scale 12 --edge-factor 8 --undirected --weights random:1-64 \
      -o "$tmp/g.oocg" -q
    common=(bfs,sssp,cc,pagerank --backend cpu --threads 1 --partition-bytes 8KiB --tolerance 1e-6
            --verify -q --graph "$tmp/g.oocg")
    "$ooc_run" "${common[@]}" --json "$tmp/one.json" >"$tmp/one.log"
    "${mpirun[@]}" "$ooc_run" "${common[@]}" --host-memory 128KiB --json "$tmp/two.json" \
      >"$tmp/two.log" || fail "2 ranks: $(cat "$tmp/two.log")"
    [ "$(grep -c 'ok, matches the serial reference' "$tmp/two.log")" -eq 4 ] ||
      fail "not every run verified: $(cat "$tmp/two.log")"
    python3 - "$tmp/one.json" "$tmp/two.json" <<'PY'
import json, sys
one, two = (json.load(open(p)) for p in sys.argv[1:])
assert two["ranks"] == 2, two["ranks"]
for a, b in zip(one["runs"], two["runs"]):
    name = a["algorithm"]
    if name != "pagerank":
        assert a["values_digest"] == b["values_digest"], name
    assert a["host_tier"]["host_memory"] == 0, name  # one rank: every list in memory
    for r in b["ranks"]:
        # Both ranks run on this host, so each has half of the 128 KiB, keeps what fits in it and
        # reads the rest of its partitions from the file.
        assert r["host_memory"] == 65536, (name, r)
        assert r["host_resident_bytes"] <= 65536, (name, r)
        assert r["storage_bytes"] > 0, (name, r)
print("2 ranks on one host split --host-memory:", len(two["runs"]), "runs")
PY
    ;;
  missing-graph)
    "$partition_tool" generate grid --rows 64 --cols 64 -o "$tmp/g0.oocg" -q
    start=$SECONDS
    # Only rank 0's host has the file.
    if timeout 60 "${mpirun[@]}" sh -c 'exec "$1" bfs --backend "$3" --threads 1 --graph "$2/g$OMPI_COMM_WORLD_RANK.oocg"' \
      sh "$ooc_run" "$tmp" "$backend" >"$tmp/out.log" 2>"$tmp/err.log"; then
      fail "the job succeeded without rank 1's graph"
    fi
    took=$((SECONDS - start))
    ((took < 30)) || fail "took $took s to stop"
    grep -qx "ooc-run: rank 1 of 2: cannot open '$tmp/g1.oocg': No such file or directory" "$tmp/err.log" ||
      fail "no line naming rank 1 and the file: $(cat "$tmp/err.log")"
    echo "stopped in $took s: $(grep '^ooc-run: rank' "$tmp/err.log")"
    ;;
  unwritable-output)
    start=$SECONDS
    if timeout 60 "${mpirun[@]}" "$ooc_run" bfs --generate kron:20 --backend "$backend" --threads 1 \
      --output "$tmp/missing/x.tsv" >"$tmp/out.log" 2>"$tmp/err.log"; then
      fail "the job succeeded with an output in a missing folder"
    fi
    took=$((SECONDS - start))
    ((took < 30)) || fail "took $took s to stop"
    grep -qx "ooc-run: rank 0 of 2: --output: cannot write '$tmp/missing/x.tsv': No such file or directory" \
      "$tmp/err.log" || fail "no line naming rank 0 and the file: $(cat "$tmp/err.log")"
    ! grep -q '^graph: ' "$tmp/out.log" || fail "the graph was made: $(cat "$tmp/out.log")"
    echo "stopped in $took s: $(grep '^ooc-run: rank' "$tmp/err.log")"
    ;;
  killed-rank)
    # About 0.75 s a run, 1000 runs: rank 1 dies long before the job could end by itself.
    "${mpirun[@]}" "$ooc_run" pagerank --generate kron:16 --partition-bytes 64KiB --backend "$backend" \
      --threads 1 --repeat 1000 -q \
      >"$tmp/out.log" 2>"$tmp/err.log" &
    job=$!
    victim=""
    for _ in $(seq 100); do  # find rank 1's process once it runs
      for pid in $(pgrep -f "$ooc_run pagerank --generate kron:16" || true); do
        if tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qx 'OMPI_COMM_WORLD_RANK=1'; then
          victim=$pid
        fi
      done
      [ -n "$victim" ] && break
      sleep 0.1
    done
    [ -n "$victim" ] || { kill "$job"; fail "rank 1 never started"; }
    sleep 2  # mid-run: both ranks are iterating
    kill -9 "$victim"
    start=$SECONDS
    for _ in $(seq 300); do kill -0 "$job" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$job" 2>/dev/null; then kill -9 "$job"; fail "the job still ran 30 s after rank 1 died"; fi
    status=0
    wait "$job" || status=$?
    ((status != 0)) || fail "the job exited 0 after a rank was killed"
    echo "stopped $((SECONDS - start)) s after rank 1 was killed, exit $status:" \
      "$(grep -m1 -i 'rank 1' "$tmp/err.log" || true)"
    ;;
  bad-devices)
    if [ "$backend" = cuda ]; then
      gpus=$(nvidia-smi -L | grep -c '^GPU')
      missing=$((gpus + 7))
      run=("${mpirun[@]}" "$ooc_run" bfs --generate grid:16x16 --threads 1 --backend cuda
           --devices "0,$missing")
      expected="ooc-run: rank 1 of 2: GPU $missing does not exist (this machine has $gpus)"
    else
      # No GPU visible, whatever the machine has: the backend is the CPU's.
      run=(env CUDA_VISIBLE_DEVICES= "${mpirun[@]}" "$ooc_run" bfs --generate grid:16x16 --threads 1
           --devices 7)
      expected="ooc-run: rank 1 of 2: this is rank 2 on its host, which has 1 GPU(s) for ranks:"
      expected+=" start at most one rank per GPU on each host, or run --backend cpu"
    fi
    start=$SECONDS
    if timeout 60 "${run[@]}" >"$tmp/out.log" 2>"$tmp/err.log"; then
      fail "the job succeeded with a GPU that rank 1 cannot have"
    fi
    took=$((SECONDS - start))
    ((took < 30)) || fail "took $took s to stop"
    grep -qxF "$expected" "$tmp/err.log" || fail "no line '$expected': $(cat "$tmp/err.log")"
    lines=$(grep -c '^ooc-run: rank' "$tmp/err.log")
    ((lines == 1)) || fail "$lines lines name a rank: $(cat "$tmp/err.log")"
    echo "stopped in $took s: $expected"
    ;;
  *) fail "unknown case $case_name" ;;
esac
