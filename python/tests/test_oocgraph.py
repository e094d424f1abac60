"""oocgraph against references (plain Python, scipy, networkx, the C++ tools), its errors, the
GIL and Ctrl-C. The backend is conftest.BACKEND (cpu, or cuda on the GPU machine)."""

import collections
import math
import os
import re
import signal
import subprocess
import threading
import time

import numpy as np
import pytest

import oocgraph

UNREACHED = 0xFFFFFFFF


def bfs_reference(n, sources, targets, source):
    adjacency = collections.defaultdict(list)
    for u, v in zip(sources, targets):
        adjacency[int(u)].append(int(v))
    levels = [UNREACHED] * n
    levels[source] = 0
    queue = collections.deque([source])
    while queue:
        u = queue.popleft()
        for v in adjacency[u]:
            if levels[v] == UNREACHED:
                levels[v] = levels[u] + 1
                queue.append(v)
    return np.array(levels, dtype=np.uint32)


def random_edges(n, m, seed):
    rng = np.random.default_rng(seed)
    return rng.integers(0, n, m, dtype=np.int64), rng.integers(0, n, m, dtype=np.int64)


# --- numpy, scipy, networkx ----------------------------------------------------------------------

@pytest.mark.parametrize("transfer", ["hybrid", "filter", "compaction", "zerocopy"])
def test_bfs_from_numpy_edges_matches_a_plain_bfs(backend, transfer):
    src, dst = random_edges(500, 3000, 1)
    g = oocgraph.from_edges(src, dst, num_vertices=520, backend=backend, transfer=transfer,
                            partition_bytes=512, in_memory=False)
    assert g.num_vertices == 520  # isolated vertices past the largest id kept
    assert g.backend == backend
    levels = g.bfs(int(src[0]))
    assert levels.dtype == np.uint32
    np.testing.assert_array_equal(levels, bfs_reference(520, src, dst, int(src[0])))
    assert levels.stats["algorithm"] == "bfs"
    assert levels.stats["transfer"] == transfer
    assert levels.stats["iterations"] and levels.converged


def test_uint32_arrays_are_read_in_place_and_left_unchanged(backend):
    src = np.array([3, 2, 1, 0, 3], dtype=np.uint32)
    dst = np.array([0, 3, 2, 1, 0], dtype=np.uint32)  # (3, 0) twice: dropped once
    before = (src.copy(), dst.copy())
    g = oocgraph.from_edges(src, dst, backend=backend)
    assert g.num_edges == 4
    np.testing.assert_array_equal(src, before[0])
    np.testing.assert_array_equal(dst, before[1])
    np.testing.assert_array_equal(g.bfs(3), [1, 2, 3, 0])


def test_sssp_from_scipy_matches_dijkstra(backend):
    sparse = pytest.importorskip("scipy.sparse")
    csgraph = pytest.importorskip("scipy.sparse.csgraph")
    src, dst = random_edges(300, 2000, 2)
    keep = src != dst
    src, dst = src[keep], dst[keep]
    weights = np.random.default_rng(3).integers(1, 64, src.size)
    matrix = sparse.coo_matrix((weights, (src, dst)), shape=(300, 300)).tocsr()
    g = oocgraph.from_scipy(matrix, backend=backend)
    assert g.weights == "u32"
    distances = g.sssp(5)
    assert distances.dtype == np.float64
    np.testing.assert_array_equal(distances, csgraph.dijkstra(matrix, indices=5))


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # networkx 2.8's own pagerank_scipy
def test_networkx_bfs_cc_and_pagerank_match_networkx(backend):
    nx = pytest.importorskip("networkx")
    G = nx.connected_watts_strogatz_graph(400, 6, 0.2, seed=4)
    G.add_edges_from([(1000, 1001), (1001, 1002)])  # a second component, other labels
    g = oocgraph.from_networkx(G, backend=backend)
    assert g.symmetric and g.nodes == list(G.nodes)
    at = {node: i for i, node in enumerate(g.nodes)}
    levels = g.bfs(at[0])
    for node, level in nx.single_source_shortest_path_length(G, 0).items():
        assert levels[at[node]] == level
    assert levels[at[1000]] == UNREACHED
    components = g.cc()
    for component in nx.connected_components(G):
        ids = [at[node] for node in component]
        assert set(components[ids].tolist()) == {min(ids)}
    ranks = g.pagerank(tolerance=1e-9)
    assert ranks.dtype == np.float32
    expected = nx.pagerank(G, alpha=0.85, tol=1e-10, max_iter=1000)
    assert abs(float(ranks.sum()) - 1.0) < 1e-4
    l1 = sum(abs(ranks[at[node]] - rank) for node, rank in expected.items())
    assert l1 < 1e-3, l1


