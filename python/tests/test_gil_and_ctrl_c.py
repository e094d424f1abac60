"""The GIL is released while the engine runs; SIGINT stops a run within a second, and Python's
handler is put back after runs from several threads."""

import os
import signal
import threading
import time

import pytest

import oocgraph


def long_graph(backend):
    # BFS from a corner of a grid: 3000 iterations on the CPU, 8000 on the GPU (longer than a
    # second on either).
    side = 1500 if backend == "cpu" else 4000
    return oocgraph.generate("grid", rows=side, cols=side, backend=backend)


def test_the_gil_is_released_while_the_engine_runs(backend):
    g = long_graph(backend)
    ticks, done = [0], threading.Event()

    def count():
        while not done.is_set():
            ticks[0] += 1
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    try:
        levels = g.bfs(0)
    finally:
        done.set()
        counter.join()
    assert levels.stats["seconds"] > 0.05
    assert ticks[0] >= 10, ticks[0]  # the other thread ran during the call


def test_ctrl_c_stops_a_run_within_a_second(backend):
    g = long_graph(backend)
    full = g.bfs(0).stats["seconds"]
    if full < 0.6:
        pytest.skip(f"the run takes only {full:.2f} s here")
    sent = []

    def interrupt():
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(0.2, interrupt)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        g.bfs(0)
    stopped = time.monotonic() - sent[0]
    timer.join()
    assert stopped < 1.0, stopped
    assert g.bfs(0, max_iterations=3).converged is False  # the graph is still usable


def test_runs_from_several_threads_put_python_s_ctrl_c_back(backend):
    # Long enough runs that they overlap: the scope made second may end last.
    graphs = [oocgraph.generate("grid", rows=200, cols=200, backend=backend) for _ in range(3)]
    errors = []

    def run(g):
        try:
            for _ in range(5):
                g.bfs(0)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=run, args=(g,)) for g in graphs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    # No run in flight: SIGINT reaches Python's own handler again.
    with pytest.raises(KeyboardInterrupt):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(1.0)
