"""The engine's options from Python: direction (over a symmetric graph's edges and a directed
graph's in-edges), pull blocks, cc's algorithm, PageRank's push rule and accuracy, resident
slices and the frontier loop."""

import numpy as np
import pytest

import oocgraph


@pytest.mark.parametrize("direction", ["pull", "auto"])
def test_pulling_gives_the_pushed_values(backend, direction):
    g = oocgraph.generate("kron", scale=10, undirected=True, weights="random:1-64",
                          backend=backend, partition_bytes=4096, in_memory=False)
    levels = g.bfs(0, direction=direction)
    np.testing.assert_array_equal(levels, g.bfs(0))
    assert levels.stats["direction"] == direction
    if direction == "pull":  # every iteration with vertices left to gather pulls
        assert 0 < levels.stats["pull_iterations"] <= levels.stats["iterations"]
    np.testing.assert_array_equal(g.cc(direction=direction), g.cc())
    np.testing.assert_array_equal(g.sssp(0, direction=direction), g.sssp(0))
    pulled = g.pagerank(tolerance=1e-9, direction=direction)
    assert np.abs(pulled - g.pagerank(tolerance=1e-9)).sum() < 1e-4
    assert g.bfs(0).stats["direction"] == "auto"  # the engine's own setting is put back


def test_cache_blocks_give_the_unblocked_values(backend):
    # In GPU memory the gathers run in 3 ranges of source ids (the CPU backend never blocks).
    # cc by label propagation, which pulls (Afforest's pass pushes).
    g = oocgraph.generate("kron", scale=10, undirected=True, backend=backend, pull_blocks=3,
                          cc="labels")
    blocked = g.cc(direction="pull")
    assert blocked.stats["pull_blocks"] == (3 if backend == "cuda" else 1)
    np.testing.assert_array_equal(blocked, g.cc())


def test_cc_runs_afforest_by_default_and_labels_when_asked(backend):
    afforest = oocgraph.generate("kron", scale=10, undirected=True, backend=backend).cc()
    labels = oocgraph.generate("kron", scale=10, undirected=True, backend=backend,
                               cc="labels").cc()
    assert afforest.stats["method"] == "afforest"
    assert labels.stats["method"] == "labels"
    np.testing.assert_array_equal(afforest, labels)
    assert afforest.stats["edges_processed"] < labels.stats["edges_processed"]
    with pytest.raises(ValueError, match=r"unknown cc algorithm 'fast'"):
        oocgraph.generate("chain", vertices=5, backend=backend, cc="fast")


def test_pagerank_takes_the_push_rule_asked_for(backend):
    g = oocgraph.generate("kron", scale=10, undirected=True, backend=backend)
    assert g.pagerank(tolerance=1e-4).stats["method"] == "per-edge"  # auto: kron's hubs
    per_edge = g.pagerank(tolerance=1e-4, push="per-edge")
    per_vertex = g.pagerank(tolerance=1e-4, push="per-vertex")
    assert per_edge.stats["method"] == "per-edge"
    assert per_vertex.stats["method"] == "per-vertex"
    assert per_edge.stats["edges_processed"] < per_vertex.stats["edges_processed"]
    assert float(np.abs(per_edge - per_vertex).sum()) < 2e-3
    with pytest.raises(ValueError, match=r"unknown push rule 'per-hub'"):
        g.pagerank(push="per-hub")


def test_pagerank_by_accuracy_reports_the_tolerance_and_the_bound(backend):
    g = oocgraph.generate("kron", scale=10, undirected=True, backend=backend)
    converged = g.pagerank(tolerance=1e-10)
    for l1 in (1e-2, 1e-4):
        ranks = g.pagerank(l1=l1)
        assert 0 < ranks.stats["l1_bound"] <= l1
        assert ranks.stats["tolerance"] > 0
        assert float(np.abs(ranks - converged).sum()) <= l1
    at_tolerance = g.pagerank(tolerance=1e-3)
    assert at_tolerance.stats["tolerance"] == pytest.approx(1e-3)
    assert at_tolerance.stats["l1_bound"] > 0
    with pytest.raises(ValueError, match="give tolerance or l1, not both"):
        g.pagerank(tolerance=1e-4, l1=1e-3)
    with pytest.raises(ValueError, match=r"l1 must lie between 0 and 2 \(got 2.0\)"):
        g.pagerank(l1=2.0)
    with pytest.raises(ValueError, match=r"an L1 distance of 1e-07 is not between 1.02e-06"):
        g.pagerank(l1=1e-7)
    with pytest.raises(TypeError, match="l1 must be a float, not str"):
        g.pagerank(l1="tight")
    if backend == "cpu":  # the CPU adds a hub's messages one by one
        # A star's hub sums 2^17 equal messages in float, which costs about 7e-4 of L1.
        leaves = 1 << 17
        star = oocgraph.from_edges(np.zeros(leaves, dtype=np.uint32),
                                   np.arange(1, leaves + 1, dtype=np.uint32), undirected=True,
                                   backend=backend)
        with pytest.warns(RuntimeWarning, match="above the 0.0001 asked for: float rounding"):
            star.pagerank(l1=1e-4)


