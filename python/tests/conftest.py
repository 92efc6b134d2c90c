"""Fixtures of the Python suites: one Runtime per test process (StarPU allows one), and the shared
real matrices ($HETSPARSE_MATRICES, as the C++ suites; tests that need them skip without it)."""
import os

import pytest

import hetsparse


@pytest.fixture(scope="session")
def runtime():
    with hetsparse.Runtime(ncpu=2) as r:
        yield r


@pytest.fixture(scope="session")
def matrices_dir():
    d = os.environ.get("HETSPARSE_MATRICES", "")
    if not d:
        pytest.skip("set HETSPARSE_MATRICES to the shared matrix folder")
    return d
