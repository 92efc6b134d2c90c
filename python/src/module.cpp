// The _hetsparse extension module (pybind11); hetsparse/__init__.py is its Python face.
#include "bindings.hpp"
#include "codelets/cuda_build.hpp"
#include "convert.hpp"

PYBIND11_MODULE(_hetsparse, m) {
  m.doc() = "hetsparse: sparse Cholesky, SpTRSV, SpMV and PCG as StarPU task graphs (C++ core)";
  hetsparse::python::register_errors();
  hetsparse::python::bind_runtime(m);
  hetsparse::python::bind_cholesky(m);
  hetsparse::python::bind_sptrsv(m);
  hetsparse::python::bind_pcg(m);
  m.attr("cuda_build") = hetsparse::codelets::kCudaBuild;
}
