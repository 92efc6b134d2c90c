// hetsparse._hetsparse.TriangularSolver (the SpTRSV engine on host arrays) and spmv (DistributedSpmv).
#include <algorithm>
#include <vector>

#include "bindings.hpp"
#include "convert.hpp"
#include "hetsparse/error.hpp"
#include "session.hpp"
#include "spmv/distributed_spmv.hpp"
#include "sptrsv/triangular_solver.hpp"

namespace hetsparse::python {
namespace {

using TriangularEngine = Engine<sptrsv::TriangularSolver>;

}  // namespace

void bind_sptrsv(py::module_& m) {
  using namespace pybind11::literals;
  py::class_<TriangularEngine>(m, "TriangularSolver")
      .def(py::init([](std::shared_ptr<Session> s, const IndptrArray& indptr, const IndexArray& indices,
                       const ValueArray& data, std::int64_t n, bool lower, bool unit, const std::string& variant,
                       const std::string& device) {
             const Csr T = csr_from_arrays(indptr, indices, data, n, n, "TriangularSolver");
             sptrsv::TriangularSolveOptions o;
             o.variant = variant;
             o.device = sptrsv::parse_solve_device(device);
             o.perfmodel_dir = s->runtime().options().perfmodel_dir;
             auto solver = std::make_unique<sptrsv::TriangularSolver>(s->runtime());
             {
               py::gil_scoped_release free;
               solver->analyze(T, lower ? Triangle::Lower : Triangle::Upper, unit, o);
             }
             return std::make_unique<TriangularEngine>(std::move(s), std::move(solver));
           }),
           "session"_a, "indptr"_a, "indices"_a, "data"_a, "n"_a, "lower"_a, "unit"_a, "variant"_a, "device"_a)
      .def("solve",
           [](const TriangularEngine& e, const py::array& b, bool transpose, bool overwrite_b) {
             sptrsv::TriangularSolver& s = e.get();
             Columns c = rhs_columns(b, s.rows(), overwrite_b, "TriangularSolver.solve");
             double* x = c.x.mutable_data();
             {
               py::gil_scoped_release free;
               s.solve(x, x, c.nrhs, transpose);  // in place: x holds b
             }
             return c.x;
           },
           "b"_a, "transpose"_a = false, "overwrite_b"_a = false)
      .def_property_readonly("variant", [](const TriangularEngine& e) { return e.get().chosen_variant(); })
      .def_property_readonly("solves_on_cpu", [](const TriangularEngine& e) { return e.get().host_solves_on_cpu(); })
      .def_property_readonly("placement", [](const TriangularEngine& e) { return e.get().host_solve_placement().why(); })
      .def_property_readonly("inline_solves", [](const TriangularEngine& e) { return e.get().inline_solves(); });

  m.def(
      "spmv",
      [](std::shared_ptr<Session> s, const IndptrArray& indptr, const IndexArray& indices, const ValueArray& data,
         std::int64_t rows, std::int64_t cols, const ValueArray& x, const std::string& device, int blocks) {
        const Csr A = csr_from_arrays(indptr, indices, data, rows, cols, "spmv");
        if (x.ndim() != 1 || x.shape(0) != cols)
          throw InvalidArgument("spmv: x must be a vector of " + std::to_string(cols) + " entries");
        rt::Runtime& r = s->runtime();
        SpmvOptions o;
        o.where = parse_where(device, r.cuda_workers());
        o.blocks = blocks > 0 ? blocks : std::max(1, r.cpu_workers() + r.cuda_workers());
        std::vector<double> xv(x.data(), x.data() + cols), y(static_cast<std::size_t>(rows));
        {
          py::gil_scoped_release free;
          DistributedSpmv product(r, A, xv, y, o);
          product.submit();
          product.finish();  // y back in host memory
        }
        return to_numpy(std::move(y));
      },
      "session"_a, "indptr"_a, "indices"_a, "data"_a, "rows"_a, "cols"_a, "x"_a, "device"_a = "auto", "blocks"_a = 0);
}

}  // namespace hetsparse::python
