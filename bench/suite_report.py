"""suite.md and the plots from the suite's summary (what suite.json holds): the tables of
bench/suite.py, apart from the runs so that `--from-json` and the tests need no GPU."""
import os

from ooc_json import fastest

POLICIES = ["hybrid", "filter", "compaction", "zerocopy", "unified"]
ALGORITHMS = ["bfs", "sssp", "cc", "pagerank"]
OTHER_MAPPINGS = ["warp", "ordered", "decompose", "hierarchical"]  # --load-balance beside the default, tiled
DIRECTED_ALGORITHMS = "bfs,sssp,pagerank"
LOOP_ALGORITHMS = "bfs,sssp"  # the high-diameter runs: every level from the host, then the frontier loop
HOST_LOOP, FRONTIER_LOOP = "hybrid, host loop", "hybrid, frontier loop"  # their policies in the tables

SINGLE = ["filter", "compaction", "zerocopy"]  # the single policies hybrid must beat (unified aside)
# The new-user set (issue 61): each run's "setting" and "place" (where its edges were asked to be).
NEW_USER_SETTINGS = ["default", "best"]
NEW_USER_PLACES = ["default", "host"]  # ooc-run's own choice, and --in-memory off
NEW_USER_BAR = 1.05  # issue 61: a default within 5% of the best setting's time


def best_runs(graph):
    """One entry per (algorithm, transfer, priority, in_memory, load balance): the fastest of its repeats."""
    return fastest(graph["runs"], lambda r: (r["algorithm"], r["transfer"], r["priority"], r["in_memory"],
                                             r.get("load_balance", "")))


def check(graph):
    """Exact algorithms: every run's values (any policy, priority or mapping) must have the same digest."""
    verdict = {}
    for algorithm in ["bfs", "sssp", "cc"]:
        digests = {r["values_digest"] for r in graph["runs"] if r["algorithm"] == algorithm}
        verdict[algorithm] = "agree" if len(digests) == 1 else "DIFFER"
    verdict["pagerank"] = "-"
    return verdict


def table(graphs, peak):
    lines = ["| graph | algorithm | policy | priority | mapping | time (ms) | iterations | bytes moved | GB/s | "
             "% of peak | x lower bound | runs agree | PageRank L1 to 1e-7 |", "|" + "---|" * 13]
    for g in graphs:
        verdict = check(g)
        for key, r in sorted(best_runs(g).items()):
            algorithm, transfer, priority, in_memory, mapping = key
            seconds = r["seconds"]
            gbs = r["total_bytes"] / seconds / 1e9 if seconds > 0 else 0
            bound = ""
            if algorithm == "bfs" and "reached_edges" in r:
                lower = 4 * r["reached_edges"] / (peak * 1e9)
                bound = "%.2f" % (seconds / lower) if lower > 0 else ""
            policy = transfer + (" (in-memory)" if in_memory else "")
            l1 = "%.2e" % r["l1_to_reference"] if "l1_to_reference" in r else ""
            lines.append("| %s | %s | %s | %s | %s | %.1f | %d | %.2f GB | %.1f | %.0f%% | %s | %s | %s |" % (
                g["name"], algorithm, policy, "on" if priority else "off", mapping, seconds * 1e3,
                r["iterations"], r["total_bytes"] / 1e9, gbs, 100 * gbs / peak, bound, verdict[algorithm], l1))
        for skipped in g["skipped"]:
            lines.append("| %s | %s | | | | skipped: %s | | | | | | | |" % (g["name"], skipped["runs"], skipped["why"]))
    return "\n".join(lines) + "\n"


