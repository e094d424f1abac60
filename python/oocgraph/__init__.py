"""OocGraph from Python: out-of-core graph processing on GPUs (or on the CPU).

Load or build a graph, then run programs on it::

    import oocgraph
    g = oocgraph.generate("kron", scale=20, undirected=True, weights="random:1-64")
    levels = g.bfs(0)              # a numpy array, indexed by vertex id
    print(levels.stats["seconds"], levels.stats["iterations"])
    rows = g.bfs([0, 5, 9])        # one row of levels per source, shape (3, num_vertices)
    harmonic = g.closeness(k=64)   # sampled sources, a batch of them per pass over the edges

Graphs come from a ``.oocg`` file (:func:`load`), a generator (:func:`generate`), numpy edge
arrays (:func:`from_edges`), a scipy sparse matrix (:func:`from_scipy`) or a networkx graph
(:func:`from_networkx`); :func:`convert` turns a text edge list into a ``.oocg`` file as
``partition-tool convert`` does.

Engine options are keyword arguments of every function that makes a :class:`Graph`:

``backend``          ``"auto"`` (the GPU when there is one), ``"cpu"`` or ``"cuda"``
``transfer``         ``"hybrid"``, ``"filter"``, ``"compaction"``, ``"zerocopy"``, ``"unified"``
``load_balance``     ``"tiled"``, ``"warp"``, ``"ordered"``, ``"decompose"`` or
                     ``"hierarchical"`` (the CUDA advance mapping; ``"ordered"``: PageRank's
                     short lists walked in vertex order)
``direction``        ``"push"``, ``"pull"`` or ``"auto"`` (pull: vertices gather from their
                     in-neighbours; a symmetric graph; auto, the default, chooses per
                     iteration)
``pull_blocks``      int: cache blocking of the pull direction in GPU memory (1: none, the
                     default; 0: sized to the L2; up to 64)
``resident_slices``  int: PageRank's and CC's partitions in GPU memory or in the edge cache as
                     this many tasks in turn (4, the default; 1: one task; up to 256)
``frontier_loop``    int: while an iteration's active edges are at most this many, the GPU (or
                     the CPU backend) runs the iterations itself (65536, the default; 0: off)
``frontier_loop_hops`` ``"auto"`` (the default) or an int from 0 to 4: CUDA: in the frontier
                     loop a lowered target's short list is relaxed in the same level, up to
                     this many lists in a row (auto: 4; SSSP's piles 2 in GPU memory)
``priority``         ``"auto"`` (the default: on, off for PageRank and other accumulative
                     programs out of core) or a bool: urgency-ordered scheduling
``cc``               ``"afforest"`` (the default: union-find, most lists never read) or
                     ``"labels"`` (label propagation) for :meth:`Graph.cc`
``budget``           device memory the engine may use: bytes, or a string such as ``"8GiB"``
``host_memory``      host memory a loaded file's lists may hold (bytes or ``"8GiB"``): the
                     partitions that do not fit are read from the file as runs need them (CPU
                     backend; default: 80% of the memory available)
``in_memory``        bool: keep all edges on the GPU when they fit the budget
``cache``            bool: the GPU edge cache when they do not
``compressed``       bool: read compressed lists when the file has them
``partition_bytes``  partition size: bytes, or a string such as ``"32MiB"``
``device``           int: the CUDA device; ``devices``: a list of them (a rank each)
``exchange``, ``exchange_rounds``   how several GPUs agree (docs/distributed.md)

``docs/cli.md`` describes each (they are ooc-run's options). Bad names raise ``TypeError``,
bad values ``ValueError``; the engine's own errors keep their messages (``OSError`` for files,
``MemoryError`` for budgets, ``RuntimeError`` for the GPU). The GIL is released while the
engine runs, and Ctrl-C stops a run at its next iteration with ``KeyboardInterrupt``.
"""

from __future__ import annotations

import collections.abc
import json
import numbers
import warnings
from typing import Any, Iterable, Optional, Sequence, Union

