"""Graph.kcore() against networkx's core numbers, on the CPU backend."""

import numpy as np
import pytest

import oocgraph


@pytest.mark.parametrize("compress", [False, True, "only"])
def test_kcore_matches_networkx(compress):
    nx = pytest.importorskip("networkx")
    G = nx.powerlaw_cluster_graph(500, 4, 0.3, seed=3)
    g = oocgraph.from_networkx(G, compress=compress, backend="cpu")
    at = {node: i for i, node in enumerate(g.nodes)}
    cores = g.kcore()
    assert cores.dtype == np.uint32
    expected = np.empty(len(at), dtype=np.uint32)
    for node, core in nx.core_number(G).items():
        expected[at[node]] = core
    np.testing.assert_array_equal(cores, expected)
    assert cores.stats["algorithm"] == "kcore"
    assert f"degeneracy {expected.max()}" in cores.stats["method"]


def test_kcore_of_known_graphs_and_a_directed_one_refused():
    triangle_and_tail = oocgraph.from_edges([0, 1, 2, 2], [1, 2, 0, 3], num_vertices=5,
                                            undirected=True, backend="cpu")
    np.testing.assert_array_equal(triangle_and_tail.kcore(), [2, 2, 2, 1, 0])
    directed = oocgraph.from_edges([0, 1], [1, 2], backend="cpu")
    with pytest.raises(ValueError, match="kcore needs a symmetric graph"):
        directed.kcore()