def summary_table(graphs):
    """Hybrid against the best single policy, and the tiled mapping against each other one (hybrid)."""
    lines = ["| graph | algorithm | hybrid (ms) | best single policy (ms) | hybrid / best single | "
             "hybrid / filter | " + " | ".join("tiled / " + m for m in OTHER_MAPPINGS) + " |",
             "|" + "---|" * (6 + len(OTHER_MAPPINGS))]
    for g in graphs:
        best = best_runs(g)
        for algorithm in ALGORITHMS:
            time_of = {p: best[(algorithm, p, True, False, "tiled")]["seconds"] for p in POLICIES
                       if (algorithm, p, True, False, "tiled") in best}
            others = [best.get((algorithm, "hybrid", True, False, m)) for m in OTHER_MAPPINGS]
            if "hybrid" not in time_of or not any(p in time_of for p in SINGLE):
                continue
            single = min((p for p in SINGLE if p in time_of), key=time_of.get)
            hybrid = time_of["hybrid"]
            lines.append("| %s | %s | %.1f | %s %.1f | %.2f | %s | %s |" % (
                g["name"], algorithm, hybrid * 1e3, single, time_of[single] * 1e3, hybrid / time_of[single],
                "%.2f" % (hybrid / time_of["filter"]) if "filter" in time_of else "",
                " | ".join("%.2f" % (hybrid / o["seconds"]) if o else "" for o in others)))
    return "\n".join(lines) + "\n"


def direction_section(graphs):
    """The directed graphs: push, pull over the in-lists and auto, out of core and in GPU memory."""
    directed = [g for g in graphs if g.get("directed")]
    if not directed:
        return ""
    labels = [("push", "hybrid"), ("pull", "hybrid, pull"), ("auto", "hybrid, direction auto")]
    lines = ["| graph | algorithm | edges | " + " | ".join("%s (ms)" % d for d, _ in labels) +
             " | auto / push | pull / push |", "|" + "---|" * (3 + len(labels) + 2)]
    for g in directed:
        best = best_runs(g)
        for algorithm in DIRECTED_ALGORITHMS.split(","):
            for in_memory in [False, True]:
                runs = [best.get((algorithm, label, True, in_memory, "tiled")) for _, label in labels]
                if runs[0] is None:
                    continue
                push = runs[0]["seconds"]
                cells = ["%.1f" % (r["seconds"] * 1e3) + (" (L1 %.1e)" % r["l1_to_reference"]
                                                          if "l1_to_reference" in r else "") if r else ""
                         for r in runs]
                ratios = ["%.2f" % (r["seconds"] / push) if r and push > 0 else "" for r in (runs[2], runs[1])]
                lines.append("| %s | %s | %s | %s | %s |" % (g["name"], algorithm, "GPU memory" if in_memory
                                                            else "host (hybrid)", " | ".join(cells),
                                                            " | ".join(ratios)))
    return "\n## Directed graphs: push, pull over the in-lists, auto\n\nFastest of the repeats; bfs and " \
           "sssp values must agree across the three (the main table's last columns).\n\n" + \
        "\n".join(lines) + "\n"


def loop_cells(host, loop, edges):
    """One loop-table row's figures from its host-loop and frontier-loop runs (either may be None)."""
    def each(figure):  # of both runs, the host loop's first; "-" for a missing one
        return ", ".join(figure(r) if r else "-" for r in (host, loop))

    both = host and loop
    return ["%.1f" % (r["seconds"] * 1e3) if r else "-" for r in (host, loop)] + [
            "%.2f" % (host["seconds"] / loop["seconds"]) if both and loop["seconds"] > 0 else "",
            each(lambda r: "%d (%d)" % (r["iterations"], (r.get("frontier_loop") or {}).get("iterations", 0))),
            each(lambda r: "%.2f" % (r["edges_processed"] / edges) if edges else ""),
            ("same" if host["values_digest"] == loop["values_digest"] else "DIFFER") if both else ""]


def loop_section(graphs):
    """The high-diameter runs: per graph, algorithm and where the edges are, the host loop against
    the frontier loop (fastest repeats), or nothing when the summary has none."""
    lines = ["| graph | algorithm | edges | host loop (ms) | frontier loop (ms) | speed-up | iterations (in the "
             "loop) | edges processed / E | values |", "|" + "---|" * 9]
    for g in graphs:
        pairs = {}
        for (algorithm, transfer, _, in_memory, _), r in best_runs(g).items():
            if transfer in (HOST_LOOP, FRONTIER_LOOP):
                pairs.setdefault((algorithm, in_memory), {})[transfer] = r
        for (algorithm, in_memory), pair in sorted(pairs.items()):
            cells = loop_cells(pair.get(HOST_LOOP), pair.get(FRONTIER_LOOP), g["edges"])
            lines.append("| %s | %s | %s | %s |" % (g["name"], algorithm, "GPU memory" if in_memory
                                                    else "host (hybrid)", " | ".join(cells)))
    if len(lines) == 2:
        return ""
    return "\n## High-diameter graphs: the host loop against the frontier loop\n\nbfs and sssp with " \
           "`--frontier-loop off,65536` in one ooc-run: every level from the host, then the frontier loop " \
           "(docs/cost-model.md#the-frontier-loop); fastest of the repeats (-: not run). Speed-up: host-loop " \
           "time / frontier-loop time. Iterations and edges: the host loop's, then the frontier loop's; in " \
           "brackets the iterations the loop ran. E: the graph's edges (1.00: each once). Values: the loop's " \
           "digest against the host loop's.\n\n" + \
        "\n".join(lines) + "\n"


