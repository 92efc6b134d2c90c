// The pieces of "auto" scheme selection that need no GPU: pattern fingerprints, the selection store
// (cache round trip, fusion threshold), timing tables, the k-NN scheme model (it must learn an
// obvious rule), and scheme-name dispatch errors. The GPU search itself is exercised by
// TriangularSolverGpu.* in test_triangular_solver_gpu.cpp.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "hetsparse/error.hpp"
#include "sparse/convert.hpp"
#include "sparse/generators.hpp"
#include "sptrsv/analysis.hpp"
#include "sptrsv/fingerprint.hpp"
#include "sptrsv/prepared_scheme.hpp"
#include "sptrsv/scheme_model.hpp"
#include "sptrsv/scheme_selection.hpp"
#include "sptrsv/selection_store.hpp"
#include "sptrsv/timing_table.hpp"
#include "tests/support/sptrsv_checks.hpp"
#include "tests/support/test_output_dir.hpp"

namespace hetsparse::test {
namespace {

std::string temp_dir(const std::string& tag) {
  return test::test_output_dir() + "hetsparse_sel_" + tag + "_" + std::to_string(::getpid());
}

TEST(SchemeFingerprint, StableAndSensitive) {
  const Csr L = anchor_rmat_lower(10, 8, 3);
  const sptrsv::TriangularPattern a(L, Triangle::Lower, false);
  const sptrsv::TriangularPattern b(L, Triangle::Lower, false);
  EXPECT_EQ(sptrsv::pattern_fingerprint(a), sptrsv::pattern_fingerprint(b));
  EXPECT_EQ(sptrsv::fingerprint_hex(sptrsv::pattern_fingerprint(a)).size(), 16u);

  Csr scaled = L;  // new values, same pattern: same fingerprint
  for (double& v : scaled.values) v *= 3.0;
  EXPECT_EQ(sptrsv::pattern_fingerprint(sptrsv::TriangularPattern(scaled, Triangle::Lower, false)),
            sptrsv::pattern_fingerprint(a));

  Csr moved = L;  // one off-diagonal entry moved to another column of the same row
  for (index_t i = 1; i < moved.rows; ++i) {
    const offset_t begin = moved.rowptr[i], end = moved.rowptr[i + 1];
    if (end - begin >= 2 && moved.colind[begin] > 0 && moved.colind[begin] + 1 < moved.colind[begin + 1]) {
      moved.colind[begin] -= 1;
      break;
    }
  }
  EXPECT_NE(sptrsv::pattern_fingerprint(sptrsv::TriangularPattern(moved, Triangle::Lower, false)),
            sptrsv::pattern_fingerprint(a));
  // One column index changed in a high bit only (bit 9): the word-wise hash must see it too.
  Csr high = L;
  bool changed = false;
  for (index_t i = 1; i < high.rows && !changed; ++i) {
    const offset_t begin = high.rowptr[i], end = high.rowptr[i + 1];
    for (offset_t k = begin; k + 1 < end && !changed; ++k) {
      const index_t c = high.colind[k] ^ 512, prev = k > begin ? high.colind[k - 1] : -1;
      if (c > prev && c < high.colind[k + 1]) {
        high.colind[k] = c;
        changed = true;
      }
    }
  }
  ASSERT_TRUE(changed);
  EXPECT_NE(sptrsv::pattern_fingerprint(sptrsv::TriangularPattern(high, Triangle::Lower, false)),
            sptrsv::pattern_fingerprint(a));
  // Same rows, other triangle (the transpose): a different pattern.
  EXPECT_NE(sptrsv::pattern_fingerprint(sptrsv::TriangularPattern(transpose(L), Triangle::Upper, false)),
            sptrsv::pattern_fingerprint(a));
}

TEST(SchemeStore, CacheRoundTripLastWins) {
  const sptrsv::SelectionStore store(temp_dir("cache"), "GPU X");
  const std::string tail = "/hetsparse_sptrsv/schemes_GPU_X.tsv";
  EXPECT_EQ(store.cache_path().substr(store.cache_path().size() - tail.size()), tail);
  EXPECT_FALSE(store.cached_scheme(42).has_value());
  store.store_scheme(42, "cusparse", 1.5);
  store.store_scheme(7, "ag:ng=4", 0.5);
  ASSERT_TRUE(store.cached_scheme(42).has_value());
  EXPECT_EQ(*store.cached_scheme(42), "cusparse");
  store.store_scheme(42, "yuenyeung", 1.0);
  EXPECT_EQ(*store.cached_scheme(42), "yuenyeung");
  EXPECT_EQ(*store.cached_scheme(7), "ag:ng=4");
  // Another GPU has its own cache.
  EXPECT_FALSE(sptrsv::SelectionStore(temp_dir("cache"), "GPU Y").cached_scheme(42).has_value());
}

TEST(SchemeStore, FusionThresholdRoundTripAndBadFile) {
  const sptrsv::SelectionStore store(temp_dir("fusion"), "GPU F");
  std::remove(store.fusion_path().c_str());
  EXPECT_FALSE(store.fusion_threshold().has_value());
  store.store_fusion_threshold(6.0);
  ASSERT_TRUE(store.fusion_threshold().has_value());
  EXPECT_EQ(*store.fusion_threshold(), 6.0);
  std::ofstream(store.fusion_path()) << "garbage\n";
  EXPECT_THROW(store.fusion_threshold(), ParseError);
}

// A synthetic timing table with an obvious rule: rows longer than 64 entries favour "wide",
// shorter ones "narrow", by 3x; a third scheme is always 1.5x off the best.
std::vector<sptrsv::TimingSample> synthetic(int count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<sptrsv::TimingSample> out;
  for (int i = 0; i < count; ++i) {
    sptrsv::TimingSample s;
    s.name = "m" + std::to_string(i);
    const double m = std::pow(10.0, 3 + 3 * u(rng));
    const double rnnz_max = std::pow(10.0, 0.5 + 3 * u(rng));
    s.features = {{"m", m},          {"rnnz", 2 + 10 * u(rng)}, {"rnnz_max", rnnz_max},
                  {"rnnz_cov", u(rng)}, {"layer_num", 10 + 1000 * u(rng)}, {"beta", 1 + m / 100},
                  {"lnnz_cov", u(rng)}, {"dep_dist", u(rng)}};
    const bool wide = rnnz_max > 64;
    s.times_ms = {{"wide", wide ? 1.0 : 3.0}, {"narrow", wide ? 3.0 : 1.0}, {"middle", 1.5}};
    out.push_back(s);
  }
  return out;
}

std::string expected_best(const sptrsv::TimingSample& s) { return s.features.at("rnnz_max") > 64 ? "wide" : "narrow"; }

TEST(SchemeModel, LearnsAnObviousRuleAndRoundTrips) {
  const std::vector<sptrsv::TimingSample> train = synthetic(120, 1), test = synthetic(60, 2);
  const sptrsv::SchemeModel m = sptrsv::SchemeModel::fit(train, 3, "GPU M");
  int right = 0;
  for (const auto& s : test) right += m.predict(sptrsv::model_inputs(s.features)) == expected_best(s) ? 1 : 0;
  // Always answering one scheme scores about 50 %; the rule is learnable almost everywhere.
  EXPECT_GE(right, 54) << "of 60";

  const std::string path = temp_dir("model") + ".tsv";
  m.save(path);
  const sptrsv::SchemeModel back = sptrsv::SchemeModel::load(path);
  EXPECT_EQ(back.gpu(), "GPU M");
  EXPECT_EQ(back.num_samples(), m.num_samples());
  for (const auto& s : test)
    EXPECT_EQ(back.predict(sptrsv::model_inputs(s.features)), m.predict(sptrsv::model_inputs(s.features)));
  // Restricted to the schemes a matrix can take.
  EXPECT_EQ(m.predict(sptrsv::model_inputs(test[0].features), {"middle"}), "middle");
  EXPECT_EQ(m.predict(sptrsv::model_inputs(test[0].features), {"unknown"}), "");
  // A list that lives (remembered by address) picks as the same names passed afresh, every time; the
  // first of equal scores among the allowed wins; accept skips to the next best.
  static const std::vector<std::string> lives{"unknown", "narrow", "middle", "wide"};
  for (const auto& s : test) {
    const std::vector<double> in = sptrsv::model_inputs(s.features);
    const std::vector<std::string> fresh(lives);
    EXPECT_EQ(m.predict(in, lives, nullptr, true), m.predict(in, fresh));
    EXPECT_EQ(m.predict(in, lives, nullptr, true), m.predict(in));  // every scheme of the model is allowed
  }
  const auto not_narrow = [](const std::string& n) { return n != "narrow"; };
  for (const auto& s : test) {
    const std::vector<double> in = sptrsv::model_inputs(s.features);
    const std::string pick = m.predict(in, lives, not_narrow, true);
    EXPECT_NE(pick, "narrow");
    EXPECT_EQ(pick, m.predict(in, {"middle", "wide"}, nullptr));
  }

  const sptrsv::ModelEvaluation e = sptrsv::leave_one_out(train, 3);
  EXPECT_EQ(e.samples, 120);
  EXPECT_LT(e.geomean_ratio, 1.1);
  EXPECT_GT(e.within_10_percent, 0.9);
}

// The inputs taken straight from the features' fields are those of their named list (the training path).
TEST(SchemeModel, InputsFromFieldsMatchTheNamedFeatures) {
  for (const Csr& L : {anchor_rmat_lower(10, 8, 3), anchor_laplacian_lower(2, 40, 5)}) {
    const sptrsv::TriangularPattern p(L, Triangle::Lower, false);
    std::map<std::string, double> named;
    for (const auto& [name, value] : p.features().as_list()) named[name] = value;
    const std::vector<double> direct = sptrsv::model_inputs(p.features()), listed = sptrsv::model_inputs(named);
    ASSERT_EQ(direct.size(), sptrsv::model_input_names().size());
    ASSERT_EQ(direct.size(), listed.size());
    for (std::size_t j = 0; j < direct.size(); ++j) EXPECT_EQ(direct[j], listed[j]) << sptrsv::model_input_names()[j];
    EXPECT_GT(std::abs(direct[0]), 0.0);  // log10 of the rows: not a default left at zero
  }
}

TEST(SchemeModel, RejectsBadInputAndFiles) {
  EXPECT_THROW(sptrsv::SchemeModel::fit({}, 3), InvalidArgument);
  EXPECT_THROW(sptrsv::SchemeModel::fit(synthetic(5, 3), 0), InvalidArgument);
  const std::string path = temp_dir("badmodel") + ".tsv";
  std::ofstream(path) << "not a model\n";
  EXPECT_THROW(sptrsv::SchemeModel::load(path), ParseError);
  std::ofstream(path) << "hetsparse-sptrsv-model\t1\nmean\t1\t2\n";
  EXPECT_THROW(sptrsv::SchemeModel::load(path), ParseError);
}

TEST(TimingTable, WriteReadTrainPredict) {
  const sptrsv::TriangularPattern p(anchor_rmat_lower(10, 8, 5), Triangle::Lower, false);
  const std::string path = temp_dir("table") + ".jsonl";
  {
    std::ofstream out(path);
    out << sptrsv::timing_record_json("rmat \"10\"", 99, "GPU T", p.features(), {{"cusparse", 2.0}, {"ag:ng=4", 1.0}})
        << "\n{\"matrix\":\"other json without times\"}\n";
  }
  const std::vector<sptrsv::TimingSample> s = sptrsv::read_timing_tables({path});
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].name, "rmat \"10\"");
  EXPECT_EQ(s[0].times_ms.at("ag:ng=4"), 1.0);
  EXPECT_EQ(s[0].features.at("rnnz_max"), static_cast<double>(p.features().rnnz_max));
  EXPECT_EQ(sptrsv::SchemeModel::fit(s).predict(p.features()), "ag:ng=4");
  std::ofstream(path) << "{\"times_ms\":{\"a\":[1]}}\n";
  EXPECT_THROW(sptrsv::read_timing_tables({path}), ParseError);
}

