#!/usr/bin/env python3
"""The tables and figures that scripts/device/run.sh writes into summary.txt, from what ooc-run
--json, partition-tool info --json and pcie-bench --json wrote. Each is a function returning
text (for bench/device_timings.py and the tests) and a subcommand:

  python3 bench/device_report.py timings PEAK FILE...    best time per setting (PEAK '' if unknown)
  python3 bench/device_report.py ranks FILE...           per run and rank: time, bytes, exchange
  python3 bench/device_report.py direction FILE...       push, pull, auto: best time, edges read
  python3 bench/device_report.py loop FILE...            host loop against the frontier loop
  python3 bench/device_report.py cache FILE...           the cache set: per share, against 0 %
  python3 bench/device_report.py reorder FILE...         hub order against SAGE's, per graph
  python3 bench/device_report.py peak PCIE_JSON          GPU 0's pinned H2D peak in GB/s
  python3 bench/device_report.py cache-budget PLAN INFO ALGO SHARE stored|raw
  python3 bench/device_report.py locality INFO_JSON      partition-tool info --locality in a line
  python3 bench/device_report.py compressed FILE...      bfs, sssp, cc values: compressed = raw?
  python3 bench/device_report.py bc-sources BC_JSON      the sources bc sampled
  python3 bench/device_report.py bc BC_JSON BFS_JSON...  bc's phases against bfs from its sources
  python3 bench/device_report.py pr-distance A B         L1 distance of two pagerank --output files
"""
import argparse
import json
import os
import re
import sys

from ooc_json import fastest, load_runs


def _name(path):
    return os.path.basename(path)[:-5]


def timing_table(peak, paths):
    """Best time per setting of every file, one line each; BFS's time against its lower bound
    (4 bytes per reached edge at the pinned H2D peak)."""
    lines = ["%-16s %-8s %-10s %-9s %-4s %-13s %9s %6s %9s %7s %8s  %s" % (
        "set", "algo", "policy", "edges", "prio", "map/pulled", "best ms", "iters", "GB moved",
        "x bound", "L1 1e-7", "every run (ms)")]
    for path in paths:
        try:
            runs = load_runs(path)
        except (OSError, ValueError, KeyError) as e:
            lines.append("%-16s unreadable: %s" % (_name(path), e))
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
            lines.append("%-16s %-8s %-10s %-9s %-4s %-13s %9.1f %6d %9.2f %7s %8s  %s" % (
                _name(path), *key, best["seconds"] * 1e3, best["iterations"], best["total_bytes"] / 1e9,
                bound, l1, every))
    return "\n".join(lines)


def ranks_table(paths):
    """The gpus/ranks sets: per run and rank, time, iterations, bytes and GB/s, exchange; and
    whether bfs, sssp and cc values equal the first file's (digests)."""
    lines = ["%-16s %-8s %-6s %3s %4s %9s %6s %9s %7s %9s %8s %8s %8s %6s %5s  %s" % (
        "set", "algo", "exch", "rnd", "rank", "ms", "iters", "GB moved", "GB/s", "exch GB", "exch ms",
        "nccl ms", "wait ms", "sparse", "exchs", "values")]
    first = {}
    for path in [p for p in paths if os.path.exists(p)]:
        try:
            runs = load_runs(path)
        except (OSError, ValueError, KeyError) as e:
            lines.append("%-16s unreadable: %s" % (_name(path), e))
            continue
        best = fastest(runs, lambda r: (r["algorithm"], r.get("exchange") or "-", r.get("exchange_rounds") or "-"))
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
                lines.append("%-16s %-8s %-6s %3s %4s %9.1f %6d %9.2f %7.1f %9.2f %8.1f %8.1f %8.1f %6d %5d  %s" % (
                    _name(path), algo, exchange, rounds, p["rank"], r["seconds"] * 1e3, r["iterations"],
                    p["total_bytes"] / 1e9, p["total_bytes"] / 1e9 / max(p["seconds"], 1e-9),
                    p["exchange_bytes"] / 1e9, p["exchange_seconds"] * 1e3,
                    p.get("nccl_seconds", 0) * 1e3, p.get("wait_seconds", 0) * 1e3, sparse, exchanges,
                    same))
    return "\n".join(lines)


