#!/usr/bin/env python3
"""OocGraph's end-to-end benchmark: one command on the GPU machine.

Measures the link (pcie-bench), generates the graphs, runs every algorithm under every
transfer policy with the edges kept in host memory, checks the results, and writes
  suite.json   every figure
  suite.md     a table: time, iterations, bytes moved, GB/s, share of the measured peak,
               ratio to the lower bound where one is defined
  *.png        time per policy per algorithm, and the per-iteration execution path (which
               engine moved how many bytes in each iteration, as HyTGraph's Fig. 7)
Per graph, ooc-run runs bfs, sssp and cc under every policy on one load and pagerank under
every policy on a second; then hybrid with priority off (sssp, pagerank), hybrid with each other
load-balancing mapping (warp, ordered, decompose, hierarchical) instead of the tiled one, and bfs
with the graph in GPU memory; on a GPU, hybrid with half of the edge bytes each algorithm reads
in the edge cache, hybrid with the cost model calibrated by a probe of the link, and with the
probe's constants then following the run's timings (listed as the policies "hybrid, cache 50%",
"hybrid, calibrated" and "hybrid, adapted"), cc and pagerank in GPU memory with their resident
partitions in 4 slices (the default) and in one task ("in memory", "in memory, 1 resident
slice"), and cc and pagerank pulling in GPU memory, gathering all at once and in cache blocks
sized to the L2 ("pull in memory", "pull in memory, cache blocks"); and hybrid with --direction
auto (every algorithm out of core, bfs in GPU memory: the policy "hybrid, direction auto"). The
graph is deleted after. PageRank runs first once at tolerance 1e-7; every PageRank run then
reports the L1 distance of its ranks to that one (ooc-run --pagerank-reference), beside its
time. Results are checked two ways: every run of bfs, sssp
and cc must give the same values (a digest), and the grid is verified against the serial
references.

Then a directed Kronecker graph (scale 24, quick 22), generated with its in-edges (--in-edges):
bfs, sssp and pagerank pushing, pulling over the in-lists and choosing per iteration, out of core
(hybrid) and in GPU memory (the policies "hybrid", "hybrid, pull" and "hybrid, direction auto";
cc needs a symmetric graph). Its bfs and sssp values must agree across the three.

Last, the high-diameter graphs (thousands of levels of a few thousand edges each, issue 60): a
4096x4096 grid and a road-like graph of 24 M vertices (partition-tool generate road, its own
Euclidean weights kept; quick: the road-like graph alone, of 1 M vertices). Only bfs and sssp run
on them, from ooc-run's default source, in one ooc-run with --frontier-loop off,65536 (every level
from the host, then the frontier loop), out of core (hybrid) and again in GPU memory; the grids
above run the same two after their other runs. These runs show as the policies "hybrid, host loop"
and "hybrid, frontier loop", and suite.md sets them side by side ("High-diameter graphs": both
times, the speed-up, the iterations the loop ran, the edges processed over the graph's); their
values must agree as every other run's do. A high-diameter graph is not generated when no time is
left.

Then the new-user set (issue 61): kron-26, urand-26, the 4096x4096 grid and the 24 M-vertex
road-like graph (quick: kron-22, urand-22, a 1024x1024 grid and the 1 M-vertex road-like graph),
each generated as a user following the README would: partition-tool generate with its defaults
(its own vertex order and lists, whatever --reorder and --compressed say), --undirected and the
weights above; suite.json records what partition-tool info --json then finds in the file (its
"compressed" lists, or none). On it bfs, sssp, cc and pagerank run with no options (`ooc-run
bfs,sssp,cc,pagerank --graph G`: in GPU memory when the graph fits, else out of core with the
edge cache) and again with --in-memory off, then with the best setting known for each
(BEST_SETTINGS below, with where each was measured; sssp's and cc's best are their defaults, whose
runs then stand for both), in the same two places. PageRank runs at ooc-run's default tolerance
and is judged by its L1 distance to a tolerance-1e-7 run, as above. suite.json keeps them under
"new_user" ({"best": the settings and their sources, "graphs": [...]}, each run with its
"setting", "place" and "options"); suite.md's section "New user: defaults against the best
settings" gives, per graph, algorithm and place, the default's time, the best setting's, their
ratio, whether the default is more than 5% slower (issue 61's bar), PageRank's L1 and tolerance,
and whether the values agree. A new-user graph is not generated when no time is left.

--sets chooses among the sets (main: the first graphs above; directed; high-diameter; new-user;
default all, in that order) and --graphs among their graphs by name (e.g. --sets new-user --graphs
kron26).

With --reorder sage (or none), every graph is generated in that vertex order instead of hub sort's
(partition-tool --reorder): run the suite once per order and compare the two suite.json files.

With --compressed, each graph is generated with --compress (lists compressed, weights packed); the
runs above then read the raw arrays (ooc-run --compressed off), and on all but the high-diameter
graphs two more read the compressed ones: hybrid with the edges in host memory, and on a GPU
hybrid with half the raw edge bytes each algorithm reads in the edge cache (the policies "hybrid,
compressed" and "hybrid, compressed, cache 50%"). Their bfs, sssp and cc values must equal the raw
runs'. Generating with --compress takes about 3.5 times as long (kron-26: 208 s against 57 s on
the lent machines), so the full set no longer fits one device call with it: use --quick or a
subset.

With --gpus N (N >= 2), each graph's four algorithms (the high-diameter graphs' aside) then run
again with the options of the hybrid run above (priority on, tiled mapping, edges in host memory),
on N GPUs twice: from one process (--devices 0,...,N-1, a rank per GPU) and as N MPI ranks (mpirun
-np N, skipped and listed as such when mpirun is not on the PATH). suite.json keeps them under
each graph's "multi_gpu"; suite.md gets a table per graph: time against the 1-GPU hybrid run,
speed-up, GB moved and GB/s of each rank, the exchange's time (max over ranks), and whether bfs,
sssp and cc gave the 1-GPU run's values. NCCL_NVLS_ENABLE is 0 for these runs unless already set.
A multi-GPU run that fails is listed as failed and the suite goes on; it then exits with status 1.

The whole set must fit one 10-minute device call: --time-limit bounds the suite, each ooc-run
gets what is left, and runs that no longer fit are listed as skipped rather than lost. The
multi-GPU runs come last in each graph and share the limit; the full set alone took about 520 s
on an H200 before the ordered mapping and the directed graph were added (the quick set: 62 s then,
140 s with them), so with --gpus its later graphs' runs are skipped: use --quick or a longer limit.
The high-diameter runs have not run in the suite yet: from one run each of ooc-run on an H100
(docs/performance-log.md, 2026-12-05), they should add about 10 s to the quick set and about a
minute to the full one (the 4096x4096 grid's host-loop runs alone: 8.5 s), where they come after
the 520 s above: under the default limit the full set lists them as skipped. The new-user set
has not run on a GPU either; estimated, not measured: on kron-26 and urand-26 each, generating
(57 s raw on an H200, 2026-11-22; 104-145 s with --compress in later logs, should that become the
default), info reading the file back (seconds to tens of seconds), the PageRank reference (6-7 s
on an H100) and six loads of the graph with PageRank at ooc-run's default tolerance (about 9.5 s
out of core at 1e-6 on an H200, 2026-11-22) take some 3 to 5 minutes; the grid and the road-like
graph under a minute each. So the full new-user set does not fit one 10-minute call beside the
others, and probably not alone: run it alone and split it (--sets new-user --graphs
grid4k,road24m,kron26, then --graphs urand26). The quick one should take under a minute.

  python3 bench/suite.py --bin build/device --out OUT [--quick] [--gpus N] [--sets SETS] [--graphs NAMES]
  python3 bench/suite.py --from-json OUT/suite.json --out OUT2
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

from suite_report import (ALGORITHMS, DIRECTED_ALGORITHMS, FRONTIER_LOOP, HOST_LOOP, LOOP_ALGORITHMS, OTHER_MAPPINGS,
                          NEW_USER_PLACES, POLICIES, report)

# (name, partition-tool generate arguments). Weighted (1..64) for sssp; the other algorithms
# read no weights, and the engine moves none for them.
# The grid first: it is quick and the only one verified against the serial references.
FULL = [
    ("grid1k", ["grid", "--rows", "1024", "--cols", "1024"]),
    ("kron24", ["kron", "--scale", "24", "--edge-factor", "16"]),
    ("kron26", ["kron", "--scale", "26", "--edge-factor", "16"]),
    ("urand26", ["urand", "--scale", "26", "--edge-factor", "16"]),
]
QUICK = [
    ("grid256", ["grid", "--rows", "256", "--cols", "256"]),
    ("kron22", ["kron", "--scale", "22", "--edge-factor", "16"]),
    ("urand22", ["urand", "--scale", "22", "--edge-factor", "16"]),
]
# Directed graphs, generated with their in-edges (--in-edges), on which bfs, sssp and pagerank
# push, pull over the in-lists and choose per iteration (cc needs a symmetric graph).
DIRECTED_FULL = [("kron24-directed", ["kron", "--scale", "24", "--edge-factor", "16"])]
DIRECTED_QUICK = [("kron22-directed", ["kron", "--scale", "22", "--edge-factor", "16"])]
# High-diameter graphs (thousands of levels of a few thousand edges each, issue 60): bfs and sssp
# with every level from the host and with the frontier loop, alone (loop_variants); every policy
# would not fit. The road graph keeps its generator's Euclidean weights (40..171). The grids above
# are of this shape too, and run loop_variants after their other runs.
HIGH_DIAMETER_FULL = [
    ("grid4k", ["grid", "--rows", "4096", "--cols", "4096"]),
    ("road24m", ["road", "--vertices", "24000000", "--weights", "file"]),
]
HIGH_DIAMETER_QUICK = [("road1m", ["road", "--vertices", "1000000", "--weights", "file"])]
HIGH_DIAMETER_KINDS = {"grid", "road"}
FRONTIER_LOOP_EDGES = 65536  # ooc-run's --frontier-loop default (docs/cost-model.md#the-frontier-loop)
LOOP_PLAN = "host loop and frontier loop"  # what a skipped loop_variants run is listed as


def named(graphs, *names):
    """The (name, spec) entries of graphs with these names, in graphs' order."""
    return [g for g in graphs if g[0] in names]


