"""The suite's sets (bench/suite.py): their graphs, the best settings the new-user set compares
the defaults with, and the ooc-run plans each set runs on a graph, gathered into the result that
suite.json keeps per graph."""
import os
import shutil
import subprocess

from suite_report import (ALGORITHMS, DIRECTED_ALGORITHMS, FRONTIER_LOOP, HOST_LOOP, LOOP_ALGORITHMS, OTHER_MAPPINGS,
                          NEW_USER_PLACES, POLICIES)
from suite_tools import file_info, generate, log, ooc_run, pagerank_reference

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
LOOP_PLAN = "host loop and frontier loop"
PUSH = ["--direction", "push"]  # the policies' runs (bench_graph); auto is the default  # what a skipped loop_variants run is listed as


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
    "bfs": ([],
            "--direction auto, the default since issue 61: kron-26 out of core 63-66 ms against push's "
            "100-102 (H100; performance-log.md 2026-11-28 'filter tasks decoding in place', D1, and 2026-12-05 "
            "second session); urand-26 0.058 against 0.080 s in GPU memory, 0.176-0.181 against 0.209-0.210 "
            "s out of core; on the 4096x4096 grid and the road-like graph auto runs as push (2026-12-06, fourth "
            "session)"),
    "sssp": ([],
             "--priority-delta auto: kron-26 out of core 0.161 s against the fraction's 0.301 and priority "
             "off's 0.211 (H100; performance-log.md 2026-11-27 'Batched traversals', \"SSSP's automatic "
             "delta\"); the frontier loop's automatic piles (263 on the grid, 1,317 on the road-like graph) "
             "lie by the fastest deltas of the 2026-12-05 sweeps (260 and 823-1,646); with them the grid's SSSP "
             "took 0.119 s and the road-like graph's 0.095 s in GPU memory (H100; performance-log.md "
             "2026-12-06, fourth session)"),
    "cc": ([],
           "Afforest: kron-26 out of core 20-23 ms against label propagation's 99 (H100; performance-log.md "
           "2026-11-27 'Afforest CC'), 17-19 ms pushing and with --direction auto alike (2026-11-28 D1)"),
    "pagerank": ([],
                 "the defaults' choices (--push auto: per-edge on Kronecker graphs; --priority auto: on in GPU "
                 "memory with 4 resident slices, off out of core): on kron-26 at tolerance 4.5e-4 per-edge with "
                 "priority on took 1.591 s in GPU memory against priority off's 1.725 and per-vertex's 2.025 "
                 "and 2.498, and out of core priority off 1.915 s against on's 2.318 (H100; performance-log.md "
                 "2026-12-06, ninth session, call A); priority off was the faster out of core on urand-26 and "
                 "an 8192x8192 grid too (H200, 2026-11-28 'PageRank pushing per edge', call 5); in GPU memory "
                 "only kron-26 was measured"),
}
# The other side of each choice the defaults make, run beside them on every new-user graph so that
# a default is set against the fastest setting measured there, not only against the best known:
# (options, algorithms, places). PageRank's --priority auto is on in GPU memory (the place
# "default", where a graph that fits runs) and off out of core, so its rival there is off, and on.
RIVALS = [
    (["--direction", "push"], ["bfs"], ["default", "host"]),
    (["--priority", "off"], ["sssp"], ["default", "host"]),
    (["--cc", "labels"], ["cc"], ["default", "host"]),
    (["--priority", "off"], ["pagerank"], ["default"]),
    (["--priority", "on"], ["pagerank"], ["host"]),
]
PLACE_OPTIONS = {"default": [], "host": ["--in-memory", "off"]}  # of each of NEW_USER_PLACES
# Where a run's --json says what a rival's option chose: the key, and the value each word gives
# (None: the word itself).
RIVAL_KEYS = {"--priority": ("priority", {"on": True, "off": False}), "--direction": ("direction", None),
              "--cc": ("method", None)}
