// hetsparse._hetsparse.PCG (krylov::PcgSolver: set up once, solve many right-hand sides) and ic0
// (the IC(0) factor alone, as a task).
#include <algorithm>
#include <vector>

#include "bindings.hpp"
#include "convert.hpp"
#include "hetsparse/error.hpp"
#include "krylov/ic0_factor.hpp"
#include "krylov/pcg.hpp"
#include "session.hpp"

namespace hetsparse::python {
namespace {

using PcgEngine = Engine<krylov::PcgSolver>;

py::tuple csr_arrays(Csr&& L) {
  return py::make_tuple(to_numpy(std::move(L.rowptr)), to_numpy(std::move(L.colind)), to_numpy(std::move(L.values)));
}

py::dict report_dict(krylov::PcgReport&& r, krylov::PreconditionerKind kind, bool phases) {
  using namespace pybind11::literals;
  py::dict d("converged"_a = r.converged, "breakdown"_a = r.breakdown, "iterations"_a = r.iterations,
             "relative_residual"_a = r.relative_residual, "b_norm"_a = r.b_norm, "tolerance"_a = r.tolerance,
             "solve_s"_a = r.solve_s);
  d["residuals"] = to_numpy(std::move(r.residual_norms));
  if (phases) {
    py::dict split("spmv_s"_a = r.spmv_s, "preconditioner_s"_a = r.precond_s, "vector_s"_a = r.vector_s);
    if (kind == krylov::PreconditionerKind::Ic0) split["sptrsv_s"] = r.precond_s;
    d["time_split"] = split;
  }
  return d;
}

}  // namespace

void bind_pcg(py::module_& m) {
  using namespace pybind11::literals;
  py::class_<PcgEngine>(m, "PCG")
      .def(py::init([](std::shared_ptr<Session> s, const IndptrArray& indptr, const IndexArray& indices,
                       const ValueArray& data, std::int64_t n, const std::string& M, double rtol, double atol,
                       int maxiter, double ic0_shift, const std::string& device, const std::string& variant,
                       bool time_phases) {
             const Csr A = csr_from_arrays(indptr, indices, data, n, n, "pcg");
             rt::Runtime& r = s->runtime();
             krylov::PcgOptions o;
             o.rtol = rtol;
             o.atol = atol;
             o.max_iterations = maxiter;
             o.where = parse_where(device, r.cuda_workers());
             o.time_phases = time_phases;
             o.preconditioner.kind = krylov::parse_preconditioner(M);
             o.preconditioner.ic0.shift = ic0_shift;
             o.preconditioner.sptrsv.variant = variant;
             o.preconditioner.sptrsv.perfmodel_dir = r.options().perfmodel_dir;
             std::unique_ptr<krylov::PcgSolver> pcg;
             {
               py::gil_scoped_release free;
               pcg = std::make_unique<krylov::PcgSolver>(r, A, o);
             }
             return std::make_unique<PcgEngine>(std::move(s), std::move(pcg));
           }),
           "session"_a, "indptr"_a, "indices"_a, "data"_a, "n"_a, "M"_a, "rtol"_a, "atol"_a, "maxiter"_a,
           "ic0_shift"_a, "device"_a, "variant"_a, "time_phases"_a)
      .def("solve",
           [](const PcgEngine& e, const ValueArray& b, py::object x0) {
             krylov::PcgSolver& pcg = e.get();
             const std::int64_t n = pcg.rows();
             if (b.ndim() != 1 || b.shape(0) != n)
               throw InvalidArgument("pcg: b must be a vector of " + std::to_string(n) + " entries");
             py::array_t<double> x(n);
             double* xp = x.mutable_data();
             if (x0.is_none()) {
               std::fill(xp, xp + n, 0.0);
             } else {
               const auto guess = x0.cast<ValueArray>();
               if (guess.ndim() != 1 || guess.shape(0) != n)
                 throw InvalidArgument("pcg: x0 must be a vector of " + std::to_string(n) + " entries");
               std::copy(guess.data(), guess.data() + n, xp);
             }
             krylov::PcgReport rep;
             {
               py::gil_scoped_release free;
               rep = pcg.solve(b.data(), xp);
             }
             return py::make_tuple(x, report_dict(std::move(rep), pcg.options().preconditioner.kind,
                                                  pcg.options().time_phases));
           },
           "b"_a, "x0"_a = py::none())
      .def_property_readonly("setup_s", [](const PcgEngine& e) { return e.get().setup_seconds(); })
      .def_property_readonly("inline_launches",
                             [](const PcgEngine& e) { return krylov::launches_inline(e.get().options()); })
      .def_property_readonly("preconditioner",
                             [](const PcgEngine& e) { return krylov::to_string(e.get().preconditioner().kind()); })
      .def("ic0_factor", [](const PcgEngine& e) -> py::object {  // L (lower CSR arrays), None for other M
        const Csr* L = krylov::ic0_factor_of(e.get().preconditioner());
        if (!L) return py::none();
        return csr_arrays(Csr(*L));
      });

  m.def(
      "ic0",
      [](std::shared_ptr<Session> s, const IndptrArray& indptr, const IndexArray& indices, const ValueArray& data,
         std::int64_t n, double shift, const std::string& device) {
        const Csr A = csr_from_arrays(indptr, indices, data, n, n, "ic0");
        krylov::Ic0Options o;
        o.shift = shift;
        o.where = parse_where(device, s->runtime().cuda_workers());
        Csr L;
        {
          py::gil_scoped_release free;
          L = krylov::ic0_factor(s->runtime(), A, o);
        }
        return csr_arrays(std::move(L));
      },
      "session"_a, "indptr"_a, "indices"_a, "data"_a, "n"_a, "shift"_a = 0.0, "device"_a = "auto");
}

}  // namespace hetsparse::python
