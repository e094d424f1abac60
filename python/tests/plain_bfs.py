"""A plain BFS, the reference that several test files check the engine against."""

import collections

import numpy as np


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
