// What crosses the Python boundary: scipy's CSR arrays into a Csr, results out as numpy arrays that
// own their C++ storage (no copy), dense right-hand sides as column-major blocks, and hetsparse's
// exceptions as the Python classes of hetsparse/errors.py with the same messages.
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "runtime/task_runtime.hpp"
#include "sparse/csr.hpp"

namespace hetsparse::python {

namespace py = pybind11;

using IndptrArray = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;
using IndexArray = py::array_t<std::int32_t, py::array::c_style | py::array::forcecast>;
using ValueArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

// A CSR matrix of shape rows x cols from scipy's arrays (canonical: sorted, no duplicates, as
// hetsparse/__init__.py makes them). InvalidArgument naming `what` for inconsistent arrays.
Csr csr_from_arrays(const IndptrArray& indptr, const IndexArray& indices, const ValueArray& data, std::int64_t rows,
                    std::int64_t cols, const std::string& what);

// A numpy array viewing v's storage, which it takes over (freed with the array).
template <class T>
py::array_t<T> to_numpy(std::vector<T>&& v) {
  auto* owned = new std::vector<T>(std::move(v));
  py::capsule free_when_done(owned, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return py::array_t<T>(static_cast<py::ssize_t>(owned->size()), owned->data(), free_when_done);
}

// A right-hand side block b (n or n x k) copied into a new Fortran-ordered array x, or b itself
// when `overwrite` and b is already float64, Fortran-contiguous and writable (no copy).
struct Columns {
  py::array_t<double, py::array::f_style> x;
  int nrhs = 1;
};
Columns rhs_columns(const py::array& b, std::int64_t n, bool overwrite, const std::string& what);

// "auto" (the GPU when the runtime has a CUDA worker, else the CPUs), "any", "cpu" or "gpu".
rt::Where parse_where(const std::string& device, int cuda_workers);

void register_errors();

}  // namespace hetsparse::python
