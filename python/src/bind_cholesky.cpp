// hetsparse._hetsparse.Cholesky: analyze + factorize at construction, solve / refactorize / logdet,
// L as CSC arrays and the permutation as numpy views.
#include <algorithm>
#include <chrono>
#include <vector>

#include <pybind11/stl.h>

#include "bindings.hpp"
#include "cholesky/cholesky_solver.hpp"
#include "convert.hpp"
#include "hetsparse/error.hpp"
#include "session.hpp"
#include "sparse/convert.hpp"

namespace hetsparse::python {
namespace {

struct Factor {
  explicit Factor(rt::TaskRuntime& rt) : solver(rt) {}
  cholesky::CholeskySolver solver;
  Csr pattern;  // the analysed pattern (values unused): refactorize must match it
  double analyze_s = 0, factorize_s = 0;
  double last_solve_s = 0;  // the C++ call inside the last solve(): the Python overhead bench's baseline
};
using CholeskyEngine = Engine<Factor>;

cholesky::InputTriangle parse_triangle(const std::string& s) {
  if (s == "full") return cholesky::InputTriangle::Full;
  if (s == "lower") return cholesky::InputTriangle::Lower;
  if (s == "upper") return cholesky::InputTriangle::Upper;
  throw InvalidArgument("cholesky: triangle must be full, lower or upper, not '" + s + "'");
}

cholesky::Ordering parse_ordering(const std::string& s) {
  if (s == "metis") return cholesky::Ordering::Metis;
  if (s == "natural") return cholesky::Ordering::Natural;
  throw InvalidArgument("cholesky: ordering must be metis or natural, not '" + s + "'");
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

void check_same_pattern(const Csr& analysed, const Csr& A) {
  if (A.rows != analysed.rows || A.cols != analysed.cols)
    throw InvalidArgument("refactorize: the matrix is " + std::to_string(A.rows) + " x " + std::to_string(A.cols) +
                          ", the factor's " + std::to_string(analysed.rows) + " x " + std::to_string(analysed.cols));
  for (index_t i = 0; i < A.rows; ++i) {
    const bool same = A.rowptr[i + 1] - A.rowptr[i] == analysed.rowptr[i + 1] - analysed.rowptr[i] &&
                      std::equal(A.colind.begin() + A.rowptr[i], A.colind.begin() + A.rowptr[i + 1],
                                 analysed.colind.begin() + analysed.rowptr[i]);
    if (!same) throw StructureError(i, 0, "refactorize: row differs from the analysed pattern (analyze again)");
  }
}

}  // namespace

void bind_cholesky(py::module_& m) {
  using namespace pybind11::literals;
  py::class_<CholeskyEngine>(m, "Cholesky")
      .def(py::init([](std::shared_ptr<Session> s, const IndptrArray& indptr, const IndexArray& indices,
                       const ValueArray& data, std::int64_t n, const std::string& ordering,
                       const std::string& triangle) {
             Csr A = csr_from_arrays(indptr, indices, data, n, n, "cholesky");
             cholesky::AnalyzeOptions ao;
             ao.ordering = parse_ordering(ordering);
             ao.input = parse_triangle(triangle);
             auto f = std::make_unique<Factor>(s->runtime());
             {
               py::gil_scoped_release free;
               auto t = std::chrono::steady_clock::now();
               f->solver.analyze(A, ao);
               f->analyze_s = seconds_since(t);
               t = std::chrono::steady_clock::now();
               f->solver.factorize(A);
               f->factorize_s = seconds_since(t);
             }
             A.values.clear();
             f->pattern = std::move(A);
             return std::make_unique<CholeskyEngine>(std::move(s), std::move(f));
           }),
           "session"_a, "indptr"_a, "indices"_a, "data"_a, "n"_a, "ordering"_a, "triangle"_a)
      .def("solve",
           [](const CholeskyEngine& e, const py::array& b, bool overwrite_b) {
             Factor& f = e.get();
             Columns c = rhs_columns(b, f.pattern.rows, overwrite_b, "Cholesky.solve");
             double* x = c.x.mutable_data();
             {
               py::gil_scoped_release free;
               const auto t = std::chrono::steady_clock::now();
               f.solver.solve(x, c.nrhs, std::max<int>(1, f.pattern.rows));
               f.last_solve_s = seconds_since(t);
             }
             return c.x;
           },
           "b"_a, "overwrite_b"_a = false)
      .def("refactorize",
           [](const CholeskyEngine& e, const IndptrArray& indptr, const IndexArray& indices, const ValueArray& data,
              std::int64_t n) {
             Factor& f = e.get();
             const Csr A = csr_from_arrays(indptr, indices, data, n, n, "refactorize");
             check_same_pattern(f.pattern, A);
             py::gil_scoped_release free;
             const auto t = std::chrono::steady_clock::now();
             f.solver.refactorize(A);
             f.factorize_s = seconds_since(t);
           })
      .def("logdet", [](const CholeskyEngine& e) { return e.get().solver.logdet(); })
      .def("factor_L_csc",
           [](const CholeskyEngine& e) {  // (indptr, indices, data) of L in CSC, owned by the arrays
             Csc L = to_csc(e.get().solver.factor_L());
             return py::make_tuple(to_numpy(std::move(L.colptr)), to_numpy(std::move(L.rowind)),
                                   to_numpy(std::move(L.values)));
           })
      .def_property_readonly("perm",
                             [](py::object self) {  // a read-only view, kept alive by the factor
                               const auto& p = self.cast<const CholeskyEngine&>().get().solver.permutation();
                               py::array_t<index_t> a(static_cast<py::ssize_t>(p.size()), p.data(), self);
                               a.attr("flags").attr("writeable") = false;
                               return a;
                             })
      .def_property_readonly("info",
                             [](const CholeskyEngine& e) {
                               const Factor& f = e.get();
                               const cholesky::SymbolicFactor& sym = f.solver.symbolic();
                               return py::dict("n"_a = sym.n, "nnz_L"_a = sym.nnz_L, "supernodes"_a = sym.num_supernodes(),
                                               "flops"_a = sym.flops, "analyze_s"_a = f.analyze_s,
                                               "factorize_s"_a = f.factorize_s);
                             })
      .def_property_readonly("_last_solve_s", [](const CholeskyEngine& e) { return e.get().last_solve_s; })
      .def("_time_solve_cpp",
           [](const CholeskyEngine& e, const ValueArray& b, int repeats) {
             // The same solve as solve(b), timed in C++ alone: the baseline of the Python overhead bench.
             Factor& f = e.get();
             std::vector<double> x(b.data(), b.data() + b.size()), times;
             py::gil_scoped_release free;
             for (int k = 0; k < repeats; ++k) {
               std::copy(b.data(), b.data() + b.size(), x.begin());
               const auto t = std::chrono::steady_clock::now();
               f.solver.solve(x.data(), 1, std::max<int>(1, f.pattern.rows));
               times.push_back(seconds_since(t));
             }
             return times;
           });
}

}  // namespace hetsparse::python