# The new-user set (issue 61): the graphs of issue 61's table, generated with partition-tool's
# defaults, every algorithm with no options against BEST_SETTINGS. Quick: the same shapes, small.
NEW_USER_FULL = named(FULL, "kron26", "urand26") + HIGH_DIAMETER_FULL
NEW_USER_QUICK = named(QUICK, "kron22", "urand22") + named(FULL, "grid1k") + HIGH_DIAMETER_QUICK
# The best setting measured so far for each algorithm, and where (docs/performance-log.md by date
# and heading, docs/performance.md). [] where the default is that setting: its default run then
# stands for both, and nothing more runs.
BEST_SETTINGS = {
    "bfs": (["--direction", "auto"],
            "kron-26 out of core 63-66 ms against push's 100-102 (H100; performance-log.md 2026-11-28 "
            "'filter tasks decoding in place', D1, and 2026-12-05 second session), in GPU memory 18.7 against "
            "35.1 ms (H200; performance.md, 'Kron-26 on the H200, 2026-11-26'); on the 4096x4096 grid and the "
            "road-like graph auto runs as push (0.070 against 0.070 s, 0.097 against 0.097 s; 2026-12-05 "
            "second session)"),
    "sssp": ([],
             "--priority-delta auto: kron-26 out of core 0.161 s against the fraction's 0.301 and priority "
             "off's 0.211 (H100; performance-log.md 2026-11-27 'Batched traversals', \"SSSP's automatic "
             "delta\"); the frontier loop's automatic piles (263 on the grid, 1,317 on the road-like graph) "
             "lie by the fastest deltas of the 2026-12-05 sweeps (260 and 823-1,646), not yet run on a GPU "
             "themselves"),
    "cc": ([],
           "Afforest: kron-26 out of core 20-23 ms against label propagation's 99 (H100; performance-log.md "
           "2026-11-27 'Afforest CC'), 17-19 ms pushing and with --direction auto alike (2026-11-28 D1)"),
    "pagerank": (["--priority", "off", "--tolerance", "4.5e-4"],
                 "kron-26 out of core 1.997 s at L1 9.36e-4 (the per-edge rule, which --push auto takes on "
                 "Kronecker graphs) against the defaults at tolerance 1e-3, 2.58 s at L1 1.02e-3 (H200; "
                 "performance-log.md 2026-11-28 'PageRank pushing per edge', call 4); priority off was the "
                 "faster on urand-26 and an 8192x8192 grid too (call 5); not measured in GPU memory"),
}
PLACE_OPTIONS = {"default": [], "host": ["--in-memory", "off"]}  # of each of NEW_USER_PLACES
NEW_USER_PLAN = "new-user runs (%s)" % ",".join(ALGORITHMS)  # what a skipped graph is listed as
SETS = ["main", "directed", "high-diameter", "new-user"]  # --sets


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def run(cmd, **kw):
    log("$", " ".join(cmd))
    return subprocess.run(cmd, check=True, **kw)


