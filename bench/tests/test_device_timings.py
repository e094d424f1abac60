"""scripts/device/timings.json and run.sh's DRY_RUN: the commands of the main invocations
against those the old run.sh (every set written in bash) printed under DRY_RUN=1
(fixtures/dry-run/: `git show cafae28:scripts/device/run.sh`, its bounded() also echoing
"+ $*" to the terminal, run with DRY_RUN=1 RESULTS=/tmp/dr/results GRAPH=/tmp/dr/graph.oocg,
those paths then written as $RESULTS and $GRAPH). Not the python stage: what it runs depends
on whether the module was built."""
import os
import re
import subprocess

import pytest

import device_timings
from conftest import BENCH, FIXTURES

ROOT = os.path.dirname(BENCH)
DATA = device_timings.load_sets()
# Every set, in the order the old script's list had them (and the golden files were made with).
ALL = ("policies unified mappings pr-mappings inmemory priority pagerank pr-1e6 partsize k22 gpus rounds ranks "
       "cache slices calibration compressed compressed-direction bc direction pull-blocks direction-graphs "
       "in-edges reorder mapping-graphs scaling high-diameter")
CHANGED = dict(TIMINGS=ALL, COMPRESS="1", COMPRESSED_OTHERS="", CACHE_SLICES="4", REORDER_ROUNDS="3",
               REORDER_LOCALITY="0", DIRECTION_GRAPHS="urand bogus", REORDER_GRAPHS="grid foo", KRON_SCALE="20",
               CACHE_PR_TOLERANCES="1e-3 1e-4", REPEAT="5", MAPPINGS="warp", PART_SIZES="8MiB")


def step_kinds(steps):
    for s in steps:
        yield next((k for k in device_timings.Stage.KINDS if k in s), None)
        yield from step_kinds(s.get("steps", []))


@pytest.mark.parametrize("name", list(DATA["sets"]))
def test_every_set_has_help_and_known_steps(name):
    spec = DATA["sets"][name]
    assert spec["help"]
    assert None not in list(step_kinds(spec["steps"]))
    for s in spec["steps"]:
        if "call" in s:
            assert hasattr(device_timings.Stage, "set_" + s["call"])


def test_default_sets_exist():
    assert set(DATA["default"]) <= set(DATA["sets"])
    assert sorted(ALL.split()) == sorted(DATA["sets"])


def test_check_names_an_unknown_set(capsys):
    assert device_timings.main(["check", "policies", "nope"]) == 64
    assert "'nope'" in capsys.readouterr().err


def run_sh_variables():
    """The variables run.sh gives defaults (`: "${NAME:=...}"`), which its caller may have set."""
    with open(os.path.join(ROOT, "scripts/device/run.sh")) as f:
        return set(re.findall(r"\$\{(\w+):?=", f.read()))


def dry_run(tmp_path, stages, **env):
    """The '+ COMMAND' lines of DRY_RUN=1 run.sh STAGES, with the results folder and graph as
    $RESULTS and $GRAPH, and the suite's --time-limit (what is left of the budget) as N. run.sh's
    own variables are taken out of the environment first: on the GPU machine this test runs
    inside run.sh's tests stage, under whatever GPU_FILTER or BUDGET_S that call was given."""
    results, graph = str(tmp_path / "results"), str(tmp_path / "graph.oocg")
    caller = {k: v for k, v in os.environ.items() if k not in run_sh_variables()}
    run_env = dict(caller, DRY_RUN="1", RESULTS=results, OUT=str(tmp_path / "out"), GRAPH=graph, **env)
    p = subprocess.run(["bash", os.path.join(ROOT, "scripts/device/run.sh"), *stages], env=run_env,
                       capture_output=True, text=True, timeout=120)
    lines = [line.replace(results, "$RESULTS").replace(graph, "$GRAPH") for line in p.stdout.splitlines()
             if line.startswith("+ ")]
    assert os.path.exists(os.path.join(tmp_path, "out", "summary.txt"))
    return p.returncode, [normal(line) for line in lines]


def normal(line):
    """Without what depends on the machine: the suite's --time-limit (what is left of the
    budget) and /usr/bin/time, used where it is."""
    return re.sub(r"/usr/bin/time -v -o \S+ ", "", re.sub(r"--time-limit \d+", "--time-limit N", line))


def expected(name):
    with open(os.path.join(FIXTURES, "dry-run", name + ".txt")) as f:
        return [normal(line) for line in f.read().splitlines()]