def test_triangles_match_networkx_on_the_cpu():
    nx = pytest.importorskip("networkx")
    G = nx.connected_watts_strogatz_graph(400, 8, 0.2, seed=5)
    g = oocgraph.from_networkx(G, backend="cpu")
    at = {node: i for i, node in enumerate(g.nodes)}
    counts = g.triangles()
    assert counts.dtype == np.uint64
    for node, expected in nx.triangles(G).items():
        assert counts[at[node]] == expected
    assert counts.total == sum(nx.triangles(G).values()) // 3
    assert counts.stats["algorithm"] == "tc"
    directed = oocgraph.from_edges([0, 1, 2], [1, 2, 0], backend="cpu")
    with pytest.raises(ValueError, match="tc needs a symmetric graph"):
        directed.triangles()


def test_bc_matches_networkx(backend):
    nx = pytest.importorskip("networkx")
    G = nx.connected_watts_strogatz_graph(300, 6, 0.2, seed=5)
    g = oocgraph.from_networkx(G, backend=backend)
    at = {node: i for i, node in enumerate(g.nodes)}
    sources = [0, 17, 150]
    values = g.bc([at[s] for s in sources])
    assert values.dtype == np.float64
    # networkx halves an undirected graph's values (each path counted from both ends).
    expected = nx.betweenness_centrality_subset(G, sources, list(G.nodes), normalized=False)
    for node, b in expected.items():
        assert values[at[node]] == pytest.approx(2 * b, rel=1e-4, abs=1e-4), node
    sampled = g.bc(samples=4, seed=3)
    assert sampled.shape == (300,) and (sampled >= 0).all() and sampled.sum() > 0
    # The same sources again; the GPU's float atomics may add in another order.
    np.testing.assert_allclose(sampled, g.bc(samples=4, seed=3), rtol=1e-5)
    assert not np.allclose(sampled, g.bc(samples=4, seed=4), rtol=1e-5)
    with pytest.raises(ValueError, match="bc needs at least one source"):
        g.bc([])
    with pytest.raises(ValueError, match="bc needs a symmetric graph"):
        oocgraph.from_edges([0, 1], [1, 2], backend=backend).bc([0])
    with pytest.raises(TypeError, match="give sources or samples, not both"):
        g.bc([1], samples=2)


# --- batched traversals: bfs from several sources, bc and closeness ---------------------------

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


def test_float_weights_become_f32(backend):
    g = oocgraph.from_edges([0, 1], [1, 2], [0.5, 0.25], backend=backend)
    assert g.weights == "f32"
    np.testing.assert_array_equal(g.sssp(0), [0.0, 0.5, 0.75])


def test_road_graphs_keep_their_euclidean_weights(backend):
    # 1024 vertices on a 32x32 lattice. Every vertex's tree path from vertex 0 steps up or left,
    # so its BFS depth is rows + columns - 2 whatever the seed; a link weighs 40 to 171.
    g = oocgraph.generate("road", vertices=1024, seed=3, backend=backend)
    assert (g.num_vertices, g.weights, g.symmetric) == (1024, "u32", True)
    assert abs(g.num_edges - 2.5 * 1024) < 0.05 * 2.5 * 1024  # mean degree 2.5
    levels, distances = g.bfs(0).astype(np.int64), g.sssp(0)
    assert levels.max() == 62
    assert np.all(40 * levels <= distances) and np.all(distances <= 171 * levels)
    again = oocgraph.generate("road", vertices=1024, seed=3, backend=backend)
    np.testing.assert_array_equal(again.sssp(0), distances)
    other = oocgraph.generate("road", vertices=1024, seed=4, backend=backend)
    np.testing.assert_array_equal(other.bfs(0), levels)
    assert not np.array_equal(other.sssp(0), distances)
    unweighted = oocgraph.generate("road", vertices=1024, seed=3, weights=None, backend=backend)
    assert unweighted.weights == "none"
    np.testing.assert_array_equal(unweighted.bfs(0), levels)
    drawn = oocgraph.generate("road", vertices=1024, weights="random:1-4", backend=backend)
    assert drawn.sssp(0).max() <= 4 * 62


# --- files and the C++ tools -----------------------------------------------------------------

def tool(name):
    return os.path.join(os.environ.get("OOCGRAPH_TEST_TOOLS", ""), name, name)


def tool_values(path):
    values = {}
    with open(path) as f:
        for line in f:
            vertex, value = line.split("\t")
            values[int(vertex)] = float(value)
    return np.array([values[v] for v in range(len(values))])


