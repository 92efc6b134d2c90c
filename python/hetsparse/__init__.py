"""hetsparse: sparse Cholesky, triangular solves, SpMV and preconditioned CG as StarPU task graphs
over every CPU core and GPU, from scipy.sparse matrices.

    import hetsparse
    f = hetsparse.cholesky(A)        # A: SPD scipy.sparse matrix (both triangles)
    x = f.solve(b)                   # b: (n,) or (n, k)

Every call runs on a Runtime: the innermost one entered with `with hetsparse.Runtime(...)`, or the
default one (every core and GPU, made at first use, closed at exit). StarPU allows one at a time.
"""
import atexit
import dataclasses
import weakref

import numpy as np
import scipy.sparse as sp

from . import _hetsparse
from .errors import (CudaError, Error, InvalidArgument, NotPositiveDefinite, ParseError, RuntimeFailure,
                     StructureError)

__all__ = ["Runtime", "default_runtime", "cholesky", "Factor", "TriangularSolver", "spmv", "ic0", "PCG", "pcg",
           "PcgResult", "Error", "InvalidArgument", "ParseError", "StructureError", "NotPositiveDefinite",
           "RuntimeFailure", "CudaError", "cuda_build"]

cuda_build = _hetsparse.cuda_build
_open_runtimes = weakref.WeakSet()
_entered = []
_default = None


class Runtime:
    """The StarPU runtime: scheduler and workers (None: $STARPU_SCHED / $STARPU_NCPU / $STARPU_NCUDA,
    else dmdas and every core and GPU); `trace` records an FxT trace, converted to trace/paje.trace at
    close(); `cuda_workers_per_gpu` (None: $STARPU_NWORKER_PER_CUDA, else 1) gives each GPU that many
    workers, one stream each: 2 lets a Cholesky factorization's independent tasks overlap on the GPU.
    A context manager: calls inside `with` use it, and it closes at the end."""

    def __init__(self, sched=None, ncpu=None, ncuda=None, trace=None, perfmodel_dir=None, verbose=False,
                 cuda_workers_per_gpu=None):
        self._session = _hetsparse.Session(sched or "", -1 if ncpu is None else int(ncpu),
                                           -1 if ncuda is None else int(ncuda), trace or "", perfmodel_dir or "",
                                           bool(verbose),
                                           -1 if cuda_workers_per_gpu is None else int(cuda_workers_per_gpu))
        self.trace_files = None
        _open_runtimes.add(self)

    cpu_workers = property(lambda self: self._session.cpu_workers)
    cuda_workers = property(lambda self: self._session.cuda_workers)
    scheduler = property(lambda self: self._session.scheduler)
    closed = property(lambda self: self._session.closed)

    def close(self):
        """Releases every object built on this runtime and shuts StarPU down; returns the trace files."""
        if not self._session.closed:
            self.trace_files = self._session.close()
        return self.trace_files

    def __enter__(self):
        _entered.append(self)
        return self

    def __exit__(self, *exc):
        _entered.remove(self)
        self.close()
        return False

    def __repr__(self):
        if self.closed:
            return "hetsparse.Runtime(closed)"
        return (f"hetsparse.Runtime(sched={self.scheduler!r}, cpu_workers={self.cpu_workers}, "
                f"cuda_workers={self.cuda_workers})")


def default_runtime():
    """The Runtime calls use when given none: the innermost `with` one, else the default one."""
    global _default
    if _entered:
        return _entered[-1]
    if _default is None or _default.closed:
        _default = Runtime()
    return _default


@atexit.register
def _close_all():
    for r in list(_open_runtimes):
        r.close()


def _session(runtime):
    r = runtime if runtime is not None else default_runtime()
    if r.closed:
        raise InvalidArgument("hetsparse: the Runtime has been closed")
    return r, r._session


