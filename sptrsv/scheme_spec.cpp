// Scheme names to typed specs and back (see scheme_spec.hpp). The messages are the ones
// check_scheme always gave: tests and users match on them.
#include "sptrsv/scheme_spec.hpp"

#include <algorithm>
#include <exception>
#include <optional>
#include <vector>

#include "hetsparse/error.hpp"
#include "sptrsv/ag/ag_scheme.hpp"
#include "sptrsv/powered_triangle.hpp"

namespace hetsparse::sptrsv {

SchemeKind scheme_family(const std::string& name) {
  if (parse_powered_scheme(name)) return SchemeKind::Powered;
  if (name == "cusparse") return SchemeKind::Cusparse;
  if (kernels::is_cluster_levels_scheme(name)) return SchemeKind::ClusterLevels;
  if (kernels::is_wavefront_scheme(name)) return SchemeKind::Wavefront;
  if (name == "ag" || name.rfind("ag:", 0) == 0) return SchemeKind::Ag;
  return SchemeKind::Variant;
}

SchemeSpec parse_scheme(const std::string& name) {
  SchemeSpec spec;
  spec.kind = scheme_family(name);
  switch (spec.kind) {
    case SchemeKind::Powered: {
      const PoweredSchemeName pow = *parse_powered_scheme(name);
      if (!is_valid_power(pow.power)) {
        throw InvalidArgument("SpTRSV scheme '" + name + "': expected powK:BASE with K = 2, 4, 8 or 16");
      }
      if (parse_powered_scheme(pow.base)) {
        throw InvalidArgument("SpTRSV scheme '" + name + "': the base of a pow scheme cannot be another pow");
      }
      try {
        spec.base = std::make_shared<const SchemeSpec>(parse_scheme(pow.base));
      } catch (const InvalidArgument& e) {
        throw InvalidArgument("SpTRSV scheme '" + name + "': its base: " + e.what());
      }
      spec.power = pow.power;
      return spec;
    }
    case SchemeKind::Cusparse:
      return spec;
    case SchemeKind::ClusterLevels:
      spec.cluster = kernels::parse_cluster_levels_scheme(name);  // InvalidArgument naming the key
      return spec;
    case SchemeKind::Wavefront:
      spec.wavefront = kernels::parse_wavefront_scheme(name);  // InvalidArgument naming the key
      return spec;
    case SchemeKind::Ag:
      try {
        spec.ag = ag::parse_ag_scheme(name);
        ag::validate(spec.ag);
      } catch (const std::exception& e) {
        throw InvalidArgument("SpTRSV scheme '" + name + "': " + e.what());
      }
      return spec;
    case SchemeKind::Variant:
      break;
  }
  const std::vector<std::string> variants = plain_variant_names();
  if (std::find(variants.begin(), variants.end(), name) != variants.end()) {
    spec.variant = name;
    return spec;
  }
  std::string known;
  for (const std::string& v : variants) known += v + ", ";
  throw InvalidArgument("unknown SpTRSV scheme '" + name + "' (known: auto, " + known +
                        "cusparse, clusterlevels[:key=val,...], wavefront[:key=val,...], ag:key=val,..., powK:BASE)");
}

std::string to_string(const SchemeSpec& spec) {
  switch (spec.kind) {
    case SchemeKind::Variant:
      return spec.variant;
    case SchemeKind::Cusparse:
      return "cusparse";
    case SchemeKind::ClusterLevels:
      return kernels::to_string(spec.cluster);
    case SchemeKind::Wavefront:
      return kernels::to_string(spec.wavefront);
    case SchemeKind::Ag:
      return ag::to_string(spec.ag);
    case SchemeKind::Powered:
      return "pow" + std::to_string(spec.power) + ":" + (spec.base ? to_string(*spec.base) : std::string());
  }
  return {};
}

}  // namespace hetsparse::sptrsv
