#!/usr/bin/env python3
"""What a Python call of oocgraph costs beyond the engine's own work, against ooc-run.

Generates a Kronecker graph (partition-tool), then for each program runs it --repeat times with
ooc-run (--json) and as many times from Python on one loaded graph. Per program it prints the
best processing time of each (the engine's own clock: stats "seconds"), the Python call's wall
time, and the overhead: that wall time minus the C++ OocEngine call inside it (Result's
call_seconds: setup, processing, read-back in user ids), as a share of the processing time. It also says whether the returned array views the engine's values (no
second copy).

  PYTHONPATH=build/device/python python3 bench/python_overhead.py --bin build/device --scale 22
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bin", default="build/default", help="the build folder (tools/ and python/)")
    p.add_argument("--scale", type=int, default=22, help="Kronecker scale (default 22)")
    p.add_argument("--backend", default="auto", help="auto | cpu | cuda (default auto)")
    p.add_argument("--repeat", type=int, default=3, help="runs of each, the best kept (3)")
    p.add_argument("--programs", default="bfs,sssp,cc,pagerank")
    p.add_argument("--json", help="also write the figures here")
    args = p.parse_args()
    sys.path.insert(0, os.path.join(args.bin, "python"))
    import oocgraph  # noqa: E402  (from the build folder named above)

    tool = lambda name: os.path.join(args.bin, "tools", name, name)  # noqa: E731
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        graph = os.path.join(tmp, f"kron{args.scale}.oocg")
        subprocess.run([tool("partition-tool"), "generate", "kron", "--scale", str(args.scale),
                        "--undirected", "--weights", "random:1-64", "-o", graph, "-q"], check=True)
        g = oocgraph.load(graph, backend=args.backend)
        source = g.highest_degree_vertex()
        for program in args.programs.split(","):
            out = os.path.join(tmp, f"{program}.json")
            cmd = [tool("ooc-run"), program, "--graph", graph, "--backend", args.backend,
                   "--repeat", str(args.repeat), "--json", out, "--quiet"]
            if program in ("bfs", "sssp"):
                cmd += ["--source", str(source)]
            subprocess.run(cmd, check=True)
            tool_best = min(r["seconds"] for r in json.load(open(out))["runs"])
            best = None
            for _ in range(args.repeat):
                result = None  # the previous values are freed before the clock starts
                start = time.perf_counter()
                if program in ("bfs", "sssp"):
                    result = getattr(g, program)(source)
                else:
                    result = getattr(g, program)()
                wall = time.perf_counter() - start
                s = result.stats
                overhead = wall - result.call_seconds
                if best is None or s["seconds"] < best[0]:
                    best = (s["seconds"], wall, overhead, not result.flags.owndata)
            rows.append({"program": program, "ooc_run_seconds": tool_best,
                         "python_seconds": best[0], "python_wall_seconds": best[1],
                         "overhead_seconds": best[2], "overhead_share": best[2] / best[0],
                         "values_viewed": best[3]})
    print(f"kron-{args.scale}, backend {g.backend}, best of {args.repeat}")
    print(f"{'program':9} {'ooc-run ms':>11} {'python ms':>10} {'call ms':>8} "
          f"{'overhead ms':>12} {'overhead %':>11}  values viewed, not copied")
    for r in rows:
        print(f"{r['program']:9} {r['ooc_run_seconds'] * 1e3:11.1f} "
              f"{r['python_seconds'] * 1e3:10.1f} {r['python_wall_seconds'] * 1e3:8.1f} "
              f"{r['overhead_seconds'] * 1e3:12.2f} {r['overhead_share'] * 100:10.2f}%  "
              f"{r['values_viewed']}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"scale": args.scale, "backend": g.backend, "runs": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