def test_resident_slices_give_the_ranks_of_one_task(backend):
    # The option reaches the engine and its statistics (the CPU backend runs one task). A graph
    # this small has fewer active edges than a slice's minimum (EngineOptions::min_slice_edges,
    # 2^26), so both runs are one task here; the slicing itself is tested by the GPU gtests
    # CudaResidentSlices, which lift the minimum.
    g = oocgraph.generate("kron", scale=10, undirected=True, backend=backend,
                          partition_bytes=4096, resident_slices=3)
    sliced = g.pagerank(tolerance=1e-9)
    assert sliced.stats["resident_slices"] == (3 if backend == "cuda" else 1)
    one = oocgraph.generate("kron", scale=10, undirected=True, backend=backend,
                            partition_bytes=4096, resident_slices=1).pagerank(tolerance=1e-9)
    assert one.stats["resident_slices"] == 1
    assert np.abs(sliced - one).sum() < 1e-4
    with pytest.raises(ValueError, match=r"resident slices must be from 1 to 256 \(got 0\)"):
        oocgraph.generate("chain", vertices=5, backend=backend, resident_slices=0)


def test_the_frontier_loop_runs_a_chains_levels(backend):
    # A chain's levels are a vertex each: with the loop (the default) every iteration runs in it,
    # with frontier_loop=0 none does, and the levels are the same.
    on = oocgraph.generate("chain", vertices=300, backend=backend).bfs(0)
    off = oocgraph.generate("chain", vertices=300, backend=backend, frontier_loop=0).bfs(0)
    assert on.stats["frontier_loop"]["iterations"] == len(on.stats["per_iteration"]) > 0
    assert on.stats["frontier_loop"]["edges"] == 65536
    assert off.stats["frontier_loop"]["iterations"] == 0
    assert np.array_equal(on, off)
    # Hops (CUDA): 4 by default for BFS in GPU memory, the same levels in fewer of the loop's
    # than with none; none on the CPU backend.
    assert on.stats["frontier_loop"]["hops"] == (4 if backend == "cuda" else 0)
    level_by_level = oocgraph.generate("chain", vertices=300, backend=backend,
                                       frontier_loop_hops=0).bfs(0)
    assert np.array_equal(level_by_level, on)
    assert level_by_level.stats["frontier_loop"]["hops"] == 0
    if backend == "cuda":
        assert len(on.stats["per_iteration"]) < len(level_by_level.stats["per_iteration"])
    with pytest.raises(ValueError, match=r"frontier loop hops must be from 0 to 4, or automatic "
                                         r"\(got 5\)"):
        oocgraph.generate("chain", vertices=5, backend=backend, frontier_loop_hops=5)
    with pytest.raises(TypeError, match="frontier_loop_hops"):
        oocgraph.generate("chain", vertices=5, backend=backend, frontier_loop_hops="many")


def test_a_directed_graph_pulls_over_its_in_edges(tmp_path, backend):
    # Directed Kronecker with in-edges: pulling and auto give the pushed levels and distances,
    # PageRank within its tolerance; the file written keeps them (format version 4).
    path = tmp_path / "directed.oocg"
    g = oocgraph.generate("kron", scale=10, weights="random:1-64", in_edges=True,
                          output=str(path), backend=backend)
    levels = g.bfs()  # from the highest-degree vertex
    for direction in ("pull", "auto"):
        pulled = g.bfs(direction=direction)
        if direction == "pull":
            assert pulled.stats["pull_iterations"] > 0
        np.testing.assert_array_equal(pulled, levels)
        np.testing.assert_array_equal(g.sssp(direction=direction), g.sssp())
        ranks = g.pagerank(direction=direction, tolerance=1e-6)
        assert np.abs(ranks - g.pagerank(tolerance=1e-6)).sum() < 1e-4
    reloaded = oocgraph.load(str(path), backend=backend)
    np.testing.assert_array_equal(reloaded.bfs(direction="pull"), levels)


def test_priority_is_chosen_per_program_unless_asked(backend):
    # "auto", the default: off for PageRank out of core, on for BFS; True or False, per graph or
    # per run, as asked.
    g = oocgraph.generate("kron", scale=8, undirected=True, backend=backend, in_memory=False)
    assert not g.pagerank().stats["priority"]
    assert g.bfs(0).stats["priority"]
    assert g.pagerank(priority=True).stats["priority"]
    assert not g.bfs(0, priority=False).stats["priority"]
    assert g.bfs(0, priority="auto").stats["priority"]
    off = oocgraph.generate("kron", scale=8, undirected=True, backend=backend, priority=False)
    assert not off.bfs(0).stats["priority"]
    asked = oocgraph.generate("kron", scale=8, undirected=True, backend=backend, priority="auto",
                              in_memory=False)
    assert not asked.pagerank().stats["priority"]
