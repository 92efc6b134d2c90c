#!/usr/bin/python3
"""The real triangles of the SpTRSV benches as Matrix Market files, for runs away from this machine.

usage: real_triangles.py MATRIX_DIR OUTDIR

For each MATRIX_DIR/*.mtx: the strictly lower part, plus a diagonal of 1 + the row's off-diagonal
magnitudes (nonsingular, well conditioned), as bench/split_corpus.cpp's corpus_triangle builds it. Written
as OUTDIR/NAME.mtx (coordinate real general), so `hetsparse sptrsv OUTDIR/NAME.mtx` solves that triangle.
"""
import pathlib
import sys

import numpy as np
import scipy.io
import scipy.sparse as sp


def triangle(path):
    a = sp.csr_matrix(scipy.io.mmread(str(path)), dtype=np.float64)
    off = sp.tril(a, k=-1, format="csr")
    off.eliminate_zeros()
    diag = 1.0 + np.asarray(abs(off).sum(axis=1)).ravel()
    return (off + sp.diags(diag)).tocsr()


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    src, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    for path in sorted(src.glob("*.mtx")):
        t = triangle(path)
        scipy.io.mmwrite(str(out / path.name), t, symmetry="general", precision=17)
        print(f"{path.name}: {t.shape[0]} rows, {t.nnz} entries", flush=True)


if __name__ == "__main__":
    main()
