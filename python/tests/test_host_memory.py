"""host_memory=: a file whose lists exceed it runs from the file on the CPU backend, with the
values of a whole load, and the stats say what was read from the file."""

import numpy as np

import oocgraph


def test_a_file_beyond_host_memory_gives_the_whole_loads_values(tmp_path):
    path = str(tmp_path / "k.oocg")
    oocgraph.generate("kron", scale=10, undirected=True, output=path)
    whole = oocgraph.load(path, backend="cpu")
    tiered = oocgraph.load(path, backend="cpu", host_memory="16KiB", partition_bytes="4KiB")
    levels = tiered.bfs(0)
    np.testing.assert_array_equal(levels, whole.bfs(0))
    np.testing.assert_array_equal(tiered.cc(), whole.cc())
    assert levels.stats["host_tier"]["host_memory"] == 16384
    assert levels.stats["host_tier"]["storage_bytes"] > 0
