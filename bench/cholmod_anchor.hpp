// CHOLMOD (supernodal, BLAS threads as given) on the same matrix and ordering as hetsparse: the
// anchor of the Cholesky benchmarks, run in the same process.
#pragma once
#include <string>
#include <vector>

#include "sparse/csr.hpp"

namespace hetsparse::bench {

struct CholmodResult {
  bool ok = false;
  std::string error;  // e.g. CHOLMOD's "problem too large" or "not positive definite"
  double analyze_s = 0, factorize_s = 0, solve_s = 0, flops = 0, nnz_L = 0, backward_error = 0;
  // CHOLMOD's analysis with its own METIS ordering (cholmod_analyze_metis below).
  double analyze_metis_s = 0, flops_metis = 0, nnz_L_metis = 0;
};

// CHOLMOD's complete analysis as a CHOLMOD user gets it: METIS ordering (CHOLMOD_METIS, METIS_NodeND
// on A's graph), etree postorder, supernodal symbolic factor. hetsparse's analyze does the same
// work, so this, not the analysis given our permutation, is the time to compare it with.
// seconds: cholmod_analyze alone (not copying A in); nnz_L, flops: CHOLMOD's lnz and fl.
struct CholmodAnalysis {
  bool ok = false;
  std::string error;
  double seconds = 0, flops = 0, nnz_L = 0;
};
CholmodAnalysis cholmod_analyze_metis(const Csr& lower);

// lower: the lower triangle of A (CSR); perm: the ordering to give CHOLMOD (old = perm[new]);
// b: right-hand side; blas_threads: OpenBLAS threads for CHOLMOD's BLAS calls. Also runs
// cholmod_analyze_metis first (analyze_metis_s; its failure is not an error of the run).
CholmodResult run_cholmod(const Csr& full, const Csr& lower, const std::vector<index_t>& perm,
                          const std::vector<double>& b, int blas_threads);

}  // namespace hetsparse::bench
