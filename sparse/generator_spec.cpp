// Parses generator specs: a table of kinds, each with its usage line and a builder taking
// the spec's colon-separated arguments.
#include "sparse/generator_spec.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string>
#include <vector>

#include "hetsparse/error.hpp"
#include "sparse/generators.hpp"

namespace hetsparse {
namespace {

using Args = std::vector<std::string>;

// Thrown inside a builder for a malformed argument; generate() adds the spec and usage.
struct BadArgument {
  std::string what;
};

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t stop = s.find(sep, start);
    parts.push_back(s.substr(start, stop - start));
    if (stop == std::string::npos) return parts;
    start = stop + 1;
  }
}

template <class T>
T parse_number(const std::string& text, const char* what) {
  T v{};
  const char* first = text.data();
  const char* last = text.data() + text.size();
  const auto [stop, ec] = std::from_chars(first, last, v);
  if (text.empty() || ec != std::errc() || stop != last) throw BadArgument{std::string(what) + " '" + text + "' is not valid"};
  return v;
}

index_t positive(const std::string& text, const char* what) {
  const auto v = parse_number<index_t>(text, what);
  if (v < 1) throw BadArgument{std::string(what) + " must be >= 1, got " + text};
  return v;
}

// "N" (a cube or square of side N) or "N1xN2[xN3]" with exactly `dims` sides.
std::vector<index_t> grid_sides(const std::string& text, int dims) {
  const Args parts = split(text, 'x');
  if (parts.size() != 1 && parts.size() != static_cast<std::size_t>(dims)) {
    throw BadArgument{"grid size '" + text + "' needs 1 or " + std::to_string(dims) + " sides"};
  }
  std::vector<index_t> sides;
  for (int d = 0; d < dims; ++d) sides.push_back(positive(parts[parts.size() == 1 ? 0 : d], "grid side"));
  return sides;
}

std::uint64_t optional_seed(const Args& args, std::size_t at) {
  return args.size() > at ? parse_number<std::uint64_t>(args[at], "seed") : 1;
}

struct Kind {
  const char* name;
  const char* usage;
  const char* summary;
  std::size_t min_args, max_args;
  Csr (*build)(const Args&);
};

