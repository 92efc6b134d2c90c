// `hetsparse`: the command-line front end. Dispatches to subcommands; every error becomes one line on
// stderr and a non-zero exit status (2 for usage errors and bad settings, 1 otherwise).
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <string>

#include "cli/args.hpp"
#include "apps/commands.hpp"
#include "hetsparse/error.hpp"

namespace {

struct Command {
  const char* name;
  int (*run)(int, char**);
  const char* summary;
};
constexpr Command kCommands[] = {
    {"info", hetsparse::cli::cmd_info, "workers, topology, scheduler, StarPU/CUDA versions"},
    {"gen", hetsparse::cli::cmd_gen, "write a generated matrix (Laplacians, elasticity, R-MAT, ...) to .mtx"},
    {"spmv", hetsparse::cli::cmd_spmv, "sparse matrix-vector products on CPUs and GPUs, checked and timed"},
    {"cholesky", hetsparse::cli::cmd_cholesky, "sparse Cholesky: analyze, factorize, solve, backward error"},
    {"sptrsv", hetsparse::cli::cmd_sptrsv, "sparse triangular solve: analysis, variant choice, residual, timing"},
    {"pcg", hetsparse::cli::cmd_pcg, "preconditioned CG (none, Jacobi, IC(0), Cholesky) from SpMV and SpTRSV tasks"},
};

void usage(FILE* f) {
  std::fprintf(f, "usage: hetsparse <command> [options]   (hetsparse <command> --help for details)\n\n"
                  "hetsparse runs sparse linear algebra as StarPU task graphs over every CPU core and GPU.\n\n"
                  "commands:\n");
  for (const auto& c : kCommands) std::fprintf(f, "  %-8s %s\n", c.name, c.summary);
  std::fprintf(f, "\nenvironment: STARPU_SCHED, STARPU_NCPU, STARPU_NCUDA, STARPU_CALIBRATE, STARPU_PERF_MODEL_DIR,\n"
                  "             HETSPARSE_PROGRESS (1: progress lines on stderr, 0: none; default: on a terminal),\n"
                  "             HETSPARSE_MEMORY_LIMIT (bytes, or 512M, 2G: refuse larger steps)\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  const std::string cmd = argv[1];
  if (cmd == "-h" || cmd == "--help" || cmd == "help") {
    usage(stdout);
    return 0;
  }
  if (cmd == "--version") {
    std::printf("hetsparse %s\n", HETSPARSE_VERSION);
    return 0;
  }
  for (const auto& c : kCommands) {
    if (cmd != c.name) continue;
    try {
      return c.run(argc - 2, argv + 2);
    } catch (const hetsparse::cli::UsageError& e) {
      std::fprintf(stderr, "%s\n", e.what());
      return 2;
    } catch (const hetsparse::InvalidSetting& e) {  // a bad option or environment variable: usage
      std::fprintf(stderr, "hetsparse %s: error: %s\n", c.name, e.what());
      return 2;
    } catch (const std::bad_alloc&) {
      std::fprintf(stderr, "hetsparse %s: error: out of memory (an allocation failed)\n", c.name);
      return 1;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "hetsparse %s: error: %s\n", c.name, e.what());
      return 1;
    }
  }
  std::fprintf(stderr, "hetsparse: unknown command '%s'\n\n", cmd.c_str());
  usage(stderr);
  return 2;
}
