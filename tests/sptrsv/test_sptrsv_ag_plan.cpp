// AG-SpTRSV host side: scheme names round-trip and reject bad keys/values; the search space is
// tens of distinct valid schemes; the transforms cut rows as 4.3 says; and on every test matrix,
// lower and upper, for every scheme of the space and hand-picked ones covering every option value,
// the plan schedules each row once, passes the deadlock check, and a simulated run of its warps
// (random interleaving, a warp steps only when its group's inputs are done) never stalls and
// reproduces the serial solve. Corrupted plans are rejected.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "hetsparse/error.hpp"
#include "kernels/sptrsv/sptrsv.hpp"
#include "kernels/sptrsv/sptrsv_ag.hpp"
#include "kernels/sptrsv/sptrsv_ag_plan.hpp"
#include "sptrsv/ag/ag_plan.hpp"
#include "sptrsv/ag/ag_scheme.hpp"
#include "sptrsv/analysis.hpp"
#include "tests/support/sptrsv_ag_schemes.hpp"
#include "tests/support/sptrsv_checks.hpp"

namespace hetsparse::test {
namespace {

using kernels::AgScheme;
using kernels::ag::AgMachine;
using kernels::ag::AgPlan;

const AgMachine kMachine{3, 4, 48};  // 12 persistent warps; alpha counted in 48 warps

// Lower triangle whose row i holds `lengths[i]` entries: columns i-len+1 .. i.
struct BandView {
  std::vector<index_t> rowptr{0}, colind;
  std::vector<double> values;
  kernels::TriangularView view;
  explicit BandView(const std::vector<index_t>& lengths) {
    const auto n = static_cast<index_t>(lengths.size());
    for (index_t i = 0; i < n; ++i) {
      for (index_t c = i - lengths[i] + 1; c <= i; ++c) {
        colind.push_back(c);
        values.push_back(c == i ? 2.0 : 0.5);
      }
      rowptr.push_back(static_cast<index_t>(colind.size()));
    }
    view.n = n;
    view.rowptr = rowptr.data();
    view.colind = colind.data();
    view.values = values.data();
  }
};

TEST(AgScheme, NamesRoundTrip) {
  EXPECT_EQ(sptrsv::ag::parse_ag_scheme("ag"), AgScheme{});
  EXPECT_EQ(sptrsv::ag::to_string(AgScheme{}), "ag:ng=4,sw=8,sr=0,se=1,nw=16,tf=fixed,rb=1,th=8,lr=0,rg=seq,ws=rr,al=inf");
  for (const AgScheme& s : ag_test_schemes()) EXPECT_EQ(sptrsv::ag::parse_ag_scheme(sptrsv::ag::to_string(s)), s) << sptrsv::ag::to_string(s);
  for (const AgScheme& s : sptrsv::ag::ag_search_space(5000, 40000, 300, 8.0)) {
    EXPECT_EQ(sptrsv::ag::parse_ag_scheme(sptrsv::ag::to_string(s)), s);
  }
  const AgScheme partial = sptrsv::ag::parse_ag_scheme("ag:ws=locality,ng=32,al=2.5,sw=inf");
  EXPECT_EQ(partial.ws, kernels::AgWarpSchedule::Locality);
  EXPECT_EQ(partial.subwarps, 32);
  EXPECT_EQ(partial.alpha_level, 2.5);
  EXPECT_EQ(partial.sw_rnnz, kernels::kAgSwInfinity);
  EXPECT_EQ(partial.rb, AgScheme{}.rb);
}

TEST(AgScheme, RejectsBadNamesNamingTheKey) {
  const auto message = [](const std::string& name) {
    try {
      sptrsv::ag::parse_ag_scheme(name);
    } catch (const InvalidArgument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message("ag:zz=1").find("zz"), std::string::npos);
  EXPECT_NE(message("ag:ng=3").find("ng"), std::string::npos);
  EXPECT_NE(message("ag:ng=64").find("ng"), std::string::npos);
  EXPECT_NE(message("ag:nw=0").find("nw"), std::string::npos);
  EXPECT_NE(message("ag:tf=blocky").find("tf"), std::string::npos);
  EXPECT_NE(message("ag:sr=yes").find("sr"), std::string::npos);
  EXPECT_NE(message("ag:al=-1").find("al"), std::string::npos);
  EXPECT_NE(message("ag:rb=x").find("rb"), std::string::npos);
  EXPECT_NE(message("ag:rb").find("rb"), std::string::npos);
  EXPECT_NE(message("syncfree").find("ag:"), std::string::npos);
}

TEST(AgScheme, SearchSpaceIsTensOfDistinctSchemes) {
  for (const double mean : {1.0, 3.0, 9.0, 40.0, 300.0}) {
    for (const index_t levels : {10, 100000}) {
      const auto space = sptrsv::ag::ag_search_space(200000, static_cast<std::int64_t>(200000 * mean), levels, mean);
      EXPECT_GE(space.size(), 10u);
      EXPECT_LE(space.size(), 100u);
      for (std::size_t i = 0; i < space.size(); ++i) {
        EXPECT_NO_THROW(sptrsv::ag::validate(space[i]));
        for (std::size_t j = 0; j < i; ++j) EXPECT_NE(space[i], space[j]);
      }
      // alpha = 0 (a launch per level) only for few levels.
      const bool any_zero = std::any_of(space.begin(), space.end(), [](const AgScheme& s) { return s.alpha_level == 0; });
      EXPECT_EQ(any_zero, levels <= 2000);
      // The names, made once per lanes-and-levels class: the same schemes in the same order, also
      // for a second shape of the class (the cached list) and at the class's edges.
      for (const index_t lv : {levels, levels == 10 ? index_t{2000} : index_t{2001}}) {
        const auto again = sptrsv::ag::ag_search_space(1000, static_cast<std::int64_t>(1000 * mean), lv, mean);
        const std::vector<std::string> names = sptrsv::ag::ag_search_space_names(1000, static_cast<std::int64_t>(1000 * mean), lv, mean);
        ASSERT_EQ(names.size(), again.size());
        for (std::size_t i = 0; i < names.size(); ++i) EXPECT_EQ(names[i], sptrsv::ag::to_string(again[i]));
      }
    }
  }
}

TEST(AgTransforms, MergeAsSection43Says) {
  //                    positions: 0  1  2  3  4  5  6  7  8  9
  const BandView band({1, 2, 3, 1, 9, 1, 1, 2, 1, 1});
  const std::vector<index_t> positions = sptrsv::ag::ag_positions(band.view, false);
  AgScheme s;
  s.transform = kernels::AgTransform::MergeFixed;
  s.rb = 4;
  EXPECT_EQ(sptrsv::ag::ag_merge_nodes(band.view, positions, s), (std::vector<index_t>{0, 4, 8, 10}));
  // merge_avg, rb 4, thresh 2: chunk 0 mean 7/4 merged, chunk 1 mean 13/4 split, chunk 2 mean 1 merged.
  s.transform = kernels::AgTransform::MergeAvg;
  s.thresh = 2;
  EXPECT_EQ(sptrsv::ag::ag_merge_nodes(band.view, positions, s), (std::vector<index_t>{0, 4, 5, 6, 7, 8, 10}));
  // merge_thresh, rb 3, thresh 2: rows longer than 2 (positions 2, 4) stand alone, others gather <= 3.
  s.transform = kernels::AgTransform::MergeThresh;
  s.rb = 3;
  EXPECT_EQ(sptrsv::ag::ag_merge_nodes(band.view, positions, s), (std::vector<index_t>{0, 2, 3, 4, 5, 8, 10}));
}

// Runs the plan's warps on the host in a random interleaving: a warp solves its next group (nodes
// row by row in position order) only when every dependency outside the group's own nodes is
// done. Returns false on a stall (no warp can step while groups remain).
bool simulate(const kernels::TriangularView& t, const AgPlan& plan, const std::vector<double>& b,
              std::vector<double>& x, std::uint64_t seed) {
  std::vector<char> done(static_cast<std::size_t>(t.n), 0);
  std::mt19937_64 rng(seed);
  for (const kernels::ag::AgKernel& k : plan.kernels) {
    std::vector<index_t> cursor(plan.warp_ptr.begin(), plan.warp_ptr.end() - 1);
    const auto warps = static_cast<index_t>(cursor.size());
    for (index_t w = 0; w < warps; ++w) {  // skip groups of earlier kernels
      while (cursor[w] < plan.warp_ptr[w + 1] && plan.warp_groups[cursor[w]] < k.group_begin) ++cursor[w];
    }
    for (index_t remaining = k.group_end - k.group_begin; remaining > 0; --remaining) {
      std::vector<index_t> ready;
      for (index_t w = 0; w < warps; ++w) {
        if (cursor[w] == plan.warp_ptr[w + 1] || plan.warp_groups[cursor[w]] >= k.group_end) continue;
        const index_t g = plan.warp_groups[cursor[w]];
        bool inputs = true;
        for (index_t j = plan.group_ptr[g]; j < plan.group_ptr[g + 1] && inputs; ++j) {
          const index_t node = plan.group_nodes[j];
          for (index_t p = plan.node_ptr[node]; p < plan.node_ptr[node + 1] && inputs; ++p) {
            index_t begin = 0, end = 0;
            sptrsv::ag::off_diagonal_range(t, plan.position_rows[p], begin, end);
            for (index_t e = begin; e < end; ++e) {
              const index_t d = t.colind[e];
              const bool own = std::find(plan.position_rows.begin() + plan.node_ptr[node],
                                         plan.position_rows.begin() + p, d) != plan.position_rows.begin() + p;
              if (!done[d] && !own) inputs = false;
            }
          }
        }
        if (inputs) ready.push_back(w);
      }
      if (ready.empty()) return false;
      const index_t w = ready[rng() % ready.size()];
      const index_t g = plan.warp_groups[cursor[w]++];
      for (index_t j = plan.group_ptr[g]; j < plan.group_ptr[g + 1]; ++j) {
        const index_t node = plan.group_nodes[j];
        for (index_t p = plan.node_ptr[node]; p < plan.node_ptr[node + 1]; ++p) {
          const index_t row = plan.position_rows[p];
          index_t begin = 0, end = 0;
          sptrsv::ag::off_diagonal_range(t, row, begin, end);
          double sum = 0.0;
          for (index_t e = begin; e < end; ++e) sum += t.values[e] * x[t.colind[e]];
          x[row] = (b[row] - sum) / t.values[t.upper ? t.rowptr[row] : t.rowptr[row + 1] - 1];
          done[row] = 1;
        }
      }
    }
  }
  return std::all_of(done.begin(), done.end(), [](char d) { return d != 0; });
}

class AgPlanMatrices : public ::testing::TestWithParam<std::string> {};

TEST_P(AgPlanMatrices, EverySchemeSchedulesAllRowsAndRunsToTheSerialSolution) {
  for (const Triangle tri : {Triangle::Lower, Triangle::Upper}) {
    const Csr input = solver_input(sptrsv_matrix(GetParam()), tri, false, 11);
    const sptrsv::TriangularPattern pattern(input, tri, false);
    const kernels::TriangularView t = pattern.host_view();
    const std::vector<double> b = random_values(static_cast<std::size_t>(t.n), 12);
    std::vector<double> expected(b.size());
    kernels::sptrsv_cpu(t, b.data(), t.n, expected.data(), t.n, 1);
    std::vector<AgScheme> schemes = ag_test_schemes();
    const auto space = sptrsv::ag::ag_search_space(t.n, pattern.nnz(), t.num_levels,
                                                static_cast<double>(pattern.nnz()) / std::max<index_t>(t.n, 1));
    schemes.insert(schemes.end(), space.begin(), space.end());
    for (const AgScheme& s : schemes) {
      SCOPED_TRACE((tri == Triangle::Lower ? "lower " : "upper ") + sptrsv::ag::to_string(s));
      const AgPlan plan = sptrsv::ag::make_ag_plan(t, s, kMachine);
      std::vector<double> x(b.size(), std::numeric_limits<double>::quiet_NaN());
      ASSERT_TRUE(simulate(t, plan, b, x, 13)) << "the schedule stalls";
      EXPECT_TRUE(close_to(x.data(), expected));
      ASSERT_FALSE(plan.kernels.empty());
      if (s.alpha_level == 0) {
        EXPECT_EQ(static_cast<index_t>(plan.kernels.size()), plan.num_node_levels);
      }
      if (std::isinf(s.alpha_level)) {
        EXPECT_EQ(plan.kernels.size(), 1u);
      }
      for (index_t g = 1; g < static_cast<index_t>(plan.group_ptr.size()) - 1; ++g) {
        EXPECT_LE(plan.node_level[plan.group_nodes[plan.group_ptr[g - 1]]], plan.node_level[plan.group_nodes[plan.group_ptr[g]]]);
      }
      for (const auto& k : plan.kernels) {
        if (!s.sync_elimination) {
          EXPECT_TRUE(k.wait && k.publish);
        }
        if (k.level_end - k.level_begin > 1) {
          EXPECT_TRUE(k.wait);
        }
        if (s.ws == kernels::AgWarpSchedule::RoundRobin) {
          for (index_t g = k.group_begin; g < k.group_end; ++g) EXPECT_EQ(plan.group_warp[g], (g - k.group_begin) % 12);
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Matrices, AgPlanMatrices, ::testing::ValuesIn(sptrsv_matrix_names()),
                         [](const ::testing::TestParamInfo<std::string>& m) { return m.param; });

TEST(AgPlanCheck, RejectsPlansThatCouldDeadlock) {
  const Csr input = solver_input(sptrsv_matrix("banded_narrow"), Triangle::Lower, false, 21);
  const sptrsv::TriangularPattern pattern(input, Triangle::Lower, false);
  const kernels::TriangularView t = pattern.host_view();
  AgScheme s;
  s.alpha_level = kernels::kAgAlphaInfinity;
  const AgPlan good = sptrsv::ag::make_ag_plan(t, s, kMachine);
  EXPECT_NO_THROW(sptrsv::ag::validate_ag_plan(t, s, kMachine, good));
  // A warp list out of order: the warp would wait on a group it solves only later.
  AgPlan swapped = good;
  const index_t w = 0;
  ASSERT_GE(swapped.warp_ptr[w + 1] - swapped.warp_ptr[w], 2);
  std::swap(swapped.warp_groups[swapped.warp_ptr[w]], swapped.warp_groups[swapped.warp_ptr[w] + 1]);
  EXPECT_THROW(sptrsv::ag::validate_ag_plan(t, s, kMachine, swapped), InvalidArgument);
  // Flag waits dropped from a kernel spanning several levels.
  AgPlan no_wait = good;
  no_wait.kernels[0].wait = false;
  EXPECT_THROW(sptrsv::ag::validate_ag_plan(t, s, kMachine, no_wait), InvalidArgument);
  // A last-level node moved into group 0, ahead of the groups it depends on.
  AgPlan merged = good;
  ASSERT_GE(merged.num_node_levels, 2);
  std::swap(merged.group_nodes.front(), merged.group_nodes.back());
  EXPECT_THROW(sptrsv::ag::validate_ag_plan(t, s, kMachine, merged), InvalidArgument);
  // A row scheduled twice.
  AgPlan twice = good;
  twice.position_rows[1] = twice.position_rows[0];
  EXPECT_THROW(sptrsv::ag::validate_ag_plan(t, s, kMachine, twice), InvalidArgument);
}

}  // namespace
}  // namespace hetsparse::test