def file_lists(file):
    """A generated file's lists, from what partition-tool info --json said of them ("?": not known)."""
    if not file:
        return "?"
    c = file.get("compressed")
    if c is None:
        return "raw"
    return "compressed only" if c.get("only") else "raw + compressed (%.2f B/edge)" % c["bytes_per_edge"]


def pagerank_accuracy(r):
    """A PageRank run's L1 to the reference and, in brackets, the tolerance it ran at ("-": no run)."""
    if r is None:
        return "-"
    l1 = "%.1e" % r["l1_to_reference"] if "l1_to_reference" in r else "no L1"
    return l1 + (" (%g)" % r["tolerance"] if "tolerance" in r else "")


def new_user_cells(algorithm, place, default, chosen, options):
    """One new-user row's cells after the graph's: the default's run against the best setting's
    (either may be None; options None where the summary names no best setting)."""
    either = default or chosen
    where = "host (`--in-memory off`)" if place == "host" else \
        "default: %s" % ("GPU memory" if either["in_memory"] else "out of core")
    ratio = default["seconds"] / chosen["seconds"] if default and chosen and chosen["seconds"] > 0 else None
    return [algorithm, where] + ["%.1f" % (r["seconds"] * 1e3) if r else "-" for r in (default, chosen)] + [
        "%.2f" % ratio if ratio is not None else "",
        ("yes" if ratio > NEW_USER_BAR else "no") if ratio is not None else "",
        "`%s`" % " ".join(options) if options else "the default" if options is not None else "-",
        ", ".join(pagerank_accuracy(r) for r in (default, chosen)) if algorithm == "pagerank" else "",
        "-" if algorithm == "pagerank" or not (default and chosen) else
        "same" if default["values_digest"] == chosen["values_digest"] else "DIFFER"]


def new_user_rows(g, best):
    """A new-user graph's rows: per algorithm and place, the default's fastest run against the fastest
    other setting's, the best known's or a rival's (suite_sets.RIVALS; the default's own where there
    is neither), then what was skipped."""
    runs = fastest(g["runs"], lambda r: (r["algorithm"], r["setting"], r["place"]))
    lists = file_lists(g.get("file"))
    lines = []
    for algorithm in ALGORITHMS:
        known = best.get(algorithm, {}).get("options")
        for place in NEW_USER_PLACES:
            default = runs.get((algorithm, "default", place))
            others = [r for (a, setting, p), r in runs.items() if a == algorithm and p == place and
                      (setting.startswith("rival ") or (setting == "best" and known))]
            chosen = min(others, key=lambda r: r["seconds"]) if others else None if known else default
            options = chosen["options"] if others else known
            if default or chosen:
                cells = new_user_cells(algorithm, place, default, chosen, options)
                lines.append("| %s | %s | %s |" % (g["name"], lists, " | ".join(cells)))
    for skipped in g["skipped"]:
        lines.append("| %s | %s | %s | | skipped: %s | | | | | | |" % (g["name"], lists, skipped["runs"],
                                                                    skipped["why"]))
    return lines


