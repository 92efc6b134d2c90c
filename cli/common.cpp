#include "cli/common.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "sparse/generator_spec.hpp"
#include "sparse/matrix_market.hpp"

namespace hetsparse::cli {

std::vector<double> random_vector(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> v(n);
  for (double& e : v) e = u(rng);
  return v;
}

double now_seconds() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

rt::Where parse_device(const std::string& value, const std::string& command) {
  if (value == "any") return rt::Where::Any;
  if (value == "cpu") return rt::Where::Cpu;
  if (value == "gpu" || value == "cuda") return rt::Where::Cuda;
  throw UsageError(command + ": --device must be any, cpu or gpu, not '" + value + "'");
}

rt::Where parse_device_or_auto(const std::string& value, const std::string& command, int cuda_workers) {
  if (value == "auto") return cuda_workers > 0 ? rt::Where::Cuda : rt::Where::Cpu;
  return parse_device(value, command);
}

codelets::SpmvCudaImpl parse_spmv_cuda_impl(const std::string& value, const std::string& command) {
  if (value == "own") return codelets::SpmvCudaImpl::Own;
  if (value == "cusparse") return codelets::SpmvCudaImpl::Cusparse;
  throw UsageError(command + ": --cuda-kernel must be own or cusparse, not '" + value + "'");
}

void add_runtime_options(ArgParser& p) {
  p.option("sched", "NAME", "StarPU scheduler (eager, lws, ws, dmda, dmdas, heteroprio, ...); "
                            "default: $STARPU_SCHED, else dmdas")
      .option("ncpu", "N", "CPU workers (default: $STARPU_NCPU or all)")
      .option("ncuda", "N", "CUDA workers (default: $STARPU_NCUDA or all)")
      .option("trace", "DIR", "record an FxT trace and convert it to DIR/paje.trace for ViTE")
      .option("perfmodel-dir", "DIR", "StarPU performance models (default: ~/.cache/hetsparse/perfmodels)")
      .flag("verbose", "let StarPU print its warnings (calibration notices, ...); default: $STARPU_SILENT or quiet")
      .flag("json", "print one JSON object instead of text");
}

rt::RuntimeOptions runtime_options(const ArgParser& p) {
  rt::RuntimeOptions o;
  o.scheduler = p.get("sched");
  if (p.has("ncpu")) o.ncpu = static_cast<int>(p.get_int("ncpu"));
  if (p.has("ncuda")) o.ncuda = static_cast<int>(p.get_int("ncuda"));
  o.trace_dir = p.get("trace");
  o.perfmodel_dir = p.get("perfmodel-dir");
  // StarPU's notices (models being calibrated, ...) are for tuning sessions, not every run.
  if (!p.has("verbose") && !std::getenv("STARPU_SILENT")) ::setenv("STARPU_SILENT", "1", 1);
  return o;
}

void add_matrix_input(ArgParser& p, const std::string& default_spec) {
  p.positional("matrix", "Matrix Market file (.mtx or .mtx.gz); symmetric files are expanded")
      .option("generate", "SPEC", "generate the matrix instead of reading one (see `hetsparse gen --help`)",
              default_spec);
}

MatrixInput load_matrix_input(const ArgParser& p) {
  MatrixInput in;
  const double t0 = now_seconds();
  if (p.has("matrix")) {
    in.name = p.get("matrix");
    in.A = load_matrix(in.name);
  } else {
    in.name = p.get("generate");
    in.A = generate(in.name);
  }
  in.seconds = now_seconds() - t0;
  return in;
}

Progress::Progress(std::string what, long total, bool enabled)
    : what_(std::move(what)), total_(total), enabled_(enabled), start_(now_seconds()), last_(start_) {}

void Progress::update(long done) {
  const double t = now_seconds();
  if (!enabled_ || t - last_ < 1.0) return;
  last_ = t;
  printed_ = true;
  std::fprintf(stderr, "\r[%s] %ld/%ld (%.0f%%, %.1f s)", what_.c_str(), done, total_, 100.0 * done / total_, t - start_);
  std::fflush(stderr);
}

void Progress::done() {
  if (printed_) std::fprintf(stderr, "\r[%s] %ld/%ld done in %.1f s\n", what_.c_str(), total_, total_, now_seconds() - start_);
}

}  // namespace hetsparse::cli