@pytest.mark.skipif(not os.path.exists(tool("ooc-run")), reason="ooc-run not built")
@pytest.mark.parametrize("program", ["bfs", "sssp", "cc"])
def test_results_equal_ooc_run_on_the_same_file(tmp_path, backend, program):
    path = str(tmp_path / "k.oocg")
    g = oocgraph.generate("kron", scale=11, edge_factor=8, undirected=True,
                          weights="random:1-64", output=path, backend=backend)
    loaded = oocgraph.load(path, backend=backend)
    source = g.highest_degree_vertex()
    ours = getattr(loaded, program)() if program == "cc" else getattr(loaded, program)(source)
    again = getattr(g, program)() if program == "cc" else getattr(g, program)(source)
    np.testing.assert_array_equal(ours, again)
    out = str(tmp_path / "values.txt")
    subprocess.run([tool("ooc-run"), program, "--graph", path, "--backend", backend,
                    "--source", str(source), "--output", out, "--quiet"], check=True)
    theirs = tool_values(out)
    ours = ours.astype(np.float64)
    if program == "bfs":
        ours[ours == UNREACHED] = math.inf
        theirs[theirs == UNREACHED] = math.inf
    np.testing.assert_array_equal(ours, theirs)


@pytest.mark.skipif(not os.path.exists(tool("partition-tool")), reason="partition-tool not built")
def test_generate_makes_partition_tool_s_road_graph(tmp_path, backend):
    # The same defaults (--weights file: the road's own) and the same seed give the same graph.
    path = str(tmp_path / "road.oocg")
    subprocess.run([tool("partition-tool"), "generate", "road", "--vertices", "5000", "--seed", "7",
                    "-o", path, "-q"], check=True)
    ours = oocgraph.generate("road", vertices=5000, seed=7, backend=backend)
    theirs = oocgraph.load(path, backend=backend)
    assert (ours.num_edges, ours.weights) == (theirs.num_edges, theirs.weights)
    assert ours.weights == "u32"
    np.testing.assert_array_equal(ours.sssp(0), theirs.sssp(0))


def test_convert_reads_a_text_edge_list(tmp_path, backend):
    text = tmp_path / "g.wel"
    text.write_text("0 1 5\n1 2 7\n2 0 1\n")
    out = tmp_path / "g.oocg"
    oocgraph.convert(str(text), str(out), hub_sort=None)
    g = oocgraph.load(str(out), backend=backend)
    assert (g.num_vertices, g.num_edges, g.weights) == (3, 3, "u32")
    np.testing.assert_array_equal(g.sssp(0), [0, 5, 12])


def test_convert_reads_a_binary_edge_list(tmp_path, backend):
    # The same graph as the text test's, as u32 (source, target, weight) records.
    binary = tmp_path / "g.wbin32"
    np.array([[0, 1, 5], [1, 2, 7], [2, 0, 1]], dtype="<u4").tofile(binary)
    out = tmp_path / "g.oocg"
    oocgraph.convert(str(binary), str(out), hub_sort=None)
    g = oocgraph.load(str(out), backend=backend)
    assert (g.num_vertices, g.num_edges, g.weights) == (3, 3, "u32")
    np.testing.assert_array_equal(g.sssp(0), [0, 5, 12])


def test_compressed_graphs_give_the_same_values(backend):
    raw = oocgraph.generate("kron", scale=10, undirected=True, weights="random:1-64",
                            compress=False, backend=backend, partition_bytes=4096,
                            in_memory=False)
    packed = oocgraph.generate("kron", scale=10, undirected=True, weights="random:1-64",
                               backend=backend, partition_bytes=4096, in_memory=False)
    assert packed.compressed and not raw.compressed  # compressed by default
    for transfer in ["filter", "compaction", "zerocopy"]:
        np.testing.assert_array_equal(packed.sssp(0, transfer=transfer), raw.sssp(0))


def test_compressed_only_graphs_give_the_same_values(backend, tmp_path):
    raw = oocgraph.generate("kron", scale=10, undirected=True, weights="random:1-64",
                            compress=False, backend=backend, partition_bytes=4096,
                            in_memory=False)
    only = oocgraph.generate("kron", scale=10, undirected=True, weights="random:1-64",
                             compress="only", output=str(tmp_path / "only.oocg"),
                             backend=backend, partition_bytes=4096)
    assert only.compressed
    for transfer in ["hybrid", "filter", "compaction", "zerocopy"]:
        np.testing.assert_array_equal(only.sssp(0, transfer=transfer), raw.sssp(0))
    loaded = oocgraph.load(str(tmp_path / "only.oocg"), backend=backend)
    np.testing.assert_array_equal(loaded.bfs(0), raw.bfs(0))
    with pytest.raises(ValueError, match="compressed lists only"):
        oocgraph.load(str(tmp_path / "only.oocg"), backend=backend, compressed=False)
    with pytest.raises(ValueError, match='compress takes True, False or "only"'):
        oocgraph.generate("kron", scale=4, compress="yes")


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
    assert g.bfs(0).stats["direction"] == "push"  # the engine's own setting is put back


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


