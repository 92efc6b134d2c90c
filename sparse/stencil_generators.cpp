// PDE-like SPD matrices on structured grids: Laplacians, rotated anisotropic diffusion,
// heterogeneous diffusion and a 3-dof block operator.
#include <cmath>
#include <string>

#include "hetsparse/error.hpp"
#include "sparse/generator_support.hpp"
#include "sparse/generators.hpp"

namespace hetsparse {
namespace {

// Diagonal shift of the Laplacians: with it every row is strictly diagonally dominant.
constexpr double kLaplacianShift = 0.01;

Csr laplacian(const Grid& g, int dims, bool box) {
  const std::vector<Offset> offsets = stencil_offsets(dims, box);
  const double diagonal = static_cast<double>(offsets.size() - 1) + kLaplacianShift;
  return assemble_stencil(g, offsets, [diagonal](index_t, index_t, index_t, const Offset& o) {
    return o.is_center() ? diagonal : -1.0;
  });
}

}  // namespace

Csr laplacian_2d(index_t nx, index_t ny, int points) {
  if (points != 5 && points != 9) {
    throw InvalidArgument("laplacian_2d: points must be 5 or 9, got " + std::to_string(points));
  }
  return laplacian(Grid("laplacian_2d", nx, ny, 1), 2, points == 9);
}

Csr laplacian_3d(index_t nx, index_t ny, index_t nz, int points) {
  if (points != 7 && points != 27) {
    throw InvalidArgument("laplacian_3d: points must be 7 or 27, got " + std::to_string(points));
  }
  return laplacian(Grid("laplacian_3d", nx, ny, nz), 3, points == 27);
}

Csr anisotropic_2d(index_t nx, index_t ny, double epsilon, double theta_radians) {
  if (!(epsilon > 0.0) || !std::isfinite(epsilon) || !std::isfinite(theta_radians)) {
    throw InvalidArgument("anisotropic_2d: epsilon must be finite and > 0 and theta finite, got epsilon=" +
                          std::to_string(epsilon) + " theta=" + std::to_string(theta_radians));
  }
  const Grid g("anisotropic_2d", nx, ny, 1);
  // K = [[a, b], [b, c]] = R diag(1, epsilon) R^T.
  const double cs = std::cos(theta_radians), sn = std::sin(theta_radians);
  const double a = cs * cs + epsilon * sn * sn;
  const double c = sn * sn + epsilon * cs * cs;
  const double b = (1.0 - epsilon) * cs * sn;
  // -(a u_xx + 2 b u_xy + c u_yy), u_xy by the cross stencil (u_{++} - u_{+-} - u_{-+} + u_{--}) / 4.
  return assemble_stencil(g, stencil_offsets(2, true), [a, b, c](index_t, index_t, index_t, const Offset& o) {
    if (o.is_center()) return 2.0 * a + 2.0 * c;
    if (o.dy == 0) return -a;
    if (o.dx == 0) return -c;
    return o.dx == o.dy ? -0.5 * b : 0.5 * b;
  });
}

Csr variable_coefficient_3d(index_t nx, index_t ny, index_t nz, double contrast, std::uint64_t seed) {
  if (!(contrast >= 1.0) || !std::isfinite(contrast)) {
    throw InvalidArgument("variable_coefficient_3d: contrast must be finite and >= 1, got " + std::to_string(contrast));
  }
  const Grid g("variable_coefficient_3d", nx, ny, nz);
  Rng rng(seed);
  std::vector<double> k(static_cast<std::size_t>(g.nodes()));
  const double log_contrast = std::log(contrast);
  for (double& kc : k) kc = std::exp(log_contrast * uniform01(rng));

  auto coefficient = [&](index_t x, index_t y, index_t z) { return k[static_cast<std::size_t>(g.node(x, y, z))]; };
  // Transmissibility of the face between a cell and its neighbour across offset o.
  auto face = [&](index_t x, index_t y, index_t z, const Offset& o) {
    const double kp = coefficient(x, y, z);
    if (!g.inside(x + o.dx, y + o.dy, z + o.dz)) return 2.0 * kp;  // Dirichlet half cell
    const double kq = coefficient(x + o.dx, y + o.dy, z + o.dz);
    return 2.0 * kp * kq / (kp + kq);
  };
  const std::vector<Offset> offsets = stencil_offsets(3, false);
  return assemble_stencil(g, offsets, [&](index_t x, index_t y, index_t z, const Offset& o) {
    if (!o.is_center()) return -face(x, y, z, o);
    double diagonal = 0.0;
    for (const Offset& f : offsets) {
      if (!f.is_center()) diagonal += face(x, y, z, f);
    }
    return diagonal;
  });
}

Csr elasticity_3d(index_t nx, index_t ny, index_t nz) {
  constexpr int kDofs = 3;
  constexpr double kSameComponent = -1.0, kCrossComponent = -0.25, kShift = 0.01;
  const Grid g("elasticity_3d", nx, ny, nz, kDofs);
  const std::vector<Offset> offsets = stencil_offsets(3, false);
  const index_t n = g.nodes() * kDofs;
  CsrBuilder out(n, n, static_cast<offset_t>(n) * kDofs * static_cast<offset_t>(offsets.size()));
  for (index_t z = 0; z < g.nz; ++z) {
    for (index_t y = 0; y < g.ny; ++y) {
      for (index_t x = 0; x < g.nx; ++x) {
        for (int comp = 0; comp < kDofs; ++comp) {
          for (const Offset& o : offsets) {
            if (!g.inside(x + o.dx, y + o.dy, z + o.dz)) continue;
            const index_t base = kDofs * g.node(x + o.dx, y + o.dy, z + o.dz);
            for (int other = 0; other < kDofs; ++other) {
              out.add(base + other, other == comp ? kSameComponent : kCrossComponent);
            }
          }
          out.end_row();
        }
      }
    }
  }
  Csr a = out.finish();
  make_diagonally_dominant(a, kShift);  // replaces the -1 placed on each diagonal
  return a;
}

}  // namespace hetsparse
