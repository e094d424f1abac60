"""The suite's new-user set (issue 61): the ooc-run and partition-tool commands it builds, the
report's section against fixtures/golden/suite-new-user.md, and that a suite.json from before the
set renders as it did. fixtures/suite-new-user-summary.json is a CPU run of `suite.py --quick --sets
new-user --repeat 1` with the graphs swapped for small ones: kron10 as partition-tool generates it
by default (raw lists, today), road4k with --compress added to its spec to stand in for a default
that compresses, per-iteration figures left out, and urand26 as a suite with no time left lists it."""
import argparse
import json
import os
from types import SimpleNamespace

import pytest

import suite_report
import suite_sets
import suite_tools
from conftest import FIXTURES


def fixture(name):
    with open(os.path.join(FIXTURES, name)) as f:
        return json.load(f)


def golden(name):
    with open(os.path.join(FIXTURES, "golden", name)) as f:
        return f.read()


def test_the_section_sets_each_default_against_the_best_setting():
    assert suite_report.new_user_section(fixture("suite-new-user-summary.json")["new_user"]) == \
        golden("suite-new-user.md")


@pytest.mark.parametrize("name", ["suite-summary.json", "suite-loop-summary.json"])
def test_a_summary_from_before_the_set_renders_as_before(monkeypatch, tmp_path, name):
    monkeypatch.setattr(suite_report, "plots", lambda graphs, out: None)
    md = suite_report.report(fixture(name), str(tmp_path))
    tables = golden("suite-tables.md" if name == "suite-summary.json" else "suite-loop-tables.md")
    assert md.endswith("order. Edges in host memory unless marked in-memory.\n\n" + tables)
    assert "New user" not in md


def test_a_missing_best_run_leaves_the_ratio_empty():
    new_user = fixture("suite-new-user-summary.json")["new_user"]
    kron = new_user["graphs"][0]
    kron["runs"] = [r for r in kron["runs"] if (r["algorithm"], r["setting"]) != ("pagerank", "best")]
    default = min((r for r in kron["runs"] if r["algorithm"] == "pagerank" and r["place"] == "host"),
                  key=lambda r: r["seconds"])
    rows = suite_report.new_user_rows(kron, new_user["best"])
    assert rows[-1] == "| kron10 | raw | pagerank | host (`--in-memory off`) | %.1f | - |  |  | " \
        "`--priority off --tolerance 4.5e-4` | %.1e (1e-06), - | - |" % (default["seconds"] * 1e3,
                                                                       default["l1_to_reference"])


def test_a_rival_faster_than_the_default_is_its_best():
    new_user = fixture("suite-new-user-summary.json")["new_user"]
    kron = new_user["graphs"][0]
    default = min((r for r in kron["runs"] if (r["algorithm"], r["setting"], r["place"]) ==
                   ("cc", "default", "host")), key=lambda r: r["seconds"])
    faster = dict(default, setting="rival --cc labels", options=["--cc", "labels"],
                  seconds=default["seconds"] / 2)
    slower = dict(default, setting="rival --x", options=["--x"], seconds=default["seconds"] * 3)
    kron["runs"] += [faster, slower]
    row = [r for r in suite_report.new_user_rows(kron, new_user["best"]) if "| cc | host" in r][0]
    assert row == "| kron10 | raw | cc | host (`--in-memory off`) | %.1f | %.1f | 2.00 | yes | " \
        "`--cc labels` |  | same |" % (default["seconds"] * 1e3, faster["seconds"] * 1e3)


def test_the_lists_column_reads_partition_tool_info():
    assert suite_report.file_lists(None) == "?"
    assert suite_report.file_lists({"compressed": None}) == "raw"
    assert suite_report.file_lists({"compressed": {"only": True, "bytes_per_edge": 1.2}}) == "compressed only"
    assert suite_report.file_lists({"compressed": {"only": False, "bytes_per_edge": 1.861}}) == \
        "raw + compressed (1.86 B/edge)"


def fake_tools(calls, chosen=None):
    """suite_tools.run in place of partition-tool and ooc-run: records each command and writes what
    the tool would (the graph, info's JSON, the reference ranks, a --json of one run per algorithm,
    with `chosen`'s fields for its algorithm when no option was given)."""
    def run(cmd, **kw):
        calls.append(cmd)
        if cmd[1] == "generate":
            open(cmd[cmd.index("-o") + 1], "w").close()
        elif cmd[1] == "info":
            return SimpleNamespace(stdout=json.dumps({"format_version": 2, "file_bytes": 9, "vertices": 4,
                                                      "compressed": {"only": False, "bytes_per_edge": 1.9}}))
        elif "--output" in cmd:
            open(cmd[cmd.index("--output") + 1], "w").close()
        else:
            runs = [{"algorithm": a, "seconds": 1.0} for a in cmd[1].split(",")]
            if chosen and cmd[1] == ",".join(suite_sets.ALGORITHMS):
                for r in runs:
                    r.update(chosen.get(r["algorithm"], {}))
            with open(cmd[cmd.index("--json") + 1], "w") as f:
                json.dump({"vertices": 4, "edges": 8, "runs": runs}, f)
    return run


def new_user_on_kron26(monkeypatch, tmp_path, chosen=None):
    """The set on kron26 with fake_tools(calls, chosen) and the suite's own order and lists, which
    are not a new user's (--reorder sage, --compressed): the commands, the result, work and out."""
    calls = []
    monkeypatch.setattr(suite_tools, "run", fake_tools(calls, chosen))
    work, out = str(tmp_path / "work"), str(tmp_path / "out")
    os.makedirs(work)
    os.makedirs(out)
    args = argparse.Namespace(bin="B", work=work, out=out, repeat=1, tolerance=1e-3, reorder="sage",
                              compressed=True)
    name, spec = suite_sets.NEW_USER_FULL[0]
    return calls, suite_sets.bench_new_user(args, suite_tools.Clock(None), name, spec), work, out


