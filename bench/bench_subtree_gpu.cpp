// The level-batched GPU subtree kernel (kernels::supernode_subtree_cuda) alone, no StarPU: the whole
// factor (or every subtree group of a layout) planned on the host, copied to the GPU, factored and
// copied back, with the kernel's own phase times. Shows where a GPU-only factorization's time goes.
#include <cuda_runtime_api.h>
#include <cublas_v2.h>
#include <cusolverDn.h>

#include <chrono>
#include <cstdio>
#include <vector>

#include "cholesky/numeric/panel_storage.hpp"
#include "cli/common.hpp"
#include "cli/json.hpp"
#include "kernels/supernode/supernode_subtree_gpu.hpp"
#include "planners/supernodal_layout.hpp"
#include "sparse/convert.hpp"
#include "symbolic/analysis.hpp"

using namespace hetsparse;

namespace {
double since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}
}  // namespace

int main(int argc, char** argv) try {
  cli::ArgParser p("bench_subtree_gpu", "the GPU subtree kernel alone (whole factor by default)");
  cli::add_matrix_input(p, "lap2d:1000");
  p.option("subtree-max-flops", "F", "subtree groups of the layout (default: one group, the whole factor)", "1e300")
      .option("fused-max-flops", "F", "updates under F go to the fused kernel", "1e8")
      .option("batched-max-cols", "N", "panels of at most N columns go to the batched panel kernels", "256")
      .option("repeat", "N", "factorizations (the last is reported)", "2");
  if (!p.parse(argc - 1, argv + 1)) return 0;
  const cli::MatrixInput in = cli::load_matrix_input(p);
  const Csr lower = triangle(in.A, Triangle::Lower);
  const cholesky::SymbolicFactor sym = cholesky::analyze(lower);
  cholesky::PanelStorage L(sym);
  const auto map = cholesky::build_assembly_map(lower, cholesky::InputTriangle::Lower, sym);
  const auto layout = planners::plan_factor_layout(sym, p.get_double("subtree-max-flops"));
  cudaStream_t stream;
  cublasHandle_t blas;
  cusolverDnHandle_t solver;
  cudaStreamCreate(&stream);
  cublasCreate(&blas);
  cusolverDnCreate(&solver);
  cudaHostRegister(L.values.data(), L.values.size() * sizeof(double), cudaHostRegisterDefault);
  double* values = nullptr;
  std::int32_t* rows = nullptr;
  cudaMalloc(reinterpret_cast<void**>(&values), L.values.size() * sizeof(double));
  cudaMalloc(reinterpret_cast<void**>(&rows), sym.rows.size() * sizeof(std::int32_t));
  cudaMemcpy(rows, sym.rows.data(), sym.rows.size() * sizeof(std::int32_t), cudaMemcpyHostToDevice);
  std::vector<int> info(sym.num_supernodes());
  void* work = nullptr;
  std::size_t work_bytes = 0;
  cli::Json out;
  const long repeat = std::max(1L, p.get_int("repeat"));
  for (long r = 0; r < repeat; ++r) {
    cholesky::assemble(lower, map, L);
    kernels::SubtreeTimings tm;
    double plan_s = 0, kernel_s = 0;
    int groups = 0, levels = 0;
    const auto t0 = std::chrono::steady_clock::now();
    cudaMemcpyAsync(values, L.values.data(), L.values.size() * sizeof(double), cudaMemcpyHostToDevice, stream);
    cudaStreamSynchronize(stream);
    const double h2d_s = since(t0);
    for (index_t g = 0; g < layout.num_groups(); ++g) {
      if (!layout.subtree[g]) continue;
      const std::int32_t first = layout.group_begin[g], last = layout.group_begin[g + 1];
      auto t = std::chrono::steady_clock::now();
      auto plan = kernels::plan_subtree_levels(layout.loc.data(), sym.rows.data(), sym.col_to_supernode.data(), first, last);
      plan.fused_max_flops = p.get_double("fused-max-flops");
      plan.batched_max_cols = static_cast<std::int32_t>(p.get_int("batched-max-cols"));
      const std::size_t bytes = kernels::supernode_subtree_cuda_work_bytes(solver, layout.loc.data(), plan);
      plan_s += since(t);
      if (bytes > work_bytes) {
        cudaFree(work);
        cudaMalloc(&work, bytes);
        work_bytes = bytes;
      }
      t = std::chrono::steady_clock::now();
      kernels::supernode_subtree_cuda(blas, solver, stream, layout.loc.data(), plan, first, last, rows,
                                      values + layout.loc[first].value_offset, info.data() + first, work, work_bytes,
                                      &tm);
      kernel_s += since(t);
      ++groups;
      levels = std::max(levels, plan.levels());
    }
    const auto t2 = std::chrono::steady_clock::now();
    cudaMemcpyAsync(L.values.data(), values, L.values.size() * sizeof(double), cudaMemcpyDeviceToHost, stream);
    cudaStreamSynchronize(stream);
    const double d2h_s = since(t2);
    out = cli::Json();
    out.set("matrix", in.name).set("flops", sym.flops).set("nnz_L", static_cast<long long>(sym.nnz_L_exact))
        .set("supernodes", static_cast<long long>(sym.num_supernodes())).set("groups", groups).set("levels", levels)
        .set("h2d_s", h2d_s).set("plan_s", plan_s).set("kernel_s", kernel_s).set("d2h_s", d2h_s)
        .set("total_s", since(t0)).set("upload_ms", tm.upload_ms).set("batched_factor_ms", tm.batched_factor_ms)
        .set("solver_factor_ms", tm.solver_factor_ms).set("fused_update_ms", tm.fused_update_ms)
        .set("cublas_update_ms", tm.cublas_update_ms).set("batched_factors", tm.batched_factors)
        .set("solver_factors", tm.solver_factors).set("fused_updates", tm.fused_updates)
        .set("cublas_updates", tm.cublas_updates).set("fused_flops", tm.fused_flops).set("cublas_flops", tm.cublas_flops);
  }
  int bad = 0;
  for (int v : info) bad += v != 0;
  out.set("failed_pivots", bad);
  std::printf("%s\n", out.str().c_str());
  return 0;
} catch (const std::exception& e) {
  return cli::report_failure("bench_subtree_gpu", e);
}