def runs_of(paths, lines):
    """Every run of the files that exist; a "no results" line in `lines` for each that does not."""
    runs = []
    for path in paths:
        if not os.path.exists(path):
            lines.append("%s: no results" % os.path.basename(path))
            continue
        runs += load_runs(path)
    return runs


def direction_table(paths):
    """Per algorithm, edges and direction: the best time, the iterations that pulled, the edges
    read, the bytes moved, and whether the values equal push's. dir: the direction asked for,
    then /N when the gathers ran in N cache blocks; edges: "+comp" marks compressed runs."""
    lines = ["%-9s %-10s %-7s %9s %7s %9s %9s %9s  %s" % (
        "algo", "edges", "dir", "best ms", "pulled", "iters", "G edges", "GB moved", "values")]
    runs = runs_of(paths, lines)

    def key(r):
        edges = ("in-memory" if r["in_memory"] else "host") + ("+comp" if r.get("compressed") else "")
        direction = r.get("direction", "push")
        if r.get("pull_blocks", 1) > 1:
            direction += "/%d" % r["pull_blocks"]
        return r["algorithm"], edges, direction

    best = fastest(runs, key)
    for (algo, edges, direction), r in sorted(best.items()):
        base = best.get((algo, edges, "push"))
        if "l1_to_reference" in r:
            same = "L1 %.2e" % r["l1_to_reference"]
        elif base:
            same = "same as push" if r["values_digest"] == base["values_digest"] else "DIFFER"
        else:
            same = ""
        lines.append("%-9s %-10s %-7s %9.1f %7d %9d %9.2f %9.2f  %s" % (
            algo, edges, direction, r["seconds"] * 1e3, r.get("pull_iterations", 0),
            r["iterations"], r["edges_processed"] / 1e9, r["total_bytes"] / 1e9, same))
    return "\n".join(lines)


def loop_table(paths):
    """The high-diameter set: per algorithm and where the edges are, the host loop against the
    frontier loop (--frontier-loop off and on): the best time, the iterations and those the loop
    ran, the edges processed over the graph's (each edge once is 1.00), the bytes moved, and
    whether the values equal the host loop's."""
    lines = ["%-6s %-10s %-6s %9s %7s %7s %8s %9s  %s" % (
        "algo", "edges", "loop", "best ms", "iters", "looped", "x edges", "GB moved", "values")]
    runs = runs_of(paths, lines)

    def key(r):
        loop = (r.get("frontier_loop") or {}).get("edges", 0)
        return r["algorithm"], "in-memory" if r["in_memory"] else "host", "on" if loop else "off"

    best = fastest(runs, key)
    for (algo, edges, loop), r in sorted(best.items()):
        base = best.get((algo, edges, "off"))
        same = ""
        if loop == "on" and base:
            same = "same as host" if r["values_digest"] == base["values_digest"] else "DIFFER"
        graph_edges = r.get("memory", {}).get("edge_bytes", 0) / (8 if algo == "sssp" else 4)
        ratio = "%.2f" % (r["edges_processed"] / graph_edges) if graph_edges else ""
        lines.append("%-6s %-10s %-6s %9.1f %7d %7d %8s %9.2f  %s" % (
            algo, edges, loop, r["seconds"] * 1e3, r["iterations"],
            (r.get("frontier_loop") or {}).get("iterations", 0), ratio, r["total_bytes"] / 1e9, same))
    return "\n".join(lines)


