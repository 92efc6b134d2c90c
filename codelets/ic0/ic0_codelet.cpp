// IC(0) as a task (no StarPU; the glue is ic0_starpu.cpp).
#include "codelets/ic0/ic0_codelet.hpp"

#include "codelets/cuda_build.hpp"

namespace hetsparse::codelets {

const rt::Kernel& ic0_kernel() {
  static const rt::Kernel k{"ic0", kCpuAndCuda};
  return k;
}

void insert_ic0(rt::TaskRuntime& rt, const rt::TaskOptions& opt, rt::HandleId L, rt::HandleId level_rows,
                rt::HandleId info, const kernels::Ic0Levels& levels, std::int64_t nnz) {
  // Roughly two flops per stored entry of each merged row pair; only for statistics.
  rt::TaskSpec t = rt::make_task(ic0_kernel(), opt, 4.0 * static_cast<double>(nnz));
  const auto n = static_cast<std::uint32_t>(levels.rows.size());
  t.set_args(Ic0Args{n, levels.num_levels(), levels.level_ptr.data()});
  t.data = {{L, rt::Access::ReadWrite}, {level_rows, rt::Access::Read}, {info, rt::Access::Write}};
  rt.submit(std::move(t));
}

}  // namespace hetsparse::codelets
