// The CPU back end of the shared kernel suites: the kernels called on the host operands themselves.
#include <algorithm>

#include "kernels/gemm/gemm.hpp"
#include "kernels/potrf/potrf.hpp"
#include "kernels/spmv/spmv.hpp"
#include "kernels/spmv/spmv_merge.hpp"
#include "kernels/spmv/spmv_tiled.hpp"
#include "kernels/supernode/supernode.hpp"
#include "kernels/supernode/supernode_solve.hpp"
#include "kernels/syrk/syrk.hpp"
#include "kernels/trsm/trsm.hpp"
#include "kernels/vector/vector.hpp"
#include "tests/kernels/kernel_backend.hpp"

namespace hetsparse::test {
namespace {

using namespace hetsparse::kernels;

// Work buffers start as NaN: a kernel that reads work before writing it spreads them.
class CpuSupernodeBackend : public SupernodeBackend {
 public:
  void update(const HostPanel& d, UpdateRange r, HostPanel& t) override {
    std::vector<double> work(supernode_update_work_doubles(d.cref(), r), kNaN);
    supernode_update_cpu(d.cref(), r, t.ref(), work.data());
  }
  void update_batch(const std::vector<const HostPanel*>& ds, const std::vector<UpdateRange>& rs,
                    HostPanel& t) override {
    std::vector<ConstPanelRef> refs;
    for (const HostPanel* d : ds) refs.push_back(d->cref());
    const int count = static_cast<int>(refs.size());
    const std::size_t bytes = supernode_update_batch_work_bytes(refs.data(), rs.data(), count, 0.0);
    std::vector<double> work(bytes / sizeof(double), kNaN);
    supernode_update_batch_cpu(refs.data(), rs.data(), count, t.ref(), work.data());
  }
  int factor(HostPanel& p) override { return supernode_factor_cpu(p.ref()); }
  void forward(const HostPanel& p, std::vector<double>& x, int nrhs, int ldx) override {
    const int m = p.nrows() - p.ncols;
    std::vector<double> below(static_cast<std::size_t>(std::max(1, m)) * nrhs, kNaN);
    supernode_panel_forward_cpu(p.cref(), x.data() + p.first_col, ldx, below.data(), std::max(1, m), nrhs);
    const SolveMove move = below_rows(p, x, below, ldx);
    supernode_solve_subtract_cpu(&move, 1, nrhs);
  }
  void backward(const HostPanel& p, std::vector<double>& x, int nrhs, int ldx) override {
    const int m = p.nrows() - p.ncols;
    std::vector<double> below(static_cast<std::size_t>(std::max(1, m)) * nrhs, kNaN);
    const SolveMove move = below_rows(p, x, below, ldx);
    supernode_solve_gather_cpu(&move, 1, nrhs);
    supernode_panel_backward_cpu(p.cref(), x.data() + p.first_col, ldx, below.data(), std::max(1, m), nrhs);
  }
  void solve_moves(HostSolveMoves& m, bool gather) override {
    std::vector<SolveMove> moves;
    for (const auto& r : m.ranges)
      moves.push_back({m.compact.data(), m.rows.data(), m.block.data(), r[0], r[1], m.ldc, m.c0, m.ldb, m.block_rows});
    const int count = static_cast<int>(moves.size());
    if (gather) {
      supernode_solve_gather_cpu(moves.data(), count, m.nrhs);
    } else {
      supernode_solve_subtract_cpu(moves.data(), count, m.nrhs);
    }
  }
  void permute(const std::vector<double>& in, int ldi, const std::vector<std::int32_t>& perm, int n, int nrhs,
               std::vector<double>& out, int ldo) override {
    supernode_solve_permute_cpu(in.data(), ldi, perm.empty() ? nullptr : perm.data(), n, nrhs, out.data(), ldo);
  }
  void store(const std::vector<std::vector<double>>& xs, const std::vector<std::array<int, 2>>& cols,
             const std::vector<std::int32_t>& perm, int nrhs, std::vector<double>& out, int ldo) override {
    std::vector<SolveBlock> blocks;
    for (std::size_t b = 0; b < xs.size(); ++b) blocks.push_back({xs[b].data(), cols[b][0], cols[b][1]});
    supernode_solve_store_cpu(blocks.data(), static_cast<int>(blocks.size()), perm.empty() ? nullptr : perm.data(), nrhs,
                              out.data(), ldo);
  }

