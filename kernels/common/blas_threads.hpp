// OpenBLAS's own thread pool. hetsparse calls BLAS single-threaded from every StarPU CPU worker (a
// pool of its own per call would oversubscribe the cores the workers hold); the anchors and the
// dgemm ceilings set their own counts. A no-op with a BLAS that has no openblas_set_num_threads.
#pragma once

namespace hetsparse::kernels {

void set_blas_threads(int threads);

}  // namespace hetsparse::kernels