def run_bounded(cmd, timeout):
    """run() for the multi-GPU runs: NVLink multicast off (NCCL_NVLS_ENABLE=0 unless set); at the
    timeout SIGTERM first, which mpirun passes to its ranks, and SIGKILL 10 s later. ooc-run's
    stderr is passed on and kept in the CalledProcessError of a failure."""
    log("$", " ".join(cmd))
    env = dict(os.environ)
    env.setdefault("NCCL_NVLS_ENABLE", "0")
    with subprocess.Popen(cmd, env=env, stderr=subprocess.PIPE, text=True) as p:
        try:
            _, err = p.communicate(timeout=timeout)
        except BaseException:
            p.terminate()
            try:
                p.communicate(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.communicate()
            raise
    sys.stderr.write(err)
    if p.returncode:
        raise subprocess.CalledProcessError(p.returncode, cmd, stderr=err)


class Clock:
    """What is left of --time-limit."""

    def __init__(self, limit):
        self.start = time.time()
        self.limit = limit

    def left(self):
        return None if self.limit is None else self.limit - (time.time() - self.start)


def measured_peak(bin_dir, out):
    path = os.path.join(out, "pcie.json")
    run([os.path.join(bin_dir, "tools/pcie-bench/pcie-bench"), "--quick", "--only", "copy", "--quiet", "--json", path],
        stdout=subprocess.DEVNULL)
    # GPU 0's "pinned H2D peak" row, the figure pcie-bench's table and plots use.
    return json.load(open(path))["peak_gbps"]["0"]


def gpu_name():
    try:
        return subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], capture_output=True,
                              text=True, check=True).stdout.strip().splitlines()[0]
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def ooc_run(args, clock, label, json_path, algorithms, *options, launcher=None, tolerance=True):
    """One ooc-run: its JSON, or None and the reason when time ran out. With a launcher (a list,
    empty for none; mpirun ...) it runs through run_bounded; the JSON then gets the command. Without
    tolerance, PageRank runs at ooc-run's default tolerance rather than --tolerance's."""
    left = clock.left()
    if left is not None and left < 5:
        return None, "no time left"
    cmd = [os.path.join(args.bin, "tools/ooc-run/ooc-run"), algorithms] + \
        (["--tolerance", str(args.tolerance)] if tolerance else []) + \
        ["--repeat", str(args.repeat), "--json", json_path, "-q", *options]
    try:
        if launcher is None:
            run(cmd, timeout=left)
        else:
            cmd = [*launcher, *cmd]
            run_bounded(cmd, left)
    except subprocess.TimeoutExpired:
        log("suite: %s stopped at the time limit" % label)
        return None, "stopped at the time limit"
    doc = json.load(open(json_path))
    if launcher is not None:
        doc["command"] = " ".join(cmd)
    return doc, None