 private:
  // p's rows below its diagonal block against the whole of x (global rows, block from row 0).
  static SolveMove below_rows(const HostPanel& p, std::vector<double>& x, std::vector<double>& below, int ldx) {
    const int m = p.nrows() - p.ncols;
    return {below.data(), p.rows.data() + p.ncols, x.data(), 0, m, std::max(1, m), 0, ldx, ldx};
  }
};

class CpuKernelBackend : public KernelBackend {
 public:
  void gemm(const GemmCase& g, const DenseMatrix& A, const DenseMatrix& B, DenseMatrix& C) override {
    gemm_cpu(g.transa, g.transb, g.m, g.n, g.k, g.alpha, A.data.data(), A.ld, B.data.data(), B.ld, g.beta,
             C.data.data(), C.ld);
  }
  void syrk(const SyrkCase& s, const DenseMatrix& A, DenseMatrix& C) override {
    syrk_cpu(s.uplo, s.trans, s.n, s.k, s.alpha, A.data.data(), A.ld, s.beta, C.data.data(), C.ld);
  }
  void trsm(const TrsmCase& t, const DenseMatrix& A, DenseMatrix& B) override {
    trsm_cpu(t.side, t.uplo, t.transa, t.diag, t.m, t.n, t.alpha, A.data.data(), A.ld, B.data.data(), B.ld);
  }
  int potrf(char uplo, DenseMatrix& A) override { return potrf_cpu(uplo, A.rows, A.data.data(), A.ld); }
  void axpy(double alpha, const std::vector<double>& x, std::vector<double>& y) override {
    axpy_cpu(static_cast<int>(x.size()), alpha, x.data(), y.data());
  }
  double dot(const std::vector<double>& x, const std::vector<double>& y) override {
    return dot_cpu(static_cast<int>(x.size()), x.data(), y.data());
  }
  double nrm2(const std::vector<double>& x) override { return nrm2_cpu(static_cast<int>(x.size()), x.data()); }

  std::vector<std::string> spmv_kernels() const override {
    return {"spmv_cpu", "spmv_tiled", "spmv_tiled_small", "spmv_tiled_balanced"};
  }
  void spmv(const std::string& kernel, const CsrMatrix& A, std::uint32_t first, std::uint32_t last,
            const std::vector<double>& x, std::vector<double>& y, double alpha, double beta) override {
    const CsrView view = A.rows_view(first, last);
    if (kernel == "spmv_cpu") {
      spmv_cpu(view, x.data(), y.data() + first, alpha, beta);
      return;
    }
    const TilePlan plan(view.rowptr, view.nrows, view.first_entry, tile_options(kernel));
    spmv_tiled_cpu(plan.view(), view, x.data(), y.data() + first, alpha, beta);
  }
  void spmv_merge(std::vector<double>& y, double beta, const std::vector<std::vector<double>>& sources,
                  const std::vector<MergeRange>& ranges) override {
    std::vector<MergeSource> s;
    for (std::size_t j = 0; j < sources.size(); ++j)
      s.push_back({sources[j].data(), ranges[j].src, ranges[j].dst, ranges[j].count});
    spmv_merge_cpu(y.data(), static_cast<std::uint32_t>(y.size()), beta, s.data(),
                   static_cast<std::uint32_t>(s.size()));
  }

  SupernodeBackend& supernode() override { return supernode_; }

 private:
  CpuSupernodeBackend supernode_;
};

}  // namespace

std::unique_ptr<KernelBackend> make_kernel_backend(std::string& /*why_not*/) {
  return std::make_unique<CpuKernelBackend>();
}

}  // namespace hetsparse::test
