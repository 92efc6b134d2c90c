// The split SpTRSV's blocks and task chain without StarPU: T1, A21 and T2 at several cuts solve T
// exactly as ref::sptrsv does (lower and upper, random triangles bigger than a warp), new values
// reach the blocks, and the RecordingRuntime records gather -> part 1 -> update -> part 2 ->
// scatter with each task's device, name and priority, and the ordering between consecutive solves.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "codelets/cuda_build.hpp"
#include "codelets/sptrsv/sptrsv_codelet.hpp"
#include "hetsparse/error.hpp"
#include "planners/split_sptrsv.hpp"
#include "planners/split_sptrsv_blocks.hpp"
#include "reference/sparse_reference.hpp"
#include "runtime/recording_runtime.hpp"
#include "sparse/generators.hpp"
#include "sptrsv/analysis.hpp"
#include "tests/support/sptrsv_checks.hpp"

namespace hetsparse::test {
namespace {

// x = T^-1 b through the blocks with the serial references: x1 = T1^-1 b1, b2 -= A21 x1, x2 = T2^-1 b2.
std::vector<double> solve_through_blocks(const planners::SplitBlocks& blocks, Triangle tri, const std::vector<double>& b) {
  const index_t n1 = blocks.n1(), n2 = blocks.n2();
  const std::vector<index_t>& order = blocks.order();
  std::vector<double> b1(static_cast<std::size_t>(n1)), b2(static_cast<std::size_t>(n2)), x1(b1.size()), x2(b2.size());
  for (index_t k = 0; k < n1; ++k) b1[k] = b[order[k]];
  for (index_t k = 0; k < n2; ++k) b2[k] = b[order[n1 + k]];
  ref::sptrsv(blocks.part1(), tri, false, b1.data(), x1.data());
  Csr a21;
  a21.rows = n2;
  a21.cols = n1;
  a21.rowptr.assign(blocks.a21_rowptr().begin(), blocks.a21_rowptr().end());
  a21.colind.assign(blocks.a21_colind().begin(), blocks.a21_colind().end());
  a21.values = blocks.a21_values();
  ref::spmv(a21, x1.data(), b2.data(), -1.0, 1.0);
  ref::sptrsv(blocks.part2(), tri, false, b2.data(), x2.data());
  std::vector<double> x(b.size());
  for (index_t k = 0; k < n1; ++k) x[order[k]] = x1[k];
  for (index_t k = 0; k < n2; ++k) x[order[n1 + k]] = x2[k];
  return x;
}

Csr with_scaled_values(const Csr& t, double factor) {
  Csr s = t;
  for (double& v : s.values) v *= factor;
  return s;
}

TEST(SplitBlocks, EveryCutSolvesLikeTheWholeTriangle) {
  const std::vector<std::pair<std::string, Csr>> cases = {
      {"chain+block", level_profile_lower("c300+b4000x5+c200", 3, 5)},
      {"rmat", anchor_rmat_lower(10, 8, 3)},
      {"banded", sptrsv_matrix("banded_narrow")}};
  for (const auto& [name, lower] : cases) {
    for (Triangle tri : {Triangle::Lower, Triangle::Upper}) {
      const Csr T = solver_input(lower, tri, false, 9);
      const sptrsv::TriangularPattern p(T, tri, false);
      const std::vector<double> b = random_values(static_cast<std::size_t>(T.rows), 4);
      std::vector<double> expected(b.size());
      ref::sptrsv(T, tri, false, b.data(), expected.data());
      for (index_t cut : {index_t{1}, p.num_levels() / 2, p.num_levels() - 1}) {
        const std::string what = name + (tri == Triangle::Upper ? " upper" : " lower") + " cut " + std::to_string(cut);
        const planners::SplitBlocks blocks(p.host_view(), cut);
        EXPECT_EQ(blocks.n1(), p.level_ptr()[cut]) << what;
        EXPECT_EQ(blocks.part1().nnz() + blocks.part2().nnz() + blocks.a21_nnz(), p.nnz()) << what;
        EXPECT_TRUE(close_to(solve_through_blocks(blocks, tri, b).data(), expected)) << what;
      }
      EXPECT_THROW(planners::SplitBlocks(p.host_view(), 0), InvalidArgument);
      EXPECT_THROW(planners::SplitBlocks(p.host_view(), p.num_levels()), InvalidArgument);
    }
  }
}

TEST(SplitBlocks, NewValuesReachEveryBlock) {
  const Csr T = level_profile_lower("b2000x4+c150", 4, 2);
  sptrsv::TriangularPattern p(T, Triangle::Lower, false);
  planners::SplitBlocks blocks(p.host_view(), 4);
  const Csr T2 = with_scaled_values(T, -1.75);
  p.update_values(T2);
  blocks.update_values(p.values().data());
  const planners::SplitBlocks fresh(p.host_view(), 4);
  EXPECT_EQ(blocks.part1().values, fresh.part1().values);
  EXPECT_EQ(blocks.part2().values, fresh.part2().values);
  EXPECT_EQ(blocks.a21_values(), fresh.a21_values());
  const std::vector<double> b = random_values(static_cast<std::size_t>(T.rows), 8);
  std::vector<double> expected(b.size());
  ref::sptrsv(T2, Triangle::Lower, false, b.data(), expected.data());
  EXPECT_TRUE(close_to(solve_through_blocks(blocks, Triangle::Lower, b).data(), expected));
}

struct Chain {
  rt::RecordingRuntime rec;
  std::vector<double> dummy = std::vector<double>(8, 0.0);
  planners::SplitSolveHandles h;
  rt::HandleId b = 0, x = 0;
  codelets::SptrsvMatrixHandles part_matrix;

