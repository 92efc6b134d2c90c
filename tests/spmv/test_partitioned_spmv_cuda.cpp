// The partitioned product on a GPU through StarPU: N parts of every format on the one device (each
// pinned to it), each own CUDA path and cuSPARSE, CPU and GPU parts together, vectors resident in GPU
// memory across repeated products, products launched inline or as tasks, a part pinned to a device
// no worker drives, and the kernel each part's rows choose.
#include <gtest/gtest.h>

#include <limits>
#include <utility>
#include <vector>

#include "hetsparse/error.hpp"
#include "sparse/generator_spec.hpp"
#include "tests/support/codelet_checks.hpp"
#include "tests/support/cuda_test_support.hpp"
#include "tests/support/partitioned_spmv_checks.hpp"
#include "tests/support/spmv_partition_checks.hpp"

namespace hetsparse::test {
namespace {

using planners::PartitionFormat;

// x and a first y of A's product, entries uniform in [-1, 1].
std::pair<std::vector<double>, std::vector<double>> random_x_y(const Csr& A, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<double> x(A.cols), y(A.rows);
  for (double& v : x) v = uniform(rng, -1, 1);
  for (double& v : y) v = uniform(rng, -1, 1);
  return {x, y};
}

class PartitionedSpmvGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!cuda_device_available()) GTEST_SKIP() << "no CUDA device";
  }
  static PartitionedSpmvOptions on_gpu(PartitionFormat f, int parts) {
    PartitionedSpmvOptions o;
    o.format = f;
    o.placement.parts = parts;
    o.placement.cpus = planners::CpuUse::Never;
    return o;
  }
};

TEST_F(PartitionedSpmvGpu, SeveralPartsOnOneGpu) {
  rt::Runtime r(test_runtime_options("dmdas", 1, 1));
  std::uint64_t seed = 5;
  for (const auto& [name, A] : partition_test_matrices()) {
    for (PartitionFormat f : {PartitionFormat::Pcsr, PartitionFormat::Pcsc, PartitionFormat::Pcoo}) {
      for (int parts : {1, 4}) {
        SCOPED_TRACE(name + " " + planners::to_string(f) + " " + std::to_string(parts) + " parts");
        check_partitioned_spmv(r, A, on_gpu(f, parts), ++seed);
      }
    }
  }
}

TEST_F(PartitionedSpmvGpu, EveryCudaImplementation) {
  rt::Runtime r(test_runtime_options("dmdas", 1, 1));
  const Csr A = rmat_graph({13, 8, 0.57, 0.19, 0.19, 0.05, 4});  // hub rows: long-row pieces
  for (const auto path : {kernels::SpmvPath::Subwarp, kernels::SpmvPath::Tiled}) {
    PartitionedSpmvOptions o = on_gpu(PartitionFormat::Pcoo, 3);
    o.path = path;
    o.tiles = {256, 64};
    SCOPED_TRACE(kernels::to_string(path));
    check_partitioned_spmv(r, A, o, 11);
  }
  PartitionedSpmvOptions o = on_gpu(PartitionFormat::Pcsr, 2);
  o.cuda_impl = codelets::SpmvCudaImpl::Cusparse;
  SCOPED_TRACE("cusparse");
  check_partitioned_spmv(r, A, o, 12);
}

TEST_F(PartitionedSpmvGpu, TheRowProfileChoosesTheKernelAndItsTiles) {
  // Even rows of 17 entries fill 17 of a sub-warp's 32 slots: past 8M nonzeros the tiled kernel runs,
  // in tiles of 2048 entries; below 8M, the sub-warp kernel, whatever the rows.
  rt::Runtime r(test_runtime_options("dmdas", 1, 1));
  const std::pair<const char*, kernels::SpmvPath> cases[] = {{"banded:500000:8:1", kernels::SpmvPath::Tiled},
                                                             {"banded:50000:8:1", kernels::SpmvPath::Subwarp},
                                                             {"lap3d:60", kernels::SpmvPath::Subwarp}};
  std::uint64_t seed = 40;
  for (const auto& [spec, path] : cases) {
    SCOPED_TRACE(spec);
    const Csr A = generate(spec);
    const PartitionedSpmvOptions o = on_gpu(PartitionFormat::Pcsr, 1);
    std::vector<double> x(A.cols, 1.0), y(A.rows);
    {
      PartitionedSpmv s(r, A, {x.data(), x.size()}, {y.data(), y.size()}, o);
      EXPECT_EQ(s.paths(), std::vector<kernels::SpmvPath>{path});
    }
    check_partitioned_spmv(r, A, o, ++seed);
  }
}

