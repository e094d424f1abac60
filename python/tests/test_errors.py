"""Bad arguments raise clear errors and leave the graph usable."""

import numpy as np
import pytest

import oocgraph


def test_bad_arguments_raise_clear_errors(tmp_path, backend):
    g = oocgraph.generate("chain", vertices=5, backend=backend)
    with pytest.raises(TypeError, match="unexpected keyword argument 'trasnfer'"):
        oocgraph.generate("chain", trasnfer="filter")
    with pytest.raises(ValueError, match=r"unknown transfer policy 'fast' \(expected one of: "
                                         r"hybrid, filter, compaction, zerocopy, unified\)"):
        g.bfs(0, transfer="fast")
    with pytest.raises(TypeError, match='priority must be a bool or "auto", not str'):
        oocgraph.generate("chain", priority="yes")
    with pytest.raises(TypeError, match='priority must be a bool or "auto", not int'):
        g.bfs(0, priority=1)
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
