// Hand-picked AG-SpTRSV schemes for the tests: together they take every option value (each n_g,
// sw_rnnz 0 / small / inf, shared read and sync elimination on and off, n_w 1..32, the three
// transforms, level reorder, both groupings, the three warp schedules, alpha 0 / fractional / 2 /
// inf), in mixes the pruned search space does not produce.
#pragma once
#include <string>
#include <vector>

#include "kernels/sptrsv/sptrsv_ag.hpp"

namespace hetsparse::test {

inline std::vector<kernels::AgScheme> ag_test_schemes() {
  const char* const names[] = {
      "ag:ng=1,sw=0,sr=1,se=1,nw=4,tf=fixed,rb=1,lr=0,rg=seq,ws=rr,al=inf",
      "ag:ng=2,sw=inf,sr=0,se=0,nw=1,tf=fixed,rb=3,lr=1,rg=balance,ws=balance,al=0",
      "ag:ng=4,sw=2,sr=1,se=1,nw=32,tf=avg,rb=32,th=4,lr=0,rg=seq,ws=locality,al=2",
      "ag:ng=8,sw=4,sr=0,se=1,nw=8,tf=thresh,rb=8,th=4,lr=1,rg=balance,ws=rr,al=0",
      "ag:ng=16,sw=0,sr=1,se=0,nw=16,tf=thresh,rb=32,th=64,lr=0,rg=seq,ws=balance,al=0.5",
      "ag:ng=32,sw=inf,sr=1,se=1,nw=2,tf=fixed,rb=32,lr=1,rg=balance,ws=locality,al=0",
      "ag:ng=4,sw=1,sr=1,se=1,nw=16,tf=avg,rb=4,th=0,lr=1,rg=seq,ws=locality,al=inf",
      "ag:ng=1,sw=inf,sr=0,se=1,nw=32,tf=fixed,rb=32,lr=0,rg=seq,ws=rr,al=0",
      "ag:ng=2,sw=8,sr=1,se=0,nw=8,tf=thresh,rb=2,th=16,lr=0,rg=balance,ws=rr,al=inf",
      "ag",
  };
  std::vector<kernels::AgScheme> schemes;
  for (const char* name : names) schemes.push_back(sptrsv::ag::parse_ag_scheme(name));
  return schemes;
}

}  // namespace hetsparse::test
