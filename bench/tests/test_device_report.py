"""bench/device_report.py against what the Python embedded in the old scripts/device/run.sh
printed on the same fixture outputs (fixtures/golden/, made with that code)."""
import os
import shutil

import pytest

import device_report as dr
from conftest import FIXTURES


def golden(name):
    with open(os.path.join(FIXTURES, "golden", name)) as f:
        return f.read().rstrip("\n")


@pytest.fixture
def results(tmp_path):
    """The fixtures under the names the cache and reorder tables read their settings from."""
    for name in os.listdir(FIXTURES):
        if name.endswith(".json"):
            shutil.copy(os.path.join(FIXTURES, name), tmp_path / name)
    for copy, source in [("k-cache-bfs-0", "k-policies"), ("k-cache-bfs-50", "k-2ranks"),
                         ("k-cache-pagerank_tol1e-3-0", "k-policies"), ("reorder-kron-hub", "k-policies"),
                         ("reorder-kron-sage", "k-2ranks"), ("reorder-grid-hub", "k-direction-inmemory"),
                         ("k-compressed-off", "k-policies"), ("k-compressed-on", "k-2ranks")]:
        shutil.copy(tmp_path / (source + ".json"), tmp_path / (copy + ".json"))
    return tmp_path


def paths(d, *names):
    return [str(d / (n + ".json")) for n in names]


def test_timing_table(results):
    assert dr.timing_table(55.13, paths(results, "k-policies", "k-direction-inmemory", "k-2ranks")) == \
        golden("timings.txt")
    assert dr.timing_table(None, paths(results, "k-policies")) == golden("timings-no-peak.txt")


def test_timing_table_says_which_file_it_cannot_read(results):
    assert dr.timing_table(None, paths(results, "missing")).splitlines()[1].startswith("missing          unreadable:")


def test_ranks_table(results):
    assert dr.ranks_table(paths(results, "k-policies", "k-2ranks", "missing")) == golden("ranks.txt")


def test_cache_table(results):
    assert dr.cache_table(paths(results, "k-cache-bfs-0", "k-cache-bfs-50", "k-cache-pagerank_tol1e-3-0")) == \
        golden("cache.txt")


def test_direction_table(results):
    assert dr.direction_table(paths(results, "k-direction-inmemory", "k-policies", "missing")) == \
        golden("direction.txt")


def test_reorder_table(results):
    assert dr.reorder_table(paths(results, "reorder-kron-hub", "reorder-kron-sage", "reorder-grid-hub")) == \
        golden("reorder.txt")


def test_compressed_values(results):
    assert dr.compressed_values(paths(results, "k-compressed-off", "k-compressed-on")) == golden("compressed.txt")


def test_bc_report(results):
    assert dr.bc_report(str(results / "k-bc.json"), paths(results, "k-policies", "k-direction-inmemory")) == \
        golden("bc.txt")
    assert dr.bc_sources(str(results / "k-bc.json")) == [60, 411]


@pytest.mark.parametrize("plan,expected", [("k-policies", "cache-budget.txt"),
                                           ("k-cacheplan-compressed", "cache-budget-compressed.txt")])
def test_cache_budget(results, plan, expected):
    for line in golden(expected).splitlines():
        algo, share, of, budget = line.split()
        assert dr.cache_budget(str(results / (plan + ".json")), str(results / "info.json"), algo, share, of) == \
            int(budget), line
    assert dr.cache_budget(str(results / "k-bc.json"), str(results / "info.json"), "bfs", "0", "raw") is None


def test_peak_and_locality(results):
    assert dr.peak_gbps(str(results / "pcie.json")) == 55.13
    assert dr.locality(str(results / "loc.json")).endswith("list by list")


def test_all_gpus_link(results, tmp_path):
    assert dr.all_gpus_link([str(tmp_path / "none.json"), str(results / "pcie.json")]) == \
        "pinned H2D, 2 GPUs at once: 102.74 GB/s, 51.37 a link"
    (tmp_path / "one.json").write_text('{"rows": [{"device": 0, "pattern": "pinned H2D", "gbps": 55.1}]}')
    assert dr.all_gpus_link([str(tmp_path / "one.json")]).endswith("not measured (one GPU)")
    assert dr.all_gpus_link([str(tmp_path / "none.json")]).endswith("no pcie-bench results")


def test_pr_distance():
    a, b, c = (os.path.join(FIXTURES, "pr-%s.tsv" % x) for x in "abc")
    assert dr.pr_distance(a, b) == golden("pr-distance.txt")
    assert dr.pr_distance(a, c) == "vertex order differs"


def test_cli_prints_the_table(results, capsys):
    assert dr.main(["direction", *paths(results, "k-direction-inmemory", "k-policies", "missing")]) == 0
    assert capsys.readouterr().out.rstrip("\n") == golden("direction.txt")
    assert dr.main(["cache-budget", str(results / "k-bc.json"), str(results / "info.json"), "bfs", "0", "raw"]) == 1
