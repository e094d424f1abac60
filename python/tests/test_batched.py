"""Batched traversals: BFS from several sources, BC and closeness, each checked against the
single-source runs, a plain BFS harmonic sum or networkx, and their errors."""

import re

import numpy as np
import pytest

import oocgraph
from plain_bfs import UNREACHED, bfs_reference


def harmonic_reference(n, sources, targets, chosen):
    """Harmonic closeness by plain BFS: for each v, the sum over the chosen sources s != v that
    reach it of 1 / d(s, v)."""
    total = np.zeros(n)
    for s in chosen:
        levels = bfs_reference(n, sources, targets, s)
        for v in range(n):
            if v != s and levels[v] != UNREACHED:
                total[v] += 1.0 / int(levels[v])
    return total


@pytest.mark.parametrize("batch", [1, 3, 0])
def test_bfs_from_several_sources_gives_each_source_s_levels(backend, batch):
    # Directed, so that some vertices go unreached from some sources; out of core in small
    # partitions.
    g = oocgraph.generate("kron", scale=10, edge_factor=8, backend=backend,
                          partition_bytes=4096, in_memory=False)
    sources = [g.highest_degree_vertex()]
    sources += [v for v in (0, 3, 17, 100, 511, 1023) if v != sources[0]]
    levels = g.bfs(sources, batch=batch)
    assert isinstance(levels, oocgraph.Result)
    assert levels.shape == (len(sources), g.num_vertices)
    assert levels.dtype == np.uint32
    for row, source in zip(levels, sources):
        np.testing.assert_array_equal(row, g.bfs(source))
    assert (levels == UNREACHED).any()  # a directed graph: not every vertex is reached
    assert levels.converged
    assert levels.stats["algorithm"] == "bfs"
    assert levels.stats["batch"] == (batch or len(sources))  # 0: all 7 at once, they fit
    assert g.bfs(sources[0]).stats["batch"] == 0  # one source: not batched
    # Any iterable of ids; one source in a list still gives a row.
    np.testing.assert_array_equal(g.bfs(np.array(sources[:3]), batch=batch), levels[:3])
    np.testing.assert_array_equal(g.bfs(tuple(sources[1:3])), levels[1:3])
    np.testing.assert_array_equal(g.bfs([sources[4]]), levels[4:5])


def test_closeness_matches_a_plain_bfs_harmonic_sum(backend):
    # Directed: a cycle 0 -> 1 -> 2 -> 3 -> 0 with a tail 3 -> 4 -> 5, 6 -> 0, and vertex 7 alone.
    src = [0, 1, 2, 3, 3, 4, 6]
    dst = [1, 2, 3, 0, 4, 5, 0]
    n = 8
    g = oocgraph.from_edges(src, dst, num_vertices=n, backend=backend, hub_sort=None)
    every = list(range(n))
    exact = g.closeness(every)
    assert exact.dtype == np.float64 and exact.shape == (n,)
    np.testing.assert_allclose(exact, harmonic_reference(n, src, dst, every), rtol=1e-12)
    assert exact[6] == 0 and exact[7] == 0  # reached from no other vertex
    assert exact.stats["algorithm"] == "closeness" and exact.converged
    for batch in (1, 3):
        some = g.closeness([6, 2, 4], batch=batch)
        np.testing.assert_allclose(some, harmonic_reference(n, src, dst, [6, 2, 4]),
                                   rtol=1e-12)
        assert some.stats["batch"] == batch
    # The default: the highest-degree vertex (3) alone.
    np.testing.assert_allclose(g.closeness(), harmonic_reference(n, src, dst, [3]), rtol=1e-12)


def test_sampled_closeness_on_a_complete_graph(backend):
    # Every source is at distance 1 from every other vertex: k sampled sources give k to the
    # others and k - 1 to themselves, so the values show which were drawn.
    g = oocgraph.generate("complete", vertices=12, undirected=True, backend=backend)
    sampled = g.closeness(k=5, seed=7)
    assert sorted(sampled.tolist()) == [4.0] * 5 + [5.0] * 7
    drawn = np.flatnonzero(sampled == 4.0).tolist()
    np.testing.assert_array_equal(g.closeness(samples=5, seed=7), sampled)
    np.testing.assert_array_equal(g.closeness(drawn), sampled)
    assert not np.array_equal(g.closeness(k=5, seed=8), sampled)


