// What "auto" does where no model was trained for the GPU at hand: a shipped model of the same
// architecture is found by its "arch" record (model_file_of_architecture), the record survives a
// save and a load, the fixed rule keeps the level-profile rule (heuristic_pick), and the opt-in
// search keeps the scheme of least preparation + expected solves (cheapest), not the fastest solve.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "sptrsv/scheme_model.hpp"
#include "sptrsv/scheme_selection.hpp"
#include "sptrsv/selection_store.hpp"
#include "tests/support/test_output_dir.hpp"

namespace hetsparse::test {
namespace {

std::string fresh_dir(const std::string& tag) {
  const std::string dir = test::test_output_dir() + "hetsparse_fallback_" + tag + "_" + std::to_string(::getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

std::vector<sptrsv::TimingSample> two_samples() {
  sptrsv::TimingSample a, b;
  a.name = "a";
  a.features = {{"m", 1e4}, {"rnnz", 3}, {"rnnz_max", 4}, {"rnnz_cov", 0.1}, {"layer_num", 100}, {"beta", 100},
                {"lnnz_cov", 0.2}, {"dep_dist", 0.5}};
  a.times_ms = {{"syncfree", 1.0}, {"yuenyeung", 2.0}};
  b = a;
  b.name = "b";
  b.features["rnnz_max"] = 400;
  b.times_ms = {{"syncfree", 3.0}, {"yuenyeung", 1.0}};
  return {a, b};
}

TEST(SchemeModelFallback, TheArchitectureRecordRoundTrips) {
  const std::string dir = fresh_dir("roundtrip");
  const sptrsv::SchemeModel m = sptrsv::SchemeModel::fit(two_samples(), 1, "GPU A", "sm_90");
  m.save(dir + "/m.tsv");
  const sptrsv::SchemeModel back = sptrsv::SchemeModel::load(dir + "/m.tsv");
  EXPECT_EQ(back.gpu(), "GPU A");
  EXPECT_EQ(back.arch(), "sm_90");
  // A file without the record (written before it existed) loads with an empty architecture.
  sptrsv::SchemeModel::fit(two_samples(), 1, "GPU B").save(dir + "/old.tsv");
  EXPECT_EQ(sptrsv::SchemeModel::load(dir + "/old.tsv").arch(), "");
}

TEST(SchemeModelFallback, AShippedModelOfTheSameArchitectureIsFound) {
  const std::string first = fresh_dir("first"), second = fresh_dir("second");
  sptrsv::SchemeModel::fit(two_samples(), 1, "GPU Old").save(first + "/sptrsv_model_GPU_Old.tsv");
  sptrsv::SchemeModel::fit(two_samples(), 1, "GPU Ampere", "sm_80").save(first + "/sptrsv_model_GPU_Ampere.tsv");
  sptrsv::SchemeModel::fit(two_samples(), 1, "GPU Hopper", "sm_90").save(second + "/sptrsv_model_GPU_Hopper.tsv");
  std::ofstream(second + "/notes.tsv") << "arch\tsm_90\n";  // not a model file's name
  EXPECT_EQ(sptrsv::model_file_of_architecture({first, second}, "sm_90"), second + "/sptrsv_model_GPU_Hopper.tsv");
  EXPECT_EQ(sptrsv::model_file_of_architecture({first, second}, "sm_80"), first + "/sptrsv_model_GPU_Ampere.tsv");
  EXPECT_FALSE(sptrsv::model_file_of_architecture({first, second}, "sm_100").has_value());
  EXPECT_FALSE(sptrsv::model_file_of_architecture({first, second}, "").has_value());
  EXPECT_FALSE(sptrsv::model_file_of_architecture({first + "/no_such_dir"}, "sm_90").has_value());
}

TEST(SchemeModelFallback, TheShippedH100ModelNamesItsArchitecture) {
  const char* data = std::getenv("HETSPARSE_DATA_DIR");  // set by ctest
  if (data == nullptr || *data == '\0') GTEST_SKIP() << "HETSPARSE_DATA_DIR is not set (run through ctest)";
  const auto found = sptrsv::model_file_of_architecture({data}, "sm_90");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(sptrsv::SchemeModel::load(*found).gpu(), "NVIDIA H100 80GB HBM3");
}

TEST(SchemeModelFallback, TheFixedRuleKeepsTheLevelProfileRule) {
  sptrsv::TriangularFeatures deep;  // a 3D mesh in sweep order
  deep.layer_num = 478;
  deep.rnnz = 4.0;
  deep.rnnz_max = 4;
  deep.rnnz_cov = 0.1;
  deep.lnnz_max = 76800;
  std::string note;
  EXPECT_EQ(sptrsv::heuristic_pick(deep, {"syncfree_levelorder", "cusparse", "wavefront"}, 100, note), "wavefront");
  EXPECT_EQ(sptrsv::heuristic_pick(deep, {"syncfree_levelorder", "cusparse"}, 100, note), "syncfree_levelorder");
  sptrsv::TriangularFeatures shallow = deep;
  shallow.layer_num = 12;
  EXPECT_EQ(sptrsv::heuristic_pick(shallow, {"syncfree_levelorder", "wavefront"}, 100, note), "wavefront");
  EXPECT_EQ(sptrsv::heuristic_pick(shallow, {"syncfree_levelorder", "clusterlevels"}, 100, note), "syncfree_levelorder");
}

TEST(SchemeModelFallback, TheSearchWeighsPreparationAgainstTheExpectedSolves) {
  sptrsv::SchemeTimings t;
  const auto entry = [](const char* name, const char* status, double ms, double prep) {
    sptrsv::SchemeTiming s;
    s.scheme = name;
    s.status = status;
    s.median_ms = ms;
    s.preprocess_ms = prep;
    return s;
  };
  // A powered form solving in half the time after 3 s of preparation; a plain scheme ready at once;
  // a faster one whose answer was wrong.
  t.schemes = {entry("pow16:cusparse", "ok", 0.5, 3000), entry("wavefront", "ok", 1.0, 2), entry("x", "wrong", 0.1, 0)};
  EXPECT_EQ(sptrsv::fastest(t)->scheme, "pow16:cusparse");
  EXPECT_EQ(sptrsv::cheapest(t, 100)->scheme, "wavefront");
  EXPECT_EQ(sptrsv::cheapest(t, 100000)->scheme, "pow16:cusparse");
  EXPECT_EQ(sptrsv::cheapest(sptrsv::SchemeTimings{}, 100), nullptr);
}

}  // namespace
}  // namespace hetsparse::test
