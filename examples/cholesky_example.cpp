// The README's Cholesky example: solve A x = b for the symmetric positive definite A of a Matrix
// Market file. The whole matrix goes in and is checked: a file that is not symmetric is refused
// with the first asymmetric entry named, not solved as if its lower triangle were A.
//   cholesky_example A.mtx
#include <cstdio>
#include <vector>

#include "cholesky/cholesky_solver.hpp"
#include "hetsparse/error.hpp"
#include "reference/sparse_reference.hpp"
#include "runtime/starpu/runtime.hpp"
#include "sparse/matrix_market.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: cholesky_example A.mtx\n");
    return 2;
  }
  using namespace hetsparse;
  try {
    const Csr A = load_matrix(argv[1]);                 // a symmetric file is expanded to both triangles
    rt::RuntimeOptions ro;                              // every CPU core and GPU, and on each GPU
    ro.cuda_workers_per_gpu = cholesky::kCudaWorkersPerGpu;  // six streams (as `hetsparse cholesky`)
    rt::Runtime runtime(ro);
    cholesky::CholeskySolver chol(runtime);
    cholesky::AnalyzeOptions options;
    options.input = cholesky::InputTriangle::Full;      // StructureError if A != A^T
    chol.analyze(A, options);                           // METIS, etree, column counts, supernodes
    chol.factorize(A);                                  // NotPositiveDefinite names the column
    std::vector<double> b(A.rows, 1.0), x = b;
    chol.solve(x);                                      // x = A^-1 b
    std::printf("%d rows, backward error %.1e\n", A.rows, ref::backward_error(A, x.data(), b.data()));
    return 0;
  } catch (const Error& e) {
    std::fprintf(stderr, "cholesky_example: %s\n", e.what());
    return 1;
  }
}