import numpy as np

from . import _core

__version__: str = _core.__version__

__all__ = [
    "Graph",
    "Result",
    "load",
    "generate",
    "convert",
    "from_edges",
    "from_scipy",
    "from_networkx",
    "__version__",
]

_UINT32_MAX = 0xFFFFFFFF


class Result(np.ndarray):
    """A run's values, one per vertex in the user's ids, as a numpy array (BFS from several
    sources: a 2-D array, a row per source).

    ``stats`` is a dict holding what ``ooc-run --json`` reports for the run (time in seconds,
    iterations, bytes moved per transfer engine, ...); ``converged`` is False when
    ``max_iterations`` stopped the run first; ``call_seconds`` is how long the engine's C++ call
    took in all (setup, processing, read-back), so that the Python call's own cost is the rest.
    """

    converged: bool
    call_seconds: float

    def __array_finalize__(self, obj: Any) -> None:
        self._stats_source = getattr(obj, "_stats_source", None)
        self._stats = getattr(obj, "_stats", None)
        self.converged = getattr(obj, "converged", True)
        self.call_seconds = getattr(obj, "call_seconds", 0.0)

    @property
    def stats(self) -> dict:
        """The run's statistics (parsed on first use)."""
        if self._stats is None:
            source = self._stats_source
            self._stats = {} if source is None else json.loads(source.json())
        return self._stats


def _result(raw: tuple) -> Result:
    values, stats, converged, call_seconds = raw
    result = values.view(Result)
    result._stats_source = stats
    result.converged = bool(converged)
    result.call_seconds = float(call_seconds)
    return result


