// `hetsparse gen`: write a generated matrix to a Matrix Market file.
#include <cstdio>

#include "cli/common.hpp"
#include "cli/json.hpp"
#include "apps/commands.hpp"
#include "sparse/convert.hpp"
#include "sparse/generator_spec.hpp"
#include "sparse/matrix_market.hpp"

namespace hetsparse::cli {

int cmd_gen(int argc, char** argv) {
  ArgParser p("hetsparse gen", "Generate a matrix and write it as Matrix Market (.mtx, or .mtx.gz compressed).");
  p.positional("spec", "generator spec, e.g. lap3d:100 (list below)", true)
      .option("output", "FILE", "output file", "matrix.mtx")
      .flag("symmetric", "store one triangle with a 'symmetric' header (the matrix must be symmetric)")
      .flag("json", "print one JSON object instead of text")
      .epilog(generator_help());
  if (!p.parse(argc, argv)) return 0;
  const double t0 = now_seconds();
  const Csr A = generate(p.get("spec"));
  const double tgen = now_seconds() - t0;
  const bool sym = p.has("symmetric");
  if (sym && !is_structurally_symmetric(A))
    throw InvalidArgument("--symmetric: the generated matrix '" + p.get("spec") + "' is not symmetric");
  write_matrix_market(p.get("output"), A, sym ? MmSymmetry::Symmetric : MmSymmetry::General);
  const double twrite = now_seconds() - t0 - tgen;
  if (p.has("json")) {
    std::printf("%s\n", Json()
                            .set("spec", p.get("spec"))
                            .set("output", p.get("output"))
                            .set("rows", static_cast<long long>(A.rows))
                            .set("cols", static_cast<long long>(A.cols))
                            .set("nnz", static_cast<long long>(A.nnz()))
                            .set("generate_s", tgen)
                            .set("write_s", twrite)
                            .str()
                            .c_str());
  } else {
    std::printf("%s: %d x %d, %lld nonzeros -> %s (generated in %.2f s, written in %.2f s)\n", p.get("spec").c_str(),
                A.rows, A.cols, static_cast<long long>(A.nnz()), p.get("output").c_str(), tgen, twrite);
  }
  return 0;
}

}  // namespace hetsparse::cli
