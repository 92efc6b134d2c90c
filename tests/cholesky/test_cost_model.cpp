// Kernel cost models: the power-law fit recovers a known law, StarPU history files are read (CPU
// and CUDA combinations, unmeasured entries skipped) and malformed ones are reported.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>

#include <unistd.h>

#include "cholesky/autotune/cost_model.hpp"
#include "cholesky/autotune/perfmodel_history.hpp"
#include "hetsparse/error.hpp"
#include "tests/support/test_output_dir.hpp"

namespace hetsparse::cholesky::autotune {
namespace {

TEST(PowerLawFit, RecoversAKnownLawFromExactSamples) {
  const PowerLaw truth{3e-10, 1.1, 4e-6};
  std::vector<FitPoint> pts;
  for (double f = 1e3; f < 1e10; f *= 2.7) pts.push_back({f, truth(f), 2.0});
  const PowerLaw fit = fit_power_law(pts);
  EXPECT_NEAR(fit.b, truth.b, 1e-3);
  EXPECT_NEAR(fit.c, truth.c, 0.02 * truth.c);
  EXPECT_NEAR(fit.a, truth.a, 0.02 * truth.a);
  for (double f : {1e3, 1e6, 1e9}) EXPECT_NEAR(fit(f), truth(f), 1e-3 * truth(f));
}

TEST(PowerLawFit, NoisySamplesStayWithinTheNoise) {
  const PowerLaw truth{2e-11, 0.95, 1e-5};
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> noise(0.95, 1.05);
  std::vector<FitPoint> pts;
  for (double f = 1e4; f < 1e10; f *= 1.5) pts.push_back({f, truth(f) * noise(rng), 1.0});
  const PowerLaw fit = fit_power_law(pts);
  for (double f : {1e4, 1e7, 1e10}) EXPECT_NEAR(fit(f) / truth(f), 1.0, 0.06) << f;
  EXPECT_NEAR(fit.b, truth.b, 0.05);
}

TEST(PowerLawFit, TooFewDistinctPointsIsAnError) {
  EXPECT_THROW(fit_power_law({{1e6, 1e-3, 1}, {1e6, 2e-3, 1}, {2e6, 2e-3, 1}}), InvalidArgument);
  EXPECT_THROW(fit_power_law({{1e6, 1e-3, 1}, {2e6, -1, 1}, {3e6, 0, 1}}), InvalidArgument);
}

// A history file in StarPU 1.4's format: one CPU-core combination, one 2-core CPU combination (a
// parallel worker, to be skipped) and one CUDA combination.
void write_history(const std::string& path, const PowerLaw& cpu, const PowerLaw& cuda) {
  std::ofstream f(path);
  f << "##################\n# Performance Model Version\n45\n\n####################\n# COMBs\n"
       "# number of combinations\n3\n";
  auto comb = [&](int type, int dev, int cores, const PowerLaw& law, bool measured) {
    f << "####################\n# COMB_x\n# number of types devices\n1\n####################\n# DEV_0\n"
         "# device type (CPU - 0, CUDA - 1)\n" << type << "\n# device id \n" << dev << "\n# number of cores \n"
      << cores << "\n##########\n# number of implementations\n1\n#####\n# Model for x\n# number of entries\n7\n"
         "# sumlnx\tsumlnx2\t\tsumlny\t\tsumlnxlny\talpha\t\tbeta\t\tn\tminx\t\tmaxx\n"
         "0.000000e+00   \t0.000000e+00   \t0.000000e+00   \t0.000000e+00   \tnan            \tnan       \t0\t0  \t0\n"
         "# a\t\tb\t\tc\nnan            \tnan            \tnan            \n# not multiple-regression-base\n0\n"
         "# hash\t\tsize\t\tflops\t\tmean (us or J)\tdev (us or J)\tsum\t\tsum2\t\tn\n";
    char line[256];
    for (int k = 0; k < 6; ++k) {
      const double flops = 1e4 * std::pow(10.0, k), us = law(flops) * 1e6;
      std::snprintf(line, sizeof(line), "%08x\t%-15lu\t%-15e\t%-15e\t%-15e\t%-15e\t%-15e\t%u\n", 0x1000u + k,
                    1000ul * (k + 1), flops, measured ? us : 0.0, 0.0, 3 * us, 3 * us * us, measured ? 3u : 0u);
      f << line;
    }
    f << "abcdef12\t5\t1.0e+05\t0.0\t0.0\t0.0\t0.0\t0\n\n";  // created, never measured
  };
  comb(0, 0, 1, cpu, true);
  comb(0, 0, 2, PowerLaw{1, 1, 1}, true);
  comb(1, 0, 1, cuda, true);
}

class PerfModelDir : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(test::test_output_dir()) / ("hetsparse_autotune_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_ / "codelets" / "45");
    ::setenv("STARPU_HOSTNAME", "testhost", 1);
  }
  void TearDown() override {
    std::filesystem::remove_all(dir_);
    ::unsetenv("STARPU_HOSTNAME");
  }
  std::filesystem::path file(const std::string& symbol) const {
    return dir_ / "codelets" / "45" / (symbol + ".testhost");
  }
  std::filesystem::path dir_;
};

TEST_F(PerfModelDir, ReadsSingleDeviceCombinationsAndSkipsUnmeasuredEntries) {
  write_history(file("hetsparse_k").string(), {1e-9, 1.0, 2e-6}, {1e-11, 1.0, 2e-5});
  const std::vector<ArchHistory> h = read_perfmodel_history(file("hetsparse_k").string());
  ASSERT_EQ(h.size(), 2u);  // the 2-core combination is skipped
  EXPECT_EQ(h[0].kind, ArchKind::Cpu);
  EXPECT_EQ(h[1].kind, ArchKind::Cuda);
  ASSERT_EQ(h[0].samples.size(), 7u);
  EXPECT_DOUBLE_EQ(h[0].samples[2].flops, 1e6);
  EXPECT_EQ(h[0].samples[2].n, 3u);
  EXPECT_EQ(fit_points(h[0].samples).size(), 6u);
}

TEST_F(PerfModelDir, FitsPerArchitectureAndFallsBackToDefaults) {
  const PowerLaw cpu{1e-9, 1.0, 2e-6}, cuda{1e-11, 1.0, 2e-5};
  write_history(file("hetsparse_k").string(), cpu, cuda);
  const CostModels m = load_cost_models(dir_.string(), {"k", "absent"});
  ASSERT_TRUE(m.fitted("k", ArchKind::Cpu));
  ASSERT_TRUE(m.fitted("k", ArchKind::Cuda));
  EXPECT_NEAR(m.seconds("k", ArchKind::Cpu, 3e7), cpu(3e7), 0.01 * cpu(3e7));
  EXPECT_NEAR(m.seconds("k", ArchKind::Cuda, 3e7), cuda(3e7), 0.01 * cuda(3e7));
  EXPECT_FALSE(m.fitted("absent", ArchKind::Cpu));
  EXPECT_DOUBLE_EQ(m.seconds("absent", ArchKind::Cpu, 1e9), default_cost(ArchKind::Cpu)(1e9));
  const auto used = m.summary({"k", "absent"}, true);
  ASSERT_EQ(used.size(), 4u);
  EXPECT_EQ(used[0].cost.points, 6u);
  EXPECT_NE(describe(used[0]).find("fitted to 6"), std::string::npos) << describe(used[0]);
  EXPECT_EQ(used[3].cost.points, 0u);
  EXPECT_NE(describe(used[3]).find("DEFAULT"), std::string::npos) << describe(used[3]);
}

TEST_F(PerfModelDir, MalformedFilesAreParseErrorsNamingTheFile) {
  std::ofstream(file("hetsparse_bad")) << "45\n1\n1\n0\n0\n1\n1\n2\n0 0 0 0 nan nan 0 0 0\nnan nan nan\n0\n"
                                          "0001\t10\t1e5\t12.0\t0\t0\t0\t1\n";  // 2 entries announced, 1 given
  try {
    read_perfmodel_history(file("hetsparse_bad").string());
    FAIL() << "no error";
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("hetsparse_bad"), std::string::npos) << e.what();
  }
  std::ofstream(file("hetsparse_old")) << "44\n";
  EXPECT_THROW(read_perfmodel_history(file("hetsparse_old").string()), ParseError);
  EXPECT_THROW(read_perfmodel_history((dir_ / "nothing").string()), ParseError);
  EXPECT_EQ(find_perfmodel_file(dir_.string(), "hetsparse_nothing"), "");
  EXPECT_EQ(find_perfmodel_file(dir_.string(), "hetsparse_bad"), file("hetsparse_bad").string());
}

}  // namespace
}  // namespace hetsparse::cholesky::autotune
