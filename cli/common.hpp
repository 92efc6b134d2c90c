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

// --sched, --ncpu, --ncuda, --cuda-workers-per-gpu, --trace, --perfmodel-dir, --verbose, --progress, --json
void add_runtime_options(ArgParser& p);
// UsageError for a negative worker count and for more CUDA workers (--ncuda or STARPU_NCUDA) than
// GPUs found; the Runtime checks the rest (runtime/starpu/settings_checks.hpp).
// default_cuda_workers_per_gpu: the command's own default, taken when neither --cuda-workers-per-gpu
// nor STARPU_NWORKER_PER_CUDA says (-1: StarPU's one), scaled down on nodes with few cores a GPU
// (rt::scaled_cuda_workers_per_gpu).
rt::RuntimeOptions runtime_options(const ArgParser& p, int default_cuda_workers_per_gpu = -1);

// positional `matrix` (a .mtx or .mtx.gz file) or --generate SPEC
void add_matrix_input(ArgParser& p, const std::string& default_spec);
struct MatrixInput {
  Csr A;
  std::string name;  // file path or generator spec
  bool pattern = false;  // a pattern file: every value was taken as 1
  double seconds = 0;
};
// What a command needs of its matrix, checked from a file's size line before its entries are read:
// its peak memory (loading included) per row and per stored entry, measured on the 2-core machine
// with a margin, and whether every row must hold a diagonal entry (so at least one entry per row).
struct MatrixNeeds {
  const char* command;
  std::uint64_t bytes_per_row, bytes_per_entry;
  bool diagonal;
};
// InsufficientMemory naming the file and the figures when the machine cannot hold the command's
// working set, InvalidArgument when the rows cannot all hold a diagonal; then the matrix.
// (The benchmarks pass no needs: then only the library's own checks apply.)
MatrixInput load_matrix_input(const ArgParser& p, const MatrixNeeds& needs = {"hetsparse", 0, 0, false});

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