def _csr(A, what, square=True):
    """A canonical float64 CSR copy-free view of A where possible (scipy formats or a dense array)."""
    A = A.tocsr() if sp.issparse(A) else sp.csr_matrix(np.asarray(A))
    if np.iscomplexobj(A.data):
        raise InvalidArgument(f"{what}: complex matrices are not supported")
    if square and A.shape[0] != A.shape[1]:
        raise InvalidArgument(f"{what}: the matrix must be square, not {A.shape[0]} x {A.shape[1]}")
    if not A.has_canonical_format:  # sorted indices, no duplicates: fix a copy, never the caller's matrix
        A = A.copy()
        A.sum_duplicates()
    return A


class Factor:
    """Sparse Cholesky A = P^T L L^T P of an SPD matrix (as scikit-sparse's cho_factor): solve() for
    vectors and blocks, refactorize() with new values on the same pattern, logdet(), L() and perm
    (A[perm][:, perm] = L L^T)."""

    def __init__(self, core, runtime, n):
        self._core, self.runtime, self.shape = core, runtime, (n, n)

    def solve(self, b, overwrite_b=False):
        """x = A^-1 b for b of shape (n,) or (n, k); overwrite_b solves in b when it is a writable
        float64 Fortran-ordered array (no copy)."""
        return self._core.solve(np.asanyarray(b), bool(overwrite_b))

    __call__ = solve

    def refactorize(self, A):
        """New values with the pattern of the analysed matrix (no new analysis); returns self."""
        A = _csr(A, "refactorize")
        self._core.refactorize(A.indptr, A.indices, A.data, A.shape[0])
        return self

    def logdet(self):
        """log det(A) = 2 sum log L_jj."""
        return self._core.logdet()

    def L(self):
        """The factor L (lower, in the permuted order) as a scipy CSC matrix."""
        indptr, indices, data = self._core.factor_L_csc()
        return sp.csc_matrix((data, indices, indptr), shape=self.shape)

    @property
    def perm(self):
        """The fill-reducing permutation: old index = perm[new index] (a read-only view)."""
        return self._core.perm

    @property
    def info(self):
        """n, nnz_L, supernodes, flops, analyze_s, factorize_s."""
        return self._core.info


def cholesky(A, ordering="metis", triangle="full", runtime=None):
    """Analyzes and factorizes the SPD matrix A (triangle: which part A holds: full, lower or upper).
    Raises NotPositiveDefinite naming the column of the failed pivot."""
    r, s = _session(runtime)
    A = _csr(A, "cholesky")
    core = _hetsparse.Cholesky(s, A.indptr, A.indices, A.data, A.shape[0], ordering, triangle)
    return Factor(core, r, A.shape[0])


class TriangularSolver:
    """The SpTRSV engine: T analysed once (scheme chosen by `variant` for CUDA workers), then
    solve(b) = T^-1 b (or T^-T b) for (n,) or (n, k) right-hand sides."""

    def __init__(self, T, lower=True, unit=False, variant="auto", device="auto", runtime=None):
        self.runtime, s = _session(runtime)
        T = _csr(T, "TriangularSolver")
        self.shape = T.shape
        self._core = _hetsparse.TriangularSolver(s, T.indptr, T.indices, T.data, T.shape[0], bool(lower), bool(unit),
                                                 variant, device)

    def solve(self, b, transpose=False, overwrite_b=False):
        return self._core.solve(np.asanyarray(b), bool(transpose), bool(overwrite_b))

    __call__ = solve

    @property
    def variant(self):
        """The scheme solves on a CUDA worker use, or the CPU mode."""
        return self._core.variant

    @property
    def solves_on_cpu(self):
        """Whether solve() of one vector runs as serial substitution on one CPU core (device "cpu", no
        CUDA worker, or device "auto" where the cost model predicts the core faster than the GPU)."""
        return self._core.solves_on_cpu

    @property
    def placement(self):
        """With device "auto" and a GPU: why solve() runs where it does ("" otherwise)."""
        return self._core.placement

    @property
    def inline_solves(self):
        """Whether solve() on a GPU runs in the calling thread (no StarPU task's round trip)."""
        return self._core.inline_solves


