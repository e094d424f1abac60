"""The backend the tests run on: OOCGRAPH_TEST_BACKEND (cpu unless set; ctest's python_cuda
sets cuda and skips, saying "no CUDA GPU here", where the engine finds no GPU)."""

import os

import pytest

import oocgraph

BACKEND = os.environ.get("OOCGRAPH_TEST_BACKEND", "cpu")


def pytest_collection_modifyitems(config, items):
    if BACKEND != "cuda":
        return
    try:
        oocgraph.generate("chain", vertices=4, backend="cuda")
    except RuntimeError as e:
        skip = pytest.mark.skip(reason=f"no CUDA GPU here: {e}")
        for item in items:
            item.add_marker(skip)


@pytest.fixture
def backend():
    return BACKEND