def new_user_section(new_user):
    """The new-user set: each algorithm run with no options against the best setting known, per
    graph, or nothing when the summary has no such set (a suite.json from before it)."""
    if not new_user:
        return ""
    best = new_user["best"]
    lines = ["| graph | lists | algorithm | place | default (ms) | best (ms) | default / best | "
             "default > 5% slower | best setting | PageRank L1 to 1e-7 (tolerance): default, best | values |",
             "|" + "---|" * 11]
    for g in new_user["graphs"]:
        lines += new_user_rows(g, best)
    sources = ["- %s: %s — %s" % (a, "`%s`" % " ".join(best[a]["options"]) if best[a]["options"] else "the default",
                                  best[a]["source"]) for a in ALGORITHMS if a in best]
    return "\n## New user: defaults against the best settings\n\nEach graph generated as a user following " \
           "the README would (`partition-tool generate` with its defaults, `--undirected` and the suite's " \
           "weights; lists: what `partition-tool info --json` found in the file), then `ooc-run ALGORITHM " \
           "--graph G` with no options, where the engine chooses (GPU memory when the graph fits its " \
           "budget, else out of core with the edge cache) and with `--in-memory off` as the other tables' " \
           "runs, against the fastest other setting measured there: the best setting known, or a rival " \
           "(suite_sets.RIVALS: the other side of each choice the defaults make, e.g. `--direction push` " \
           "for bfs, `--cc labels` for cc, PageRank's priority the other way); fastest of the repeats " \
           "(-: not run). default / best: the default's time over that setting's (below 1: the default " \
           "won); issue 61's bar is 1.05. PageRank's default runs at " \
           "ooc-run's default tolerance: its L1 to a tolerance-1e-7 run (the tolerance in brackets) stands " \
           "beside the best setting's. " \
           "Values: bfs, sssp and cc digests, the default's against the best setting's. The best settings " \
           "(BEST_SETTINGS in bench/suite_sets.py) and where they were measured:\n\n" + "\n".join(sources) + \
        "\n\n" + "\n".join(lines) + "\n"


def multi_gpu_table(g):
    """A graph's multi-GPU runs against its 1-GPU hybrid run (priority on, tiled), fastest repeats."""
    m = g["multi_gpu"]
    n = m["gpus"]
    launches = [("devices", "one process"), ("mpirun", "MPI")]
    one = best_runs(g)
    fastest = {}
    for key, _ in launches:
        fastest[key] = {}
        for r in m.get(key, {}).get("runs", []):
            if r["algorithm"] not in fastest[key] or r["seconds"] < fastest[key][r["algorithm"]]["seconds"]:
                fastest[key][r["algorithm"]] = r
    columns = ["algorithm", "1 GPU (ms)", "%d GPUs, one process (ms)" % n, "speed-up", "%d MPI ranks (ms)" % n,
               "speed-up"]
    for _, short in launches:
        columns += ["GB moved per rank, %s" % short, "GB/s per rank, %s" % short,
                    "exchange (ms, max over ranks), %s" % short]
    columns.append("values = 1 GPU (one process / MPI)")
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for algorithm in ALGORITHMS:
        base = one.get((algorithm, "hybrid", True, False, "tiled"))
        runs = [fastest[key].get(algorithm) for key, _ in launches]
        if base is None and not any(runs):
            continue
        cells = [algorithm, "%.1f" % (base["seconds"] * 1e3) if base else ""]
        for r in runs:
            cells += ["%.1f" % (r["seconds"] * 1e3) if r else "",
                      "%.2f" % (base["seconds"] / r["seconds"]) if r and base and r["seconds"] > 0 else ""]
        for r in runs:
            ranks = (r.get("ranks") or [dict(r, rank=0, exchange_seconds=0)]) if r else []
            cells += [", ".join("%.2f" % (p["total_bytes"] / 1e9) for p in ranks),
                      ", ".join("%.1f" % (p["total_bytes"] / p["seconds"] / 1e9 if p["seconds"] > 0 else 0)
                                for p in ranks),
                      "%.1f" % (max(p["exchange_seconds"] for p in ranks) * 1e3) if ranks else ""]
        if algorithm == "pagerank":
            cells.append("within tolerance, not checked by digest")
        elif base is None:
            cells.append("no 1-GPU run")
        else:
            cells.append(" / ".join(("equal" if r["values_digest"] == base["values_digest"] else "DIFFER")
                                    if r else "-" for r in runs))
        lines.append("| " + " | ".join(cells) + " |")
    for key, label in [("devices", "%d GPUs, one process" % n), ("mpirun", "%d MPI ranks" % n)]:
        for state in ["skipped", "failed"]:
            if state in m.get(key, {}):
                why = m[key][state].replace("|", "/")
                lines.append("| %s | %s: %s |" % (label, state, why) + " |" * (len(columns) - 2))
    return "\n".join(lines) + "\n"


