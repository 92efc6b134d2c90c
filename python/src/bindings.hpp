// The parts of the _hetsparse extension module, one function per binding file.
#pragma once
#include <pybind11/pybind11.h>

namespace hetsparse::python {

namespace py = pybind11;

void bind_runtime(py::module_& m);   // Session
void bind_cholesky(py::module_& m);  // Cholesky
void bind_sptrsv(py::module_& m);    // TriangularSolver, spmv
void bind_pcg(py::module_& m);       // PCG, ic0

}  // namespace hetsparse::python
