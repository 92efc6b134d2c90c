// The back end the shared kernel suites (test_dense.cpp, test_spmv.cpp, test_supernode.cpp) run on,
// as Ginkgo's "common" tests: each suite is written once against KernelBackend and compiled into
// both test_kernels_cpu, which links backend_cpu.cpp, and test_kernels_cuda, which links
// backend_cuda.cpp. A back end applies one kernel to host operands in place, as the kernel does in
// memory: the CPU one calls it on them, the CUDA one uploads them, runs it on its own stream and
// library handles, and downloads the result.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kernels/spmv/spmv_tiled.hpp"
#include "tests/support/dense_checks.hpp"
#include "tests/support/supernode_checks.hpp"
#include "tests/support/test_matrices.hpp"

namespace hetsparse::test {

class KernelBackend {
 public:
  virtual ~KernelBackend() = default;

  // Dense and level-1 kernels; the output operand is overwritten (dense_checks.hpp's runners).
  virtual void gemm(const GemmCase& c, const DenseMatrix& A, const DenseMatrix& B, DenseMatrix& C) = 0;
  virtual void syrk(const SyrkCase& c, const DenseMatrix& A, DenseMatrix& C) = 0;
  virtual void trsm(const TrsmCase& c, const DenseMatrix& A, DenseMatrix& B) = 0;
  virtual int potrf(char uplo, DenseMatrix& A) = 0;  // returns info
  virtual void axpy(double alpha, const std::vector<double>& x, std::vector<double>& y) = 0;
  virtual double dot(const std::vector<double>& x, const std::vector<double>& y) = 0;
  virtual double nrm2(const std::vector<double>& x) = 0;

  // The SpMV kernels of this back end (CPU: spmv_cpu; CUDA: spmv_cuda and spmv_cusparse; both: the
  // tiled kernel under the plans of tile_options).
  virtual std::vector<std::string> spmv_kernels() const = 0;
  // y[first, last) = alpha A(first:last, :) x + beta y[first, last) with `kernel` on rows [first, last)
  // as StarPU's row-block filter hands them out (CsrMatrix::rows_view); y is the whole vector.
  virtual void spmv(const std::string& kernel, const CsrMatrix& A, std::uint32_t first, std::uint32_t last,
                    const std::vector<double>& x, std::vector<double>& y, double alpha, double beta) = 0;
  // spmv with `kernel`, as check_spmv (test_matrices.hpp) runs it.
  SpmvRunner spmv_runner(const std::string& kernel) {
    return [this, kernel](const CsrMatrix& A, std::uint32_t first, std::uint32_t last, const std::vector<double>& x,
                          std::vector<double>& y, double alpha, double beta) {
      spmv(kernel, A, first, last, x, y, alpha, beta);
    };
  }

  // y = beta y + sources[j][src, src + count) added at y[dst...] (kernels/spmv/spmv_merge.hpp).
  struct MergeRange {
    std::uint32_t src, dst, count;
  };
  virtual void spmv_merge(std::vector<double>& y, double beta, const std::vector<std::vector<double>>& sources,
                          const std::vector<MergeRange>& ranges) = 0;

  // The supernode kernels on the same stream and handles.
  virtual SupernodeBackend& supernode() = 0;
};

// The tile plan options of a tiled kernel name: "spmv_tiled" the defaults; "spmv_tiled_small" tiles
// of 48 entries and 7 rows, so the suites' matrices split rows into many pieces and end tiles on row
// limits; "spmv_tiled_balanced" every multi-row tile reduced by equal chunks of entries, rows over 64
// entries in tiles of their own.
inline kernels::TilePlanOptions tile_options(const std::string& kernel) {
  kernels::TilePlanOptions o;
  if (kernel == "spmv_tiled_small") {
    o.max_entries = 48;
    o.max_rows = 7;
  } else if (kernel == "spmv_tiled_balanced") {
    o.max_entries = 1024;
    o.max_rows = 300;
    o.solo_entries = 64;
    o.reduce = kernels::TileReduce::Balanced;
  }
  return o;
}

// The back end this executable was linked with, or nullptr and the reason when it cannot run here
// (no CUDA device): the suites then skip with that reason.
std::unique_ptr<KernelBackend> make_kernel_backend(std::string& why_not);

// A fresh back end per test (the CUDA one: its own stream and handles), skipped when there is none.
class KernelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why_not;
    backend_ = make_kernel_backend(why_not);
    if (!backend_) GTEST_SKIP() << why_not;
  }
  void TearDown() override { backend_.reset(); }  // the CUDA one checks that its stream finished cleanly
  KernelBackend& backend() { return *backend_; }

 private:
  std::unique_ptr<KernelBackend> backend_;
};

}  // namespace hetsparse::test