def failure(e):
    """A failed multi-GPU run in a line: ooc-run's error, else the exit status."""
    lines = [line.strip() for line in (e.stderr or "").splitlines()]
    errors = [line for line in lines if line.startswith("ooc-run:") and ": warning:" not in line]
    return "exit status %d%s" % (e.returncode, ": " + errors[0] if errors else "")


def multi_gpu(args, clock, name, options):
    """bfs, sssp, cc and pagerank on --gpus GPUs with the options of the 1-GPU hybrid run, from one
    process (--devices) and as MPI ranks (mpirun): {"gpus": N, "devices": {...}, "mpirun": {...}},
    each the ooc-run JSON's "ranks" and "runs" and the command, or "skipped" or "failed" and why."""
    n = args.gpus
    options = options + ["--transfer", "hybrid", "--devices", ",".join(str(d) for d in range(n))]
    result = {"gpus": n}
    launches = [("devices", "%d GPUs, one process" % n, [])]
    mpirun = shutil.which("mpirun")
    if mpirun:
        root = ["--allow-run-as-root"] if os.geteuid() == 0 else []
        launches.append(("mpirun", "%d MPI ranks" % n, [mpirun, "-np", str(n), *root, "-x", "NCCL_NVLS_ENABLE"]))
    else:
        log("suite: %d MPI ranks skipped: mpirun is not on the PATH" % n)
        result["mpirun"] = {"skipped": "mpirun is not on the PATH"}
    for key, label, launcher in launches:
        path = os.path.join(args.out, "%s-%s%d.json" % (name, key, n))
        try:
            doc, why = ooc_run(args, clock, label, path, ",".join(ALGORITHMS), *options, launcher=launcher)
        except subprocess.CalledProcessError as e:
            result[key] = {"failed": failure(e)}
            log("suite: %s failed: %s" % (label, result[key]["failed"]))
            continue
        result[key] = {"skipped": why} if doc is None else \
            {"command": doc["command"], "ranks": doc["ranks"], "runs": doc["runs"]}
    return result


