"""The Runtime's life cycle (context manager, default runtime, trace, objects outliving it) and the
C++ exceptions as Python ones with the same messages."""
import os

import numpy as np
import pytest
import scipy.sparse as sp

import hetsparse
import support


def test_lifecycle_and_errors(tmp_path):
    A = support.laplacian_3d(8)
    b = np.ones(A.shape[0])
    with pytest.raises(hetsparse.InvalidArgument, match="0 CUDA workers per GPU"):
        hetsparse.Runtime(ncpu=2, ncuda=0, cuda_workers_per_gpu=0)
    with hetsparse.Runtime(sched="eager", ncpu=2, ncuda=0, trace=str(tmp_path / "tr")) as r:
        assert r.cpu_workers == 2 and r.cuda_workers == 0 and r.scheduler == "eager"
        assert hetsparse.default_runtime() is r
        with pytest.raises(hetsparse.InvalidArgument, match="one per process"):
            hetsparse.Runtime()
        f = hetsparse.cholesky(A)  # the runtime of the `with`
        assert f.runtime is r
        x = f.solve(b)
        # NotPositiveDefinite carries the column, in the caller's numbering, and the C++ message.
        indefinite = sp.diags([4.0, 4.0, -2.0, 4.0]).tocsr()
        with pytest.raises(hetsparse.NotPositiveDefinite, match=r"not positive definite.*column 2") as e:
            hetsparse.cholesky(indefinite)
        assert e.value.column == 2 and isinstance(e.value, np.linalg.LinAlgError)
        with pytest.raises(hetsparse.NotPositiveDefinite, match=r"IC\(0\).*column 2") as e:
            hetsparse.ic0(indefinite)
        assert e.value.column == 2
        asym = sp.csr_matrix(np.array([[4.0, 1.0], [0.5, 4.0]]))
        with pytest.raises(hetsparse.StructureError) as e:
            hetsparse.cholesky(asym)
        assert (e.value.row, e.value.col) in {(0, 1), (1, 0)}
        with pytest.raises(hetsparse.InvalidArgument, match="square"):
            hetsparse.PCG(sp.random(4, 5, density=0.5, format="csr"))
        with pytest.raises(hetsparse.InvalidArgument, match="unknown preconditioner 'ilu'"):
            hetsparse.PCG(A, M="ilu")
        with pytest.raises(hetsparse.InvalidArgument, match="unknown device"):
            hetsparse.ic0(A, device="tpu")
        with pytest.raises(hetsparse.InvalidArgument, match="rows"):
            f.solve(np.ones(3))
        with pytest.raises(ValueError):  # every argument error is also a ValueError
            f.solve(np.ones((2, 2, 2)))
    assert r.closed and os.path.exists(r.trace_files["paje"])
    with pytest.raises(hetsparse.InvalidArgument, match="has been closed"):
        f.solve(b)  # the factor's storage went with its runtime
    # Without a `with`: the default runtime, made at first use.
    y = hetsparse.cholesky(A).solve(b)
    np.testing.assert_allclose(y, x, rtol=1e-14)
    assert not hetsparse.default_runtime().closed
