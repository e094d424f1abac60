# Type stubs of oocgraph._core, the extension that oocgraph/__init__.py wraps (internal API).
from typing import Any, Optional

import numpy as np

__version__: str

class Stats:
    def json(self) -> str: ...

class RunSettings:
    transfer: Optional[str]
    load_balance: Optional[str]
    direction: Optional[str]
    priority: Optional[bool]
    max_iterations: int
    def __init__(self) -> None: ...

class GeneratorSpec:
    kind: str
    scale: int
    edge_factor: int
    rows: int
    cols: int
    vertices: int
    seed: int
    def __init__(self) -> None: ...

class Engine:
    num_vertices: int
    num_edges: int
    weights: str
    symmetric: bool
    compressed: bool
    backend: str
    partitions: int
    def highest_degree_vertex(self) -> int: ...
    def bfs(self, source: int, settings: RunSettings) -> tuple[np.ndarray, Stats, bool, float]: ...
    def bfs_sources(self, sources: list[int], batch: int,
                    settings: RunSettings) -> tuple[np.ndarray, Stats, bool, float]: ...
    def sssp(self, source: int, settings: RunSettings) -> tuple[np.ndarray, Stats, bool, float]: ...
    def cc(self, settings: RunSettings) -> tuple[np.ndarray, Stats, bool, float]: ...
    def triangles(self, settings: RunSettings) -> tuple[np.ndarray, Stats, bool, float]: ...
    def scc(self, settings: RunSettings) -> tuple[np.ndarray, Stats, bool, float]: ...
    def pagerank(self, damping: float, tolerance: float, l1: float, push: str,
                 settings: RunSettings) -> tuple[np.ndarray, Stats, bool, float]: ...
    def bc(self, sources: list[int], batch: int,
           settings: RunSettings) -> tuple[np.ndarray, Stats, bool, float]: ...
    def closeness(self, sources: list[int], batch: int,
                  settings: RunSettings) -> tuple[np.ndarray, Stats, bool, float]: ...
    def sample_sources(self, count: int, seed: int) -> list[int]: ...

def load(path: str, options: dict[str, Any]) -> Engine: ...
def generate(spec: GeneratorSpec, undirected: bool, weights: str, hub_sort: float,
             compress: str, in_edges: bool, output: Optional[str],
             options: dict[str, Any]) -> Engine: ...
def from_edges(sources: np.ndarray, targets: np.ndarray, weights: Optional[np.ndarray],
               weight_type: str, num_vertices: int, undirected: bool, hub_sort: float,
               compress: str, in_edges: bool, output: Optional[str],
               options: dict[str, Any]) -> Engine: ...
def convert(input: str, output: str, format: Optional[str], undirected: bool, weights: str,
            seed: int, hub_sort: float, compress: str, in_edges: bool) -> None: ...