def generate(args, name, spec, directed=False, as_a_user=False):
    """partition-tool generate into --work, undirected (or with its in-edges), weights 1..64 unless
    the spec names its own, in the suite's order (--reorder, --compressed): the file and the seconds
    it took. as_a_user: in partition-tool's own order and lists instead, as a new user gets them."""
    work = os.path.join(args.work, name + ".oocg")
    weights = [] if "--weights" in spec else ["--weights", "random:1-64"]
    order = [] if as_a_user else ["--reorder", args.reorder]
    compress = ["--compress"] if args.compressed and not as_a_user else []
    start = time.time()
    run([os.path.join(args.bin, "tools/partition-tool/partition-tool"), "generate", *spec,
         "--in-edges" if directed else "--undirected", *weights, *order, "-o", work, "-q"] + compress)
    return work, time.time() - start


def pagerank_reference(args, clock, name, graph):
    """PageRank is judged at a measured accuracy: every run's L1 distance to a run at tolerance 1e-7.
    That run's ranks file, and the options that give the others their L1 (none when no time is left)."""
    reference = os.path.join(args.work, name + "-pagerank-1e-7.tsv")
    left = clock.left()
    try:
        if left is not None and left < 5:
            raise subprocess.TimeoutExpired("pagerank reference", 0)
        run([os.path.join(args.bin, "tools/ooc-run/ooc-run"), "pagerank", *graph, "--tolerance", "1e-7",
             "-q", "--output", reference], timeout=left)
        return reference, ["--pagerank-reference", reference]
    except subprocess.TimeoutExpired:
        log("suite: %s: no time left for the PageRank reference; PageRank runs go without L1" % name)
        return reference, []


def bench_graph(args, clock, name, spec, verify, directed=False):
    work, generate_seconds = generate(args, name, spec, directed)
    graph = ["--graph", work]
    reference, with_reference = pagerank_reference(args, clock, name, graph)
    graph += with_reference
    compressed = graph
    if args.compressed:  # the plans below move the raw arrays; compressed_variants the others
        graph = graph + ["--compressed", "off"]
    out_of_core = [*graph, "--in-memory", "off"]
    if directed:
        return bench_directed(args, clock, name, work, reference, generate_seconds, graph, out_of_core)
    every = ["--transfer", ",".join(POLICIES)] + (["--verify"] if verify else [])
    plans = [
        ("bfs, sssp, cc: every policy", "bfs,sssp,cc", out_of_core + every),
        ("pagerank: every policy", "pagerank", out_of_core + every),
        ("hybrid, priority off", "sssp,pagerank", out_of_core + ["--transfer", "hybrid", "--priority", "off"]),
        ("hybrid, the other mappings", ",".join(ALGORITHMS),
         out_of_core + ["--transfer", "hybrid", "--load-balance", ",".join(OTHER_MAPPINGS)]),
        ("bfs in memory", "bfs", graph + ["--load-balance", ",".join(["tiled", *OTHER_MAPPINGS])]),
    ]
    result = {"name": name, "generate_seconds": generate_seconds, "runs": [], "skipped": [], "edges": 0}
    for i, (label, algorithms, options) in enumerate(plans):
        doc, why = ooc_run(args, clock, label, os.path.join(args.out, "%s-%d.json" % (name, i)), algorithms,
                           *options)
        if doc is None:
            result["skipped"].append({"runs": label, "why": why})
            continue
        result["runs"] += doc["runs"]
        result["vertices"], result["edges"] = doc["vertices"], doc["edges"]
    # The pull direction where it pays (docs/cost-model.md#direction): every algorithm out of
    # core, and bfs in memory, with --direction auto.
    run_variants(args, clock, name, "direction", result,
                 [("hybrid, direction auto", ",".join(ALGORITHMS),
                   out_of_core + ["--transfer", "hybrid", "--direction", "auto"]),
                  ("hybrid, direction auto", "bfs", graph + ["--direction", "auto"])])
    on_gpu = any(r["backend"] == "cuda" for r in result["runs"])
    if on_gpu:
        run_variants(args, clock, name, "variant", result,
                     cache_plans("hybrid, cache 50%", graph, result) +
                     [("hybrid, calibrated", ",".join(ALGORITHMS),
                       out_of_core + ["--transfer", "hybrid", "--calibration", "probe"]),
                      ("hybrid, adapted", ",".join(ALGORITHMS),
                       out_of_core + ["--transfer", "hybrid", "--calibration", "probe",
                                      "--adapt-costs", "on"]),
                      # Resident slices (docs/cost-model.md#resident-slices) against one task.
                      ("in memory", "cc,pagerank", graph),
                      ("in memory, 1 resident slice", "cc,pagerank",
                       graph + ["--resident-slices", "1"]),
                      # GraphCage's cache blocking against the plain gather, in GPU memory.
                      ("pull in memory", "cc,pagerank", graph + ["--direction", "pull"]),
                      ("pull in memory, cache blocks", "cc,pagerank",
                       graph + ["--direction", "pull", "--pull-blocks", "auto"])])
    if args.compressed:
        plans = [("hybrid, compressed", ",".join(ALGORITHMS),
                  compressed + ["--in-memory", "off", "--transfer", "hybrid"])]
        if on_gpu:
            plans += cache_plans("hybrid, compressed, cache 50%", compressed, result)
        run_variants(args, clock, name, "compressed", result, plans)
    if spec[0] in HIGH_DIAMETER_KINDS:
        loop_variants(args, clock, name, result, graph, out_of_core)
    if args.gpus >= 2:
        # The options of the first plan's hybrid run: the 1-GPU figures the table compares with.
        result["multi_gpu"] = multi_gpu(args, clock, name, out_of_core + (["--verify"] if verify else []))
    os.remove(work)
    if os.path.exists(reference):
        os.remove(reference)
    return result


