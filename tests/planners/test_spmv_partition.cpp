// The MSREP partitions (planners/spmv_partition.hpp), their choice and their placement, without
// StarPU: each format's parts hold every nonzero once and, multiplied part by part and merged as
// the format says, give the serial product; pCSR never splits a row, pCOO balances to the nonzero;
// the model picks pCSR for even rows, pCOO for a hub row, pCSC for a wide matrix; the placement splits
// parts over NUMA domains first and sizes a CPU share by the rates.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "hetsparse/error.hpp"
#include "planners/spmv_partition_model.hpp"
#include "planners/spmv_placement.hpp"
#include "tests/support/partitioned_spmv_checks.hpp"
#include "tests/support/spmv_partition_checks.hpp"

namespace hetsparse::test {
namespace {

using planners::PartitionFormat;

TEST(SpmvPartition, ParsesFormatNames) {
  EXPECT_EQ(planners::parse_partition_format("pcsr"), PartitionFormat::Pcsr);
  EXPECT_EQ(planners::parse_partition_format("pcsc"), PartitionFormat::Pcsc);
  EXPECT_EQ(planners::parse_partition_format("pcoo"), PartitionFormat::Pcoo);
  EXPECT_EQ(planners::parse_partition_format("auto"), PartitionFormat::Auto);
  try {
    planners::parse_partition_format("csr5");
    FAIL() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("'csr5'"), std::string::npos) << e.what();
  }
  const Csr A = laplacian_2d(5, 5);
  EXPECT_THROW(planners::make_partition(A, PartitionFormat::Auto, {1.0}), InvalidArgument);
  EXPECT_THROW(planners::partition_pcsr(A, {}), InvalidArgument);
  EXPECT_THROW(planners::partition_pcoo(A, {1.0, 0.0}), InvalidArgument);
  EXPECT_THROW(planners::partition_pcsc(A, {1.0, -2.0}), InvalidArgument);
}

TEST(SpmvPartition, EveryFormatGivesTheProduct) {
  const std::vector<std::vector<double>> weight_sets{{1.0}, {1, 1, 1}, {3, 1, 2, 0.5}, std::vector<double>(8, 1.0),
                                                     std::vector<double>(13, 1.0)};
  for (const auto& [name, A] : partition_test_matrices()) {
    Rng rng(17);
    std::vector<double> x(A.cols), y0(A.rows), expect(A.rows);
    for (double& v : x) v = uniform(rng, -1, 1);
    for (double& v : y0) v = uniform(rng, -1, 1);
    for (std::size_t i = 0; i < y0.size(); ++i) expect[i] = y0[i];
    ref::spmv(A, x.data(), expect.data(), 0.75, -1.5);
    for (PartitionFormat f : {PartitionFormat::Pcsr, PartitionFormat::Pcsc, PartitionFormat::Pcoo}) {
      for (const auto& w : weight_sets) {
        SCOPED_TRACE(name + " " + planners::to_string(f) + " with " + std::to_string(w.size()) + " parts");
        const planners::SpmvPartition p = planners::make_partition(A, f, w);
        ASSERT_EQ(p.parts.size(), w.size());
        offset_t nnz = 0;
        for (const auto& part : p.parts) nnz += part.nnz;
        EXPECT_EQ(nnz, A.nnz());
        EXPECT_LT(partitioned_rel_diff(partitioned_reference(A, p, x, y0, 0.75, -1.5), expect), 1e-13);
      }
    }
  }
}

TEST(SpmvPartition, BalanceAndShapeOfEachFormat) {
  const Csr A = partition_matrix(3000, 3000, 4, 1700, 12000, 200, 260, 7);  // a hub row of 12000
  const std::vector<double> w{1, 1, 1, 1};
  const double quarter = A.nnz() / 4.0;
  const auto pcsr = planners::partition_pcsr(A, w);
  const auto pcoo = planners::partition_pcoo(A, w);
  const auto pcsc = planners::partition_pcsc(A, w);
  offset_t max_col = 0;
  for (offset_t c : planners::column_counts(A)) max_col = std::max(max_col, c);
  index_t next_row = 0, next_col = 0;
  for (std::size_t k = 0; k < 4; ++k) {
    // pCSR: whole rows, contiguous; off target by at most one row (the hub).
    EXPECT_EQ(pcsr.parts[k].row_begin, next_row);
    next_row = pcsr.parts[k].row_end;
    EXPECT_FALSE(pcsr.parts[k].shares_first_row || pcsr.parts[k].shares_last_row);
    EXPECT_LE(std::abs(double(pcsr.parts[k].nnz) - quarter), 12000.0);
    // pCOO: balanced to the nonzero; a cut inside the hub row is shared by both sides.
    EXPECT_LE(std::abs(double(pcoo.parts[k].nnz) - quarter), 1.0);
    if (k > 0) {
      EXPECT_EQ(pcoo.parts[k].shares_first_row, pcoo.parts[k - 1].shares_last_row);
    }
    // pCSC: column blocks off target by at most one column.
    EXPECT_EQ(pcsc.parts[k].col_begin, next_col);
    next_col = pcsc.parts[k].col_end;
    EXPECT_LE(std::abs(double(pcsc.parts[k].nnz) - quarter), double(max_col));
  }
  EXPECT_EQ(next_row, A.rows);
  EXPECT_EQ(next_col, A.cols);
  EXPECT_TRUE(pcoo.parts[1].shares_first_row || pcoo.parts[2].shares_first_row);  // the hub is cut
  EXPECT_EQ(pcoo.parts[0].row_begin, 0);
  EXPECT_EQ(pcoo.parts[3].row_end, A.rows);
  // More parts than rows: pCSR leaves some without rows; every row is still written once.
  const Csr tiny = laplacian_2d(2, 2);
  const auto many = planners::partition_pcsr(tiny, std::vector<double>(7, 1.0));
  index_t rows = 0;
  for (std::size_t k = 0; k < 7; ++k) rows += many.parts[k].rows();
  EXPECT_EQ(rows, 4);
}

TEST(SpmvPartitionModel, ChoosesByRowSkewAndShape) {
  const std::vector<double> four(4, 0.25), rates(4, 2e12);
  EXPECT_EQ(planners::choose_partition(laplacian_3d(30, 30, 30), four, rates).format, PartitionFormat::Pcsr);
  // Small test matrices: without the task step a merge costs, as if they were large.
  planners::ModelOptions no_step;
  no_step.step_overhead_s = 0;
  const Csr hub = partition_matrix(20000, 20000, 6, 5000, 250000, 100, 200, 11);  // one row: 2/3 of nnz
  EXPECT_EQ(planners::choose_partition(hub, four, rates, PartitionFormat::Auto, no_step).format, PartitionFormat::Pcoo);
  EXPECT_EQ(planners::choose_partition(hub, four, rates).format, PartitionFormat::Pcsr);  // a merge step costs more
  const Csr wide = partition_matrix(200, 400000, 4000, -1, 0, 50, 60, 13);
  EXPECT_EQ(planners::choose_partition(wide, four, rates, PartitionFormat::Auto, no_step).format,
            PartitionFormat::Pcsc);
  const auto one = planners::choose_partition(hub, {1.0}, {2e12});
  EXPECT_EQ(one.format, PartitionFormat::Pcsr);  // one part: nothing to merge, nothing to balance
  ASSERT_EQ(one.costs.size(), 3u);
  EXPECT_LE(one.costs[0].seconds, one.costs[1].seconds);
  const auto forced = planners::choose_partition(hub, four, rates, PartitionFormat::Pcsc);
  ASSERT_EQ(forced.costs.size(), 1u);
  EXPECT_EQ(forced.format, PartitionFormat::Pcsc);
  const planners::MatrixProfile prof = planners::matrix_profile(hub);
  EXPECT_EQ(prof.max_row, 250000);
  EXPECT_GT(prof.row_cv, 10.0);
}

planners::SpmvTopology two_domains(int gpus_each, int cpus_each) {
  planners::SpmvTopology t;
  for (int d = 0; d < 2; ++d) {
    planners::SpmvDomain dom;
    dom.numa = d;
    for (int g = 0; g < gpus_each; ++g) dom.gpus.push_back({d * gpus_each + g, 2e12});
    dom.cpu_workers = cpus_each;
    t.domains.push_back(dom);
  }
  return t;
}

TEST(SpmvPlacement, DomainsFirstThenDevices) {
  planners::PlacementOptions o;
  const double bytes = 1e9;
  const offset_t nnz = 80'000'000;
  const planners::Placement eight = planners::place_parts(two_domains(4, 7), bytes, nnz, 1'000'000, o);
  ASSERT_EQ(eight.homes.size(), 8u);
  EXPECT_FALSE(eight.cpus_used) << eight.reason;
  for (int k = 0; k < 8; ++k) {
    EXPECT_EQ(eight.homes[k].device, k);
    EXPECT_EQ(eight.homes[k].domain, k / 4);
    EXPECT_EQ(eight.homes[k].numa, k / 4);
    EXPECT_DOUBLE_EQ(eight.homes[k].weight, 1.0 / 8);
  }
  o.parts = 6;  // 3 a domain; round-robin within: 2 on its first GPU, 1 on the second
  const planners::Placement six = planners::place_parts(two_domains(2, 0), bytes, nnz, 1'000'000, o);
  ASSERT_EQ(six.homes.size(), 6u);
  const std::vector<int> devices{0, 0, 1, 2, 2, 3};
  for (int k = 0; k < 6; ++k) EXPECT_EQ(six.homes[k].device, devices[k]) << k;
  EXPECT_DOUBLE_EQ(six.homes[0].weight, six.homes[1].weight);
  EXPECT_DOUBLE_EQ(six.homes[2].weight, 2 * six.homes[0].weight);  // alone on its GPU
  double total = 0;
  for (const auto& h : six.homes) total += h.weight;
  EXPECT_NEAR(total, 1.0, 1e-12);
}

TEST(SpmvPlacement, CpuShareByTheRates) {
  planners::PlacementOptions o;
  planners::SpmvTopology t = planners::flat_topology(1, 15);
  // A GPU 100x a CPU worker and x to copy: no CPU parts.
  const planners::Placement gpu = planners::place_parts(t, 4e8, 30'000'000, 4'000'000, o);
  EXPECT_FALSE(gpu.cpus_used);
  ASSERT_EQ(gpu.homes.size(), 1u);
  EXPECT_FALSE(gpu.homes[0].cpu);
  // CPU workers as fast as the GPU together, x staying put: CPU parts, one per worker, sized by rate.
  t.domains[0].cpu_bytes_per_s = 2e12 / 15;
  o.x_moves = false;
  const planners::Placement mixed = planners::place_parts(t, 4e8, 30'000'000, 4'000'000, o);
  EXPECT_TRUE(mixed.cpus_used) << mixed.reason;
  ASSERT_EQ(mixed.homes.size(), 16u);
  EXPECT_NEAR(mixed.homes[0].weight, 0.5, 1e-12);
  EXPECT_TRUE(mixed.homes[15].cpu);
  EXPECT_LT(mixed.with_cpus_s, mixed.gpu_only_s);
  // No GPU: CPU parts; a small matrix: fewer parts than workers.
  const planners::Placement cpus = planners::place_parts(planners::flat_topology(0, 4), 1e6, 50'000, 1000, o);
  ASSERT_EQ(cpus.homes.size(), 1u);
  EXPECT_TRUE(cpus.homes[0].cpu);
  o.parts = 3;
  EXPECT_EQ(planners::place_parts(planners::flat_topology(0, 4), 1e6, 50'000, 1000, o).homes.size(), 3u);
  o.parts = -1;
  EXPECT_THROW(planners::place_parts(t, 1e6, 50'000, 1000, o), InvalidArgument);
  o.parts = 0;
  o.cpus = planners::CpuUse::Only;
  EXPECT_THROW(planners::place_parts(planners::flat_topology(2, 0), 1e6, 50'000, 1000, o), InvalidArgument);
  o.cpus = planners::CpuUse::Never;
  EXPECT_THROW(planners::place_parts(planners::flat_topology(0, 2), 1e6, 50'000, 1000, o), InvalidArgument);
  EXPECT_THROW(planners::place_parts(planners::SpmvTopology{}, 1e6, 50'000, 1000, {}), InvalidArgument);
}

}  // namespace
}  // namespace hetsparse::test
