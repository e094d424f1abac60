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
auto (every algorithm out of core, bfs in GPU memory: the policy "hybrid, direction auto"). Every
run but those with a direction of their own pushes (--direction push), as before auto became
ooc-run's default, so that the tables compare policies and mappings alone. The graph is deleted
after. PageRank runs first once at tolerance 1e-7; every PageRank run then
reports the L1 distance of its ranks to that one (ooc-run --pagerank-reference), beside its
time. Results are checked two ways: every run of bfs, sssp
and cc must give the same values (a digest), and the grid is verified against the serial
references.

Then a directed Kronecker graph (scale 24, quick 22), generated with its in-edges (--in-edges):
bfs, sssp and pagerank pushing, pulling over the in-lists and choosing per iteration, out of core
(hybrid) and in GPU memory (the policies "hybrid", pushing, "hybrid, pull" and "hybrid, direction auto";
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
(suite_sets.BEST_SETTINGS, with where each was measured; a best that is the default, as every
algorithm's is now, runs no more), and with each rival setting (suite_sets.RIVALS: bfs
--direction push, sssp --priority off, cc --cc labels, PageRank's priority the other way from
--priority auto's choice in that place), in the same two places. PageRank runs at ooc-run's default
tolerance and is judged by its L1 distance to a tolerance-1e-7 run, as above. suite.json keeps them
under "new_user" ({"best": the settings and their sources, "graphs": [...]}, each run with its
"setting", "place" and "options"); suite.md's section "New user: defaults against the best
settings" gives, per graph, algorithm and place, the default's time, the fastest other setting's
(the best known or a rival; "setting" "best" or "rival OPTIONS" in suite.json), their ratio, whether the default is more than 5% slower (issue 61's bar), PageRank's L1 and tolerance,
and whether the values agree. A new-user graph is not generated when no time is left.

--sets chooses among the sets (main: the first graphs above; directed; high-diameter; new-user;
default all, in that order) and --graphs among their graphs by name (e.g. --sets new-user --graphs
kron26).

With --reorder sage (or none), every graph is generated in that vertex order instead of hub sort's
(partition-tool --reorder): run the suite once per order and compare the two suite.json files.

Without --compressed, each graph is generated with --raw-only (raw lists alone). With --compressed,
with partition-tool's default lists, raw and compressed (weights packed); the runs above then read
the raw arrays (ooc-run --compressed off), and on all but the high-diameter
graphs two more read the compressed ones: hybrid with the edges in host memory, and on a GPU
hybrid with half the raw edge bytes each algorithm reads in the edge cache (the policies "hybrid,
compressed" and "hybrid, compressed, cache 50%"). Their bfs, sssp and cc values must equal the raw
runs'. Generating compressed lists takes about 3.5 times as long (kron-26: 208 s against 57 s on
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
import sys
import time

from suite_report import report
from suite_sets import BEST_SETTINGS, SETS, bench_graph, bench_high_diameter, bench_new_user, chosen_sets
from suite_tools import Clock, gpu_name, log, measured_peak


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
    parser.add_argument("--compressed", action="store_true", help="generate the graphs with compressed lists besides the raw ones and add "
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