def bench_directed(args, clock, name, work, reference, generate_seconds, graph, out_of_core):
    """A directed graph with its in-edges: bfs, sssp and pagerank pushing, pulling over the in-lists
    and choosing per iteration (the policies "hybrid", "hybrid, pull", "hybrid, direction auto"),
    out of core and in GPU memory."""
    result = {"name": name, "generate_seconds": generate_seconds, "runs": [], "skipped": [], "edges": 0,
              "directed": True}
    plans = []
    for where in [out_of_core + ["--transfer", "hybrid"], graph]:
        plans += [("hybrid", DIRECTED_ALGORITHMS, where),
                  ("hybrid, pull", DIRECTED_ALGORITHMS, where + ["--direction", "pull"]),
                  ("hybrid, direction auto", DIRECTED_ALGORITHMS, where + ["--direction", "auto"])]
    run_variants(args, clock, name, "directed", result, plans)
    os.remove(work)
    if os.path.exists(reference):
        os.remove(reference)
    return result


def bench_high_diameter(args, clock, name, spec):
    """A graph of thousands of levels: loop_variants alone. Not generated when no time is left."""
    result = {"name": name, "runs": [], "skipped": [], "edges": 0}
    left = clock.left()
    if left is not None and left < 5:
        result["skipped"].append({"runs": "%s (%s)" % (LOOP_PLAN, LOOP_ALGORITHMS), "why": "no time left"})
        return result
    work, result["generate_seconds"] = generate(args, name, spec)
    graph = ["--graph", work] + (["--compressed", "off"] if args.compressed else [])
    loop_variants(args, clock, name, result, graph, graph + ["--in-memory", "off"])
    os.remove(work)
    return result


def file_info(args, work):
    """What partition-tool info --json says of a file's format and lists: its "format_version",
    "file_bytes" and "compressed" (null where the file has raw lists only)."""
    info = json.loads(run([os.path.join(args.bin, "tools/partition-tool/partition-tool"), "info", work, "--json"],
                          stdout=subprocess.PIPE, text=True).stdout)
    return {key: info[key] for key in ["format_version", "file_bytes", "compressed"]}


def new_user_plans():
    """(setting, place, algorithms, options) of the new-user set: every algorithm with no options in
    one ooc-run, then BEST_SETTINGS' options, the algorithms that share them in one ooc-run; each where
    the engine chooses (in GPU memory when the graph fits) and with --in-memory off."""
    best = {}
    for algorithm in ALGORITHMS:
        if BEST_SETTINGS[algorithm][0]:
            best.setdefault(tuple(BEST_SETTINGS[algorithm][0]), []).append(algorithm)
    settings = [("default", ",".join(ALGORITHMS), [])] + \
        [("best", ",".join(algorithms), list(options)) for options, algorithms in best.items()]
    return [(setting, place, algorithms, options) for place in NEW_USER_PLACES
            for setting, algorithms, options in settings]