  Chain() {
    const auto vec = [this] { return rec.register_vector({dummy.data(), dummy.size(), sizeof(double)}); };
    h.order = vec();
    h.a21 = rec.register_csr({2, 2, 1, nullptr, nullptr, nullptr});
    h.b1 = vec(), h.b2 = vec(), h.x1 = vec(), h.x2 = vec();
    b = vec(), x = vec();
    part_matrix = {vec(), vec(), vec(), true, vec(), vec(), vec()};
  }
  planners::SplitPartSubmit part(rt::Where where, const char* name) {
    return {where, [this, where, name](rt::HandleId pb, rt::HandleId px, int nrhs) {
              codelets::SptrsvParams params;
              params.n = 4;
              params.nrhs = nrhs;
              rt::TaskOptions o;
              o.name = name;
              o.where = where;
              codelets::insert_sptrsv(rec, o, part_matrix, pb, px, params, 8);
            }};
  }
  bool depends(std::size_t task, std::size_t on) const {
    const auto& d = rec.tasks()[task].deps;
    return std::find(d.begin(), d.end(), on) != d.end();
  }
};

const rt::Where kGpu = codelets::kCudaBuild ? rt::Where::Cuda : rt::Where::Cpu;

TEST(SplitSolveDag, GatherPartUpdatePartScatterOnTheirDevices) {
  Chain c;
  planners::submit_split_solve(c.rec, {6, 9, 11}, c.h, c.part(rt::Where::Cpu, "part1"), c.part(kGpu, "part2"), c.b, c.x, 1);
  const auto& t = c.rec.tasks();
  ASSERT_EQ(t.size(), 5u);
  const std::vector<std::string> names = {"split_gather", "part1", "split_update", "part2", "split_scatter"};
  for (std::size_t k = 0; k < 5; ++k) EXPECT_EQ(t[k].spec.name, names[k]);
  EXPECT_EQ(t[0].spec.where, rt::Where::Cpu) << "the gather goes where part 1 runs";
  EXPECT_EQ(t[2].spec.where, kGpu) << "the update goes to the GPU when a part runs there";
  EXPECT_EQ(t[4].spec.where, kGpu) << "the scatter goes where part 2 runs";
  EXPECT_GT(t[0].spec.priority, t[2].spec.priority);
  EXPECT_GT(t[2].spec.priority, t[4].spec.priority);
  EXPECT_TRUE(c.depends(1, 0) && c.depends(2, 1) && c.depends(3, 2) && c.depends(4, 3) && c.depends(4, 1));
  EXPECT_EQ(c.rec.critical_path_length(), 5u);
  EXPECT_DOUBLE_EQ(t[2].spec.flops, 2.0 * 11);
  // A second solve reuses the parts' vectors: its gather waits for the first solve's readers of B1 and B2.
  planners::submit_split_solve(c.rec, {6, 9, 11}, c.h, c.part(rt::Where::Cpu, "part1"), c.part(kGpu, "part2"), c.b, c.x, 1);
  ASSERT_EQ(t.size(), 10u);
  EXPECT_TRUE(c.depends(5, 1) && c.depends(5, 2)) << "write after read on B1 and B2";
}

TEST(SplitSolveDag, IndependentPartsNeedNoUpdate) {
  Chain c;
  planners::submit_split_solve(c.rec, {6, 9, 0}, c.h, c.part(kGpu, "part1"), c.part(rt::Where::Cpu, "part2"), c.b, c.x, 1);
  const auto& t = c.rec.tasks();
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t[0].spec.where, kGpu);
  EXPECT_TRUE(c.depends(2, 0)) << "part 2 reads the gathered B2";
  EXPECT_FALSE(c.depends(2, 1)) << "and nothing of part 1";
  EXPECT_EQ(planners::split_update_where(rt::Where::Cpu, rt::Where::Cpu), rt::Where::Cpu);
}

TEST(SplitSolveDag, RefusesBadInput) {
  Chain c;
  EXPECT_THROW(planners::submit_split_solve(c.rec, {6, 9, 1}, c.h, c.part(rt::Where::Cpu, "p"), {}, c.b, c.x, 1),
               InvalidArgument);
  EXPECT_THROW(planners::submit_split_solve(c.rec, {6, 9, 1}, c.h, c.part(rt::Where::Cpu, "p"),
                                            c.part(rt::Where::Cpu, "q"), c.b, c.b, 1),
               InvalidArgument);
  EXPECT_THROW(planners::submit_split_solve(c.rec, {0, 9, 1}, c.h, c.part(rt::Where::Cpu, "p"),
                                            c.part(rt::Where::Cpu, "q"), c.b, c.x, 1),
               InvalidArgument);
  EXPECT_TRUE(c.rec.tasks().empty());
}

}  // namespace
}  // namespace hetsparse::test