def test_closeness_matches_networkx_harmonic_centrality(backend):
    nx = pytest.importorskip("networkx")
    G = nx.connected_watts_strogatz_graph(200, 4, 0.2, seed=6)
    G.add_edges_from([(500, 501)])  # a second component
    g = oocgraph.from_networkx(G, backend=backend)
    at = {node: i for i, node in enumerate(g.nodes)}
    values = g.closeness(range(g.num_vertices), batch=64)
    expected = nx.harmonic_centrality(G)
    for node, h in expected.items():
        assert values[at[node]] == pytest.approx(h, rel=1e-9), node


def test_bc_in_batches_gives_the_unbatched_values(backend):
    g = oocgraph.generate("kron", scale=9, undirected=True, backend=backend,
                          partition_bytes=4096, in_memory=False)
    sources = list(range(0, 400, 20))  # 20 sources
    whole = g.bc(sources)
    assert whole.stats["algorithm"] == "bc"
    # A source without out-edges (none of its row's levels is 1) takes no slot.
    reaching = int((g.bfs(sources) == 1).any(axis=1).sum())
    assert 0 < reaching < len(sources)
    assert whole.stats["batch"] == reaching
    for batch in (1, 3, 7):
        batched = g.bc(sources, batch=batch)
        assert batched.stats["batch"] == batch
        np.testing.assert_allclose(batched, whole, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(g.bc(k=6, seed=2, batch=4), g.bc(samples=6, seed=2), rtol=1e-4,
                               atol=1e-6)


def test_batched_traversals_and_cc_across_devices_give_one_engines_values():
    # Two ranks as threads of one engine (the CPU backend's devices): every rank runs every batch
    # over its own partitions, and their slots are combined after each level.
    def make(**kw):
        return oocgraph.generate("kron", scale=9, undirected=True, backend="cpu",
                                 partition_bytes=4096, in_memory=False, **kw)
    one, two = make(), make(devices=[0, 1])
    sources = list(range(0, 400, 20))
    np.testing.assert_allclose(two.bc(sources, batch=7), one.bc(sources, batch=7), rtol=1e-4,
                               atol=1e-6)
    np.testing.assert_allclose(two.closeness(sources), one.closeness(sources), rtol=1e-9)
    np.testing.assert_array_equal(two.bfs(sources[:5]), one.bfs(sources[:5]))
    # cc's Afforest too: the ranks merge their forests.
    cc = two.cc()
    assert cc.stats["method"] == "afforest"
    np.testing.assert_array_equal(cc, one.cc())


def test_batched_traversals_refuse_bad_sources(backend):
    g = oocgraph.generate("chain", vertices=5, undirected=True, backend=backend)
    for run in ("bfs", "bc", "closeness"):
        with pytest.raises(ValueError, match=re.escape(
                f"{run}'s sources must be distinct (a vertex is listed twice)")):
            getattr(g, run)([1, 3, 1])
        with pytest.raises(ValueError, match=f"^{run} needs at least one source$"):
            getattr(g, run)([])
        with pytest.raises(TypeError, match="each source must be an int, not str"):
            getattr(g, run)([0, "1"])
        with pytest.raises(ValueError, match="vertex 9 is out of range"):
            getattr(g, run)([0, 9])
        with pytest.raises(ValueError, match="batch must not be negative"):
            getattr(g, run)([0, 1], batch=-1)
    for run in ("bc", "closeness"):
        with pytest.raises(ValueError, match=re.escape(
                f"{run} needs at least one source (got 0 sources to sample)")):
            getattr(g, run)(k=0)
        with pytest.raises(ValueError, match="cannot sample 9 sources: the graph has 5 vertices "
                                             "with out-edges"):
            getattr(g, run)(samples=9)
        with pytest.raises(TypeError, match="give sources or samples, not both"):
            getattr(g, run)([1], k=2)
        with pytest.raises(TypeError, match="give samples or k, not both"):
            getattr(g, run)(samples=2, k=2)
        with pytest.raises(TypeError, match="k must be an int, not float"):
            getattr(g, run)(k=2.0)
    with pytest.raises(TypeError, match=re.escape(
            "batch is for bfs from several sources (a list of them)")):
        g.bfs(0, batch=2)
    with pytest.raises(TypeError, match="source must be an int, not str"):
        g.bfs("0")
    np.testing.assert_array_equal(g.bfs([0, 4]), [[0, 1, 2, 3, 4], [4, 3, 2, 1, 0]])
