// The cluster-levels scheme (kernels::ClusterLevelsSolver, "clusterlevels[:...]" through
// sptrsv::PreparedScheme) against ref::sptrsv: every test triangle, lower and upper, unit or not,
// one block and clusters of several, with and without wide levels handed to level-set launches,
// x NaN-poisoned before each solve, and in place (x = b). Skipped without a device.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernels/sptrsv/sptrsv.hpp"
#include "kernels/sptrsv/sptrsv_cluster_levels.hpp"
#include "reference/sparse_reference.hpp"
#include "sparse/generators.hpp"
#include "sptrsv/analysis.hpp"
#include "sptrsv/prepared_scheme.hpp"
#include "tests/support/cuda_test_support.hpp"
#include "tests/support/sptrsv_checks.hpp"
#include "tests/support/sptrsv_device_problem.hpp"

namespace hetsparse::test {
namespace {

using SptrsvClusterLevelsCuda = CudaStreamTest;

// Defaults; one block; clusters of 512-thread blocks at a row a thread (several blocks on the 3D
// Laplacian); one block or a cluster of two with more rows in a level than threads (the rows a thread
// does not load ahead); every level above 512 rows wide (R-MAT and banded triangles mix both kinds).
const std::vector<std::string> kSchemes = {"clusterlevels", "clusterlevels:blocks=1", "clusterlevels:threads=512",
                                           "clusterlevels:blocks=1,threads=512", "clusterlevels:blocks=2,threads=512",
                                           "clusterlevels:blocks=1,threads=512,wide=1,run=2",
                                           "clusterlevels:blocks=1,ring=0",
                                           // A group of lanes a row: clusters and one block, a level
                                           // wider than the groups, wide levels between the runs.
                                           "clusterlevels:lanes=4", "clusterlevels:lanes=32", "clusterlevels:lanes=8,blocks=1",
                                           "clusterlevels:lanes=16,blocks=2,wide=1,run=2",
                                           "clusterlevels:lanes=32,blocks=1,wide=8"};

void expect_scheme_solves(cudaStream_t stream, const NamedTriangle& m, const SolveCase& c, const std::string& scheme) {
  SCOPED_TRACE(m.name + " " + c.label() + " " + scheme);
  DeviceSolveProblem p(stream, m.lower, c, 5, 31);
  const sptrsv::PreparedScheme prepared(stream, p.pattern.host_view(), p.matrix.view(), scheme);
  for (int round = 0; round < 2; ++round) {  // reusable
    p.dx.poison(stream);
    prepared.solve(stream, p.db.get(), p.dx.get(), p.ws);
    EXPECT_TRUE(close_to(p.dx.download(stream).data(), p.expected)) << "round " << round;
  }
  prepared.solve(stream, p.db.get(), p.db.get(), p.ws);
  EXPECT_TRUE(close_to(p.db.download(stream).data(), p.expected)) << "in place";
}

TEST_F(SptrsvClusterLevelsCuda, EveryTriangleMatchesTheReference) {
  for (const NamedTriangle& m : scheme_test_triangles())
    for (const SolveCase& c : solve_cases())
      for (const std::string& scheme : kSchemes) expect_scheme_solves(stream_, m, c, scheme);
}

// A 3D Laplacian solved by a cluster of several blocks, `rounds` times (a missed barrier shows as an
// occasional stale x).
void expect_cluster_solves(cudaStream_t stream, int side, const char* scheme, int rounds) {
  SCOPED_TRACE(scheme);
  const Csr lower = anchor_laplacian_lower(3, side, 7);
  const sptrsv::TriangularPattern t(lower, Triangle::Lower, false);
  const kernels::DeviceTriangular matrix(stream, t.host_view());
  const kernels::ClusterLevelsSolver solver(stream, t.host_view(), matrix.view(),
                                            kernels::parse_cluster_levels_scheme(scheme));
  EXPECT_GT(solver.cluster_blocks(), 1);
  EXPECT_EQ(solver.plan().wide_levels, 0);
  const auto n = static_cast<std::size_t>(lower.rows);
  const std::vector<double> b = random_values(n, 3);
  std::vector<double> expected(n);
  ref::sptrsv(lower, Triangle::Lower, false, b.data(), expected.data());
  DeviceArray<double> db(stream, b), dx(n);
  for (int round = 0; round < rounds; ++round) {
    dx.poison(stream);
    solver.solve(stream, db.get(), dx.get());
    ASSERT_TRUE(close_to(dx.download(stream).data(), expected)) << "round " << round;
  }
}

bool has_clusters() {
  int device = 0, major = 0;
  return cudaGetDevice(&device) == cudaSuccess &&
         cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess && major >= 9;
}

// The 3D Laplacian at a row a thread of 512-thread blocks needs a cluster of several: the path with the
// cluster barrier and the L2 reads of x must have run, not only the one-block path (the racecheck target).
TEST_F(SptrsvClusterLevelsCuda, ClustersOfSeveralBlocksRun) {
  if (!has_clusters()) GTEST_SKIP() << "thread-block clusters need compute capability 9.0";
  expect_cluster_solves(stream_, 40, "clusterlevels:threads=512", 20);
}

// A cluster of two 512-thread blocks has up to three rows a thread in the widest levels of 56³ (~2350
// rows): the rows a thread solves after its first, in a cluster.
TEST_F(SptrsvClusterLevelsCuda, ClusterThreadsWithSeveralRowsInALevel) {
  if (!has_clusters()) GTEST_SKIP() << "thread-block clusters need compute capability 9.0";
  expect_cluster_solves(stream_, 56, "clusterlevels:blocks=2,threads=512", 5);
}

// Groups of lanes a row in a cluster of several blocks, x copied into every block's shared memory
// (20³ rows), many rounds: the racecheck target.
TEST_F(SptrsvClusterLevelsCuda, GroupsOfLanesInAClusterShareX) {
  if (!has_clusters()) GTEST_SKIP() << "thread-block clusters need compute capability 9.0";
  expect_cluster_solves(stream_, 20, "clusterlevels:lanes=32", 6);
  expect_cluster_solves(stream_, 20, "clusterlevels:lanes=4,blocks=3", 6);
}

// The same where x does not fit in shared memory (40³ rows): read from L2.
TEST_F(SptrsvClusterLevelsCuda, GroupsOfLanesInAClusterReadXFromL2) {
  if (!has_clusters()) GTEST_SKIP() << "thread-block clusters need compute capability 9.0";
  expect_cluster_solves(stream_, 40, "clusterlevels:lanes=8", 5);
}

// One block with its shared-memory ring (the default there), many rounds: the racecheck target.
TEST_F(SptrsvClusterLevelsCuda, OneBlockWithTheRingRuns) {
  const Csr lower = anchor_laplacian_lower(2, 200, 9);
  const sptrsv::TriangularPattern t(lower, Triangle::Lower, false);
  const kernels::DeviceTriangular matrix(stream_, t.host_view());
  const kernels::ClusterLevelsSolver solver(stream_, t.host_view(), matrix.view(),
                                            kernels::parse_cluster_levels_scheme("clusterlevels"));
  EXPECT_EQ(solver.cluster_blocks(), 1);
  EXPECT_TRUE(solver.plan().one_block_ring);
  const auto n = static_cast<std::size_t>(lower.rows);
  const std::vector<double> b = random_values(n, 4);
  std::vector<double> expected(n);
  ref::sptrsv(lower, Triangle::Lower, false, b.data(), expected.data());
  DeviceArray<double> db(stream_, b), dx(n);
  for (int round = 0; round < 10; ++round) {
    dx.poison(stream_);
    solver.solve(stream_, db.get(), dx.get());
    ASSERT_TRUE(close_to(dx.download(stream_).data(), expected)) << "round " << round;
  }
}

// The pack built on the GPU is the host pack, array for array, wherever no row overflows (the solver
// then packs on the device): every triangle, lower and upper, unit or not, and plan shape.
TEST_F(SptrsvClusterLevelsCuda, DevicePackEqualsTheHostPack) {
  int compared = 0;
  for (const NamedTriangle& m : scheme_test_triangles()) {
    for (const SolveCase& c : solve_cases()) {
      const Csr input = solver_input(m.lower, c.tri, c.unit_diagonal, 5);
      const sptrsv::TriangularPattern t(input, c.tri, c.unit_diagonal);
      const kernels::TriangularView host = t.host_view();
      if (kernels::cluster_levels_longest(host) > kernels::ClusterLevelsPack::kMaxWidth) continue;
      const kernels::DeviceTriangular matrix(stream_, host);
      const DeviceArray<index_t> level_ptr(stream_, std::vector<index_t>(host.level_ptr, host.level_ptr + host.num_levels + 1));
      for (const std::string& scheme : kSchemes) {
        SCOPED_TRACE(m.name + " " + c.label() + " " + scheme);
        const kernels::ClusterLevelsPlan plan = kernels::plan_cluster_levels(host, kernels::parse_cluster_levels_scheme(scheme));
        const kernels::ClusterLevelsPack expected = kernels::pack_cluster_levels(host, plan);
        const auto n = static_cast<std::size_t>(host.n), w = static_cast<std::size_t>(expected.width);
        DeviceArray<double> diagonal(n), values(w * n);
        DeviceArray<index_t> cols(w * n);
        kernels::pack_cluster_levels_cuda(stream_, matrix.view(), level_ptr.get(), plan, expected.width,
                                          {diagonal.get(), cols.get(), values.get()});
        EXPECT_EQ(diagonal.download(stream_), expected.diagonal);
        EXPECT_EQ(cols.download(stream_), expected.cols);
        EXPECT_EQ(values.download(stream_), expected.values);
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 100);
}

TEST_F(SptrsvClusterLevelsCuda, BadSchemesAreRefused) {
  EXPECT_EQ(sptrsv::check_scheme("clusterlevels"), sptrsv::SchemeKind::ClusterLevels);
  EXPECT_EQ(sptrsv::check_scheme("pow2:clusterlevels:blocks=4"), sptrsv::SchemeKind::Powered);
  EXPECT_THROW(sptrsv::check_scheme("clusterlevels:blocks=17"), InvalidArgument);
  EXPECT_THROW(sptrsv::check_scheme("clusterlevels:threads=256"), InvalidArgument);
  EXPECT_THROW(sptrsv::check_scheme("clusterlevels:colour=1"), InvalidArgument);
}

}  // namespace
}  // namespace hetsparse::test
