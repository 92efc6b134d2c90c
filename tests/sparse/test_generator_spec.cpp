// The --generate spec syntax: every kind maps to its generator, bad specs are explained.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "hetsparse/error.hpp"
#include "sparse/generator_spec.hpp"
#include "sparse/generators.hpp"

namespace hetsparse {
namespace {

bool same(const Csr& a, const Csr& b) {
  return a.rows == b.rows && a.cols == b.cols && a.rowptr == b.rowptr && a.colind == b.colind && a.values == b.values;
}

TEST(GeneratorSpec, EachKindBuildsWhatItsFunctionBuilds) {
  EXPECT_TRUE(same(generate("lap2d:150"), laplacian_2d(150, 150)));
  EXPECT_TRUE(same(generate("lap2d:30x20:9"), laplacian_2d(30, 20, 9)));
  EXPECT_TRUE(same(generate("lap3d:12"), laplacian_3d(12, 12, 12)));
  EXPECT_TRUE(same(generate("lap3d:8x7x6:27"), laplacian_3d(8, 7, 6, 27)));
  EXPECT_TRUE(same(generate("aniso2d:40:0.01:0.5"), anisotropic_2d(40, 40, 0.01, 0.5)));
  EXPECT_TRUE(same(generate("varcoef3d:9:1e4:7"), variable_coefficient_3d(9, 9, 9, 1e4, 7)));
  EXPECT_TRUE(same(generate("varcoef3d:9x8x7:1e4"), variable_coefficient_3d(9, 8, 7, 1e4, 1)));
  EXPECT_TRUE(same(generate("elast3d:6x5x4"), elasticity_3d(6, 5, 4)));
  RmatParams p;
  p.scale = 10;
  p.edge_factor = 4;
  EXPECT_TRUE(same(generate("rmat:10:4"), rmat_graph(p)));
  p.seed = 9;
  EXPECT_TRUE(same(generate("rmat-spd:10:4:9"), rmat_spd(p)));
  EXPECT_TRUE(same(generate("banded:1000:20:0.3:1:spd"), random_banded(1000, 20, 0.3, 1, true)));
  EXPECT_TRUE(same(generate("banded:1000:20:0.3"), random_banded(1000, 20, 0.3, 1, false)));
  EXPECT_TRUE(same(generate("anchor-lap2d:100"), anchor_laplacian_lower(2, 100, 1)));
  EXPECT_TRUE(same(generate("anchor-lap3d:20:5"), anchor_laplacian_lower(3, 20, 5)));
  EXPECT_TRUE(same(generate("anchor-rmat:10:8:2"), anchor_rmat_lower(10, 8, 2)));
}

// The message of the InvalidArgument that generate(spec) throws.
std::string error_of(const std::string& spec) {
  try {
    generate(spec);
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  return "no InvalidArgument";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(GeneratorSpec, UnknownKindListsKnownKinds) {
  const std::string msg = error_of("laplace:100");
  EXPECT_TRUE(contains(msg, "unknown matrix kind 'laplace'")) << msg;
  for (const char* kind : {"lap2d", "lap3d", "aniso2d", "varcoef3d", "elast3d", "rmat", "rmat-spd", "banded",
                           "anchor-lap2d", "anchor-lap3d", "anchor-rmat"}) {
    EXPECT_TRUE(contains(msg, kind)) << kind << " missing from: " << msg;
  }
  EXPECT_TRUE(contains(error_of(""), "unknown matrix kind")) << error_of("");
}

TEST(GeneratorSpec, BadArgumentsShowUsage) {
  EXPECT_TRUE(contains(error_of("lap2d:abc"), "usage: lap2d:")) << error_of("lap2d:abc");
  EXPECT_TRUE(contains(error_of("lap2d:10x"), "usage: lap2d:"));
  EXPECT_TRUE(contains(error_of("lap2d:0"), ">= 1"));
  EXPECT_TRUE(contains(error_of("lap2d:100:7"), "points")) << error_of("lap2d:100:7");
  EXPECT_TRUE(contains(error_of("lap3d:10x10"), "needs 1 or 3 sides"));
  EXPECT_TRUE(contains(error_of("lap2d"), "wrong number of arguments"));
  EXPECT_TRUE(contains(error_of("lap2d:10:5:5"), "wrong number of arguments"));
  EXPECT_TRUE(contains(error_of("aniso2d:10:0.01"), "usage: aniso2d:"));
  EXPECT_TRUE(contains(error_of("aniso2d:10:zero:1"), "epsilon 'zero'"));
  EXPECT_TRUE(contains(error_of("banded:100:5:0.5:1:sym"), "'spd'"));
  EXPECT_TRUE(contains(error_of("rmat:18:8:-1"), "seed"));
  EXPECT_TRUE(contains(error_of("rmat:40:8"), "scale")) << error_of("rmat:40:8");
  EXPECT_TRUE(contains(error_of("rmat:18:8:1:2"), "wrong number of arguments"));
}

TEST(GeneratorSpec, HelpListsEveryKindOnItsOwnLine) {
  const std::string help = generator_help();
  for (const char* usage : {"lap2d:NX[xNY][:5|9]", "lap3d:NX[xNYxNZ][:7|27]", "rmat:SCALE:EDGE_FACTOR[:SEED]",
                            "banded:N:BANDWIDTH:DENSITY[:SEED[:spd]]", "anchor-rmat:SCALE:EDGE_FACTOR[:SEED]"}) {
    EXPECT_TRUE(contains(help, std::string("\n  ") + usage)) << usage;
  }
  EXPECT_GE(std::count(help.begin(), help.end(), '\n'), 12);
}

}  // namespace
}  // namespace hetsparse
