"""oocgraph in a few lines: a Kronecker graph, BFS, SSSP, components and PageRank, on the GPU
when there is one. Run from the build tree with PYTHONPATH=build/default/python, or after
`cmake --install` as is."""

import numpy as np

import oocgraph

g = oocgraph.generate("kron", scale=16, undirected=True, weights="random:1-64")
print(g)

source = g.highest_degree_vertex()
levels = g.bfs(source)
reached = levels != 0xFFFFFFFF
print(f"bfs from {source}: {reached.sum()} vertices reached, deepest level {levels[reached].max()}, "
      f"{levels.stats['iterations']} iterations in {levels.stats['seconds'] * 1e3:.1f} ms "
      f"on {g.backend}")

distances = g.sssp(source, transfer="zerocopy")
print(f"sssp: mean distance {distances[np.isfinite(distances)].mean():.2f}")

components = g.cc()
print(f"cc: {np.unique(components).size} components")

ranks = g.pagerank(tolerance=1e-4)
top = np.argsort(ranks)[::-1][:5]
print("pagerank, top 5:", ", ".join(f"{v} ({ranks[v]:.2e})" for v in top))
