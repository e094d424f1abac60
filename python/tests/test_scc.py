"""Graph.scc() against networkx's strongly connected components, on the CPU backend."""

import numpy as np
import pytest

import oocgraph


def smallest_in_each(components, at, n):
    expected = np.empty(n, dtype=np.uint32)
    for component in components:
        ids = [at[node] for node in component]
        expected[ids] = min(ids)
    return expected


@pytest.mark.parametrize("compress", [False, True, "only"])
def test_scc_matches_networkx_on_a_directed_graph(compress):
    nx = pytest.importorskip("networkx")
    G = nx.gnp_random_graph(600, 1.5 / 600, seed=7, directed=True)
    g = oocgraph.from_networkx(G, in_edges=True, compress=compress, backend="cpu")
    at = {node: i for i, node in enumerate(g.nodes)}
    labels = g.scc()
    assert labels.dtype == np.uint32
    expected = smallest_in_each(nx.strongly_connected_components(G), at, len(at))
    np.testing.assert_array_equal(labels, expected)
    assert labels.stats["algorithm"] == "scc"
    assert f"{len(np.unique(expected))} components" in labels.stats["method"]


def test_scc_of_a_symmetric_graph_is_its_connected_components_and_needs_in_edges_else():
    undirected = oocgraph.from_edges([0, 1, 3], [1, 2, 4], num_vertices=6, undirected=True,
                                     backend="cpu")
    np.testing.assert_array_equal(undirected.scc(), [0, 0, 0, 3, 3, 5])
    cycle = oocgraph.from_edges([0, 1, 2, 3], [1, 2, 0, 2], in_edges=True, backend="cpu")
    np.testing.assert_array_equal(cycle.scc(), [0, 0, 0, 3])
    directed = oocgraph.from_edges([0, 1, 2], [1, 2, 0], backend="cpu")
    with pytest.raises(ValueError, match="partition-tool --in-edges"):
        directed.scc()