def bench_new_user(args, clock, name, spec):
    """The new-user set on one graph (issue 61): generated as a user would, with partition-tool's
    defaults whatever --reorder and --compressed say, the file's lists from partition-tool info, then
    new_user_plans. Each run gets its "setting", "place" and the setting's "options". Not generated
    when no time is left."""
    result = {"name": name, "runs": [], "skipped": [], "edges": 0, "file": None}
    left = clock.left()
    if left is not None and left < 5:
        result["skipped"].append({"runs": NEW_USER_PLAN, "why": "no time left"})
        return result
    work, result["generate_seconds"] = generate(args, name, spec, as_a_user=True)
    result["file"] = file_info(args, work)
    reference, with_reference = pagerank_reference(args, clock, name, ["--graph", work])
    for i, (setting, place, algorithms, options) in enumerate(new_user_plans()):
        label = "%s%s (%s)" % (setting, "" if place == "default" else ", --in-memory off", algorithms)
        path = os.path.join(args.out, "%s-new-user-%d.json" % (name, i))
        doc, why = ooc_run(args, clock, label, path, algorithms, "--graph", work, *with_reference,
                           *PLACE_OPTIONS[place], *options, tolerance=False)
        if doc is None:
            result["skipped"].append({"runs": label, "why": why})
            continue
        for r in doc["runs"]:
            r.update(setting=setting, place=place, options=options)
        result["runs"] += doc["runs"]
        result["vertices"], result["edges"] = doc["vertices"], doc["edges"]
    os.remove(work)
    if os.path.exists(reference):
        os.remove(reference)
    return result


def loop_variants(args, clock, name, result, graph, out_of_core):
    """Every level from the host against the frontier loop (docs/cost-model.md#the-frontier-loop):
    bfs and sssp with --frontier-loop off,65536, both in one ooc-run, out of core (hybrid) and in GPU
    memory. Each run shows as the policy HOST_LOOP or FRONTIER_LOOP by the loop its JSON reports."""
    first = len(result["runs"])
    loops = ["--frontier-loop", "off,%d" % FRONTIER_LOOP_EDGES]
    run_variants(args, clock, name, "loop", result,
                 [(LOOP_PLAN, LOOP_ALGORITHMS, out_of_core + ["--transfer", "hybrid"] + loops),
                  (LOOP_PLAN, LOOP_ALGORITHMS, graph + loops)])
    for r in result["runs"][first:]:
        r["transfer"] = FRONTIER_LOOP if (r.get("frontier_loop") or {}).get("edges", 0) else HOST_LOOP


def cache_plans(label, graph, result):
    """Hybrid with half the edge bytes each algorithm reads in the GPU's edge cache: a budget of its
    vertex data and staging, from its earlier run's --json, plus that half."""
    plans = []
    for algorithm in ALGORITHMS:
        memory = next((r["memory"] for r in result["runs"] if r["algorithm"] == algorithm), None)
        if memory is not None:
            budget = memory["vertex_bytes"] + memory["staging_bytes"] + memory["edge_bytes"] // 2
            plans.append((label, algorithm, graph + ["--transfer", "hybrid", "--budget", str(budget)]))
    return plans


def run_variants(args, clock, name, kind, result, plans):
    """Runs (label, algorithms, options) plans whose runs show in the tables as the policy `label`
    (e.g. "hybrid, cache 50%", or "hybrid, calibrated": the cost model's link constants from a
    probe of the GPU). Each run also gives the graph's vertex and edge counts."""
    for i, (label, algorithms, options) in enumerate(plans):
        path = os.path.join(args.out, "%s-%s-%d.json" % (name, kind, i))
        doc, why = ooc_run(args, clock, label, path, algorithms, *options)
        if doc is None:
            result["skipped"].append({"runs": "%s (%s)" % (label, algorithms), "why": why})
            continue
        for r in doc["runs"]:
            r["transfer"] = label
        result["runs"] += doc["runs"]
        result["vertices"], result["edges"] = doc["vertices"], doc["edges"]


