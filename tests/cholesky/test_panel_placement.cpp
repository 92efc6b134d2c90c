// analyze() ends by zeroing each GPU-homed panel group on the GPU, so that the first factorize()
// allocates nothing among its kernels; recorded on a machine with CUDA workers (RecordingRuntime),
// and not done under a GPU memory cap smaller than those groups.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "cholesky/cholesky_solver.hpp"
#include "runtime/recording_runtime.hpp"
#include "sparse/convert.hpp"
#include "sparse/generators.hpp"

namespace hetsparse::test {
namespace {

struct Placement {
  int tasks = 0;
  bool all_on_cuda_writing_one_group = true;
  std::set<rt::HandleId> groups;
};

Placement record_analysis(std::size_t cap_bytes) {
  rt::RecordingRuntime rec;
  rec.set_cpu_workers(4);
  rec.set_cuda_workers(2);
  rec.set_cuda_memory_cap(cap_bytes);
  cholesky::CholeskySolver chol(rec);
  chol.analyze(triangle(laplacian_3d(40, 40, 40), Triangle::Lower));
  Placement p;
  for (const auto& t : rec.tasks()) {
    if (t.spec.name.rfind("place_", 0) != 0) continue;
    ++p.tasks;
    const bool one_group = !t.spec.data.empty() && t.spec.data[0].mode == rt::Access::Write;
    p.all_on_cuda_writing_one_group = p.all_on_cuda_writing_one_group && t.spec.where == rt::Where::Cuda && one_group;
    if (one_group) p.groups.insert(t.spec.data[0].handle);
  }
  return p;
}

TEST(PanelPlacement, AnalysisZeroesEachGpuGroupOnTheGpuOnce) {
  const Placement p = record_analysis(0);
  EXPECT_GT(p.tasks, 0);
  EXPECT_TRUE(p.all_on_cuda_writing_one_group);
  EXPECT_EQ(p.groups.size(), static_cast<std::size_t>(p.tasks));  // one task a group
}

TEST(PanelPlacement, NothingIsPlacedUnderACapSmallerThanTheGpuGroups) {
  EXPECT_EQ(record_analysis(std::size_t(1) << 20).tasks, 0);
  EXPECT_GT(record_analysis(std::size_t(1) << 40).tasks, 0);  // a cap far above them changes nothing
}

}  // namespace
}  // namespace hetsparse::test