def multi_gpu_section(graphs):
    """Every graph's multi-GPU table, or nothing when the suite ran on one GPU (or predates --gpus)."""
    with_runs = [g for g in graphs if g.get("multi_gpu")]
    if not with_runs:
        return ""
    md = "\n## Several GPUs\n\nThe four algorithms with the options of the 1-GPU hybrid run (priority on, " \
         "tiled mapping, edges in host memory), from one process (`--devices`, a rank per GPU) and as MPI " \
         "ranks (`mpirun -np N`); fastest of the repeats. Speed-up: 1-GPU time / N-GPU time. Per rank, in " \
         "rank order: GB moved and GB moved / that rank's time. Exchange: the most time a rank spent " \
         "exchanging values (waiting for the others included). Values: the digest of bfs, sssp and cc against the 1-GPU hybrid run's.\n"
    for g in with_runs:
        md += "\n### %s, %d GPUs\n\n" % (g["name"], g["multi_gpu"]["gpus"]) + multi_gpu_table(g)
    return md


def plots(graphs, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    for g in graphs:
        best = best_runs(g)
        fig, axes = plt.subplots(1, len(ALGORITHMS), figsize=(4 * len(ALGORITHMS), 3.5))
        for ax, algorithm in zip(axes, ALGORITHMS):
            times = [best.get((algorithm, p, True, False, "tiled"), {}).get("seconds", 0) * 1e3 for p in POLICIES]
            ax.bar(POLICIES, times, color=["C0", "C1", "C2", "C3", "C4"])
            ax.set_title("%s %s" % (g["name"], algorithm))
            ax.set_ylabel("time (ms)")
            ax.tick_params(axis="x", rotation=45)
        fig.tight_layout()
        fig.savefig(os.path.join(out, "time-%s.png" % g["name"]), dpi=110)
        plt.close(fig)
    # Execution path of every graph: bytes per engine per iteration, hybrid, priority on, tiled.
    engines = ["filter", "compaction", "zerocopy"]
    for g in graphs:
        best = best_runs(g)
        fig, axes = plt.subplots(1, 2, figsize=(11, 3.8))
        for ax, algorithm in zip(axes, ["pagerank", "sssp"]):
            r = best.get((algorithm, "hybrid", True, False, "tiled"))
            if r is None:
                continue
            its = r["per_iteration"]
            bottom = [0.0] * len(its)
            for e in engines:
                mb = [i["bytes"][e] / 1e6 for i in its]
                ax.bar(range(len(its)), mb, bottom=bottom, label=e)
                bottom = [b + m for b, m in zip(bottom, mb)]
            ax.set_title("%s %s, hybrid: bytes per engine per iteration" % (g["name"], algorithm))
            ax.set_xlabel("iteration")
            ax.set_ylabel("MB over PCIe")
            ax.legend()
        fig.tight_layout()
        fig.savefig(os.path.join(out, "path-%s.png" % g["name"]), dpi=110)
        plt.close(fig)


def report(summary, out):
    """suite.md and the plots, from the summary that suite.json holds."""
    graphs, peak = summary["graphs"], summary["peak_gbps"]
    md = "# OocGraph benchmark suite\n\nGPU: %s. Measured pinned cudaMemcpy H2D peak: %.1f GB/s. " \
         "PageRank tolerance %g. Graphs in %s order. Edges in host memory unless marked in-memory.\n\n" % (
             summary["gpu"], peak, summary["tolerance"], summary.get("reorder", "hub")) + summary_table(graphs) + "\n" + table(graphs, peak) + \
        direction_section(graphs) + loop_section(graphs) + multi_gpu_section(graphs) + \
        new_user_section(summary.get("new_user"))
    open(os.path.join(out, "suite.md"), "w").write(md)
    plots(graphs, out)
    return md
