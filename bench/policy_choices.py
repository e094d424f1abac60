#!/usr/bin/env python3
"""How hybrid's choices compare with each single transfer policy, run by run and iteration by
iteration, from ooc-run --json files of the same graph (docs/cost-model.md, "Calibration").

  python3 bench/policy_choices.py [--iterations ALGO] RUNS.json [MORE.json ...]

Each run is named by its policy and, for hybrid, by the constants it chose with: the file's
--calibration (off: the defaults) and --adapt-costs. Per algorithm it prints each hybrid run's
time against the best single policy's, and against the per-iteration best: the sum over
iterations of the fastest single policy's time for that iteration, which no fixed policy reaches
(an oracle that could switch policy every iteration). That sum is only defined when every single
policy ran the same number of iterations as the hybrid run (BFS, CC); otherwise the line says so.
--iterations ALGO adds that algorithm's table: per iteration, the active edges, each run's time
and which engines hybrid gave its partitions.
"""
import argparse
import json
import sys

SINGLE = ("filter", "compaction", "zerocopy")
ENGINES = ("filter", "compaction", "zerocopy", "resident")


def label(doc, run):
    if run["transfer"] != "hybrid":
        return run["transfer"]
    constants = doc.get("calibration") or "off"
    constants = "defaults" if constants == "off" else "calibration " + constants.split("/")[-1]
    return "hybrid, " + constants + (", adapted" if run.get("adapt_costs") else "")


def load(paths):
    runs = {}  # algorithm -> label -> the fastest run of that label
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        for run in doc["runs"]:
            by_label = runs.setdefault(run["algorithm"], {})
            name = label(doc, run)
            if name not in by_label or run["seconds"] < by_label[name]["seconds"]:
                by_label[name] = run
    return runs


def times(run):
    return [it["seconds"] for it in run["per_iteration"]]


def mix(it):
    parts = it["partitions"]
    return " ".join("%s%d" % (e[0], parts[e]) for e in ENGINES if parts.get(e))


def summary(algorithm, by_label):
    singles = {n: r for n, r in by_label.items() if n in SINGLE}
    hybrids = {n: r for n, r in by_label.items() if n.startswith("hybrid")}
    if not singles or not hybrids:
        return ["%s: needs hybrid and at least one single policy" % algorithm]
    best = min(singles, key=lambda n: singles[n]["seconds"])
    lines = ["%s: best single policy %s %.1f ms (%s)" % (
        algorithm, best, singles[best]["seconds"] * 1e3,
        ", ".join("%s %.1f" % (n, r["seconds"] * 1e3) for n, r in sorted(singles.items())))]
    for name, run in sorted(hybrids.items()):
        line = "  %-40s %9.1f ms, %4d iterations, %.2fx the best single policy" % (
            name, run["seconds"] * 1e3, len(run["per_iteration"]),
            run["seconds"] / singles[best]["seconds"])
        counts = {n: len(r["per_iteration"]) for n, r in singles.items()}
        if all(c == len(run["per_iteration"]) for c in counts.values()):
            oracle = sum(min(ts) for ts in zip(*(times(r) for r in singles.values())))
            line += ", %.2fx the per-iteration best (%.1f ms)" % (run["seconds"] / oracle,
                                                                   oracle * 1e3)
        else:
            line += "; no per-iteration best: iterations %s" % ", ".join(
                "%s %d" % (n, c) for n, c in sorted(counts.items()))
        if "l1_to_reference" in run:
            line += ", L1 %.2e" % run["l1_to_reference"]
        lines.append(line)
    return lines


def iteration_table(algorithm, by_label):
    names = sorted(by_label, key=lambda n: (not n.startswith("hybrid"), n))
    rows = ["| iteration | active edges | " + " | ".join(n + " ms" for n in names) +
            " | " + " | ".join(n + " engines" for n in names if n.startswith("hybrid")) + " |",
            "|---" * (2 + len(names) + sum(n.startswith("hybrid") for n in names)) + "|"]
    longest = max(len(r["per_iteration"]) for r in by_label.values())
    for i in range(longest):
        its = [by_label[n]["per_iteration"][i] if i < len(by_label[n]["per_iteration"]) else None
               for n in names]
        first = next(it for it in its if it is not None)
        cells = ["%.3f" % (it["seconds"] * 1e3) if it else "" for it in its]
        engines = [mix(it) if it else "" for n, it in zip(names, its) if n.startswith("hybrid")]
        rows.append("| %d | %d | %s | %s |" % (i, first["active_edges"], " | ".join(cells),
                                                " | ".join(engines)))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("json", nargs="+", help="ooc-run --json files")
    parser.add_argument("--iterations", action="append", default=[], metavar="ALGO",
                        help="print ALGO's per-iteration table (repeatable)")
    a = parser.parse_args()
    try:
        runs = load(a.json)
    except (OSError, ValueError, KeyError) as e:
        sys.exit("policy_choices.py: %s" % e)
    for algorithm in sorted(runs):
        print("\n".join(summary(algorithm, runs[algorithm])))
    for algorithm in a.iterations:
        if algorithm not in runs:
            sys.exit("policy_choices.py: no %s runs in the files" % algorithm)
        print("\n%s, per iteration (engines: f filter, c compaction, z zero-copy, r resident "
              "partitions)" % algorithm)
        print("\n".join(iteration_table(algorithm, runs[algorithm])))


if __name__ == "__main__":
    main()
