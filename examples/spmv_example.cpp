// The README's API example: y = A*x over every CPU core and GPU as StarPU tasks.
#include <cstdio>
#include <vector>

#include "reference/sparse_reference.hpp"
#include "runtime/starpu/runtime.hpp"
#include "sparse/generators.hpp"
#include "spmv/distributed_spmv.hpp"

int main() {
  using namespace hetsparse;
  Csr A = laplacian_3d(64, 64, 64);                  // or load_matrix("A.mtx")
  std::vector<double> x(A.cols, 1.0), y(A.rows);

  rt::Runtime runtime;                               // scheduler from $STARPU_SCHED, else dmdas
  DistributedSpmv spmv(runtime, A, x, y, {/*blocks=*/8});
  for (int i = 0; i < 10; ++i) spmv.submit();        // asynchronous tasks
  spmv.finish();                                     // y is back in host memory

  std::vector<double> ref(A.rows);
  ref::spmv(A, x.data(), ref.data());
  double err = 0;
  for (index_t i = 0; i < A.rows; ++i) err = std::max(err, std::abs(y[i] - ref[i]));
  std::printf("%d rows on %d CPU + %d CUDA workers, max error %.1e\n", A.rows, runtime.cpu_workers(),
              runtime.cuda_workers(), err);
  return err < 1e-12 ? 0 : 1;
}
