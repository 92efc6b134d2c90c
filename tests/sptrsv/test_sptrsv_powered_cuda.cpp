// The powered schemes on the GPU: the right-hand-side pass against its host reference for every
// lane width, and "powK:BASE" (sptrsv::PreparedScheme) against ref::sptrsv for every base kind
// (plain variants natural and level-ordered, levelset, cusparse, AG), K = 2..16, lower and upper,
// unit or not. x is NaN-poisoned before each solve. Skipped without a device.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "kernels/sptrsv/sptrsv.hpp"
#include "kernels/sptrsv/sptrsv_powered.hpp"
#include "reference/sparse_reference.hpp"
#include "sptrsv/powered_triangle.hpp"
#include "sptrsv/prepared_scheme.hpp"
#include "tests/support/cuda_test_support.hpp"
#include "tests/support/sptrsv_checks.hpp"
#include "tests/support/sptrsv_device_problem.hpp"

namespace hetsparse::test {
namespace {

using SptrsvPoweredCuda = CudaStreamTest;

// Rows of 0 to 3 * mean entries, so every lane width (2..32) meets short, empty and long rows.
sptrsv::StrictRows random_strict_lower(index_t n, int mean, std::uint64_t seed) {
  const std::vector<double> r = random_values(static_cast<std::size_t>(n) * 8, seed);
  sptrsv::StrictRows m;
  m.rowptr.push_back(0);
  for (index_t i = 0; i < n; ++i) {
    const auto length = std::min<index_t>(i, static_cast<index_t>((r[static_cast<std::size_t>(i)] + 1) * 1.5 * mean));
    for (index_t k = 0; k < length; ++k) {
      m.colind.push_back(i - length + k);
      m.values.push_back(r[static_cast<std::size_t>((i * 7 + k) % (n * 8))]);
    }
    m.rowptr.push_back(static_cast<index_t>(m.colind.size()));
  }
  return m;
}

TEST_F(SptrsvPoweredCuda, RhsPassMatchesHostForEveryLaneWidth) {
  const index_t n = 3001;
  const std::vector<double> in = random_values(static_cast<std::size_t>(n), 4);
  const std::vector<double> scale = random_values(static_cast<std::size_t>(n), 5);
  DeviceArray<double> din(stream_, in), dscale(stream_, scale), dout(static_cast<std::size_t>(n));
  for (const int mean : {1, 3, 6, 12, 24, 60}) {
    const sptrsv::StrictRows m = random_strict_lower(n, mean, static_cast<std::uint64_t>(mean));
    DeviceArray<index_t> rowptr(stream_, m.rowptr), colind(stream_, m.colind);
    DeviceArray<double> values(stream_, m.values);
    kernels::PowerFactorView dv = m.view();
    dv.rowptr = rowptr.get();
    dv.colind = colind.get();
    dv.values = values.get();
    for (const bool scaled : {false, true}) {
      std::vector<double> expected(static_cast<std::size_t>(n));
      kernels::powered_rhs_step_cpu(m.view(), scaled ? scale.data() : nullptr, in.data(), expected.data());
      dout.poison(stream_);
      kernels::powered_rhs_step_cuda(stream_, dv, scaled ? dscale.get() : nullptr, din.get(), dout.get());
      EXPECT_TRUE(close_to(dout.download(stream_).data(), expected)) << "mean " << mean << " scaled " << scaled;
    }
  }
}

TEST_F(SptrsvPoweredCuda, EveryBaseKindMatchesTheReference) {
  const std::vector<std::string> bases = {"syncfree", "capellini_levelorder", "yuenyeung", "yuenyeung_levelorder",
                                          "levelset", "cusparse", "ag", "ag:ng=8,sw=4,tf=avg,rb=4,th=4,lr=1"};
  for (const std::string name : {"anchor_laplacian_2d_60", "chain_5000", "banded_narrow"}) {
    for (const SolveCase& c : solve_cases()) {
      DeviceSolveProblem p(stream_, sptrsv_matrix(name), c, 8, 21);
      const kernels::TriangularView host = p.pattern.host_view();
      sptrsv::PoweredCache cache(host);
      for (const int power : {2, 4, 8, 16}) {
        try {
          cache.get(power);
        } catch (const InvalidArgument& e) {  // the band fills in: test_sptrsv_powered covers refusals
          EXPECT_EQ(name, std::string("banded_narrow")) << e.what();
          continue;
        }
        for (const std::string& base : bases) {
          const std::string scheme = "pow" + std::to_string(power) + ":" + base;
          SCOPED_TRACE(name + " " + c.label() + " " + scheme);
          const sptrsv::PreparedScheme prepared(stream_, host, p.matrix.view(), scheme, &cache);
          for (int round = 0; round < 2; ++round) {  // the prepared scheme is reusable
            p.dx.poison(stream_);
            prepared.solve(stream_, p.db.get(), p.dx.get(), p.ws);
            EXPECT_TRUE(close_to(p.dx.download(stream_).data(), p.expected)) << "round " << round;
          }
        }
      }
      // x aliasing b, and a transform built by the scheme itself (no cache).
      const sptrsv::PreparedScheme own(stream_, host, p.matrix.view(), "pow4:syncfree_levelorder");
      own.solve(stream_, p.db.get(), p.db.get(), p.ws);
      EXPECT_TRUE(close_to(p.db.download(stream_).data(), p.expected)) << name << " " << c.label() << " in place";
    }
  }
}

// The GPU transform (cuSPARSE SpGEMM) against the host's: the same I - M^K, entry for entry (columns
// exactly, values to rounding), the same factors' sizes and growth; then powK:clusterlevels, which
// takes it, against the reference.
TEST_F(SptrsvPoweredCuda, DeviceTransformEqualsTheHostTransform) {
  for (const std::string name : {"anchor_laplacian_2d_60", "chain_5000"}) {
    for (const SolveCase& c : solve_cases()) {
      DeviceSolveProblem p(stream_, sptrsv_matrix(name), c, 8, 23);
      const kernels::TriangularView host = p.pattern.host_view();
      const kernels::TriangularDeviceView dv = p.matrix.view();
      const auto n = p.b.size();
      for (const int power : {2, 4, 8}) {
        SCOPED_TRACE(name + " " + c.label() + " pow" + std::to_string(power));
        const sptrsv::PoweredTriangle want(host, power);
        const kernels::DevicePoweredTransform got(stream_, {dv.n, dv.upper, dv.rowptr, dv.colind, dv.values},
                                                  host.rowptr[host.n], power, 8.0, 100.0);
        ASSERT_EQ(got.factors().size(), want.factors().size());
        for (std::size_t k = 0; k < want.factors().size(); ++k) EXPECT_EQ(got.factors()[k].nnz, want.factors()[k].nnz());
        EXPECT_NEAR(got.growth(), want.growth(), 1e-12 * std::max(1.0, want.growth()));
        // want's pattern holds I - M^K normalised, the unit diagonal in its slot: the device's layout.
        const kernels::TriangularView w = want.pattern().host_view();
        ASSERT_EQ(got.powered_nnz(), static_cast<std::int64_t>(w.rowptr[w.n]));
        const auto nnz = static_cast<std::size_t>(got.powered_nnz());
        const std::vector<index_t> rowptr = download_device(stream_, got.powered().rowptr, n + 1);
        const std::vector<index_t> colind = download_device(stream_, got.powered().colind, nnz);
        const std::vector<double> values = download_device(stream_, got.powered().values, nnz);
        EXPECT_TRUE(std::equal(rowptr.begin(), rowptr.end(), w.rowptr));
        EXPECT_TRUE(std::equal(colind.begin(), colind.end(), w.colind));
        EXPECT_TRUE(close_to(values.data(), std::vector<double>(w.values, w.values + nnz)));
        const std::string scheme = "pow" + std::to_string(power) + ":clusterlevels";
        const sptrsv::PreparedScheme prepared(stream_, host, dv, scheme);
        for (int round = 0; round < 2; ++round) {
          p.dx.poison(stream_);
          prepared.solve(stream_, p.db.get(), p.dx.get(), p.ws);
          EXPECT_TRUE(close_to(p.dx.download(stream_).data(), p.expected)) << scheme << " round " << round;
        }
      }
    }
  }
}

TEST_F(SptrsvPoweredCuda, RefusedTransformIsAnError) {
  const Csr& rmat = sptrsv_matrix("anchor_rmat_12_8");
  const sptrsv::TriangularPattern t(rmat, Triangle::Lower, false);
  const kernels::DeviceTriangular matrix(stream_, t.host_view());
  EXPECT_THROW(sptrsv::PreparedScheme(stream_, t.host_view(), matrix.view(), "pow2:cusparse"), InvalidArgument);
  EXPECT_THROW(sptrsv::PreparedScheme(stream_, t.host_view(), matrix.view(), "pow2:clusterlevels"), InvalidArgument);
  EXPECT_THROW(sptrsv::check_scheme("pow3:cusparse"), InvalidArgument);
  EXPECT_THROW(sptrsv::check_scheme("pow4:pow2:cusparse"), InvalidArgument);
  EXPECT_THROW(sptrsv::check_scheme("pow4:bogus"), InvalidArgument);
  EXPECT_EQ(sptrsv::check_scheme("pow8:ag:ng=4"), sptrsv::SchemeKind::Powered);
}

}  // namespace
}  // namespace hetsparse::test