@pytest.mark.parametrize("name,stages,env", [
    ("build-tests-timings", ["build", "tests", "timings"], {}),
    ("k22", ["timings"], {"TIMINGS": "k22"}),
    ("suite", ["suite"], {}),
    ("suite-full-2gpus", ["build", "suite"], {"SUITE": "full", "SUITE_GPUS": "2"}),
    ("sanitizers-pcie-microbench", ["sanitizers", "pcie", "microbench"], {}),
    ("every-set", ["timings"], {"TIMINGS": ALL}),
    ("every-set-changed", ["timings"], CHANGED),
])
def test_dry_run_runs_what_the_old_script_ran(tmp_path, name, stages, env):
    rc, lines = dry_run(tmp_path, stages, **env)
    old = expected(name)
    # The GPU test shards start at once, in no fixed order; everything else in the same order.
    assert sorted(lines) == sorted(old)
    assert [x for x in lines if "GTEST_SHARD" not in x] == [x for x in old if "GTEST_SHARD" not in x]


def test_unknown_stage_or_set_exits_64(tmp_path):
    for stages, env in [(["nope"], {}), (["timings"], {"TIMINGS": "policies nope"}), (["pcie"], {"PCIE": "x"})]:
        p = subprocess.run(["bash", os.path.join(ROOT, "scripts/device/run.sh"), *stages],
                           env=dict(os.environ, RESULTS=str(tmp_path / "r"), OUT=str(tmp_path / "o"), **env),
                           capture_output=True, text=True)
        assert p.returncode == 64, (stages, env, p.stderr)


def test_help_lists_every_set():
    out = subprocess.run(["bash", os.path.join(ROOT, "scripts/device/run.sh"), "--help"], capture_output=True,
                         text=True, check=True).stdout
    for name in DATA["sets"]:
        assert re.search(r"^  %s\s" % re.escape(name), out, re.M), name
    assert "TIMINGS        (%s)" % " ".join(DATA["default"]) in out


FAKE_OOC_RUN = """#!/bin/sh
# ooc-run's stand-in: the fixture's runs into --json, an empty --output, one summary line.
while [ $# -gt 0 ]; do
  case $1 in
    --json) cp "%(fixtures)s/k-policies.json" "$2"; shift ;;
    --output) : > "$2"; shift ;;
  esac
  shift
done
echo "bfs on CPU (2 threads) (hybrid): 0.1 s"
"""
FAKE_PARTITION_TOOL = """#!/bin/sh
# partition-tool's stand-in: generate writes the -o file, info --json the fixture's info.
case $1 in
  generate) while [ $# -gt 1 ]; do [ "$1" = -o ] && echo graph > "$2"; shift; done; echo "generated" ;;
  info) cat "%(fixtures)s/info.json" ;;
esac
"""


def test_sets_run_with_stand_in_tools(tmp_path):
    """The sets run for real (not DRY_RUN) on tools that write the fixtures: notes, the
    tables, the stage's note, and the set graphs deleted."""
    b = tmp_path / "build"
    for tool, text in [("ooc-run", FAKE_OOC_RUN), ("partition-tool", FAKE_PARTITION_TOOL)]:
        (b / "tools" / tool).mkdir(parents=True)
        path = b / "tools" / tool / tool
        path.write_text(text % {"fixtures": FIXTURES})
        path.chmod(0o755)
    results = tmp_path / "results"
    (results / "timings").mkdir(parents=True)
    env = {name: "" for name in ("CACHE_SLICES", "REORDER_ROUNDS", "COMPRESSED_OTHERS")}
    env.update(B=str(b), RESULTS=str(results), SUMMARY=str(results / "summary.txt"), KRON_SCALE="10",
               GRAPH=str(tmp_path / "graph.oocg"), REPEAT="1", MAPPINGS="tiled", CACHE_SHARES="0 50",
               CACHE_OF="stored", CACHE_REPEAT="1", CACHE_PR_TOLERANCES="1e-3", MAPPING_GRID="8x8",
               DIRECTION_GRID="8x8", DIRECTION_GRAPHS="grid", BUDGET_S="300")
    stage = device_timings.Stage(env, DATA)
    rc = stage.run(["policies", "direction", "cache", "direction-graphs"])
    summary = (results / "summary.txt").read_text()
    assert rc == 0, summary
    # No pcie-bench here: no peak, and no lower bound in the table.
    assert stage.stage_note == "sets: policies direction cache direction-graphs (graph kron-10, peak ? GB/s)"
    assert "pinned H2D peak: not measured GB/s" in summary
    assert "pagerank reference (tolerance 1e-7):" in summary
    assert "k10-policies         rc=0 " in summary
    assert "k10-cache-pagerank_tol1e-3-50" in summary
    assert "grid:\nalgo      edges      dir " in summary  # direction-graphs' table under its graph
    assert "\nset              algo     policy" in summary  # the timings table at the end
    assert not (tmp_path / "graph.oocg").exists()
    assert not os.path.exists("/tmp/ooc-direction-grid.oocg")