def chosen_sets(parser, args):
    """{set: its (name, spec) graphs} for --sets, --graphs and --quick; a set not chosen has none."""
    every = {"main": QUICK if args.quick else FULL,
             "directed": DIRECTED_QUICK if args.quick else DIRECTED_FULL,
             "high-diameter": HIGH_DIAMETER_QUICK if args.quick else HIGH_DIAMETER_FULL,
             "new-user": NEW_USER_QUICK if args.quick else NEW_USER_FULL}
    names = args.sets.split(",")
    unknown = [s for s in names if s not in every]
    if unknown:
        parser.error("--sets: %s not in {%s}" % (",".join(unknown), ",".join(SETS)))
    sets = {s: every[s] if s in names else [] for s in SETS}
    if args.graphs:
        wanted = args.graphs.split(",")
        known = {name for graphs in sets.values() for name, _ in graphs}
        if any(name not in known for name in wanted):
            parser.error("--graphs: %s not among these sets' graphs {%s}" % (
                ",".join(name for name in wanted if name not in known), ",".join(sorted(known))))
        sets = {s: named(graphs, *wanted) for s, graphs in sets.items()}
    return sets


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default="build/device", help="build folder with the tools")
    parser.add_argument("--out", required=True, help="folder for suite.json, suite.md and the plots")
    parser.add_argument("--work", default="/tmp/ooc-suite", help="folder for the generated graphs (deleted after)")
    parser.add_argument("--quick", action="store_true", help="small graphs (scale 22): a few minutes")
    parser.add_argument("--tolerance", type=float, default=1e-3, help="pagerank's per-vertex delta threshold")
    parser.add_argument("--repeat", type=int, default=None, help="runs of each setting, the fastest reported "
                        "(default 2, full set 1)")
    parser.add_argument("--time-limit", type=float, default=540, help="seconds the suite may take; runs that no "
                        "longer fit are skipped and listed (0: no limit)")
    parser.add_argument("--peak", type=float, help="link peak in GB/s instead of measuring it (machines without GPU)")
    parser.add_argument("--gpus", type=int, default=1, metavar="N", help="N >= 2: also run each graph's four "
                        "algorithms (hybrid) on GPUs 0..N-1, from one process (--devices) and as N MPI ranks "
                        "(mpirun), and compare them with the 1-GPU run (default 1: one GPU only)")
    parser.add_argument("--reorder", choices=["hub", "sage", "none"], default="hub",
                        help="the vertex order partition-tool generates the graphs in (--reorder): hub sort, "
                        "SAGE's sampled reordering after it, or the generator's own (default hub); run the suite "
                        "once per order to compare them")
    parser.add_argument("--compressed", action="store_true", help="generate the graphs with --compress and add "
                        "hybrid runs that read the compressed lists and packed weights, without and with "
                        "the edge cache")
    parser.add_argument("--sets", default=",".join(SETS), help="the sets to run, of %s, separated by commas "
                        "(default all, in that order)" % ", ".join(SETS))
    parser.add_argument("--graphs", metavar="NAMES", help="only these graphs of those sets, e.g. kron26,urand26 "
                        "(default all)")
    parser.add_argument("--from-json", metavar="SUITE_JSON", help="run nothing: write suite.md and the plots into "
                        "--out from an earlier run's suite.json")
    args = parser.parse_args()
    if args.gpus < 1:
        parser.error("--gpus takes 1 or more")
    sets = chosen_sets(parser, args)
    if args.from_json:
        os.makedirs(args.out, exist_ok=True)
        print(report(json.load(open(args.from_json)), args.out))
        return
    if args.repeat is None:
        args.repeat = 2 if args.quick else 1
    os.makedirs(args.out, exist_ok=True)
    os.makedirs(args.work, exist_ok=True)
    start = time.time()
    clock = Clock(args.time_limit if args.time_limit > 0 else None)
    peak = args.peak if args.peak else measured_peak(args.bin, args.out)
    log("measured cudaMemcpy H2D peak: %.1f GB/s" % peak)
    # The grid is small enough for the serial references (Dijkstra, power iteration) to check.
    graphs = [bench_graph(args, clock, name, spec, verify=name.startswith("grid")) for name, spec in sets["main"]]
    graphs += [bench_graph(args, clock, name, spec, verify=False, directed=True) for name, spec in sets["directed"]]
    graphs += [bench_high_diameter(args, clock, name, spec) for name, spec in sets["high-diameter"]]
    new_user = [bench_new_user(args, clock, name, spec) for name, spec in sets["new-user"]]
    shutil.rmtree(args.work, ignore_errors=True)
    summary = {"gpu": gpu_name(), "peak_gbps": peak, "quick": args.quick, "tolerance": args.tolerance,
               "reorder": args.reorder,
               "gpus": args.gpus, "seconds": time.time() - start, "graphs": graphs}
    if new_user:
        summary["new_user"] = {"best": {a: {"options": o, "source": s} for a, (o, s) in BEST_SETTINGS.items()},
                               "graphs": new_user}
    json.dump(summary, open(os.path.join(args.out, "suite.json"), "w"), indent=1)
    print(report(summary, args.out))
    log("suite: %.0f s" % (time.time() - start))
    failed = ["%s %s" % (g["name"], key) for g in graphs for key in ["devices", "mpirun"]
              if "failed" in g.get("multi_gpu", {}).get(key, {})]
    if failed:
        log("suite: multi-GPU runs failed: %s (suite.md lists why)" % ", ".join(failed))
        sys.exit(1)


if __name__ == "__main__":
    main()
