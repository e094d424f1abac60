"""Reading what ooc-run --json and partition-tool info --json write, for bench/suite.py and
bench/device_report.py: a file's runs, and the fastest run of each setting."""
import json


def load_runs(path):
    """The "runs" of an ooc-run --json file (raises OSError, ValueError or KeyError)."""
    with open(path) as f:
        return json.load(f)["runs"]


def fastest(runs, key):
    """{key(run): the run with the fewest seconds among those with that key}, in first-seen order."""
    best = {}
    for r in runs:
        k = key(r)
        if k not in best or r["seconds"] < best[k]["seconds"]:
            best[k] = r
    return best