def cache_table(paths):
    """The cache set's runs (files NAME-cache-ALGO-SHARE.json): per algorithm and share, time,
    bytes and bytes served from the cache, values against share 0. Run 1 chooses the cache by
    edges per vertex; later runs by the reuse the earlier ones measured."""
    lines = ["%-17s %6s %4s %9s %6s %9s %6s %9s %9s %9s  %s" % (
        "algo", "share", "run", "cache GB", "parts", "ms", "iters", "GB moved", "GB cached",
        "x share 0", "values (L1 to 1e-7)")]
    rows = {}
    for path in paths:
        m = re.search(r"-cache-([\w.-]+)-(\d+)\.json$", path)
        if m and os.path.exists(path):
            rows[(m.group(1), int(m.group(2)))] = load_runs(path)
    for (algo, share), runs in sorted(rows.items()):
        base = rows.get((algo, 0), [None])[0]
        for i, r in enumerate(runs):
            same = ""
            if "l1_to_reference" in r:
                same = "%.2e" % r["l1_to_reference"]
            elif base:
                same = "same" if r["values_digest"] == base["values_digest"] else "DIFFER"
            ratio = "%.2f" % (r["seconds"] / base["seconds"]) if base else ""
            lines.append("%-17s %5d%% %4d %9.2f %6d %9.1f %6d %9.2f %9.2f %9s  %s" % (
                algo, share, i + 1, r["cache_bytes"] / 1e9, r["cache_partitions"], r["seconds"] * 1e3,
                r["iterations"], r["total_bytes"] / 1e9, r["cached_bytes"] / 1e9, ratio, same))
    return "\n".join(lines)


def reorder_table(paths):
    """The reorder set (files reorder-GRAPH-hub|sage.json): per graph, algorithm and policy, hub
    order against SAGE's."""
    runs = {}
    for path in paths:
        m = re.search(r"reorder-(\w+)-(hub|sage)\.json$", path)
        if not m or not os.path.exists(path):
            continue
        for r in load_runs(path):
            runs.setdefault((m.group(1), r["algorithm"], r["transfer"]), {})[m.group(2)] = r
    lines = ["%-6s %-9s %-9s %9s %9s %6s %6s %7s %8s %8s %8s %8s  %s" % (
        "graph", "algo", "policy", "hub ms", "sage ms", "x", "it hub", "it sage", "zc GB h", "zc GB s",
        "GB hub", "GB sage", "values")]
    for (graph, algo, policy), o in sorted(runs.items()):
        h, s = o.get("hub"), o.get("sage")
        if not h or not s:
            lines.append("%-6s %-9s %-9s  missing: %s" % (graph, algo, policy, "hub" if not h else "sage"))
            continue
        same = ""
        if algo != "pagerank":
            same = "same" if h.get("values_digest") == s.get("values_digest") else "DIFFER"
        lines.append("%-6s %-9s %-9s %9.1f %9.1f %6.2f %6d %7d %8.2f %8.2f %8.2f %8.2f  %s" % (
            graph, algo, policy, h["seconds"] * 1e3, s["seconds"] * 1e3, s["seconds"] / h["seconds"],
            h["iterations"], s["iterations"], h["bytes"]["zerocopy"] / 1e9, s["bytes"]["zerocopy"] / 1e9,
            h["total_bytes"] / 1e9, s["total_bytes"] / 1e9, same))
    return "\n".join(lines)


def peak_gbps(pcie_json):
    """GPU 0's "pinned H2D peak" row, the figure pcie-bench's '% peak' and bench/suite.py use."""
    with open(pcie_json) as f:
        return json.load(f)["peak_gbps"]["0"]


def all_gpus_link(paths):
    """pcie-bench's pinned H2D row for every GPU at once (device -1), from the first of PATHS that
    exists: the figure a rank's GB/s is compared with, per link."""
    path = next((p for p in paths if os.path.exists(p)), None)
    if path is None:
        return "pinned H2D, all GPUs at once: no pcie-bench results"
    with open(path) as f:
        rows = json.load(f).get("rows", [])
    for r in rows:
        if r["device"] == -1 and r["pattern"] == "pinned H2D" and r.get("gbps"):
            return "pinned H2D, %s: %.2f GB/s, %.2f a link" % (r["param"], r["gbps"], r["gbps"] / r["x"])
    return "pinned H2D, all GPUs at once: not measured (one GPU)"


