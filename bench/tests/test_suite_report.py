"""bench/suite_report.py's tables against the ones bench/suite.py wrote before the split
(fixtures/golden/suite-tables.md, made with that code from fixtures/suite-summary.json), and the
high-diameter graphs' host loop against the frontier loop (fixtures/suite-loop-summary.json: a
CPU run of suite.py's quick code on a 32x32 grid and a road graph of 4,096 vertices, per-iteration
figures and the grid's other runs left out, and road24m as a suite with no time left lists it)."""
import argparse
import json
import os
import subprocess
import sys

import pytest

import suite_report
import suite_sets
import suite_tools
from conftest import BENCH, FIXTURES


def graphs_of(name):
    with open(os.path.join(FIXTURES, name)) as f:
        return json.load(f)["graphs"]


def tables(graphs):
    """suite.md without its heading and plots."""
    return suite_report.summary_table(graphs) + "\n" + suite_report.table(graphs, 50.0) + \
        suite_report.direction_section(graphs) + suite_report.loop_section(graphs) + \
        suite_report.multi_gpu_section(graphs)


def golden(name):
    with open(os.path.join(FIXTURES, "golden", name)) as f:
        return f.read()


def test_tables_match_the_suite_before_the_split():
    assert tables(graphs_of("suite-summary.json")) == golden("suite-tables.md")


def test_a_summary_without_loop_runs_has_no_loop_section():
    assert suite_report.loop_section(graphs_of("suite-summary.json")) == ""


def test_the_loop_section_sets_the_host_loop_against_the_frontier_loop():
    assert tables(graphs_of("suite-loop-summary.json")) == golden("suite-loop-tables.md")


def test_the_loop_section_marks_a_run_that_is_missing():
    road = graphs_of("suite-loop-summary.json")[1]
    host = next(r for r in road["runs"] if r["algorithm"] == "bfs" and r["transfer"] == suite_report.HOST_LOOP)
    graph = {"name": "g", "edges": road["edges"], "runs": [dict(host, in_memory=True)], "skipped": []}
    assert suite_report.loop_section([graph]).splitlines()[-1] == \
        "| g | bfs | GPU memory | %.1f | - |  | 123 (0), - | 1.00, - |  |" % (host["seconds"] * 1e3)


def test_loop_variants_name_each_run_by_the_loop_it_had(monkeypatch):
    # The road graph's runs as ooc-run writes them (policy "hybrid"), for both places.
    road = graphs_of("suite-loop-summary.json")[1]
    calls = []

    def ooc_run(args, clock, label, path, algorithms, *options):
        calls.append((algorithms, list(options)))
        return {"runs": [dict(r, transfer="hybrid") for r in road["runs"]], "vertices": 4096,
                "edges": road["edges"]}, None

    monkeypatch.setattr(suite_sets, "ooc_run", ooc_run)
    result = {"runs": [], "skipped": []}
    graph = ["--graph", "road.oocg"]
    suite_sets.loop_variants(argparse.Namespace(out="out"), None, "road4k", result, graph,
                             graph + ["--in-memory", "off"])
    loops = ["--frontier-loop", "off,65536"]
    assert calls == [("bfs,sssp", graph + ["--in-memory", "off", "--transfer", "hybrid"] + loops),
                     ("bfs,sssp", graph + loops)]
    named = {(r["frontier_loop"]["edges"], r["transfer"]) for r in result["runs"]}
    assert named == {(0, suite_report.HOST_LOOP), (65536, suite_report.FRONTIER_LOOP)}


def test_a_high_diameter_graph_without_time_is_listed_and_not_generated(monkeypatch):
    monkeypatch.setattr(suite_sets, "generate", lambda *a, **k: pytest.fail("generated with no time left"))
    name, spec = suite_sets.HIGH_DIAMETER_FULL[1]
    result = suite_sets.bench_high_diameter(argparse.Namespace(), suite_tools.Clock(0), name, spec)
    assert result == graphs_of("suite-loop-summary.json")[2]


def test_suite_help_runs():
    out = subprocess.run([sys.executable, os.path.join(BENCH, "suite.py"), "--help"], capture_output=True,
                         text=True, check=True).stdout
    assert "--from-json" in out
