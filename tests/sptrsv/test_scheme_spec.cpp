// parse_scheme, the one place scheme names are read: every family's payload, the canonical names
// round-tripping, the refusals naming the scheme, and scheme_family's prefix-only answer.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hetsparse/error.hpp"
#include "sptrsv/ag/ag_scheme.hpp"
#include "sptrsv/scheme_spec.hpp"

namespace hetsparse::test {
namespace {

using sptrsv::SchemeKind;
using sptrsv::SchemeSpec;

TEST(SchemeSpec, EachFamilyParsesItsPayload) {
  EXPECT_EQ(sptrsv::parse_scheme("cusparse").kind, SchemeKind::Cusparse);
  const SchemeSpec cl = sptrsv::parse_scheme("clusterlevels:blocks=8,threads=512");
  ASSERT_EQ(cl.kind, SchemeKind::ClusterLevels);
  EXPECT_EQ(cl.cluster.max_blocks, 8);
  EXPECT_EQ(cl.cluster.block_threads, 512);
  const SchemeSpec wf = sptrsv::parse_scheme("wavefront:blocks=4,sleep=20,warp=48");
  ASSERT_EQ(wf.kind, SchemeKind::Wavefront);
  EXPECT_EQ(wf.wavefront.blocks_per_sm, 4);
  EXPECT_EQ(wf.wavefront.sleep_ns, 20);
  EXPECT_EQ(wf.wavefront.warp_row, 48);
  EXPECT_EQ(sptrsv::parse_scheme("wavefront:warp=0").wavefront.warp_row, 0);
  EXPECT_EQ(sptrsv::parse_scheme("pow2:wavefront").base->kind, SchemeKind::Wavefront);
  const SchemeSpec ag = sptrsv::parse_scheme("ag:ng=4");
  ASSERT_EQ(ag.kind, SchemeKind::Ag);
  EXPECT_EQ(ag.ag, sptrsv::ag::parse_ag_scheme("ag:ng=4"));
  const SchemeSpec pow = sptrsv::parse_scheme("pow8:clusterlevels:blocks=4");
  ASSERT_EQ(pow.kind, SchemeKind::Powered);
  EXPECT_EQ(pow.power, 8);
  ASSERT_TRUE(pow.base);
  EXPECT_EQ(pow.base->kind, SchemeKind::ClusterLevels);
  EXPECT_EQ(pow.base->cluster.max_blocks, 4);
  for (const std::string& v : sptrsv::plain_variant_names()) {
    const SchemeSpec s = sptrsv::parse_scheme(v);
    EXPECT_EQ(s.kind, SchemeKind::Variant) << v;
    EXPECT_EQ(s.variant, v);
    EXPECT_EQ(sptrsv::parse_scheme("pow2:" + v).base->variant, v);
  }
}

TEST(SchemeSpec, CanonicalNamesRoundTrip) {
  std::vector<std::string> names = {"cusparse", "clusterlevels", "clusterlevels:blocks=2,run=3", "wavefront",
                                    "wavefront:blocks=2", "wavefront:sleep=40", "wavefront:blocks=1,sleep=8", "wavefront:warp=0",
                                    "wavefront:sleep=4,warp=100",
                                    sptrsv::ag::to_string(sptrsv::ag::parse_ag_scheme("ag:sw=8,al=2.5")),
                                    "pow4:cusparse", "pow16:clusterlevels:threads=1024"};
  for (const std::string& v : sptrsv::plain_variant_names()) names.push_back("pow2:" + v);
  for (const std::string& name : names) EXPECT_EQ(sptrsv::to_string(sptrsv::parse_scheme(name)), name);
  // A partial ag name comes back with every field written, and parses to the same scheme.
  const SchemeSpec partial = sptrsv::parse_scheme("ag:ng=4");
  EXPECT_EQ(sptrsv::parse_scheme(sptrsv::to_string(partial)).ag, partial.ag);
}

TEST(SchemeSpec, RefusalsNameTheScheme) {
  for (const std::string bad : {"no_such_variant", "ag:ng=3", "ag:bogus=1", "cusparse2", "pow3:cusparse", "pow4:nope",
                                "pow2:pow2:cusparse", "clusterlevels:blocks=17", "clusterlevels:colour=1", "pow", "pow4",
                                "wavefront:blocks=9", "wavefront:sleep=-1", "wavefront:sleep=x", "wavefront:rows=2", "wavefront:warp=-1",
                                "wavefront:", "wavefronts"}) {
    try {
      sptrsv::parse_scheme(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const InvalidArgument& e) {
      const std::string what = e.what();
      // clusterlevels' and wavefront's own parsers name the key, not the whole scheme.
      if (bad.rfind("clusterlevels", 0) != 0 && bad.rfind("wavefront:", 0) != 0) {
        EXPECT_NE(what.find("'" + bad + "'"), std::string::npos) << what;
      }
    }
  }
  try {
    sptrsv::parse_scheme("no_such_variant");
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("known: auto, "), std::string::npos) << e.what();
  }
  try {
    sptrsv::parse_scheme("pow4:nope");
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("its base: unknown SpTRSV scheme 'nope'"), std::string::npos) << e.what();
  }
}

TEST(SchemeSpec, FamilyByPrefixAlone) {
  EXPECT_EQ(sptrsv::scheme_family("pow4:anything"), SchemeKind::Powered);
  EXPECT_EQ(sptrsv::scheme_family("pow3"), SchemeKind::Powered);
  EXPECT_EQ(sptrsv::scheme_family("cusparse"), SchemeKind::Cusparse);
  EXPECT_EQ(sptrsv::scheme_family("clusterlevels:x=1"), SchemeKind::ClusterLevels);
  EXPECT_EQ(sptrsv::scheme_family("wavefront:x=1"), SchemeKind::Wavefront);
  EXPECT_EQ(sptrsv::scheme_family("ag:zz"), SchemeKind::Ag);
  EXPECT_EQ(sptrsv::scheme_family("agx"), SchemeKind::Variant);
  EXPECT_EQ(sptrsv::scheme_family("whatever"), SchemeKind::Variant);
}

}  // namespace
}  // namespace hetsparse::test