def cache_budget(plan, info, algo, share, of):
    """ALGO's vertex data and staging (from a probe run's --json) plus SHARE percent of the edge
    bytes it reads: raw, or as the cache stores them (of="stored": a compressed graph's lists and
    packed weights). None when the plan has no run of ALGO."""
    with open(info) as f:
        info = json.load(f)
    for r in load_runs(plan):
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
        return m["vertex_bytes"] + m["staging_bytes"] + edges * int(share) // 100
    return None


def locality(info_json):
    with open(info_json) as f:
        loc = json.load(f)["locality"]
    return "%.3f value sectors per tile; %d BFS: %d target lines read together, %d list by list" % (
        loc["sectors_per_tile"], loc["traversals"], loc["shared_lines"], loc["list_lines"])


def compressed_values(paths):
    """bfs, sssp and cc per policy: the compressed run's values against the raw one's (digests)."""
    runs = {}
    for path in paths:
        try:
            for r in load_runs(path):
                runs.setdefault((r["algorithm"], r["transfer"]), []).append(r.get("values_digest"))
        except OSError:
            pass
    return "; ".join("%s %s %s" % (a, t, "same" if len(set(d)) == 1 and len(d) == 2 else "DIFFER %s" % d)
                     for (a, t), d in sorted(runs.items()) if a != "pagerank")


def bc_sources(bc_json):
    return load_runs(bc_json)[0]["sources"]


def bc_report(bc_json, bfs_jsons):
    """bc's time and bytes per phase, and its time over 2x the bfs times from the same sources."""
    bc = load_runs(bc_json)[0]
    bfs = [load_runs(p)[0]["seconds"] for p in bfs_jsons]
    lines = []
    for phase in ("forward", "backward"):
        runs = bc["phases"][phase]
        lines.append("bc %-8s %8.1f ms  %6.2f GB moved  (per source: %s ms)" % (
            phase, 1e3 * sum(r["seconds"] for r in runs), sum(r["total_bytes"] for r in runs) / 1e9,
            ", ".join("%.1f" % (1e3 * r["seconds"]) for r in runs)))
    lines.append("bfs from the same sources: %.1f ms (%s ms); bc %.1f ms = %.2f x (2 x bfs)" % (
        1e3 * sum(bfs), ", ".join("%.1f" % (1e3 * s) for s in bfs), 1e3 * bc["seconds"],
        bc["seconds"] / (2 * sum(bfs)) if bfs else float("nan")))
    return "\n".join(lines)


def pr_distance(path_a, path_b):
    """The L1 distance between two pagerank --output files ('vertex<TAB>value', same order)."""
    total, n = 0.0, 0
    with open(path_a) as a, open(path_b) as b:
        for la, lb in zip(a, b):
            va, vb = la.split(), lb.split()
            if va[0] != vb[0]:
                return "vertex order differs"
            total += abs(float(va[1]) - float(vb[1]))
            n += 1
    return "%.3g over %d vertices" % (total, n)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("table", choices=["timings", "ranks", "direction", "loop", "cache", "reorder", "peak",
                                          "cache-budget", "locality", "compressed", "bc-sources", "bc",
                                          "pr-distance"])
    parser.add_argument("args", nargs="*")
    a = parser.parse_args(argv)
    t, rest = a.table, a.args
    if t == "timings":
        out = timing_table(float(rest[0]) if rest and rest[0] else None, rest[1:])
    elif t == "cache-budget":
        out = cache_budget(*rest)
        if out is None:
            return 1
    elif t == "bc-sources":
        out = " ".join(str(s) for s in bc_sources(rest[0]))
    elif t == "bc":
        out = bc_report(rest[0], rest[1:])
    elif t in ("peak", "locality"):
        out = {"peak": peak_gbps, "locality": locality}[t](rest[0])
    elif t == "pr-distance":
        out = pr_distance(*rest)
    else:
        out = {"ranks": ranks_table, "direction": direction_table, "loop": loop_table, "cache": cache_table,
               "reorder": reorder_table, "compressed": compressed_values}[t](rest)
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
