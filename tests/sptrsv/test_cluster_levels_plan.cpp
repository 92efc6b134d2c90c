// The cluster-levels plan (kernels::plan_cluster_levels) on hand-built level profiles, and its scheme
// string: which levels go to the cluster and which to level-set launches, and the cluster's size.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "hetsparse/error.hpp"
#include "kernels/sptrsv/sptrsv_cluster_levels.hpp"
#include "reference/sparse_reference.hpp"
#include "sptrsv/analysis.hpp"
#include "tests/support/sptrsv_checks.hpp"

namespace hetsparse::test {
namespace {

// A view with only what the plan reads: the level pointer of these level sizes.
struct Profile {
  std::vector<index_t> level_ptr{0};
  kernels::TriangularView view;
  explicit Profile(const std::vector<index_t>& rows) {
    for (const index_t r : rows) level_ptr.push_back(level_ptr.back() + r);
    view.n = level_ptr.back();
    view.num_levels = static_cast<index_t>(rows.size());
    view.level_ptr = level_ptr.data();
  }
};

TEST(ClusterLevelsPlan, NarrowDagIsOneClusterRunSizedForItsFullestLevel) {
  const Profile p(std::vector<index_t>(300, 5000));  // 300 levels of 5000 rows
  const kernels::ClusterLevelsPlan plan = kernels::plan_cluster_levels(p.view, {});
  ASSERT_EQ(plan.runs.size(), 1u);
  EXPECT_FALSE(plan.runs[0].wide);
  EXPECT_EQ(plan.runs[0].level_begin, 0);
  EXPECT_EQ(plan.runs[0].level_end, 300);
  EXPECT_EQ(plan.block_threads, 512);  // more than one 1024-thread block: a cluster of 512-thread ones
  EXPECT_EQ(plan.cluster_blocks, 10);  // 5000 rows at a row a thread
  EXPECT_EQ(plan.narrow_levels, 300);
  EXPECT_EQ(plan.wide_levels, 0);
}

TEST(ClusterLevelsPlan, WideLevelsGoToLevelSetLaunchesAndShortNarrowRunsFollowThem) {
  kernels::ClusterLevelsOptions o;
  o.max_blocks = 2;  // wide above 2 * 512 * 4 = 4096 rows
  std::vector<index_t> rows(10, 100);
  rows.push_back(20000);           // 10: wide
  rows.insert(rows.end(), 2, 50);  // 11, 12: a narrow run of 2 < min_run_levels: wide too
  rows.push_back(5000);            // 13: wide
  rows.insert(rows.end(), 6, 3000);  // 14..19: narrow, the fullest narrow level
  const Profile p(rows);
  const kernels::ClusterLevelsPlan plan = kernels::plan_cluster_levels(p.view, o);
  ASSERT_EQ(plan.runs.size(), 3u);
  EXPECT_FALSE(plan.runs[0].wide);
  EXPECT_EQ(plan.runs[0].level_end, 10);
  EXPECT_TRUE(plan.runs[1].wide);
  EXPECT_EQ(plan.runs[1].level_begin, 10);
  EXPECT_EQ(plan.runs[1].level_end, 14);
  EXPECT_FALSE(plan.runs[2].wide);
  EXPECT_EQ(plan.runs[2].level_end, 20);
  EXPECT_EQ(plan.wide_levels, 4);
  EXPECT_EQ(plan.narrow_levels, 16);
  EXPECT_EQ(plan.cluster_blocks, 2);  // 3000 rows at a row a thread of 512: 6 blocks, capped at 2
}

TEST(ClusterLevelsPlan, AShallowTriangleWithoutWideLevelsIsStillOneRun) {
  const Profile p({7, 3});  // fewer levels than min_run_levels, but nothing to switch to
  const kernels::ClusterLevelsPlan plan = kernels::plan_cluster_levels(p.view, {});
  ASSERT_EQ(plan.runs.size(), 1u);
  EXPECT_FALSE(plan.runs[0].wide);
  EXPECT_EQ(plan.cluster_blocks, 1);
  EXPECT_EQ(plan.block_threads, 1024);  // fits one block: block barriers, no cluster
}

TEST(ClusterLevelsPlan, GroupsOfLanesCountRowsAGroupInBlocksOf1024) {
  std::vector<index_t> rows(40, 300);  // 40 levels of 300 rows (long rows: a group of lanes each)
  rows.push_back(20000);               // wide for 16 blocks of 32 groups at 4 rows a group (2048)
  rows.insert(rows.end(), 5, 300);
  const Profile p(rows);
  const kernels::ClusterLevelsPlan plan =
      kernels::plan_cluster_levels(p.view, kernels::parse_cluster_levels_scheme("clusterlevels:lanes=32"));
  EXPECT_EQ(plan.lanes, 32);
  EXPECT_EQ(plan.fullest_narrow, 300);
  EXPECT_EQ(plan.cluster_blocks, 16);   // spread over the cluster: 300 warps
  EXPECT_EQ(plan.block_threads, 608);   // 300 x 32 threads over 16 blocks, a multiple of 32
  ASSERT_EQ(plan.runs.size(), 3u);
  EXPECT_TRUE(plan.runs[1].wide);
  EXPECT_EQ(plan.runs[1].level_begin, 40);
  EXPECT_EQ(plan.runs[1].level_end, 41);
  // Eight lanes: 75 warps, about 6 a block: 13 blocks of 192 threads; capped at 2 blocks: 1024 threads a
  // block, and two rows a group on the fullest levels.
  const kernels::ClusterLevelsPlan eight =
      kernels::plan_cluster_levels(p.view, kernels::parse_cluster_levels_scheme("clusterlevels:lanes=8"));
  EXPECT_EQ(eight.cluster_blocks, 13);
  EXPECT_EQ(eight.block_threads, 192);
  const kernels::ClusterLevelsPlan two =
      kernels::plan_cluster_levels(p.view, kernels::parse_cluster_levels_scheme("clusterlevels:lanes=8,blocks=2"));
  EXPECT_EQ(two.cluster_blocks, 2);
  EXPECT_EQ(two.block_threads, 1024);
  // Levels of a few rows: one warp, one block; of 90 rows at 8 lanes (23 warps): still one block.
  const Profile tiny(std::vector<index_t>(10, 3));
  const kernels::ClusterLevelsPlan one =
      kernels::plan_cluster_levels(tiny.view, kernels::parse_cluster_levels_scheme("clusterlevels:lanes=8"));
  EXPECT_EQ(one.cluster_blocks, 1);
  EXPECT_EQ(one.block_threads, 32);
  const Profile small(std::vector<index_t>(10, 90));
  const kernels::ClusterLevelsPlan block =
      kernels::plan_cluster_levels(small.view, kernels::parse_cluster_levels_scheme("clusterlevels:lanes=8"));
  EXPECT_EQ(block.cluster_blocks, 1);
  EXPECT_EQ(block.block_threads, 736);
}

TEST(ClusterLevelsPlan, SchemeStringsRoundTripAndBadOnesAreNamed) {
  const kernels::ClusterLevelsOptions o =
      kernels::parse_cluster_levels_scheme("clusterlevels:blocks=8,threads=512,run=3,ring=0,ahead=2");
  EXPECT_FALSE(o.one_block_ring);
  EXPECT_EQ(o.prefetch_levels, 2);
  EXPECT_EQ(o.max_blocks, 8);
  EXPECT_EQ(o.block_threads, 512);
  EXPECT_EQ(o.min_run_levels, 3);
  EXPECT_EQ(kernels::to_string(o), "clusterlevels:blocks=8,threads=512,run=3,ring=0,ahead=2");
  EXPECT_EQ(kernels::to_string(kernels::parse_cluster_levels_scheme("clusterlevels")), "clusterlevels");
  EXPECT_EQ(kernels::to_string(kernels::parse_cluster_levels_scheme("clusterlevels:lanes=16,blocks=4")),
            "clusterlevels:blocks=4,lanes=16");
  EXPECT_FALSE(kernels::is_cluster_levels_scheme("clusterlevel"));
  for (const char* bad : {"clusterlevels:blocks=0", "clusterlevels:blocks=17", "clusterlevels:threads=768",
                          "clusterlevels:wide=0", "clusterlevels:ring=2", "clusterlevels:ahead=5", "clusterlevels:size=2",
                          "clusterlevels:blocks", "clusterlevels:rows=x", "clusterlevels:lanes=2", "clusterlevels:lanes=64",
                          "clusterlevels:lanes=8,threads=512"}) {
    EXPECT_THROW(kernels::parse_cluster_levels_scheme(bad), InvalidArgument) << bad;
  }
  try {
    kernels::parse_cluster_levels_scheme("clusterlevels:size=2");
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("size"), std::string::npos);
  }
}

TEST(ClusterLevelsPlan, NoLevelScheduleIsAnError) {
  kernels::TriangularView v;
  v.n = 10;
  EXPECT_THROW(kernels::plan_cluster_levels(v, {}), InvalidArgument);
}

// The pack holds the triangle: the serial walk through it (what the kernel computes, ring codes
// decoded to the row they name) equals the reference on every test triangle, lower and upper, unit or
// not, for one block, a cluster of 512-thread blocks, and with wide levels between narrow runs
// (whose dependencies must stay global). Widths 2, 4 and 8, the overflow CSR and ring codes all occur.
TEST(ClusterLevelsPack, SerialWalkThroughThePackMatchesTheReference) {
  std::vector<int> widths;
  bool overflow = false;
  std::size_t ring_slots = 0;
  for (const std::string& name : sptrsv_matrix_names()) {
    for (const SolveCase& c : solve_cases()) {
      const Csr input = solver_input(sptrsv_matrix(name), c.tri, c.unit_diagonal, 3);
      const sptrsv::TriangularPattern t(input, c.tri, c.unit_diagonal);
      const auto n = static_cast<std::size_t>(input.rows);
      const std::vector<double> b = random_values(n, 13);
      std::vector<double> expected(n);
      ref::sptrsv(input, c.tri, c.unit_diagonal, b.data(), expected.data());
      for (const char* scheme : {"clusterlevels:blocks=1", "clusterlevels:blocks=3,threads=512,rows=1",
                                 "clusterlevels:blocks=1,threads=512,wide=1,run=2", "clusterlevels:blocks=1,ring=0"}) {
        SCOPED_TRACE(name + " " + c.label() + " " + scheme);
        const kernels::ClusterLevelsPlan plan =
            kernels::plan_cluster_levels(t.host_view(), kernels::parse_cluster_levels_scheme(scheme));
        const kernels::ClusterLevelsPack pack = kernels::pack_cluster_levels(t.host_view(), plan);
        widths.push_back(pack.width);
        overflow = overflow || !pack.overflow_ptr.empty();
        ring_slots += static_cast<std::size_t>(std::count_if(pack.cols.begin(), pack.cols.end(), [](index_t v) { return v < -1; }));
        std::vector<double> x(n, 0.0);
        kernels::solve_cluster_levels_pack_cpu(t.host_view(), plan, pack, b.data(), x.data());
        EXPECT_TRUE(close_to(x.data(), expected));
      }
    }
  }
  for (const int w : {2, 4, 8}) EXPECT_NE(std::find(widths.begin(), widths.end(), w), widths.end()) << w;
  EXPECT_TRUE(overflow);
  EXPECT_GT(ring_slots, 0u);
}

// A code naming no row of the ring's window is refused by the oracle, not read out of bounds.
TEST(ClusterLevelsPack, ARingCodeOutsideTheWindowIsAnError) {
  const sptrsv::TriangularPattern t(sptrsv_matrix("chain_5000"), Triangle::Lower, false);
  const kernels::ClusterLevelsPlan plan = kernels::plan_cluster_levels(t.host_view(), {});
  kernels::ClusterLevelsPack pack = kernels::pack_cluster_levels(t.host_view(), plan);
  pack.cols[10] = kernels::ring_code(10, 0, 7);  // position 10 (level 10) naming thread 7 of its own level
  std::vector<double> b(5000, 1.0), x(5000, 0.0);
  EXPECT_THROW(kernels::solve_cluster_levels_pack_cpu(t.host_view(), plan, pack, b.data(), x.data()), InvalidArgument);
}

}  // namespace
}  // namespace hetsparse::test
