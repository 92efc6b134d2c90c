"""Helpers of the Python suites: test matrices, a pure-Python IC(0) reference and scipy's CG with a
given preconditioner (scipy has no IC(0))."""
import csv
import os

import numpy as np
import scipy.io
import scipy.sparse as sp
import scipy.sparse.linalg as spla

# Plain IC(0) meets a non-positive pivot on these SPD matrices (not M-matrices): the smallest shifts
# of A + s diag(A), among 0.01, 0.1, 0.2, with which it goes through.
IC0_SHIFTS = {"bcsstk09": 0.1, "bcsstk10": 0.1, "bcsstk13": 0.2, "bcsstk21": 0.1, "bcsstk26": 0.01}


def laplacian_3d(n):
    t = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n, n))
    return (sp.kronsum(sp.kronsum(t, t), t) + 0.01 * sp.identity(n ** 3)).tocsr()


def random_spd(n, density, seed):
    """Diagonally dominant SPD with a random pattern (bigger than a warp for any n >= 64)."""
    rng = np.random.default_rng(seed)
    B = sp.random(n, n, density=density, random_state=rng, data_rvs=lambda k: rng.uniform(-1, 1, k))
    S = (B + B.T).tocsr()
    return (S + sp.diags(np.asarray(abs(S).sum(axis=1)).ravel() + 1.0)).tocsr()


def spd_matrices(folder):
    """(name, path) of the MANIFEST's matrices flagged likely SPD."""
    with open(os.path.join(folder, "MANIFEST.tsv")) as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return [(r["name"], os.path.join(folder, r["file"])) for r in rows if r["likely_spd"] == "yes"]


def load(path):
    return scipy.io.mmread(path).tocsr()


def ic0_reference(A, shift=0.0):
    """Row-by-row IC(0) in plain Python on tril(A) + shift diag(A): (L, -1) or (None, failing row)."""
    L = sp.tril(A, format="csr").astype(float)
    L = (L + shift * sp.diags(A.diagonal())).tocsr()
    L.sort_indices()
    ip, ix, v = L.indptr, L.indices, L.data.copy()
    for i in range(A.shape[0]):
        s, e = ip[i], ip[i + 1]
        pos = {c: s + t for t, c in enumerate(ix[s:e])}
        for t in range(s, e - 1):
            k = ix[t]
            acc = v[t]
            for u in range(ip[k], ip[k + 1] - 1):
                p = pos.get(ix[u])
                if p is not None and p < t:
                    acc -= v[p] * v[u]
            v[t] = acc / v[ip[k + 1] - 1]
        d = v[e - 1] - np.dot(v[s:e - 1], v[s:e - 1])
        if not d > 0:
            return None, i
        v[e - 1] = np.sqrt(d)
    return sp.csr_matrix((v, ix, ip), shape=A.shape), -1


def ic0_operator(L):
    """M^-1 = L^-T L^-1 as a LinearOperator (SuperLU on the triangles, natural order: no fill)."""
    opts = dict(permc_spec="NATURAL", diag_pivot_thresh=0.0, options=dict(SymmetricMode=True))
    lower, upper = spla.splu(L.tocsc(), **opts), spla.splu(L.T.tocsc(), **opts)
    return spla.LinearOperator(L.shape, matvec=lambda r: upper.solve(lower.solve(r)))


def scipy_cg(A, b, M=None, rtol=1e-8, maxiter=20000):
    """scipy's CG with the stopping test of hetsparse's PCG: (x, iterations, converged)."""
    count = [0]
    x, info = spla.cg(A, b, tol=rtol, atol=0.0, maxiter=maxiter, M=M,
                      callback=lambda xk: count.__setitem__(0, count[0] + 1))
    return x, count[0], info == 0


def backward_error(A, x, b):
    """||b - A x||_inf / (||A||_inf ||x||_inf + ||b||_inf), as ref::backward_error."""
    r = b - A @ x
    anorm = abs(A).sum(axis=1).max()
    return np.abs(r).max() / (anorm * np.abs(x).max() + np.abs(b).max())
