// AG-SpTRSV schemes by name: parsing, printing and checking a kernels::AgScheme, and the pruned search
// space of section 4.5 for a matrix of a given shape.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/sptrsv/sptrsv_ag.hpp"

namespace hetsparse::sptrsv::ag {

using kernels::AgScheme;

// InvalidArgument naming the field when a scheme is out of range.
void validate(const AgScheme& scheme);
// "ag:ng=4,sw=8,sr=0,se=1,nw=16,tf=fixed,rb=1,th=8,lr=0,rg=seq,ws=rr,al=inf"; every field written.
std::string to_string(const AgScheme& scheme);
// Accepts "ag" (defaults) and "ag:key=val,..." (any subset of the keys of AgScheme, in any order; the
// rest default). InvalidArgument naming the bad key or value. parse_ag_scheme(to_string(s)) == s.
AgScheme parse_ag_scheme(const std::string& name);

// The pruned scheme space of AG 4.5 for a matrix of this shape: tens of schemes, each valid and
// distinct, chosen by mean row length (subwarp width, sw_rnnz, merging) and by parallelism n /
// num_levels (alpha_level, scheduling). Deterministic.
std::vector<AgScheme> ag_search_space(index_t n, std::int64_t nnz, index_t num_levels, double mean_row_nnz);
// Its schemes' names (to_string), in the same order: made once per class of shapes and kept for the
// process (the reference stays valid).
const std::vector<std::string>& ag_search_space_names(index_t n, std::int64_t nnz, index_t num_levels, double mean_row_nnz);

}  // namespace hetsparse::sptrsv::ag
