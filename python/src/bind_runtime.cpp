// hetsparse._hetsparse.Session: the runtime (hetsparse.Runtime in Python wraps it).
#include <cstdlib>

#include "bindings.hpp"
#include "session.hpp"

namespace hetsparse::python {

void bind_runtime(py::module_& m) {
  using namespace pybind11::literals;
  py::class_<Session, std::shared_ptr<Session>>(m, "Session")
      .def(py::init([](const std::string& sched, int ncpu, int ncuda, const std::string& trace,
                       const std::string& perfmodel_dir, bool verbose, int cuda_workers_per_gpu) {
             rt::RuntimeOptions o;
             o.scheduler = sched;
             o.ncpu = ncpu;
             o.ncuda = ncuda;
             o.cuda_workers_per_gpu = cuda_workers_per_gpu;
             o.trace_dir = trace;
             o.perfmodel_dir = perfmodel_dir;
             // StarPU's calibration notices are for tuning sessions, as in the command line.
             if (!verbose && !std::getenv("STARPU_SILENT")) ::setenv("STARPU_SILENT", "1", 1);
             return std::make_shared<Session>(o);
           }),
           "sched"_a = "", "ncpu"_a = -1, "ncuda"_a = -1, "trace"_a = "", "perfmodel_dir"_a = "", "verbose"_a = false,
           "cuda_workers_per_gpu"_a = -1)
      .def_property_readonly("cpu_workers", [](const Session& s) { return s.runtime().cpu_workers(); })
      .def_property_readonly("cuda_workers", [](const Session& s) { return s.runtime().cuda_workers(); })
      .def_property_readonly("scheduler", [](const Session& s) { return s.runtime().options().scheduler; })
      .def_property_readonly("perfmodel_dir", [](const Session& s) { return s.runtime().options().perfmodel_dir; })
      .def_property_readonly("closed", &Session::closed)
      .def("close", [](Session& s) {
        rt::TraceFiles t;
        {
          py::gil_scoped_release free;
          t = s.close();
        }
        return py::dict("dir"_a = t.dir, "paje"_a = t.paje, "dag"_a = t.dag, "tasks"_a = t.tasks);
      });
}

}  // namespace hetsparse::python
