// The host-solve placement (sptrsv/host_solve_place.hpp): a deep, small triangle to one core, a wide or
// large one to the GPU, the margin applied to the predictions, and what why() says.
#include <gtest/gtest.h>

#include "sptrsv/host_solve_place.hpp"

namespace hetsparse::sptrsv {
namespace {

TEST(HostSolvePlace, DeepSmallTrianglesGoToOneCoreWideLargeOnesToTheGpu) {
  const HostSolvePlacement chain = place_host_solves(3000, 8999, 3000);  // one row a level
  EXPECT_TRUE(chain.cpu) << chain.why();
  EXPECT_LT(chain.cpu_us, chain.gpu_us);
  EXPECT_NE(chain.why().find("one CPU core"), std::string::npos) << chain.why();
  const HostSolvePlacement mesh = place_host_solves(216000, 856800, 178);  // 60^3 7-point lower triangle
  EXPECT_FALSE(mesh.cpu) << mesh.why();
  EXPECT_NE(mesh.why().find("the GPU"), std::string::npos) << mesh.why();
  EXPECT_EQ(HostSolvePlacement{}.why(), "");
}

TEST(HostSolvePlace, TheMarginWeighsTheGpuPrediction) {
  HostSolveCosts c;
  c.cpu = {10.0, 0.0, 0.0};
  c.gpu = {20.0, 0.0, 0.0, 0.0};
  c.margin = 0.5;
  EXPECT_TRUE(place_host_solves(100, 100, 1, c).cpu);  // 10 <= 0.5 * 20
  c.margin = 0.4;
  const HostSolvePlacement p = place_host_solves(100, 100, 1, c);
  EXPECT_FALSE(p.cpu);
  EXPECT_DOUBLE_EQ(p.cpu_us, 10.0);
  EXPECT_DOUBLE_EQ(p.gpu_us, 20.0);
}

}  // namespace
}  // namespace hetsparse::sptrsv