const Kind kKinds[] = {
    {"lap2d", "lap2d:NX[xNY][:5|9]", "2D Laplacian, 5- or 9-point (default 5), SPD", 1, 2,
     [](const Args& a) {
       const auto s = grid_sides(a[0], 2);
       return laplacian_2d(s[0], s[1], a.size() > 1 ? parse_number<int>(a[1], "points") : 5);
     }},
    {"lap3d", "lap3d:NX[xNYxNZ][:7|27]", "3D Laplacian, 7- or 27-point (default 7), SPD", 1, 2,
     [](const Args& a) {
       const auto s = grid_sides(a[0], 3);
       return laplacian_3d(s[0], s[1], s[2], a.size() > 1 ? parse_number<int>(a[1], "points") : 7);
     }},
    {"aniso2d", "aniso2d:NX[xNY]:EPSILON:THETA", "rotated anisotropic diffusion, THETA in radians, SPD", 3, 3,
     [](const Args& a) {
       const auto s = grid_sides(a[0], 2);
       return anisotropic_2d(s[0], s[1], parse_number<double>(a[1], "epsilon"), parse_number<double>(a[2], "theta"));
     }},
    {"varcoef3d", "varcoef3d:NX[xNYxNZ]:CONTRAST[:SEED]", "3D diffusion, coefficient log-uniform in [1, CONTRAST], SPD",
     2, 3,
     [](const Args& a) {
       const auto s = grid_sides(a[0], 3);
       return variable_coefficient_3d(s[0], s[1], s[2], parse_number<double>(a[1], "contrast"), optional_seed(a, 2));
     }},
    {"elast3d", "elast3d:NX[xNYxNZ]", "3 unknowns per node on a 7-point grid (CHOLMOD 3-dof anchor), SPD", 1, 1,
     [](const Args& a) {
       const auto s = grid_sides(a[0], 3);
       return elasticity_3d(s[0], s[1], s[2]);
     }},
    {"rmat", "rmat:SCALE:EDGE_FACTOR[:SEED]", "symmetric R-MAT graph pattern (values 1, no diagonal)", 2, 3,
     [](const Args& a) {
       RmatParams p;
       p.scale = parse_number<int>(a[0], "scale");
       p.edge_factor = parse_number<int>(a[1], "edge factor");
       p.seed = optional_seed(a, 2);
       return rmat_graph(p);
     }},
    {"rmat-spd", "rmat-spd:SCALE:EDGE_FACTOR[:SEED]", "R-MAT graph made diagonally dominant, SPD", 2, 3,
     [](const Args& a) {
       RmatParams p;
       p.scale = parse_number<int>(a[0], "scale");
       p.edge_factor = parse_number<int>(a[1], "edge factor");
       p.seed = optional_seed(a, 2);
       return rmat_spd(p);
     }},
    {"banded", "banded:N:BANDWIDTH:DENSITY[:SEED[:spd]]", "random banded, diagonally dominant; SPD with ':spd'", 3, 5,
     [](const Args& a) {
       if (a.size() > 4 && a[4] != "spd") throw BadArgument{"last argument must be 'spd', got '" + a[4] + "'"};
       return random_banded(positive(a[0], "N"), parse_number<index_t>(a[1], "bandwidth"),
                            parse_number<double>(a[2], "density"), optional_seed(a, 3), a.size() > 4);
     }},
    {"anchor-lap2d", "anchor-lap2d:N[:SEED]", "SpTRSV anchor: lower triangle of the N x N 5-point Laplacian", 1, 2,
     [](const Args& a) { return anchor_laplacian_lower(2, positive(a[0], "N"), optional_seed(a, 1)); }},
    {"anchor-lap3d", "anchor-lap3d:N[:SEED]", "SpTRSV anchor: lower triangle of the N^3 7-point Laplacian", 1, 2,
     [](const Args& a) { return anchor_laplacian_lower(3, positive(a[0], "N"), optional_seed(a, 1)); }},
    {"anchor-rmat", "anchor-rmat:SCALE:EDGE_FACTOR[:SEED]", "SpTRSV anchor: lower-triangular R-MAT with diagonal", 2,
     3,
     [](const Args& a) {
       return anchor_rmat_lower(parse_number<int>(a[0], "scale"), parse_number<int>(a[1], "edge factor"),
                                optional_seed(a, 2));
     }},
    {"levels", "levels:PROFILE[:DEG[:SEED]]",
     "lower triangle with a level profile, e.g. c20000+b400000x20 (chain, then 400k rows in 20 levels); DEG "
     "off-diagonals a row (4)",
     1, 3,
     [](const Args& a) {
       return level_profile_lower(a[0], a.size() > 1 ? static_cast<int>(positive(a[1], "DEG")) : 4, optional_seed(a, 2));
     }},
};

std::string known_kinds() {
  std::string names;
  for (const Kind& k : kKinds) names += (names.empty() ? "" : ", ") + std::string(k.name);
  return names;
}

}  // namespace

Csr generate(const std::string& spec) {
  Args parts = split(spec, ':');
  const std::string name = parts.front();
  parts.erase(parts.begin());
  for (const Kind& kind : kKinds) {
    if (name != kind.name) continue;
    const std::string context = "generate(\"" + spec + "\"): ";
    if (parts.size() < kind.min_args || parts.size() > kind.max_args) {
      throw InvalidArgument(context + "wrong number of arguments; usage: " + kind.usage);
    }
    try {
      return kind.build(parts);
    } catch (const BadArgument& e) {
      throw InvalidArgument(context + e.what + "; usage: " + kind.usage);
    } catch (const InvalidArgument& e) {
      throw InvalidArgument(context + e.what());
    }
  }
  throw InvalidArgument("generate(\"" + spec + "\"): unknown matrix kind '" + name + "'; known kinds: " + known_kinds());
}

std::string generator_help() {
  std::string text = "Generated matrices (--generate SPEC); sizes N or NXxNY[xNZ], SEED defaults to 1:\n";
  for (const Kind& k : kKinds) {
    std::string usage = k.usage;
    usage.resize(std::max<std::size_t>(usage.size(), 40), ' ');
    text += "  " + usage + "  " + k.summary + "\n";
  }
  return text;
}

}  // namespace hetsparse
