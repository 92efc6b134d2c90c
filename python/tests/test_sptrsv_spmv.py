"""hetsparse.TriangularSolver and hetsparse.spmv against scipy."""
import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as spla

import hetsparse
import support


@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("unit", [False, True])
def test_triangular_solves(runtime, lower, unit):
    A = support.random_spd(600, 0.01, 11)
    T = (sp.tril(A) if lower else sp.triu(A)).tocsr()
    s = hetsparse.TriangularSolver(T, lower=lower, unit=unit)
    Tu = T.copy()
    if unit:
        Tu.setdiag(1.0)
    B = np.random.default_rng(3).uniform(-1, 1, (600, 3))
    np.testing.assert_allclose(s.solve(B[:, 0]), spla.spsolve_triangular(Tu, B[:, 0], lower=lower), rtol=1e-11,
                               atol=1e-13)
    np.testing.assert_allclose(s.solve(B), spla.spsolve_triangular(Tu, B, lower=lower), rtol=1e-11, atol=1e-13)
    np.testing.assert_allclose(s.solve(B, transpose=True), spla.spsolve_triangular(Tu.T.tocsr(), B, lower=not lower),
                               rtol=1e-11, atol=1e-13)
    assert isinstance(s.variant, str)
    assert isinstance(s.solves_on_cpu, bool) and isinstance(s.placement, str)
    assert isinstance(s.inline_solves, bool)
    if s.runtime.cuda_workers == 0:  # no GPU: every one-vector solve is one CPU task, none inline
        assert s.solves_on_cpu and not s.inline_solves


def test_triangular_structure_error(runtime):
    T = sp.tril(support.random_spd(100, 0.05, 2)).tolil()
    T[40, 40] = 0.0
    T = T.tocsr()
    T.eliminate_zeros()
    with pytest.raises(hetsparse.StructureError) as e:
        hetsparse.TriangularSolver(T, lower=True).solve(np.ones(100))
    assert e.value.row == 40


def test_spmv(runtime):
    rng = np.random.default_rng(4)
    A = sp.random(900, 700, density=0.02, random_state=rng, format="csr")
    x = rng.uniform(-1, 1, 700)
    np.testing.assert_allclose(hetsparse.spmv(A, x), A @ x, rtol=1e-13, atol=1e-14)
    X = rng.uniform(-1, 1, (700, 2))
    np.testing.assert_allclose(hetsparse.spmv(A, X, blocks=3), A @ X, rtol=1e-13, atol=1e-14)
    with pytest.raises(hetsparse.InvalidArgument, match="700"):
        hetsparse.spmv(A, np.ones(699))
