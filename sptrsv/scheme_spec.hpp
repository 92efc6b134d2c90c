// A SpTRSV GPU scheme as a typed value: the string a user, the search or a model names ("cusparse",
// "clusterlevels:blocks=8", "wavefront", "ag:ng=4", "pow4:syncfree_levelorder", a kernels::gpu_variants() name) is
// parsed here, once, and everything after (preparation, selection, the split model) reads the spec.
// The family parsers (ag::parse_ag_scheme, kernels::parse_cluster_levels_scheme,
// parse_powered_scheme) are the helpers parse_scheme calls for each family's payload.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "kernels/sptrsv/sptrsv_ag.hpp"
#include "kernels/sptrsv/sptrsv_cluster_levels.hpp"
#include "kernels/sptrsv/sptrsv_wavefront.hpp"

namespace hetsparse::sptrsv {

enum class SchemeKind { Variant, Cusparse, ClusterLevels, Wavefront, Ag, Powered };

struct SchemeSpec {
  SchemeKind kind = SchemeKind::Variant;
  std::string variant;                     // Variant: the kernels::gpu_variants() name
  kernels::ClusterLevelsOptions cluster;   // ClusterLevels
  kernels::WavefrontOptions wavefront;     // Wavefront
  kernels::AgScheme ag;                    // Ag (validated)
  int power = 0;                           // Powered: K (2, 4, 8 or 16)
  std::shared_ptr<const SchemeSpec> base;  // Powered: the scheme solving I - M^K (never itself Powered)
};

// kernels::gpu_variants() in CUDA builds, empty otherwise.
std::vector<std::string> plain_variant_names();

// The spec a name stands for. InvalidArgument naming the scheme when it is unknown (listing the
// known ones), when an "ag:", "clusterlevels:" or "wavefront:" string does not parse, for a pow with a power other
// than 2, 4, 8, 16 or a base that is itself a pow. Plain variants are those of plain_variant_names()
// (none without CUDA); check_scheme adds this build's refusal.
SchemeSpec parse_scheme(const std::string& name);

// The family a name belongs to by its prefix alone, the rest unchecked (Variant for any other name):
// for names read from elsewhere (a model's pick, a chosen scheme) where only the family matters.
SchemeKind scheme_family(const std::string& name);

// A name parse_scheme maps back to an equal spec (ag, clusterlevels and wavefront in their canonical form).
std::string to_string(const SchemeSpec& spec);

}  // namespace hetsparse::sptrsv
