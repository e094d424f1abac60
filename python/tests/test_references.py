"""oocgraph's graphs from numpy, scipy, networkx and the generator against references: a plain
BFS, scipy's Dijkstra, networkx. The backend is conftest.BACKEND (cpu, or cuda on the GPU
machine)."""

import numpy as np
import pytest

import oocgraph
from plain_bfs import UNREACHED, bfs_reference


def random_edges(n, m, seed):
    rng = np.random.default_rng(seed)
    return rng.integers(0, n, m, dtype=np.int64), rng.integers(0, n, m, dtype=np.int64)


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
