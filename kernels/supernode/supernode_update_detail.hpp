// The unchecked CPU update shared by the single/batched updates and the subtree factorization
// (internal to kernels/supernode): callers check shapes and row lists, or trust the analysis.
#pragma once
#include "kernels/supernode/supernode.hpp"

namespace hetsparse::kernels::supernode_detail {

// t -= L_d[r0:, :] L_d[r0:r1, :]^T scattered into t (see supernode.hpp); work holds m * k doubles.
void apply_update(const ConstPanelRef& d, UpdateRange r, const PanelRef& t, double* work);

}  // namespace hetsparse::kernels::supernode_detail
