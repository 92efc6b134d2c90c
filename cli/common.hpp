// Options every hetsparse subcommand shares: runtime options and the matrix to work on.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "cli/args.hpp"
#include "codelets/spmv/spmv_codelet.hpp"
#include "runtime/starpu/runtime.hpp"
#include "sparse/csr.hpp"

namespace hetsparse::cli {

// --sched, --ncpu, --ncuda, --trace, --perfmodel-dir, --json
void add_runtime_options(ArgParser& p);
rt::RuntimeOptions runtime_options(const ArgParser& p);

// positional `matrix` (a .mtx or .mtx.gz file) or --generate SPEC
void add_matrix_input(ArgParser& p, const std::string& default_spec);
struct MatrixInput {
  Csr A;
  std::string name;  // file path or generator spec
  double seconds = 0;
};
MatrixInput load_matrix_input(const ArgParser& p);

// Prints to stderr at most once a second: long runs show they are alive.
class Progress {
 public:
  Progress(std::string what, long total, bool enabled);
  void update(long done);
  void done();

 private:
  std::string what_;
  long total_;
  bool enabled_, printed_ = false;
  double start_, last_;
};

double now_seconds();

// n values uniform in [-1, 1) from a seeded generator: the commands' random x or b.
std::vector<double> random_vector(std::size_t n, std::uint64_t seed);

// --device any|cpu|gpu as a per-task device restriction; `command` names the caller in the error.
rt::Where parse_device(const std::string& value, const std::string& command);
// The same with "auto": the GPU when the runtime has a CUDA worker, else the CPUs (keeps a solver's
// vectors in one memory).
rt::Where parse_device_or_auto(const std::string& value, const std::string& command, int cuda_workers);
// --cuda-kernel own|cusparse: the SpMV codelet's CUDA implementation.
codelets::SpmvCudaImpl parse_spmv_cuda_impl(const std::string& value, const std::string& command);

}  // namespace hetsparse::cli
