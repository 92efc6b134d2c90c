#include "convert.hpp"

#include <limits>

#include "hetsparse/error.hpp"

namespace hetsparse::python {

Csr csr_from_arrays(const IndptrArray& indptr, const IndexArray& indices, const ValueArray& data, std::int64_t rows,
                    std::int64_t cols, const std::string& what) {
  constexpr std::int64_t max_index = std::numeric_limits<index_t>::max();
  if (rows < 0 || cols < 0 || rows > max_index || cols > max_index)
    throw InvalidArgument(what + ": shape " + std::to_string(rows) + " x " + std::to_string(cols) +
                          " outside 0 .. 2^31-1");
  if (indptr.ndim() != 1 || indices.ndim() != 1 || data.ndim() != 1 || indptr.shape(0) != rows + 1)
    throw InvalidArgument(what + ": indptr must have rows + 1 entries, indices and data one each");
  const std::int64_t nnz = indices.shape(0);
  if (data.shape(0) != nnz || indptr.at(0) != 0 || indptr.at(rows) != nnz)
    throw InvalidArgument(what + ": indptr, indices and data do not describe " + std::to_string(nnz) + " entries");
  Csr A;
  A.rows = static_cast<index_t>(rows);
  A.cols = static_cast<index_t>(cols);
  A.rowptr.assign(indptr.data(), indptr.data() + rows + 1);
  A.colind.assign(indices.data(), indices.data() + nnz);
  A.values.assign(data.data(), data.data() + nnz);
  for (index_t i = 0; i < A.rows; ++i) {
    if (A.rowptr[i + 1] < A.rowptr[i]) throw StructureError(i, 0, what + ": indptr decreases");
    for (offset_t t = A.rowptr[i]; t < A.rowptr[i + 1]; ++t)
      if (A.colind[t] < 0 || A.colind[t] >= A.cols) throw StructureError(i, A.colind[t], what + ": column out of range");
  }
  return A;
}

Columns rhs_columns(const py::array& b, std::int64_t n, bool overwrite, const std::string& what) {
  using namespace pybind11::literals;
  if (b.ndim() != 1 && b.ndim() != 2)
    throw InvalidArgument(what + ": b must be a vector or a 2-D block of columns, not " + std::to_string(b.ndim()) +
                          "-D");
  if (b.shape(0) != n)
    throw InvalidArgument(what + ": b has " + std::to_string(b.shape(0)) + " rows, the matrix " + std::to_string(n));
  Columns c;
  c.nrhs = b.ndim() == 2 ? static_cast<int>(b.shape(1)) : 1;
  const bool reusable = overwrite && py::isinstance<py::array_t<double>>(b) && b.writeable() &&
                        (b.flags() & py::array::f_style);
  if (reusable) {
    c.x = py::reinterpret_borrow<py::array_t<double, py::array::f_style>>(b);
  } else {
    c.x = py::array_t<double, py::array::f_style>(b.ndim() == 2 ? std::vector<py::ssize_t>{n, c.nrhs}
                                                                : std::vector<py::ssize_t>{n});
    // Copy through numpy (any dtype, any strides), as np.copyto(x, b) would.
    py::module_::import("numpy").attr("copyto")(c.x, b, "casting"_a = "same_kind");
  }
  return c;
}

rt::Where parse_where(const std::string& device, int cuda_workers) {
  if (device == "auto") return cuda_workers > 0 ? rt::Where::Cuda : rt::Where::Cpu;
  if (device == "any") return rt::Where::Any;
  if (device == "cpu") return rt::Where::Cpu;
  if (device == "gpu" || device == "cuda") return rt::Where::Cuda;
  throw InvalidArgument("unknown device '" + device + "' (auto, any, cpu or gpu)");
}

void register_errors() {
  py::register_exception_translator([](std::exception_ptr p) {
    if (!p) return;
    auto raise = [](const char* name, const std::exception& e, py::dict extra) {
      py::object cls = py::module_::import("hetsparse.errors").attr(name);
      py::object instance = cls(e.what(), **extra);
      PyErr_SetObject(cls.ptr(), instance.ptr());
    };
    using namespace pybind11::literals;
    try {
      std::rethrow_exception(p);
    } catch (const NotPositiveDefinite& e) {
      raise("NotPositiveDefinite", e, py::dict("column"_a = e.column()));
    } catch (const StructureError& e) {
      raise("StructureError", e, py::dict("row"_a = e.row(), "col"_a = e.col()));
    } catch (const ParseError& e) {
      raise("ParseError", e, py::dict("file"_a = e.file(), "line"_a = e.line()));
    } catch (const InvalidArgument& e) {
      raise("InvalidArgument", e, py::dict());
    } catch (const CudaError& e) {
      raise("CudaError", e, py::dict());
    } catch (const RuntimeFailure& e) {
      raise("RuntimeFailure", e, py::dict());
    } catch (const Error& e) {
      raise("Error", e, py::dict());
    }
  });
}

}  // namespace hetsparse::python