TEST_F(PartitionedSpmvGpu, CpuAndGpuPartsTogether) {
  rt::Runtime r(test_runtime_options("dmdas", 2, 1));
  for (PartitionFormat f : {PartitionFormat::Pcsr, PartitionFormat::Pcsc, PartitionFormat::Pcoo}) {
    PartitionedSpmvOptions o;
    o.format = f;
    o.placement.x_moves = false;
    o.placement.min_part_nnz = 1000;
    o.topology = planners::flat_topology(1, 2);
    o.topology.domains[0].cpu_bytes_per_s = 1e12;  // as fast as the GPU: the model takes CPU parts
    const Csr A = random_banded(20000, 40, 0.5, 3, false);
    Rng rng(21);
    std::vector<double> x(A.cols), y(A.rows, std::numeric_limits<double>::quiet_NaN()), expect(A.rows);
    for (double& v : x) v = uniform(rng, -1, 1);
    ref::spmv(A, x.data(), expect.data());
    PartitionedSpmv s(r, A, {x.data(), x.size()}, {y.data(), y.size()}, o);
    ASSERT_TRUE(s.placement().cpus_used) << s.placement().reason;
    EXPECT_FALSE(s.launches_inline());  // CPU parts and a GPU part run side by side as tasks
    s.submit();
    s.finish();
    EXPECT_LT(partitioned_rel_diff(y, expect), 1e-13) << planners::to_string(f);
  }
}

TEST_F(PartitionedSpmvGpu, DeviceResidentVectorsAcrossProducts) {
  rt::Runtime r(test_runtime_options("dmdas", 1, 1));
  const Csr A = partition_matrix(30000, 30000, 9, 777, 40000, 100, 400, 8);
  const auto [x, y0] = random_x_y(A, 31);
  std::vector<double> expect = y0;
  for (int it = 0; it < 20; ++it) ref::spmv(A, x.data(), expect.data(), 0.25, 0.5);
  for (PartitionFormat f : {PartitionFormat::Pcsr, PartitionFormat::Pcsc, PartitionFormat::Pcoo}) {
    cudaStream_t stream = nullptr;
    DeviceArray<double> dx(stream, x), dy(stream, y0);
    kernels::check_cuda(cudaStreamSynchronize(stream), "upload");
    {
      PartitionedSpmvOptions o = on_gpu(f, 3);
      PartitionedSpmv s(r, A, {dx.get(), x.size(), 0}, {dy.get(), y0.size(), 0}, o);
      EXPECT_EQ(s.merge_device(), 0);
      for (int it = 0; it < 20; ++it) s.submit(0.25, 0.5);
      s.finish();
    }
    EXPECT_LT(partitioned_rel_diff(dy.download(stream), expect), 1e-12) << planners::to_string(f);
  }
}

// Every task of a product on the one GPU: launched inline by default, as tasks when asked; the same
// chain of products either way, and a host read of y between two chains.
TEST_F(PartitionedSpmvGpu, ProductsLaunchedInlineOrAsTasks) {
  rt::Runtime r(test_runtime_options("dmdas", 1, 1));
  const Csr A = rmat_graph({12, 8, 0.57, 0.19, 0.19, 0.05, 9});  // long rows: the tiled path's workspace
  auto [x, y0] = random_x_y(A, 41);
  std::vector<double> half = y0;
  for (int it = 0; it < 10; ++it) ref::spmv(A, x.data(), half.data(), 0.125, 0.75);
  std::vector<double> expect = half;
  for (int it = 0; it < 10; ++it) ref::spmv(A, x.data(), expect.data(), -0.25, 0.5);
  for (PartitionFormat f : {PartitionFormat::Pcsr, PartitionFormat::Pcsc, PartitionFormat::Pcoo}) {
    for (int parts : {1, 3}) {
      for (bool launch : {true, false}) {
        SCOPED_TRACE(std::string(planners::to_string(f)) + " " + std::to_string(parts) + " parts, " +
                     (launch ? "inline" : "tasks"));
        std::vector<double> y = y0;
        PartitionedSpmvOptions o = on_gpu(f, parts);
        o.inline_products = launch;
        o.tiles = {256, 64};
        PartitionedSpmv s(r, A, {x.data(), x.size()}, {y.data(), y.size()}, o);
        EXPECT_EQ(s.launches_inline(), launch);
        for (int it = 0; it < 10; ++it) s.submit(0.125, 0.75);
        r.wait_all();
        s.finish();
        EXPECT_LT(partitioned_rel_diff(y, half), 1e-12);
        PartitionedSpmv again(r, A, {x.data(), x.size()}, {y.data(), y.size()}, o);
        for (int it = 0; it < 10; ++it) again.submit(-0.25, 0.5);
        again.finish();
        EXPECT_LT(partitioned_rel_diff(y, expect), 1e-12);
      }
    }
  }
}

TEST_F(PartitionedSpmvGpu, PinToAMissingDeviceIsRefused) {
  rt::Runtime r(test_runtime_options("dmdas", 1, 1));
  const Csr A = laplacian_2d(30, 30);
  std::vector<double> x(A.cols, 1.0), y(A.rows);
  PartitionedSpmvOptions o = on_gpu(PartitionFormat::Pcsr, 2);
  o.topology.domains.push_back({0, {{0}, {7}}, 0});
  PartitionedSpmv s(r, A, {x.data(), x.size()}, {y.data(), y.size()}, o);
  EXPECT_THROW(s.submit(), InvalidArgument);
}

}  // namespace
}  // namespace hetsparse::test
