"""Files and the C++ tools: values equal ooc-run's on the same file, partition-tool's road graph,
text and binary edge lists converted, compressed graphs give the raw graphs' values."""

import math
import os
import subprocess

import numpy as np
import pytest

import oocgraph
from plain_bfs import UNREACHED


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