def _vertex(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if value < 0:
        raise ValueError(f"{name} must not be negative (got {value})")
    return int(value)


def _is_source_list(value: Any) -> bool:
    """True for a list (or other iterable) of vertex ids; False for one id, None, or what
    :func:`_vertex` refuses with its own message (a str, a float)."""
    if value is None or isinstance(value, (numbers.Integral, str, bytes)):
        return False
    return isinstance(value, collections.abc.Iterable)


def _source_list(values: Iterable[Any]) -> list[int]:
    return [_vertex(v, "each source") for v in values]


def _settings(max_iterations: int, transfer: Optional[str], priority: Union[bool, str, None],
              load_balance: Optional[str], direction: Optional[str]) -> "_core.RunSettings":
    s = _core.RunSettings()
    s.max_iterations = _vertex(max_iterations, "max_iterations")
    if transfer is not None:
        s.transfer = _text(transfer, "transfer")
    if load_balance is not None:
        s.load_balance = _text(load_balance, "load_balance")
    if direction is not None:
        s.direction = _text(direction, "direction")
    if priority is not None:
        if priority != "auto" and not isinstance(priority, bool):
            raise TypeError(f"priority must be a bool or \"auto\", not {type(priority).__name__}")
        s.priority = priority if priority == "auto" else ("on" if priority else "off")
    return s


def _text(value: Any, name: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, not {type(value).__name__}")
    return value


def _fraction(hub_sort: Any) -> float:
    if hub_sort is None or hub_sort is False:
        return 0.0
    if isinstance(hub_sort, bool) or not isinstance(hub_sort, numbers.Real):
        raise TypeError(f"hub_sort must be a fraction or None, not {type(hub_sort).__name__}")
    if not 0.0 <= hub_sort <= 1.0:
        raise ValueError(f"hub_sort must lie between 0 and 1 (got {hub_sort})")
    return float(hub_sort)


class Graph:
    """A graph loaded into the engine. Make one with :func:`load`, :func:`generate`,
    :func:`from_edges`, :func:`from_scipy` or :func:`from_networkx`.

    Every run takes ``max_iterations`` (0: until no vertex is active) and, for that run only,
    ``transfer``, ``priority``, ``load_balance`` and ``direction`` (see the module's help).
    """

    def __init__(self, core: "_core.Engine", nodes: Optional[list] = None) -> None:
        self._core = core
        #: from_networkx: the node of each vertex id (vertex i is ``nodes[i]``); else None.
        self.nodes = nodes

    @property
    def num_vertices(self) -> int:
        return self._core.num_vertices

    @property
    def num_edges(self) -> int:
        """Directed edges stored (an undirected graph stores both directions)."""
        return self._core.num_edges

    @property
    def weights(self) -> str:
        """``"none"``, ``"u32"`` or ``"f32"``."""
        return self._core.weights

    @property
    def symmetric(self) -> bool:
        """True when every edge has its reverse (``cc`` needs it)."""
        return self._core.symmetric

    @property
    def compressed(self) -> bool:
        """True when the graph holds compressed lists (``compress=True``, the default)."""
        return self._core.compressed

    @property
    def backend(self) -> str:
        """The backend the engine chose: ``"cpu"`` or ``"cuda"``."""
        return self._core.backend

    @property
    def partitions(self) -> int:
        return self._core.partitions

    def highest_degree_vertex(self) -> int:
        """The vertex with the most out-edges (of several, the smallest id): the default source of
        bfs and sssp."""
        return self._core.highest_degree_vertex()

    def _source(self, source: Optional[int]) -> int:
        return self.highest_degree_vertex() if source is None else _vertex(source, "source")

    def bfs(self, source: Union[None, int, Iterable[int]] = None, *, batch: int = 0,
            max_iterations: int = 0, transfer: Optional[str] = None,
            priority: Union[bool, str, None] = None, load_balance: Optional[str] = None,
            direction: Optional[str] = None) -> Result:
        """Breadth-first search levels from ``source`` (default: the highest-degree vertex),
        uint32; unreached vertices hold 4294967295.

        ``source`` may also be a list (or any iterable) of distinct vertex ids: the result is
        then 2-D, shape ``(len(sources), num_vertices)``, row i the levels from ``sources[i]``.
        The engine runs ``batch`` sources per pass over the edges (0, the default: the widest
        batch whose arrays fit in memory, at most 1024), bulk-synchronously; ``stats`` adds up
        every batch's run and ``stats["batch"]`` is the width it ran; across several GPUs
        (``devices``) too."""
        settings = _settings(max_iterations, transfer, priority, load_balance, direction)
        if not _is_source_list(source):
            if _vertex(batch, "batch") != 0:
                raise TypeError("batch is for bfs from several sources (a list of them)")
            return _result(self._core.bfs(self._source(source), settings))
        chosen = _source_list(source)
        levels = _result(self._core.bfs_sources(chosen, _vertex(batch, "batch"), settings))
        return levels.reshape(len(chosen), self.num_vertices)

    def sssp(self, source: Optional[int] = None, *, max_iterations: int = 0,
             transfer: Optional[str] = None, priority: Union[bool, str, None] = None,
             load_balance: Optional[str] = None, direction: Optional[str] = None) -> Result:
        """Shortest-path distances from ``source`` over the edge weights (1 each when the graph
        has none), float64; unreached vertices hold inf."""
        return _result(self._core.sssp(self._source(source),
                                       _settings(max_iterations, transfer, priority, load_balance,
                                                 direction)))

    def cc(self, *, max_iterations: int = 0, transfer: Optional[str] = None,
           priority: Union[bool, str, None] = None, load_balance: Optional[str] = None,
           direction: Optional[str] = None) -> Result:
        """Connected components: each vertex's smallest vertex id in its component, uint32.
        Needs a symmetric graph (``undirected=True``)."""
        return _result(self._core.cc(_settings(max_iterations, transfer, priority, load_balance,
                                               direction)))

    def triangles(self) -> Result:
        """Triangle counting: how many triangles each vertex is in, uint64, and the graph's total
        as ``.total``. Needs a symmetric graph (``undirected=True``); either backend, on one
        rank."""
        result = _result(self._core.triangles(_settings(0, None, None, None, None)))
        result.total = int(result.sum()) // 3
        return result

    def kcore(self, *, transfer: Optional[str] = None) -> Result:
        """The k-core decomposition: each vertex's core number, uint32, by peeling in the
        engine's iterations. Needs a symmetric graph (``undirected=True``); either backend."""
        return _result(self._core.kcore(_settings(0, transfer, None, None, None)))

    def scc(self) -> Result:
        """Strongly connected components: the smallest vertex id in each vertex's component,
        uint32. Needs a directed graph's in-edges (``in_edges=True``) or a symmetric graph, whose
        SCCs are its connected components; either backend, on one rank."""
        return _result(self._core.scc(_settings(0, None, None, None, None)))

    def pagerank(self, *, damping: float = 0.85, tolerance: Optional[float] = None,
                 l1: Optional[float] = None, push: str = "auto", max_iterations: int = 0,
                 transfer: Optional[str] = None, priority: Union[bool, str, None] = None,
                 load_balance: Optional[str] = None, direction: Optional[str] = None) -> Result:
        """PageRank (delta-based), float32, summing to 1.

        ``l1`` asks for an accuracy: the ranks within that L1 distance of the converged ones
        (between about 1e-6, float's rounding, and 2), the engine choosing the tolerance that
        makes sure of it (``stats["tolerance"]``) and, on one rank, ending once little enough
        pends. Either way ``stats["l1_bound"]`` is the bound
        the run reached; a warning says when float rounding kept it above ``l1``.

        ``tolerance`` (1e-6 unless given; not with ``l1``) is in unnormalised rank units (a
        typical rank is about 1): with ``push="per-edge"`` a vertex is processed while its pending
        delta per out-edge is at least tolerance * V / (E + V), with ``push="per-vertex"`` while
        its delta is at least ``tolerance``; ``"auto"`` takes per-edge where hubs hold a third of
        the edges (``stats["method"]`` says which)."""
        if tolerance is not None and l1 is not None:
            raise ValueError("give tolerance or l1, not both (l1 chooses the tolerance)")
        if tolerance is None:
            tolerance = 1e-6
        for name, value in (("damping", damping), ("tolerance", tolerance), ("l1", l1 or 0.0)):
            if isinstance(value, bool) or not isinstance(value, numbers.Real):
                raise TypeError(f"{name} must be a float, not {type(value).__name__}")
        if not isinstance(push, str):
            raise TypeError(f"push must be a str, not {type(push).__name__}")
        if not 0.0 < damping < 1.0:
            raise ValueError(f"damping must lie between 0 and 1 (got {damping})")
        if not tolerance > 0.0:
            raise ValueError(f"tolerance must be positive (got {tolerance})")
        if l1 is not None and not 0.0 < l1 < 2.0:
            raise ValueError(f"l1 must lie between 0 and 2 (got {l1}): ranks that sum to 1 are "
                             "at most 2 apart")
        result = _result(self._core.pagerank(float(damping), float(tolerance),
                                             float(l1 or 0.0), push,
                                             _settings(max_iterations, transfer, priority,
                                                       load_balance, direction)))
        if l1 is not None and result.stats["l1_bound"] > l1:
            why = ("max_iterations stopped it first" if not result.converged
                   else "float rounding (stats['choices'])")
            warnings.warn(f"PageRank reached an L1 bound of {result.stats['l1_bound']:.2g}, above "
                          f"the {l1:g} asked for: {why}", RuntimeWarning, stacklevel=2)
        return result

    def _chosen_sources(self, algorithm: str, sources: Optional[Iterable[int]],
                        samples: Optional[int], k: Optional[int], seed: int) -> list[int]:
        """bc's and closeness's sources: the ids given, ``samples`` (or ``k``) drawn with
        ``seed`` among the vertices with out-edges, or the highest-degree vertex."""
        if samples is not None and k is not None:
            raise TypeError("give samples or k, not both (k is another name for samples)")
        name = "samples" if k is None else "k"
        count = samples if k is None else k
        if sources is not None and count is not None:
            raise TypeError("give sources or samples, not both")
        if count is not None:
            if _vertex(count, name) == 0:
                raise ValueError(f"{algorithm} needs at least one source (got 0 sources to "
                                 "sample)")
            return self._core.sample_sources(_vertex(count, name), _vertex(seed, "seed"))
        if sources is not None:
            return _source_list(sources)
        return [self._core.highest_degree_vertex()]

    def bc(self, sources: Optional[Iterable[int]] = None, *, samples: Optional[int] = None,
           k: Optional[int] = None, seed: int = 1, batch: int = 0, max_iterations: int = 0,
           transfer: Optional[str] = None, priority: Union[bool, str, None] = None,
           load_balance: Optional[str] = None, direction: Optional[str] = None) -> Result:
        """Betweenness centrality (Brandes, unweighted), float64: for each vertex the sum over
        the sources s of its dependency on s, the share of shortest paths from s through it.
        ``sources``: distinct vertex ids; or ``samples=k`` (``k=`` is the same) distinct
        vertices with out-edges drawn with ``seed`` (scale by the number of vertices with
        out-edges over k for an estimate of the whole: the others add nothing); default: the highest-degree vertex. Every vertex as a source
        gives twice networkx's ``betweenness_centrality(G, normalized=False)`` on an undirected
        graph. Needs a symmetric graph (``undirected=True``). ``batch``: sources per pass over
        the edges (0: the widest batch that fits in memory, at most 1024; ``stats["batch"]``
        says which ran)."""
        chosen = self._chosen_sources("bc", sources, samples, k, seed)
        return _result(self._core.bc(chosen, _vertex(batch, "batch"),
                                     _settings(max_iterations, transfer, priority, load_balance,
                                               direction)))

    def closeness(self, sources: Optional[Iterable[int]] = None, *,
                  samples: Optional[int] = None, k: Optional[int] = None, seed: int = 1,
                  batch: int = 0, max_iterations: int = 0, transfer: Optional[str] = None,
                  priority: Union[bool, str, None] = None, load_balance: Optional[str] = None,
                  direction: Optional[str] = None) -> Result:
        """Harmonic closeness (unweighted), float64: for each vertex v the sum over the sources
        s other than v that reach it of ``1 / d(s, v)``, d the number of edges on a shortest
        path from s (along the edges' direction). Sources as for :meth:`bc`: distinct vertex
        ids; or ``samples=k`` (``k=`` is the same) distinct vertices with out-edges drawn with
        ``seed`` (scale by the vertices with out-edges over k, as for :meth:`bc`); default: the
        highest-degree vertex. Every vertex as a source (``sources=range(g.num_vertices)``)
        gives the exact harmonic centrality, networkx's ``harmonic_centrality`` on an undirected
        graph. ``batch`` as for :meth:`bc`."""
        chosen = self._chosen_sources("closeness", sources, samples, k, seed)
        return _result(self._core.closeness(chosen, _vertex(batch, "batch"),
                                            _settings(max_iterations, transfer, priority,
                                                      load_balance, direction)))

    def __repr__(self) -> str:
        kind = "symmetric" if self.symmetric else "directed"
        return (f"<oocgraph.Graph {self.num_vertices} vertices, {self.num_edges} edges, {kind}, "
                f"weights {self.weights}, backend {self.backend}>")


def _compress(value: Union[bool, str]) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if value == "only":
        return "only"
    raise ValueError(f"compress takes True, False or \"only\" (got {value!r})")


def load(path: str, **options: Any) -> Graph:
    """Reads a ``.oocg`` file (``partition-tool``'s output, or ``output=`` of the functions
    below) into the engine."""
    return Graph(_core.load(_text(str(path), "path"), options))


def generate(kind: str, *, scale: int = 20, edge_factor: int = 16, rows: int = 0,
             cols: int = 0, vertices: int = 16, seed: int = 1, undirected: bool = False,
             weights: Optional[str] = "file", hub_sort: Optional[float] = 0.08,
             compress: Union[bool, str] = True, in_edges: bool = False,
             output: Optional[str] = None, **options: Any) -> Graph:
    """A synthetic graph, as ``partition-tool generate`` makes it: ``kind`` is ``"kron"`` or
    ``"urand"`` (``scale``, ``edge_factor``), ``"grid"`` (``rows`` by ``cols``; 0: near-square
    from ``scale``), ``"road"`` (``vertices``: planar-like, of high diameter, mean degree 2.5,
    each link weighted by its Euclidean length; docs/cli.md), or ``"star"``, ``"chain"``,
    ``"complete"``, ``"empty"`` (``vertices``); ``seed`` draws the edges and random weights.
    ``weights`` is ``"file"`` (the generator's own: only road has any), None or ``"none"`` (no
    weights), or ``"random:LO-HI"``; ``hub_sort`` the fraction of vertices moved first as hubs
    (None: off); ``in_edges`` also keeps each vertex's in-neighbours, which ``direction="pull"``
    (or ``"auto"``) needs on a directed graph; ``output`` also writes the ``.oocg`` file.
    ``compress`` stores the lists compressed beside the raw ones (True, the default, as
    ``partition-tool`` does), raw only (False, ``--raw-only``), or only compressed (``"only"``,
    ``--compress-only``)."""
    spec = _core.GeneratorSpec()
    spec.kind = _text(kind, "kind")
    spec.scale, spec.edge_factor = _vertex(scale, "scale"), _vertex(edge_factor, "edge_factor")
    spec.rows, spec.cols = _vertex(rows, "rows"), _vertex(cols, "cols")
    spec.vertices, spec.seed = _vertex(vertices, "vertices"), _vertex(seed, "seed")
    return Graph(_core.generate(spec, bool(undirected), "none" if weights is None else
                                _text(weights, "weights"), _fraction(hub_sort),
                                _compress(compress), bool(in_edges), None if output is None else str(output), options))


def convert(input: str, output: str, *, format: Optional[str] = None, undirected: bool = False,
            weights: str = "file", seed: int = 1, hub_sort: Optional[float] = 0.08,
            compress: Union[bool, str] = True, in_edges: bool = False) -> None:
    """Reads a text graph (edge list, ``.wel``, ``.mtx``, gzip or not) or a binary edge list
    (``bin32``, ``bin64``, ``wbin32``, ``wbin64``) and writes ``output`` as ``.oocg``, as
    ``partition-tool convert`` does."""
    _core.convert(str(input), str(output), format, bool(undirected), _text(weights, "weights"),
                  _vertex(seed, "seed"), _fraction(hub_sort), _compress(compress),
                  bool(in_edges))


def _ids(values: Any, name: str) -> np.ndarray:
    a = np.asarray(values)
    if a.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional (got shape {a.shape})")
    if a.size and not np.issubdtype(a.dtype, np.integer):
        raise TypeError(f"{name} must hold integers, not {a.dtype}")
    if a.dtype == np.uint32 and a.flags.c_contiguous:
        return a  # read in place
    if a.size and (a.min() < 0 or a.max() >= _UINT32_MAX):
        raise ValueError(f"{name} must hold vertex ids between 0 and {_UINT32_MAX - 1}")
    return np.ascontiguousarray(a, dtype=np.uint32)


def _weights(values: Any, edges: int) -> tuple[Optional[np.ndarray], str]:
    if values is None:
        return None, "none"
    w = np.asarray(values)
    if w.shape != (edges,):
        raise ValueError(f"weights must hold one value per edge ({edges}), got shape {w.shape}")
    if np.issubdtype(w.dtype, np.floating):
        return np.ascontiguousarray(w, dtype=np.float32).view(np.uint32), "f32"
    if not np.issubdtype(w.dtype, np.integer):
        raise TypeError(f"weights must hold integers or floats, not {w.dtype}")
    if w.size and (w.min() < 0 or w.max() > _UINT32_MAX):
        raise ValueError(f"integer weights must lie between 0 and {_UINT32_MAX}")
    return np.ascontiguousarray(w, dtype=np.uint32), "u32"


def from_edges(sources: Any, targets: Any, weights: Any = None, *,
               num_vertices: Optional[int] = None, undirected: bool = False,
               hub_sort: Optional[float] = 0.08, compress: Union[bool, str] = True,
               in_edges: bool = False, output: Optional[str] = None, **options: Any) -> Graph:
    """A graph from edge arrays: edge i goes from ``sources[i]`` to ``targets[i]``, with
    ``weights[i]`` (integers: u32, floats: f32) when given. uint32 arrays are read in place.
    ``num_vertices`` keeps isolated vertices past the largest id; ``undirected`` adds every
    edge's reverse; ``in_edges`` keeps each vertex's in-neighbours too, for the pull direction
    on a directed graph. Self loops and repeated edges are dropped, as partition-tool does."""
    src, dst = _ids(sources, "sources"), _ids(targets, "targets")
    if src.shape != dst.shape:
        raise ValueError(f"sources and targets differ in length ({src.size} and {dst.size})")
    w, kind = _weights(weights, src.size)
    largest = int(max(src.max(), dst.max())) + 1 if src.size else 0
    n = largest if num_vertices is None else _vertex(num_vertices, "num_vertices")
    return Graph(_core.from_edges(src, dst, w, kind, n, bool(undirected), _fraction(hub_sort),
                                  _compress(compress), bool(in_edges),
                                  None if output is None else str(output), options))


def from_scipy(matrix: Any, *, weighted: bool = True, undirected: bool = False,
               **kwargs: Any) -> Graph:
    """A graph from a square scipy sparse matrix: entry (i, j) is an edge i -> j, with the
    entry as its weight when ``weighted``. Takes :func:`from_edges`' other arguments."""
    try:
        import scipy.sparse as sparse
    except ImportError as e:  # pragma: no cover - scipy is optional
        raise ImportError("from_scipy needs scipy") from e
    if not sparse.issparse(matrix):
        raise TypeError(f"from_scipy needs a scipy sparse matrix, not {type(matrix).__name__}")
    if matrix.shape[0] != matrix.shape[1]:
        raise ValueError(f"the matrix must be square (got shape {matrix.shape})")
    coo = matrix.tocoo()
    return from_edges(coo.row, coo.col, coo.data if weighted else None,
                      num_vertices=matrix.shape[0], undirected=undirected, **kwargs)


def from_networkx(graph: Any, *, weight: Optional[str] = "weight", **kwargs: Any) -> Graph:
    """A graph from a networkx graph. Nodes are numbered in ``graph.nodes`` order; the
    result's ``nodes`` maps each vertex id back to its node. An undirected graph becomes a
    symmetric one. ``weight`` names the edge attribute read as weights when every edge has
    it (None: no weights). Takes :func:`from_edges`' other arguments."""
    try:
        import networkx as nx
    except ImportError as e:  # pragma: no cover - networkx is optional
        raise ImportError("from_networkx needs networkx") from e
    if not isinstance(graph, nx.Graph):
        raise TypeError(f"from_networkx needs a networkx graph, not {type(graph).__name__}")
    nodes = list(graph.nodes)
    index = {node: i for i, node in enumerate(nodes)}
    edges: Sequence = list(graph.edges(data=True))
    src = np.fromiter((index[u] for u, _, _ in edges), dtype=np.uint32, count=len(edges))
    dst = np.fromiter((index[v] for _, v, _ in edges), dtype=np.uint32, count=len(edges))
    w: Optional[Iterable] = None
    if weight is not None and edges and all(weight in d for _, _, d in edges):
        w = np.array([d[weight] for _, _, d in edges])
    kwargs.setdefault("undirected", not graph.is_directed())
    g = from_edges(src, dst, w, num_vertices=len(nodes), **kwargs)
    g.nodes = nodes
    return g
