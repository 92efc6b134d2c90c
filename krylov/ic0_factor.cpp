#include "krylov/ic0_factor.hpp"

#include <string>
#include <vector>

#include "codelets/ic0/ic0_codelet.hpp"
#include "hetsparse/error.hpp"
#include "kernels/ic0/ic0.hpp"
#include "runtime/csr32.hpp"
#include "sparse/convert.hpp"

namespace hetsparse::krylov {

Csr ic0_factor(rt::TaskRuntime& rt, const Csr& A, const Ic0Options& options) {
  if (A.rows != A.cols)
    throw InvalidArgument("IC(0): the matrix must be square, not " + std::to_string(A.rows) + " x " +
                          std::to_string(A.cols));
  if (!(options.shift >= 0.0)) throw InvalidArgument("IC(0): the diagonal shift must be >= 0");
  Csr lower = triangle(A, Triangle::Lower);
  sort_rows(lower);
  rt::Csr32 L(lower);
  kernels::ic0_check_structure(L.rows, L.rowptr.data(), L.colind.data());
  for (std::uint32_t i = 0; i < L.rows; ++i) L.values[L.rowptr[i + 1] - 1] *= 1.0 + options.shift;
  if (L.rows == 0) return lower;

  const kernels::Ic0Levels levels = kernels::ic0_levels(L.rows, L.rowptr.data(), L.colind.data());
  std::vector<std::uint32_t> level_rows = levels.rows;  // registered: the task may move it to a GPU
  int info = 0;
  {
    rt::DataHandle hl = rt::make_csr_handle(rt, L);
    rt::DataHandle hr(rt, rt.register_vector({level_rows.data(), level_rows.size(), sizeof(std::uint32_t)}));
    rt::DataHandle hi(rt, rt.register_vector({&info, 1, sizeof(int), -1, false}));
    rt::TaskOptions o;
    o.name = "ic0";
    o.where = options.where;
    codelets::insert_ic0(rt, o, hl.id(), hr.id(), hi.id(), levels, static_cast<std::int64_t>(L.colind.size()));
    rt.wait_all();
  }  // unregistered: L and info back in host memory
  if (info > 0)
    throw NotPositiveDefinite(info - 1, "IC(0): non-positive pivot (a diagonal shift may help)");
  lower.values.assign(L.values.begin(), L.values.end());
  return lower;
}

}  // namespace hetsparse::krylov
