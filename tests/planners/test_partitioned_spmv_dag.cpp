// PartitionedSpmv's task graphs on the RecordingRuntime (no StarPU): pCSR parts are independent and
// pinned to their GPUs; pCSC partials meet in merges, per NUMA domain first; pCOO owners merge the
// pieces of their last row, copied out first when computed on another device; CPU parts are pinned
// to their NUMA node's workers; a second product waits only for what it overwrites; a GPU's parts
// choose their kernel by what the GPU streams in all.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "hetsparse/error.hpp"
#include "runtime/recording_runtime.hpp"
#include "sparse/generator_spec.hpp"
#include "spmv/partitioned_spmv.hpp"
#include "tests/support/spmv_partition_checks.hpp"

namespace hetsparse::test {
namespace {

using planners::PartitionFormat;
using Task = rt::RecordingRuntime::Task;

std::vector<const Task*> named(const rt::RecordingRuntime& r, const std::string& prefix) {
  std::vector<const Task*> out;
  for (const Task& t : r.tasks())
    if (t.spec.name.rfind(prefix, 0) == 0) out.push_back(&t);
  return out;
}

PartitionedSpmvOptions with(PartitionFormat f, int parts) {
  PartitionedSpmvOptions o;
  o.format = f;
  o.placement.parts = parts;
  o.placement.min_part_nnz = 1;
  return o;
}

TEST(PartitionedSpmvDag, PcsrPartsAreIndependentAndPinned) {
  rt::RecordingRuntime r;
  r.set_cuda_workers(2);
  const Csr A = laplacian_2d(80, 60);
  std::vector<double> x(A.cols, 1.0), y(A.rows);
  PartitionedSpmv s(r, A, {x.data(), x.size()}, {y.data(), y.size()}, with(PartitionFormat::Pcsr, 4));
  EXPECT_EQ(s.tasks_per_product(), 4u);
  s.submit();
  s.submit(1.0, 1.0);
  const auto parts = named(r, "spmv_pcsr_p");
  ASSERT_EQ(parts.size(), 8u);
  double flops = 0;
  for (std::size_t k = 0; k < 4; ++k) {
    EXPECT_TRUE(parts[k]->deps.empty());
    EXPECT_EQ(parts[4 + k]->deps, std::vector<std::size_t>{parts[k]->id});  // its own slice of y only
    EXPECT_EQ(parts[k]->spec.workers.cuda_device, int(k / 2));              // two parts a GPU
    EXPECT_EQ(parts[k]->spec.where, rt::Where::Cuda);
    flops += parts[k]->spec.flops;
  }
  EXPECT_DOUBLE_EQ(flops, 2.0 * double(A.nnz()));
  EXPECT_NE(r.to_dot().find("gpu1"), std::string::npos);
}

TEST(PartitionedSpmvDag, PcscPartialsMergeByDomainThenIntoY) {
  rt::RecordingRuntime r;
  r.set_cuda_workers(4);
  const Csr A = partition_matrix(500, 6000, 40, -1, 0, 10, 20, 3);
  std::vector<double> x(A.cols, 1.0), y(A.rows);
  PartitionedSpmvOptions o = with(PartitionFormat::Pcsc, 0);
  for (int d = 0; d < 2; ++d) o.topology.domains.push_back({d, {{2 * d}, {2 * d + 1}}, 0});
  PartitionedSpmv s(r, A, {x.data(), x.size()}, {y.data(), y.size()}, o);
  s.submit(2.0, 0.5);
  const auto parts = named(r, "spmv_pcsc_p"), level = named(r, "spmv_pcsc_merge_d");
  const auto final = named(r, "spmv_pcsc_merge");
  ASSERT_EQ(parts.size(), 4u);
  ASSERT_EQ(level.size(), 2u);
  for (int d = 0; d < 2; ++d) {  // domain d's second partial into its first, on the first's GPU
    EXPECT_EQ(level[d]->deps, (std::vector<std::size_t>{parts[2 * d]->id, parts[2 * d + 1]->id}));
    EXPECT_EQ(level[d]->spec.workers.cuda_device, 2 * d);
  }
  const Task* last = final.back();
  EXPECT_EQ(last->spec.name, "spmv_pcsc_merge");
  EXPECT_EQ(last->deps, (std::vector<std::size_t>{level[0]->id, level[1]->id}));
  EXPECT_EQ(last->spec.workers.cuda_device, 0);  // where the merges run: host y, first GPU
  EXPECT_EQ(s.merge_device(), 0);
  EXPECT_EQ(r.critical_path_length(), 3u);
}

TEST(PartitionedSpmvDag, PcooOwnersMergeCutRowsAndCopyRemotePieces) {
  for (const int gpus : {1, 4}) {
    SCOPED_TRACE(std::to_string(gpus) + " GPUs");
    rt::RecordingRuntime r;
    r.set_cuda_workers(gpus);
    // A hub row of 9000 in 12000 nonzeros: the four cuts fall in it, so parts 1 and 2 are pieces of it.
    const Csr A = partition_matrix(1000, 4000, 3, 400, 9000, 900, 950, 5);
    std::vector<double> x(A.cols, 1.0), y(A.rows);
    PartitionedSpmv s(r, A, {x.data(), x.size()}, {y.data(), y.size()}, with(PartitionFormat::Pcoo, 4));
    const auto& sp = s.partition().parts;
    ASSERT_TRUE(sp[1].shares_first_row && sp[2].shares_first_row && sp[3].shares_first_row);
    s.submit();
    const auto parts = named(r, "spmv_pcoo_p"), heads = named(r, "spmv_pcoo_head_p");
    const auto merges = named(r, "spmv_pcoo_merge_p");
    ASSERT_EQ(parts.size(), 4u);
    // Owners: part 0 (rows up to the hub, the hub) and part 3 (the rows after it).
    ASSERT_EQ(merges.size(), 2u);
    EXPECT_EQ(merges[0]->spec.name, "spmv_pcoo_merge_p0");
    // On one GPU the pieces are read where they are; on four, parts 1..3 copy their first row out.
    EXPECT_EQ(heads.size(), gpus == 1 ? 0u : 3u);
    std::set<std::size_t> expected{parts[0]->id};
    for (const Task* h : heads) expected.insert(h->id);
    if (gpus == 1) expected.insert({parts[1]->id, parts[2]->id, parts[3]->id});
    EXPECT_EQ(std::set<std::size_t>(merges[0]->deps.begin(), merges[0]->deps.end()), expected);
    EXPECT_EQ(merges[0]->spec.workers.cuda_device, 0);
    EXPECT_EQ(merges[1]->spec.workers.cuda_device, gpus == 1 ? 0 : 3);
    EXPECT_EQ(s.tasks_per_product(), parts.size() + heads.size() + merges.size());
  }
}

TEST(PartitionedSpmvDag, CpuPartsPinnedToTheirNumaNode) {
  rt::RecordingRuntime r;
  r.set_cpu_workers(4);
  r.set_numa_nodes(2);
  const Csr A = rmat_graph({10, 8, 0.57, 0.19, 0.19, 0.05, 2});
  std::vector<double> x(A.cols, 1.0), y(A.rows);
  PartitionedSpmvOptions o = with(PartitionFormat::Pcsr, 0);
  for (int d = 0; d < 2; ++d) o.topology.domains.push_back({d, {}, 2});
  PartitionedSpmv s(r, A, {x.data(), x.size()}, {y.data(), y.size()}, o);
  s.submit();
  const auto parts = named(r, "spmv_pcsr_p");
  ASSERT_EQ(parts.size(), 4u);
  for (std::size_t k = 0; k < 4; ++k) {
    EXPECT_EQ(parts[k]->spec.where, rt::Where::Cpu);
    EXPECT_EQ(parts[k]->spec.workers.numa_node, int(k / 2));
  }
  EXPECT_EQ(s.merge_device(), -1);
}

TEST(PartitionedSpmvDag, BadSizesAndRecordedPins) {
  rt::RecordingRuntime r;
  const Csr A = laplacian_2d(10, 10);
  std::vector<double> x(A.cols), y(A.rows - 1);
  EXPECT_THROW(PartitionedSpmv(r, A, {x.data(), x.size()}, {y.data(), y.size()}, {}), InvalidArgument);
  // One GPU recorded; a part pinned to a second one is refused by the runtime.
  r.set_cuda_workers(1);
  PartitionedSpmvOptions o = with(PartitionFormat::Pcsr, 2);
  o.topology.domains.push_back({0, {{0}, {1}}, 0});
  std::vector<double> y_ok(A.rows);
  PartitionedSpmv s(r, A, {x.data(), x.size()}, {y_ok.data(), y_ok.size()}, o);
  EXPECT_THROW(s.submit(), InvalidArgument);
}

TEST(PartitionedSpmvDag, PartsOfOneGpuChooseTheirKernelByWhatTheGpuStreams) {
  // 10.2M nonzeros of even 17-entry rows (17 of a sub-warp's 32 slots) in four parts of 2.55M: on one
  // GPU they stream 10.2M a product, past the 8M crossover, and take the tiled kernel in tiles of
  // 2048; one part a GPU streams 2.55M, and the sub-warp kernel runs.
  const Csr A = generate("banded:600000:8:1");
  std::vector<double> x(A.cols, 1.0), y(A.rows);
  for (const int gpus : {1, 4}) {
    SCOPED_TRACE(std::to_string(gpus) + " GPUs");
    rt::RecordingRuntime r;
    r.set_cuda_workers(gpus);
    PartitionedSpmvOptions o = with(PartitionFormat::Pcsr, 4);
    o.placement.cpus = planners::CpuUse::Never;
    PartitionedSpmv s(r, A, {x.data(), x.size()}, {y.data(), y.size()}, o);
    ASSERT_EQ(s.paths().size(), 4u);
    for (std::size_t k = 0; k < 4; ++k) {
      EXPECT_EQ(s.placement().homes[k].device, gpus == 1 ? 0 : int(k));
      EXPECT_EQ(s.paths()[k], gpus == 1 ? kernels::SpmvPath::Tiled : kernels::SpmvPath::Subwarp);
      EXPECT_EQ(s.tile_entries()[k], gpus == 1 ? 2048u : 1024u);
    }
  }
}

}  // namespace
}  // namespace hetsparse::test