NEW_USER_PLAN = "new-user runs (%s)" % ",".join(ALGORITHMS)  # what a skipped graph is listed as
SETS = ["main", "directed", "high-diameter", "new-user"]  # --sets


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
    # The policies' runs push, as they did before auto became the default direction, so that the
    # tables compare transfer policies and mappings alone; the direction runs below, and the
    # new-user set, take auto.
    pushed, pushed_out = graph + PUSH, out_of_core + PUSH
    plans = [
        ("bfs, sssp, cc: every policy", "bfs,sssp,cc", pushed_out + every),
        ("pagerank: every policy", "pagerank", pushed_out + every),
        ("hybrid, priority off", "sssp,pagerank", pushed_out + ["--transfer", "hybrid", "--priority", "off"]),
        ("hybrid, the other mappings", ",".join(ALGORITHMS),
         pushed_out + ["--transfer", "hybrid", "--load-balance", ",".join(OTHER_MAPPINGS)]),
        ("bfs in memory", "bfs", pushed + ["--load-balance", ",".join(["tiled", *OTHER_MAPPINGS])]),
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
                     cache_plans("hybrid, cache 50%", pushed, result) +
                     [("hybrid, calibrated", ",".join(ALGORITHMS),
                       pushed_out + ["--transfer", "hybrid", "--calibration", "probe"]),
                      ("hybrid, adapted", ",".join(ALGORITHMS),
                       pushed_out + ["--transfer", "hybrid", "--calibration", "probe",
                                     "--adapt-costs", "on"]),
                      # Resident slices (docs/cost-model.md#resident-slices) against one task.
                      ("in memory", "cc,pagerank", pushed),
                      ("in memory, 1 resident slice", "cc,pagerank",
                       pushed + ["--resident-slices", "1"]),
                      # GraphCage's cache blocking against the plain gather, in GPU memory.
                      ("pull in memory", "cc,pagerank", graph + ["--direction", "pull"]),
                      ("pull in memory, cache blocks", "cc,pagerank",
                       graph + ["--direction", "pull", "--pull-blocks", "auto"])])
    if args.compressed:
        plans = [("hybrid, compressed", ",".join(ALGORITHMS),
                  compressed + PUSH + ["--in-memory", "off", "--transfer", "hybrid"])]
        if on_gpu:
            plans += cache_plans("hybrid, compressed, cache 50%", compressed + PUSH, result)
        run_variants(args, clock, name, "compressed", result, plans)
    if spec[0] in HIGH_DIAMETER_KINDS:
        loop_variants(args, clock, name, result, graph, out_of_core)
    if args.gpus >= 2:
        # The options of the first plan's hybrid run: the 1-GPU figures the table compares with.
        result["multi_gpu"] = multi_gpu(args, clock, name, pushed_out + (["--verify"] if verify else []))
    os.remove(work)
    if os.path.exists(reference):
        os.remove(reference)
    return result


def bench_directed(args, clock, name, work, reference, generate_seconds, graph, out_of_core):
    """A directed graph with its in-edges: bfs, sssp and pagerank pushing, pulling over the in-lists
    and choosing per iteration (the policies "hybrid" with --direction push, "hybrid, pull",
    "hybrid, direction auto"), out of core and in GPU memory."""
    result = {"name": name, "generate_seconds": generate_seconds, "runs": [], "skipped": [], "edges": 0,
              "directed": True}
    plans = []
    for where in [out_of_core + ["--transfer", "hybrid"], graph]:
        plans += [("hybrid", DIRECTED_ALGORITHMS, where + PUSH),
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


def rival_setting(options):
    """The setting a RIVALS run is listed under (one per options, so that each keeps its own)."""
    return "rival " + " ".join(options)


def repeats_default(options, default):
    """Whether the default's run (its --json entry; None: none ran) already chose what a rival's
    options ask for, so that the rival would measure the default again: PageRank's --priority off
    where the default place is out of core (the CPU backend, or a graph beyond GPU memory)."""
    if default is None:
        return False
    for flag, word in zip(options[::2], options[1::2]):
        key, values = RIVAL_KEYS[flag]
        if default.get(key) != (values[word] if values else word):
            return False
    return True


def new_user_plans():
    """(setting, place, algorithms, options) of the new-user set: every algorithm with no options in
    one ooc-run, then BEST_SETTINGS' options, the algorithms that share them in one ooc-run, then each
    of RIVALS in its places; each where the engine chooses (in GPU memory when the graph fits) and
    with --in-memory off."""
    best = {}
    for algorithm in ALGORITHMS:
        if BEST_SETTINGS[algorithm][0]:
            best.setdefault(tuple(BEST_SETTINGS[algorithm][0]), []).append(algorithm)
    settings = [("default", ",".join(ALGORITHMS), [])] + \
        [("best", ",".join(algorithms), list(options)) for options, algorithms in best.items()]
    plans = []
    for place in NEW_USER_PLACES:
        plans += [(setting, place, algorithms, options) for setting, algorithms, options in settings]
        plans += [(rival_setting(options), place, ",".join(algorithms), options)
                  for options, algorithms, places in RIVALS if place in places]
    return plans


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
    defaults = {}  # (place, algorithm): the default's run
    for i, (setting, place, algorithms, options) in enumerate(new_user_plans()):
        label = "%s%s (%s)" % (setting, "" if place == "default" else ", --in-memory off", algorithms)
        if setting.startswith("rival") and \
                all(repeats_default(options, defaults.get((place, a))) for a in algorithms.split(",")):
            result["skipped"].append({"runs": label, "why": "the default ran with %s" % " ".join(options)})
            continue
        path = os.path.join(args.out, "%s-new-user-%d.json" % (name, i))
        doc, why = ooc_run(args, clock, label, path, algorithms, "--graph", work, *with_reference,
                           *PLACE_OPTIONS[place], *options, tolerance=False)
        if doc is None:
            result["skipped"].append({"runs": label, "why": why})
            continue
        for r in doc["runs"]:
            r.update(setting=setting, place=place, options=options)
            if setting == "default":
                defaults.setdefault((place, r["algorithm"]), r)
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
