// The GPU analysis (kernels::DeviceAnalysis) against the host analysis
// (sptrsv::TriangularPattern), its oracle: on every test triangle, lower and
// upper, unit and non-unit, the levels, level schedule, level-ordered copy,
// fusion segments in both orders (split hub rows included) and the features
// must be the host's; the variants must solve from its view. The structural
// check must name the first invalid and the first unnormalised row, and the
// analysis refuse both.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "hetsparse/error.hpp"
#include "kernels/sptrsv/sptrsv.hpp"
#include "kernels/sptrsv/sptrsv_analysis.hpp"
#include "reference/sparse_reference.hpp"
#include "sptrsv/analysis.hpp"
#include "sptrsv/features.hpp"
#include "tests/support/cuda_test_support.hpp"
#include "tests/support/sptrsv_checks.hpp"

namespace hetsparse::test {
namespace {

using kernels::DeviceAnalysis;
using kernels::SolveOrder;

// A CSR on the device.
struct DeviceInput {
  DeviceArray<index_t> rowptr, colind;
  DeviceArray<double> values;
  bool upper;
  DeviceInput(cudaStream_t stream, const std::vector<index_t>& r, const std::vector<index_t>& c,
              const std::vector<double>& v, bool is_upper)
      : rowptr(stream, r), colind(stream, c), values(stream, v), upper(is_upper) {}
  kernels::DeviceCsrView view() const {
    return {static_cast<index_t>(rowptr.size()) - 1, upper, rowptr.get(), colind.get(), values.get()};
  }
};

// The pattern's normalised arrays; for a unit diagonal the stored diagonal
// becomes 3.5, which the GPU analysis must replace by 1.0 as the host did.
DeviceInput normalised_input(cudaStream_t stream, const sptrsv::TriangularPattern& p) {
  std::vector<double> values = p.values();
  if (p.unit_diagonal()) {
    const bool upper = p.triangle() == Triangle::Upper;
    for (index_t i = 0; i < p.rows(); ++i) values[upper ? p.rowptr()[i] : p.rowptr()[i + 1] - 1] = 3.5;
  }
  return DeviceInput(stream, p.rowptr(), p.colind(), values, p.triangle() == Triangle::Upper);
}

kernels::DeviceAnalysisOptions options(bool unit_diagonal, double threshold) {
  kernels::DeviceAnalysisOptions o;
  o.unit_diagonal = unit_diagonal;
  o.fusion_threshold = threshold;
  return o;
}

void expect_same_features(const sptrsv::TriangularFeatures& host, const sptrsv::TriangularFeatures& device) {
  const auto a = host.as_list(), b = device.as_list();
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (a[k].first == "analysis_ms") continue;
    SCOPED_TRACE(a[k].first);
    EXPECT_NEAR(a[k].second, b[k].second, 1e-11 * std::max(1.0, std::fabs(a[k].second)));
  }
}

using DeviceAnalysisTest = CudaStreamTest;

TEST_F(DeviceAnalysisTest, MatchesHostAnalysisOnEveryTriangle) {
  for (const std::string& name : sptrsv_matrix_names()) {
    for (const SolveCase& c : solve_cases()) {
      SCOPED_TRACE(name + " " + c.label());
      const Csr in = solver_input(sptrsv_matrix(name), c.tri, c.unit_diagonal, 7);
      const sptrsv::TriangularPattern host(in, c.tri, c.unit_diagonal);
      const DeviceInput input = normalised_input(stream_, host);
      const DeviceAnalysis device(stream_, input.view(), options(c.unit_diagonal, host.fusion_threshold()));
      const kernels::TriangularDeviceView v = device.view();
      const auto n = static_cast<std::size_t>(host.rows()), nnz = static_cast<std::size_t>(host.nnz());

      EXPECT_EQ(download_device(stream_, v.values, nnz), host.values());
      EXPECT_EQ(device.download_row_levels(stream_), host.row_level());
      EXPECT_EQ(device.level_ptr(), host.level_ptr());
      EXPECT_EQ(device.level_nnz(), host.level_nnz());
      EXPECT_EQ(device.download_level_rows(stream_), host.level_rows());
      const kernels::TriangularView h = host.host_view();
      EXPECT_EQ(download_device(stream_, v.level_rowptr, n + 1),
                std::vector<index_t>(h.level_rowptr, h.level_rowptr + n + 1));
      EXPECT_EQ(download_device(stream_, v.level_colind, nnz),
                std::vector<index_t>(h.level_colind, h.level_colind + nnz));
      EXPECT_EQ(download_device(stream_, v.level_values, nnz),
                std::vector<double>(h.level_values, h.level_values + nnz));
      EXPECT_EQ(device.download_segments(stream_, SolveOrder::Natural), host.segments());
      EXPECT_EQ(device.download_segments(stream_, SolveOrder::Level), host.level_segments());
      expect_same_features(
          host.features(),
          sptrsv::features_from_statistics(device.statistics(), host.rows(), v.num_levels, device.level_ptr().data(),
                                           device.level_nnz().data(), host.features().pf_min_rows));
    }
  }
}

// With every row of two or more off-diagonals cut into parts (rule 1/1), the
// level pass does each as a heavy row by the warp of its last part: the
// levels must still be the host's.
TEST_F(DeviceAnalysisTest, LevelsOfSplitRowsAreTheHosts) {
  for (const std::string& name : sptrsv_matrix_names()) {
    for (const Triangle tri : {Triangle::Lower, Triangle::Upper}) {
      SCOPED_TRACE(name + (tri == Triangle::Upper ? " upper" : " lower"));
      sptrsv::AnalysisOptions host_options;
      host_options.split_rule = {1, 1};
      const sptrsv::TriangularPattern host(solver_input(sptrsv_matrix(name), tri, false, 5), tri, false, host_options);
      const DeviceInput input = normalised_input(stream_, host);
      kernels::DeviceAnalysisOptions o = options(false, host.fusion_threshold());
      o.split_rule = host_options.split_rule;
      const DeviceAnalysis device(stream_, input.view(), o);
      EXPECT_EQ(device.download_row_levels(stream_), host.row_level());
    }
  }
}

// Every split rule and threshold gives the host's segments, in both orders.
// Rule 1/1 on the dense triangle asks for more partial slots than a workspace
// has, so the prefix rule that stops splitting once they run out is compared
// too.
TEST_F(DeviceAnalysisTest, HubRowsAreSplitAsOnTheHost) {
  const kernels::SplitRule rules[] = {{}, {1024, 512}, {2000, 700}, {1, 1}};
  for (const char* name : {"power_law_hubs", "dense_lower_1200"}) {
    for (const kernels::SplitRule& rule : rules) {
      for (const double threshold : {2.0, 16.0}) {
        SCOPED_TRACE(std::string(name) + " " + std::to_string(rule.min_off_diagonals) + "/" +
                     std::to_string(rule.entries_per_part) + " t=" + std::to_string(threshold));
        sptrsv::AnalysisOptions host_options;
        host_options.fusion_threshold = threshold;
        host_options.split_rule = rule;
        const sptrsv::TriangularPattern host(solver_input(sptrsv_matrix(name), Triangle::Upper, false, 3),
                                             Triangle::Upper, false, host_options);
        const DeviceInput input = normalised_input(stream_, host);
        kernels::DeviceAnalysisOptions device_options = options(false, threshold);
        device_options.split_rule = rule;
        const DeviceAnalysis device(stream_, input.view(), device_options);
        for (const SolveOrder order : {SolveOrder::Natural, SolveOrder::Level}) {
          const std::vector<index_t> segments = device.download_segments(stream_, order);
          const auto count = static_cast<std::size_t>(segments.size() - 1) / 2;
          int split_parts = 0;
          for (std::size_t s = 0; s < count; ++s) split_parts += segments[count + 1 + s] != 0 ? 1 : 0;
          // Void unless some row was cut into parts (the dense rows are shorter than the default cut).
          if (std::string(name) == "power_law_hubs" || rule.min_off_diagonals < 1200) {
            EXPECT_GT(split_parts, 2);
          }
          EXPECT_EQ(segments, order == SolveOrder::Natural ? host.segments() : host.level_segments());
        }
      }
    }
  }
}

TEST_F(DeviceAnalysisTest, VariantsSolveFromTheDeviceView) {
  for (const std::string& name : {std::string("anchor_rmat_12_8"), std::string("power_law_hubs")}) {
    for (const SolveCase& c : solve_cases()) {
      SCOPED_TRACE(name + " " + c.label());
      const Csr in = solver_input(sptrsv_matrix(name), c.tri, c.unit_diagonal, 9);
      const sptrsv::TriangularPattern host(in, c.tri, c.unit_diagonal);
      const DeviceInput input = normalised_input(stream_, host);
      const DeviceAnalysis device(stream_, input.view(), options(c.unit_diagonal, 16.0));
      const std::vector<double> rhs = random_values(static_cast<std::size_t>(in.rows), 5);
      std::vector<double> expected(rhs.size());
      ref::sptrsv(in, c.tri, c.unit_diagonal, rhs.data(), expected.data());
      DeviceArray<double> db(stream_, rhs), dx(rhs.size());
      DeviceArray<unsigned char> workspace(kernels::solve_workspace_bytes(in.rows));
      for (const std::string& variant : kernels::gpu_variants()) {
        SCOPED_TRACE(variant);
        dx.poison(stream_);
        kernels::solve_cuda(variant, stream_, device.view(), db.get(), dx.get(),
                            kernels::make_solve_workspace(workspace.get(), in.rows));
        EXPECT_TRUE(close_to(dx.download(stream_).data(), expected));
      }
    }
  }
}

// A lower triangle with one fault planted in row `bad` (and rows unsorted from
// `unsorted` on).
struct Planted {
  std::vector<index_t> rowptr, colind;
  std::vector<double> values;
};
Planted planted_lower(const sptrsv::TriangularPattern& p) { return {p.rowptr(), p.colind(), p.values()}; }

TEST_F(DeviceAnalysisTest, CheckNamesTheFirstFaultyRows) {
  const sptrsv::TriangularPattern host(sptrsv_matrix("anchor_rmat_12_8"), Triangle::Lower, false);
  const auto n = host.rows();
  const auto row_with_off_diagonals = [&](index_t from) {
    index_t i = from;
    while (host.rowptr()[i + 1] - host.rowptr()[i] < 3) ++i;
    return i;
  };
  const index_t r1 = row_with_off_diagonals(n / 3), r2 = row_with_off_diagonals(n / 2);
  const struct {
    const char* what;
    void (*plant)(Planted&, index_t);
  } faults[] = {
      {"zero diagonal", [](Planted& m, index_t i) { m.values[m.rowptr[i + 1] - 1] = 0.0; }},
      {"NaN", [](Planted& m, index_t i) { m.values[m.rowptr[i]] = std::nan(""); }},
      {"above the diagonal", [](Planted& m, index_t i) { m.colind[m.rowptr[i + 1] - 1] = i + 1; }},
      {"negative column", [](Planted& m, index_t i) { m.colind[m.rowptr[i]] = -1; }},
  };
  for (const auto& fault : faults) {
    SCOPED_TRACE(fault.what);
    Planted m = planted_lower(host);
    fault.plant(m, r1);
    std::swap(m.colind[m.rowptr[r2]],
              m.colind[m.rowptr[r2] + 1]);  // unsorted, later
    const DeviceInput input(stream_, m.rowptr, m.colind, m.values, false);
    const kernels::DeviceCheck check = kernels::check_triangle_cuda(stream_, input.view(), false);
    EXPECT_EQ(check.first_invalid_row, r1);
    EXPECT_FALSE(check.bad_row_pointer);
    EXPECT_EQ(check.first_unnormalised_row, r2);
    EXPECT_THROW(DeviceAnalysis(stream_, input.view(), {}), InvalidArgument);
  }
  {
    SCOPED_TRACE("decreasing row pointer");
    Planted m = planted_lower(host);
    m.rowptr[static_cast<std::size_t>(r1) + 1] = m.rowptr[static_cast<std::size_t>(r1)] - 1;
    const DeviceInput input(stream_, m.rowptr, m.colind, m.values, false);
    const kernels::DeviceCheck decreasing = kernels::check_triangle_cuda(stream_, input.view(), false);
    EXPECT_EQ(decreasing.first_invalid_row, r1);
    EXPECT_TRUE(decreasing.bad_row_pointer);
    m.rowptr = planted_lower(host).rowptr;
    m.rowptr[0] = 1;
    const DeviceInput shifted(stream_, m.rowptr, m.colind, m.values, false);
    const kernels::DeviceCheck nonzero_start = kernels::check_triangle_cuda(stream_, shifted.view(), false);
    EXPECT_EQ(nonzero_start.first_invalid_row, 0);
    EXPECT_TRUE(nonzero_start.bad_row_pointer);
  }
  const DeviceInput clean = normalised_input(stream_, host);
  const kernels::DeviceCheck check = kernels::check_triangle_cuda(stream_, clean.view(), false);
  EXPECT_EQ(check.first_invalid_row, -1);
  EXPECT_EQ(check.first_unnormalised_row, -1);
}

TEST_F(DeviceAnalysisTest, MissingDiagonalIsInvalidUnlessUnit) {
  const sptrsv::TriangularPattern host(sptrsv_matrix("banded_wide"), Triangle::Lower, false);
  Planted m = planted_lower(host);
  const index_t row = host.rows() / 2;
  // Drop row `row`'s diagonal: shift the later entries down by one.
  const auto slot = static_cast<std::size_t>(m.rowptr[row + 1] - 1);
  m.colind.erase(m.colind.begin() + static_cast<std::ptrdiff_t>(slot));
  m.values.erase(m.values.begin() + static_cast<std::ptrdiff_t>(slot));
  for (std::size_t i = static_cast<std::size_t>(row) + 1; i < m.rowptr.size(); ++i) --m.rowptr[i];
  const DeviceInput input(stream_, m.rowptr, m.colind, m.values, false);
  EXPECT_EQ(kernels::check_triangle_cuda(stream_, input.view(), false).first_invalid_row, row);
  const kernels::DeviceCheck unit = kernels::check_triangle_cuda(stream_, input.view(), true);
  EXPECT_EQ(unit.first_invalid_row, -1);
  EXPECT_EQ(unit.first_unnormalised_row,
            row);  // the host inserts the unit diagonal
}

// 3000 empty rows (unit diagonal, none stored) put more rows under one tile
// of entries than its shared-memory slice holds: the check searches the row
// pointer in place there and must still find the row of each entry.
TEST_F(DeviceAnalysisTest, CheckFindsRowsAcrossEmptyRows) {
  const index_t n = 6000, gap_begin = 1000, gap_end = 4000;
  std::vector<index_t> rowptr{0}, colind;
  std::vector<double> values;
  for (index_t i = 0; i < n; ++i) {
    if (i < gap_begin || i >= gap_end) {
      for (const index_t col : {i - 7, i - 1, i}) {
        if (col < 0) continue;
        colind.push_back(col);
        values.push_back(1.5 + 0.001 * static_cast<double>((i * 7 + col) % 97));
      }
    }
    rowptr.push_back(static_cast<index_t>(colind.size()));
  }
  const DeviceInput clean(stream_, rowptr, colind, values, false);
  kernels::DeviceCheck check = kernels::check_triangle_cuda(stream_, clean.view(), true);
  EXPECT_EQ(check.first_invalid_row, -1);
  EXPECT_EQ(check.first_unnormalised_row, gap_begin);                       // no diagonal stored: the host inserts it
  colind[static_cast<std::size_t>(rowptr[gap_end + 1] - 1)] = gap_end + 1;  // above the diagonal
  const DeviceInput faulty(stream_, rowptr, colind, values, false);
  check = kernels::check_triangle_cuda(stream_, faulty.view(), true);
  EXPECT_EQ(check.first_invalid_row, gap_end);
}

}  // namespace
}  // namespace hetsparse::test