def test_the_set_runs_each_algorithm_with_no_options_and_with_the_best(monkeypatch, tmp_path):
    # The suite's own order and lists are left out of the generate command.
    calls, result, work, out = new_user_on_kron26(monkeypatch, tmp_path)
    g, ref = work + "/kron26.oocg", work + "/kron26-pagerank-1e-7.tsv"
    tool, ooc = "B/tools/partition-tool/partition-tool", "B/tools/ooc-run/ooc-run"

    def ooc_run(i, algorithms, *options):
        return [ooc, algorithms, "--repeat", "1", "--json", "%s/kron26-new-user-%d.json" % (out, i), "-q",
                "--graph", g, "--pagerank-reference", ref, *options]

    host = ["--in-memory", "off"]
    assert calls == [
        [tool, "generate", "kron", "--scale", "26", "--edge-factor", "16", "--undirected", "--weights",
         "random:1-64", "-o", g, "-q"],
        [tool, "info", g, "--json"],
        [ooc, "pagerank", "--graph", g, "--tolerance", "1e-7", "-q", "--output", ref],
        ooc_run(0, "bfs,sssp,cc,pagerank"),
        ooc_run(1, "bfs", "--direction", "push"),
        ooc_run(2, "sssp", "--priority", "off"),
        ooc_run(3, "cc", "--cc", "labels"),
        ooc_run(4, "pagerank", "--priority", "off"),
        ooc_run(5, "bfs,sssp,cc,pagerank", *host),
        ooc_run(6, "bfs", *host, "--direction", "push"),
        ooc_run(7, "sssp", *host, "--priority", "off"),
        ooc_run(8, "cc", *host, "--cc", "labels"),
        ooc_run(9, "pagerank", *host, "--priority", "on"),
    ]
    assert result["file"] == {"format_version": 2, "file_bytes": 9,
                              "compressed": {"only": False, "bytes_per_edge": 1.9}}
    # Every algorithm's best is its default: no "best" runs, only the default's and the rivals'.
    assert [(r["algorithm"], r["setting"], r["place"], r["options"]) for r in result["runs"]][3:6] == [
        ("pagerank", "default", "default", []),
        ("bfs", "rival --direction push", "default", ["--direction", "push"]),
        ("sssp", "rival --priority off", "default", ["--priority", "off"])]
    assert len(result["runs"]) == 16
    assert result["skipped"] == [] and os.listdir(work) == []  # the graph and the reference deleted


def test_a_rival_the_default_chose_already_is_not_run(monkeypatch, tmp_path):
    # As on the CPU backend: the default place is out of core, where PageRank turns priority off,
    # and both places' bfs pushes (a graph without a pull side).
    calls, result, _, _ = new_user_on_kron26(monkeypatch, tmp_path, {"pagerank": {"priority": False},
                                                                    "bfs": {"direction": "push"}})
    rivals = [c[1:2] + c[c.index("--pagerank-reference") + 2:] for c in calls
              if "--pagerank-reference" in c][1:]
    assert rivals == [["sssp", "--priority", "off"], ["cc", "--cc", "labels"],
                      ["bfs,sssp,cc,pagerank", "--in-memory", "off"],
                      ["sssp", "--in-memory", "off", "--priority", "off"],
                      ["cc", "--in-memory", "off", "--cc", "labels"],
                      ["pagerank", "--in-memory", "off", "--priority", "on"]]
    assert result["skipped"] == [
        {"runs": "rival --direction push (bfs)", "why": "the default ran with --direction push"},
        {"runs": "rival --priority off (pagerank)", "why": "the default ran with --priority off"},
        {"runs": "rival --direction push, --in-memory off (bfs)",
         "why": "the default ran with --direction push"}]


def test_a_graph_without_time_is_listed_and_not_generated(monkeypatch):
    monkeypatch.setattr(suite_sets, "generate", lambda *a, **k: pytest.fail("generated with no time left"))
    name, spec = suite_sets.NEW_USER_FULL[1]
    result = suite_sets.bench_new_user(argparse.Namespace(), suite_tools.Clock(0), name, spec)
    assert result == fixture("suite-new-user-summary.json")["new_user"]["graphs"][2]


def test_sets_and_graphs_choose_what_runs():
    def chosen(quick=False, sets=",".join(suite_sets.SETS), graphs=None):
        args = argparse.Namespace(quick=quick, sets=sets, graphs=graphs)
        sets = suite_sets.chosen_sets(argparse.ArgumentParser(), args)
        return {s: [name for name, _ in g] for s, g in sets.items() if g}

    assert chosen() == {"main": ["grid1k", "kron24", "kron26", "urand26"], "directed": ["kron24-directed"],
                        "high-diameter": ["grid4k", "road24m"],
                        "new-user": ["kron26", "urand26", "grid4k", "road24m"]}
    assert chosen(sets="new-user", graphs="urand26") == {"new-user": ["urand26"]}
    assert chosen(quick=True, sets="new-user") == {"new-user": ["kron22", "urand22", "grid1k", "road1m"]}
    for sets, graphs in [("new-users", None), ("new-user", "kron24")]:
        with pytest.raises(SystemExit):
            chosen(sets=sets, graphs=graphs)