def spmv(A, x, device="auto", blocks=0, runtime=None):
    """y = A x as SpMV tasks over row blocks (blocks=0: one per worker); x of shape (n,) or (n, k)."""
    _, s = _session(runtime)
    A = _csr(A, "spmv", square=False)
    x = np.asarray(x, dtype=np.float64)
    cols = [x] if x.ndim == 1 else [x[:, j] for j in range(x.shape[1])]
    ys = [_hetsparse.spmv(s, A.indptr, A.indices, A.data, A.shape[0], A.shape[1], np.ascontiguousarray(c), device,
                          int(blocks)) for c in cols]
    return ys[0] if x.ndim == 1 else np.column_stack(ys)


def ic0(A, shift=0.0, device="auto", runtime=None):
    """The IC(0) factor of the symmetric A (+ shift * diag(A)) as a lower scipy CSR matrix, computed
    as one task on a CPU or CUDA worker. Raises NotPositiveDefinite naming the failing column."""
    _, s = _session(runtime)
    A = _csr(A, "ic0")
    indptr, indices, data = _hetsparse.ic0(s, A.indptr, A.indices, A.data, A.shape[0], float(shift), device)
    return sp.csr_matrix((data, indices, indptr), shape=A.shape)


@dataclasses.dataclass
class PcgResult:
    converged: bool
    breakdown: bool
    iterations: int
    residuals: np.ndarray  # ||r_k||_2, k = 0 .. iterations
    relative_residual: float
    b_norm: float
    tolerance: float
    solve_s: float
    time_split: dict = None  # with time_phases: spmv_s, preconditioner_s (sptrsv_s for ic0), vector_s


class PCG:
    """Preconditioned CG with every operation a task (on one GPU: launched on the calling thread's
    stream, see inline_launches): M = "none", "jacobi", "ic0" (IC(0) + two SpTRSV solves) or
    "cholesky" (the complete factor: one step is a direct solve). Stops when ||r|| <= max(rtol ||b||,
    atol). Set up once; solve() many right-hand sides. time_phases=True also waits after each phase,
    so that PcgResult.time_split holds the SpMV / preconditioner / vector times (slower: the GPU
    idles at each wait)."""

    def __init__(self, A, M="ic0", rtol=1e-8, atol=0.0, maxiter=1000, ic0_shift=0.0, device="auto", variant="auto",
                 time_phases=False, runtime=None):
        self.runtime, s = _session(runtime)
        A = _csr(A, "pcg")
        self.shape = A.shape
        self._core = _hetsparse.PCG(s, A.indptr, A.indices, A.data, A.shape[0], M, float(rtol), float(atol),
                                    int(maxiter), float(ic0_shift), device, variant, bool(time_phases))

    def solve(self, b, x0=None):
        """(x, PcgResult) for A x = b, starting from x0 (zeros by default)."""
        x, report = self._core.solve(np.asarray(b, dtype=np.float64), x0)
        return x, PcgResult(**report)

    setup_s = property(lambda self: self._core.setup_s)
    preconditioner = property(lambda self: self._core.preconditioner)

    @property
    def inline_launches(self):
        """Whether an iteration on a GPU is launched on the calling thread's stream, not as tasks."""
        return self._core.inline_launches

    def ic0_factor(self):
        """M = "ic0": the factor L (lower scipy CSR) whose L L^T preconditions; None otherwise."""
        arrays = self._core.ic0_factor()
        if arrays is None:
            return None
        indptr, indices, data = arrays
        return sp.csr_matrix((data, indices, indptr), shape=self.shape)


def pcg(A, b, x0=None, **options):
    """One solve with PCG(A, **options): returns (x, PcgResult)."""
    return PCG(A, **options).solve(b, x0)