TEST(SchemeDispatch, UnknownSchemeNamesIt) {
  for (const std::string bad : {"no_such_variant", "ag:ng=3", "ag:bogus=1", "cusparse2", "pow3:cusparse", "pow4:nope", "pow2:pow2:cusparse"}) {
    try {
      sptrsv::check_scheme(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("'" + bad + "'"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(sptrsv::parse_select_mode("fastest"), InvalidArgument);
  EXPECT_EQ(sptrsv::parse_select_mode("model"), sptrsv::SelectMode::Model);
}

TEST(SchemeSelection, NoGpuFallsBackToTheHeuristic) {
  if (!sptrsv::cuda_device_name().empty()) GTEST_SKIP() << "a GPU is present: TriangularSolverGpu covers the search";
  const sptrsv::TriangularPattern lap(anchor_laplacian_lower(2, 40, 7), Triangle::Lower, false);
  const sptrsv::Selection s = sptrsv::select_scheme(lap, {});
  EXPECT_EQ(s.how, "heuristic");
  EXPECT_EQ(s.scheme, "syncfree_levelorder");
  const sptrsv::TriangularPattern rmat(anchor_rmat_lower(11, 8, 7), Triangle::Lower, false);
  EXPECT_EQ(sptrsv::select_scheme(rmat, {}).scheme, "yuenyeung");
}

}  // namespace
}  // namespace hetsparse::test

namespace hetsparse::test {
namespace {

// adjust_for_preparation: a powered pick gives way below the payback; wavefront, when it is a
// candidate, over any pick but a standing powered one on 5-point rows; without it, a deep 2D-like
// profile of short rows goes to clusterlevels (or its powered form); shallow DAGs keep the pick.
TEST(SchemeSelectionPreparation, PoweredPicksAndLevelProfiles) {
  sptrsv::TriangularFeatures mesh2d;  // anchor-lap2d:1000's profile
  mesh2d.layer_num = 1999;
  mesh2d.rnnz = 3.0;
  mesh2d.rnnz_max = 3;
  mesh2d.lnnz_max = 3000;
  sptrsv::TriangularFeatures mesh3d = mesh2d;  // anchor-lap3d:100's: levels of ~7500 rows
  mesh3d.layer_num = 298;
  mesh3d.rnnz = 4.0;
  mesh3d.rnnz_max = 4;
  mesh3d.lnnz_max = 30000;
  const std::vector<std::string> with = {"syncfree_levelorder", "cusparse", "clusterlevels", "wavefront",
                                         "pow2:cusparse"};
  const std::vector<std::string> without = {"syncfree_levelorder", "cusparse", "pow2:cusparse"};
  const std::vector<std::string> no_wavefront = {"syncfree_levelorder", "cusparse", "clusterlevels", "pow2:cusparse"};
  std::string note;
  // Without wavefront: a powered pick gives way below the payback, then the 2D profile's clusterlevels.
  EXPECT_EQ(sptrsv::adjust_for_preparation("pow16:cusparse", "cusparse", mesh2d, no_wavefront, 100, note),
            "pow4:clusterlevels");
  EXPECT_NE(note.find("does not pay back"), std::string::npos) << note;
  EXPECT_NE(note.find("level profile"), std::string::npos) << note;
  note.clear();
  EXPECT_EQ(sptrsv::adjust_for_preparation("cusparse", "", mesh2d, no_wavefront, 20, note), "clusterlevels");
  sptrsv::TriangularFeatures aniso = mesh2d;  // aniso2d: rows of 5 entries
  aniso.rnnz_max = 5;
  EXPECT_EQ(sptrsv::adjust_for_preparation("cusparse", "", aniso, no_wavefront, 100, note), "clusterlevels");
  note.clear();
  EXPECT_EQ(sptrsv::adjust_for_preparation("pow16:cusparse", "cusparse", mesh2d, no_wavefront, 100000, note),
            "pow16:cusparse");
  EXPECT_TRUE(note.empty()) << note;
  EXPECT_EQ(sptrsv::adjust_for_preparation("cusparse", "", mesh3d, no_wavefront, 100, note), "cusparse");
  EXPECT_EQ(sptrsv::adjust_for_preparation("pow2:cusparse", "cusparse", mesh3d, without, 100, note), "cusparse");
  // With wavefront: over cusparse, clusterlevels and a powered pick, but one on 5-point rows that
  // still stands (it pays back and solves faster).
  note.clear();
  EXPECT_EQ(sptrsv::adjust_for_preparation("pow16:cusparse", "cusparse", mesh2d, with, 100, note), "wavefront");
  EXPECT_NE(note.find("wavefront over cusparse"), std::string::npos) << note;
  note.clear();
  EXPECT_EQ(sptrsv::adjust_for_preparation("pow16:cusparse", "cusparse", mesh2d, with, 100000, note), "pow16:cusparse");
  EXPECT_TRUE(note.empty()) << note;
  EXPECT_EQ(sptrsv::adjust_for_preparation("clusterlevels", "", aniso, with, 100, note), "wavefront");
  EXPECT_EQ(sptrsv::adjust_for_preparation("pow2:cusparse", "cusparse", mesh3d, with, 5000, note), "wavefront");
  sptrsv::TriangularFeatures long_rows = mesh3d;  // 27-point rows: 14 entries, still in the pack
  long_rows.rnnz_max = 14;
  EXPECT_EQ(sptrsv::adjust_for_preparation("cusparse", "", long_rows, with, 100, note), "wavefront");
  note.clear();
  EXPECT_EQ(sptrsv::adjust_for_preparation("wavefront", "", mesh3d, with, 100, note), "wavefront");
  EXPECT_TRUE(note.empty()) << note;
  sptrsv::TriangularFeatures shallow = mesh3d;  // few levels: wavefront all the same, clusterlevels not
  shallow.layer_num = 20;
  EXPECT_EQ(sptrsv::adjust_for_preparation("yuenyeung", "", shallow, with, 100, note), "wavefront");
  note.clear();
  EXPECT_EQ(sptrsv::adjust_for_preparation("yuenyeung", "", shallow, no_wavefront, 100, note), "yuenyeung");
  EXPECT_TRUE(note.empty()) << note;
}

// Long rows in narrow levels (EX5, bcsstk16, ego-Facebook profiles) go to clusterlevels' groups of
// lanes, over wavefront and any unpowered pick; short rows, wide levels, few levels do not.
TEST(SchemeSelectionPreparation, LongRowsInNarrowLevelsGoToGroupsOfLanes) {
  sptrsv::TriangularFeatures ex5;
  ex5.layer_num = 42;
  ex5.rnnz = 23.6;
  ex5.rnnz_max = 47;
  ex5.lnnz_max = 8000;  // ~340 rows
  sptrsv::TriangularFeatures hubs = ex5;  // ego-Facebook: rows far longer than the mean
  hubs.layer_num = 347;
  hubs.rnnz = 22.8;
  hubs.rnnz_max = 252;
  hubs.lnnz_max = 1800;
  sptrsv::TriangularFeatures longer = ex5;  // bcsstk16
  longer.rnnz = 30.2;
  longer.rnnz_max = 42;
  const std::vector<std::string> with = {"cusparse", "clusterlevels", "wavefront", "pow2:cusparse"};
  std::string note;
  EXPECT_EQ(sptrsv::adjust_for_preparation("wavefront", "", ex5, with, 100, note), "clusterlevels:lanes=8");
  EXPECT_NE(note.find("level profile"), std::string::npos) << note;
  EXPECT_EQ(sptrsv::adjust_for_preparation("cusparse", "", hubs, with, 100, note), "clusterlevels:lanes=32");
  EXPECT_EQ(sptrsv::adjust_for_preparation("cusparse", "", longer, with, 100, note), "clusterlevels:lanes=32");
  sptrsv::TriangularFeatures f = ex5;
  f.rnnz = 12.0;  // short rows
  EXPECT_EQ(sptrsv::adjust_for_preparation("cusparse", "", f, with, 100, note), "wavefront");
  f = ex5;
  f.lnnz_max = 30000;  // levels of ~1300 rows
  EXPECT_EQ(sptrsv::adjust_for_preparation("cusparse", "", f, with, 100, note), "wavefront");
  f = ex5;
  f.layer_num = 20;
  EXPECT_EQ(sptrsv::adjust_for_preparation("cusparse", "", f, with, 100, note), "wavefront");
  EXPECT_EQ(sptrsv::adjust_for_preparation("cusparse", "", ex5, {"cusparse", "wavefront"}, 100, note), "wavefront");
  EXPECT_EQ(sptrsv::cluster_rows_lanes(ex5), 8);
  EXPECT_EQ(sptrsv::cluster_rows_lanes(f), 0);
  // Rows of 6-10 entries in levels of a few rows (bcsstk08/09/26): 4 lanes, one small block.
  sptrsv::TriangularFeatures few;
  few.layer_num = 164;
  few.rnnz = 8.4;
  few.rnnz_max = 27;
  few.ap = 11.7;
  few.lnnz_max = 400;  // ~48 rows
  EXPECT_EQ(sptrsv::cluster_rows_lanes(few), 4);
  f = few;
  f.ap = 22.8;  // Dubcova1: levels of 23 rows on average
  EXPECT_EQ(sptrsv::cluster_rows_lanes(f), 0);
  f = few;
  f.rnnz = 3.9;  // fe_4elt2: short rows
  EXPECT_EQ(sptrsv::cluster_rows_lanes(f), 0);
  f = few;
  f.lnnz_max = 8000;  // a fullest level of ~950 rows
  EXPECT_EQ(sptrsv::cluster_rows_lanes(f), 0);
}

}  // namespace
}  // namespace hetsparse::test