# --- bad input -------------------------------------------------------------------------------

def test_bad_arguments_raise_clear_errors(tmp_path, backend):
    g = oocgraph.generate("chain", vertices=5, backend=backend)
    with pytest.raises(TypeError, match="unexpected keyword argument 'trasnfer'"):
        oocgraph.generate("chain", trasnfer="filter")
    with pytest.raises(ValueError, match=r"unknown transfer policy 'fast' \(expected one of: "
                                         r"hybrid, filter, compaction, zerocopy, unified\)"):
        g.bfs(0, transfer="fast")
    with pytest.raises(TypeError, match="priority must be a bool, not str"):
        oocgraph.generate("chain", priority="yes")
    with pytest.raises(ValueError, match="source must not be negative"):
        g.bfs(-1)
    with pytest.raises(TypeError, match="source must be an int, not str"):
        g.sssp("0")
    with pytest.raises(ValueError, match="vertex 5 is out of range"):
        g.bfs(5)
    with pytest.raises(ValueError, match="unknown graph kind 'ring'"):
        oocgraph.generate("ring")
    with pytest.raises(ValueError, match="sources and targets differ in length"):
        oocgraph.from_edges([0, 1], [1])
    with pytest.raises(TypeError, match="sources must hold integers, not float64"):
        oocgraph.from_edges([0.5], [1])
    with pytest.raises(ValueError, match="damping must lie between 0 and 1"):
        g.pagerank(damping=1.5)
    with pytest.raises(OSError, match="missing.oocg"):
        oocgraph.load(str(tmp_path / "missing.oocg"))
    directed = oocgraph.from_edges([0, 1], [1, 2], backend=backend)
    with pytest.raises(ValueError, match="symmetric"):
        directed.cc()
    with pytest.raises(ValueError, match="the pull direction reads each vertex's in-edges, and "
                                         "this directed graph's file holds none"):
        directed.bfs(0, direction="pull")
    with pytest.raises(ValueError, match="in_edges is for directed graphs, and this one is "
                                         "symmetric"):
        oocgraph.from_edges([0, 1], [1, 2], undirected=True, in_edges=True)
    with pytest.raises(ValueError, match="unknown direction 'up'"):
        g.bfs(0, direction="up")
    with pytest.raises(ValueError, match=r"pull blocks must be from 1 to 64, or 0 for the GPU's "
                                         r"L2 to decide \(got 65\)"):
        oocgraph.generate("chain", vertices=5, backend=backend, pull_blocks=65)
    np.testing.assert_array_equal(g.bfs(0), [0, 1, 2, 3, 4])  # still usable, settings restored


# --- the GIL and Ctrl-C ------------------------------------------------------------------------

def long_graph(backend):
    # BFS from a corner of a grid: 3000 iterations on the CPU, 8000 on the GPU (longer than a
    # second on either).
    side = 1500 if backend == "cpu" else 4000
    return oocgraph.generate("grid", rows=side, cols=side, backend=backend)


def test_the_gil_is_released_while_the_engine_runs(backend):
    g = long_graph(backend)
    ticks, done = [0], threading.Event()

    def count():
        while not done.is_set():
            ticks[0] += 1
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    try:
        levels = g.bfs(0)
    finally:
        done.set()
        counter.join()
    assert levels.stats["seconds"] > 0.05
    assert ticks[0] >= 10, ticks[0]  # the other thread ran during the call


def test_ctrl_c_stops_a_run_within_a_second(backend):
    g = long_graph(backend)
    full = g.bfs(0).stats["seconds"]
    if full < 0.6:
        pytest.skip(f"the run takes only {full:.2f} s here")
    sent = []

    def interrupt():
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(0.2, interrupt)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        g.bfs(0)
    stopped = time.monotonic() - sent[0]
    timer.join()
    assert stopped < 1.0, stopped
    assert g.bfs(0, max_iterations=3).converged is False  # the graph is still usable


def test_runs_from_several_threads_put_python_s_ctrl_c_back(backend):
    # Long enough runs that they overlap: the scope made second may end last.
    graphs = [oocgraph.generate("grid", rows=200, cols=200, backend=backend) for _ in range(3)]
    errors = []

    def run(g):
        try:
            for _ in range(5):
                g.bfs(0)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=run, args=(g,)) for g in graphs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    # No run in flight: SIGINT reaches Python's own handler again.
    with pytest.raises(KeyboardInterrupt):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(1.0)
