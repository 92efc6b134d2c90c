#include "cli/common.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <limits>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <utility>

#include "sparse/generator_spec.hpp"
#include "sparse/matrix_market.hpp"
#include "codelets/support/cuda_libraries.hpp"
#include "sparse/memory_budget.hpp"
#include "runtime/starpu/settings_checks.hpp"

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
      .option("ncpu", "N", "CPU workers, at most the CPUs there are (default: $STARPU_NCPU or one per core)")
      .option("ncuda", "N", "CUDA workers, at most the GPUs there are (default: $STARPU_NCUDA or all)")
      .option("cuda-workers-per-gpu", "N", "CUDA workers on each GPU, one stream each, so that independent "
                                           "tasks overlap (default: $STARPU_NWORKER_PER_CUDA, else 1; the "
                                           "Cholesky: 6, fewer where a GPU has under 16 cores)")
      .option("trace", "DIR", "record an FxT trace and convert it to DIR/paje.trace for ViTE")
      .option("perfmodel-dir", "DIR", "StarPU performance models (default: ~/.cache/hetsparse/perfmodels)")
      .flag("verbose", "let StarPU print its warnings (calibration notices, ...); default: $STARPU_SILENT or quiet")
      .flag("progress", "progress lines on stderr even when it is not a terminal (also HETSPARSE_PROGRESS=1; 0: none)")
      .flag("json", "print one JSON object instead of text");
}

namespace {

// UsageError when more CUDA workers are asked for (option or STARPU_NCUDA) than there are GPUs:
// StarPU would run on fewer without a word. Only asked of CUDA when a count is given. Returns the
// count asked for (-1: none, or a malformed STARPU_NCUDA, which the runtime names).
int check_gpus_for(const ArgParser& p, int ncuda) {
  std::string source = "--ncuda " + std::to_string(ncuda);
  if (ncuda < 0) {
    const char* env = std::getenv("STARPU_NCUDA");
    char* end = nullptr;
    const long v = env && *env ? std::strtol(env, &end, 10) : -1;
    if (v < 0 || *end) return -1;  // absent or malformed
    ncuda = static_cast<int>(std::min<long>(v, 1 << 20));
    source = std::string("STARPU_NCUDA=") + env;
  }
  if (ncuda == 0) return 0;
  const rt::cuda::CudaSummary cuda = rt::cuda::cuda_summary();
  const auto gpus = static_cast<int>(cuda.devices.size());
  if (ncuda <= gpus) return ncuda;
  throw UsageError(p.program() + ": " + source + " asks for " + std::to_string(ncuda) + " CUDA workers, but " +
                   std::to_string(gpus) + " GPU(s) were found" + (cuda.error.empty() ? "" : " (" + cuda.error + ")") +
                   "; use at most " + std::to_string(gpus) + " (--ncuda 0 for CPUs only)");
}

}  // namespace

rt::RuntimeOptions runtime_options(const ArgParser& p, int default_cuda_workers_per_gpu) {
  rt::RuntimeOptions o;
  o.scheduler = p.get("sched");
  // The runtime compares the counts with the CPUs there are and StarPU's limits.
  constexpr long kMost = std::numeric_limits<long>::max();
  const auto count = [&](const char* name) { return static_cast<int>(std::min<long>(p.get_int_in(name, 0, kMost), INT_MAX)); };
  if (p.has("ncpu")) o.ncpu = count("ncpu");
  if (p.has("ncuda")) o.ncuda = count("ncuda");
  const int gpus_asked = check_gpus_for(p, o.ncuda);
  if (p.has("cuda-workers-per-gpu")) {
    o.cuda_workers_per_gpu = count("cuda-workers-per-gpu");
  } else if (!std::getenv("STARPU_NWORKER_PER_CUDA")) {
    int gpus = gpus_asked;
    if (default_cuda_workers_per_gpu > 1 && gpus < 0) gpus = static_cast<int>(rt::cuda::cuda_summary().devices.size());
    o.cuda_workers_per_gpu = rt::scaled_cuda_workers_per_gpu(default_cuda_workers_per_gpu, rt::available_cpus(), gpus);
  }
  o.trace_dir = p.get("trace");
  o.perfmodel_dir = p.get("perfmodel-dir");
  o.verbose = p.has("verbose");
  return o;
}

void add_matrix_input(ArgParser& p, const std::string& default_spec) {
  p.positional("matrix", "Matrix Market file (.mtx or .mtx.gz); symmetric files are expanded")
      .option("generate", "SPEC", "generate the matrix instead of reading one (see `hetsparse gen --help`)",
              default_spec);
}

namespace {

// The checks of load_matrix_input on a file's size line, before anything large is allocated.
void check_declared_size(const std::string& path, const MatrixNeeds& needs) {
  const MatrixMarketHeader h = read_matrix_market_header(path);
  const std::string shape = std::to_string(h.rows) + " x " + std::to_string(h.cols) + ", " +
                            std::to_string(h.entries) + " entries declared";
  if (needs.diagonal && h.entries < h.rows) {
    throw InvalidArgument(path + " (" + shape + "): " + needs.command + " needs a diagonal entry in each of the " +
                          std::to_string(h.rows) + " rows, so at least as many entries");
  }
  // A symmetric file's entries are one triangle: both are stored once read.
  const auto stored = static_cast<std::uint64_t>(h.entries) * (h.symmetry == MmSymmetry::Symmetric ? 2 : 1);
  require_memory(ByteCount()
                     .add(static_cast<std::uint64_t>(std::max(h.rows, h.cols)), needs.bytes_per_row)
                     .add(stored, needs.bytes_per_entry)
                     .bytes(),
                 std::string(needs.command) + " on " + path + " (" + shape + ")");
}

}  // namespace

MatrixInput load_matrix_input(const ArgParser& p, const MatrixNeeds& needs) {
  MatrixInput in;
  const double t0 = now_seconds();
  if (p.has("matrix")) {
    in.name = p.get("matrix");
    check_declared_size(in.name, needs);
    MatrixMarket mm = read_matrix_market(in.name);
    in.pattern = mm.field == MmField::Pattern;
    in.A = to_csr(std::move(mm));
  } else {
    in.name = p.get("generate");
    in.A = generate(in.name);
  }
  in.seconds = now_seconds() - t0;
  return in;
}

}  // namespace hetsparse::cli
