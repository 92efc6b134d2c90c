"""hetsparse.cholesky against scipy.sparse.linalg: solves of vectors and blocks, in place, refactorize,
logdet, L and perm, on generated matrices and the shared SPD ones; and the three-line use."""
import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as spla

import hetsparse
import support


def test_three_lines_on_a_scipy_csr_matrix(runtime):
    A = support.laplacian_3d(14)
    b = np.random.default_rng(0).uniform(-1, 1, A.shape[0])
    f = hetsparse.cholesky(A)
    x = f.solve(b)
    assert support.backward_error(A, x, b) < 1e-14
    np.testing.assert_allclose(x, spla.spsolve(A.tocsc(), b), rtol=1e-10, atol=1e-12)


def test_vectors_blocks_and_in_place(runtime):
    A = support.random_spd(700, 0.01, 3)
    rng = np.random.default_rng(1)
    f = hetsparse.cholesky(A, runtime=runtime)
    B = rng.uniform(-1, 1, (700, 4))
    X = f.solve(B)
    assert X.shape == (700, 4)
    np.testing.assert_allclose(X, spla.spsolve(A.tocsc(), B), rtol=1e-10, atol=1e-12)
    X_c = f(np.ascontiguousarray(B))  # C order in, any order out
    np.testing.assert_allclose(X_c, X, rtol=1e-12, atol=1e-15)
    b = np.asfortranarray(B[:, 0].copy())
    x = f.solve(b, overwrite_b=True)
    assert np.shares_memory(x, b)  # zero-copy: solved in the caller's array
    np.testing.assert_allclose(x, X[:, 0], rtol=1e-12, atol=1e-15)
    b_int = np.arange(700)  # other dtypes are converted, the input left alone
    np.testing.assert_allclose(f.solve(b_int), spla.spsolve(A.tocsc(), b_int.astype(float)), rtol=1e-10)
    assert b_int[5] == 5


def test_refactorize_logdet_L_perm(runtime):
    A = support.random_spd(400, 0.02, 5)
    f = hetsparse.cholesky(A)
    sign, logdet = np.linalg.slogdet(A.toarray())
    assert sign == 1 and f.logdet() == pytest.approx(logdet, rel=1e-12)
    L, p = f.L(), f.perm
    assert sp.isspmatrix_csc(L) and not p.flags.writeable
    assert abs(A[p][:, p] - L @ L.T).max() < 1e-12 * abs(A).max()
    assert np.shares_memory(f.perm, f.perm)  # a view of the factor's permutation, not a copy
    A2 = A.copy()
    A2.data *= 3.0
    A2.setdiag(A2.diagonal() + 1.0)
    b = np.random.default_rng(2).uniform(-1, 1, 400)
    x = f.refactorize(A2).solve(b)
    np.testing.assert_allclose(x, spla.spsolve(A2.tocsc(), b), rtol=1e-10, atol=1e-13)
    assert f.logdet() == pytest.approx(np.linalg.slogdet(A2.toarray())[1], rel=1e-12)
    other = support.random_spd(400, 0.02, 6)
    with pytest.raises(hetsparse.StructureError, match="analysed pattern"):
        f.refactorize(other)


def test_shared_spd_matrices(runtime, matrices_dir):
    rng = np.random.default_rng(7)
    for name, path in support.spd_matrices(matrices_dir):
        A = support.load(path)
        b = rng.uniform(-1, 1, A.shape[0])
        f = hetsparse.cholesky(A)
        x = f.solve(b)
        x_scipy = spla.spsolve(A.tocsc(), b)
        assert support.backward_error(A, x, b) < 1e-13, name
        # Both backward stable: they differ by at most what conditioning makes of rounding.
        assert support.backward_error(A, x, b) <= 10 * max(support.backward_error(A, x_scipy, b), 1e-16), name
