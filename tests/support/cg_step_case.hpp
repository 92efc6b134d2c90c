// A random case of the fused CG step (kernels/krylov) and its result by the plain loops it fuses:
// the oracle of the host and device tests.
#pragma once
#include <vector>

#include "sparse/random.hpp"

namespace hetsparse::test {

struct CgStepCase {
  struct Vectors {
    std::vector<double> p, q, x, r, d, z;
  };
  struct Expected {
    std::vector<double> x, r, z;
    double rr = 0, rz = 0;
  };

  // The step's length from rz and p.q as the kernels are specified: rz / pq, 0 unless pq > 0.
  CgStepCase(int size, double rz_old, double p_q, std::uint64_t seed)
      : n(size), rz(rz_old), pq(p_q), alpha(p_q > 0 ? rz_old / p_q : 0.0) {
    Rng rng(seed);
    for (auto* v : {&inputs.p, &inputs.q, &inputs.x, &inputs.r, &inputs.d, &inputs.z}) {
      v->resize(static_cast<std::size_t>(n));
      for (double& e : *v) e = uniform(rng, -1, 1);
    }
    for (double& e : inputs.d) e = 1.5 + e;  // a positive inverse diagonal
  }

  // x + alpha p, r - alpha q, d .* r and the two dots, one loop each.
  Expected expected(bool scaled) const {
    Expected e{inputs.x, inputs.r, inputs.z};
    for (int i = 0; i < n; ++i) e.x[i] = inputs.x[i] + alpha * inputs.p[i];
    for (int i = 0; i < n; ++i) e.r[i] = inputs.r[i] - alpha * inputs.q[i];
    if (scaled)
      for (int i = 0; i < n; ++i) e.z[i] = inputs.d[i] * e.r[i];
    for (int i = 0; i < n; ++i) e.rr += e.r[i] * e.r[i];
    if (!scaled) e.rz = e.rr;
    else
      for (int i = 0; i < n; ++i) e.rz += e.r[i] * e.z[i];
    return e;
  }

  int n;
  double rz, pq, alpha;
  Vectors inputs;
};

}  // namespace hetsparse::test
