// Hand-built triangles of the split SpTRSV tests (planners/): long columns a single-algorithm cut
// moves into the SpMV.
#pragma once
#include "sparse/csr.hpp"

namespace hetsparse::test {

// rows 0-3: hubs (level 0); rows 4..4+k-1 read hub i % 4 (level 1); the next k rows read their hub
// and a level-1 row (level 2). Each hub column holds k / 2 entries: (k / 2 - 1) / 32 extra warp
// iterations each, saved by a cut at level 1.
inline Csr hub_triangle(index_t k) {
  Csr a;
  a.rows = a.cols = 4 + 2 * k;
  a.rowptr.assign(1, 0);
  for (index_t i = 0; i < a.rows; ++i) {
    if (i >= 4) {
      a.colind.push_back(i % 4);
      a.values.push_back(-0.25);
    }
    if (i >= 4 + k) {
      a.colind.push_back(i - k);
      a.values.push_back(0.5);
    }
    a.colind.push_back(i);
    a.values.push_back(3.0);
    a.rowptr.push_back(static_cast<offset_t>(a.colind.size()));
  }
  return a;
}

}  // namespace hetsparse::test
