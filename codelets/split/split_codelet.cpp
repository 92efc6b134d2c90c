// The split SpTRSV's gather, update and scatter as tasks (no StarPU; the glue is split_starpu.cpp).
#include "codelets/split/split_codelet.hpp"

#include <string>

#include "codelets/cuda_build.hpp"
#include "hetsparse/error.hpp"

namespace hetsparse::codelets {
namespace {

void check(const SplitArgs& a, const char* where) {
  if (a.n1 < 1 || a.n2 < 1 || a.nrhs < 1) {
    throw InvalidArgument(std::string(where) + ": parts of " + std::to_string(a.n1) + " and " + std::to_string(a.n2) +
                          " rows with " + std::to_string(a.nrhs) + " right-hand sides (each needs at least 1)");
  }
}

}  // namespace

const rt::Kernel& split_gather_kernel() {
  static const rt::Kernel k{"split_gather", kCpuAndCuda};
  return k;
}
const rt::Kernel& split_scatter_kernel() {
  static const rt::Kernel k{"split_scatter", kCpuAndCuda};
  return k;
}
const rt::Kernel& split_update_kernel() {
  static const rt::Kernel k{"split_update", kCpuAndCuda};
  return k;
}

void insert_split_gather(rt::TaskRuntime& rt, const rt::TaskOptions& opt, rt::HandleId order, rt::HandleId b,
                         rt::HandleId b1, rt::HandleId b2, const SplitArgs& args) {
  check(args, "insert_split_gather");
  rt::TaskSpec t = rt::make_task(split_gather_kernel(), opt, 0.0);
  t.set_args(args);
  t.data = {{order, rt::Access::Read}, {b, rt::Access::Read}, {b1, rt::Access::Write}, {b2, rt::Access::Write}};
  rt.submit(std::move(t));
}

void insert_split_scatter(rt::TaskRuntime& rt, const rt::TaskOptions& opt, rt::HandleId order, rt::HandleId x1,
                          rt::HandleId x2, rt::HandleId x, const SplitArgs& args) {
  check(args, "insert_split_scatter");
  rt::TaskSpec t = rt::make_task(split_scatter_kernel(), opt, 0.0);
  t.set_args(args);
  t.data = {{order, rt::Access::Read}, {x1, rt::Access::Read}, {x2, rt::Access::Read}, {x, rt::Access::Write}};
  rt.submit(std::move(t));
}

void insert_split_update(rt::TaskRuntime& rt, const rt::TaskOptions& opt, rt::HandleId a21, rt::HandleId x1,
                         rt::HandleId b2, const SplitArgs& args, std::int64_t a21_nnz) {
  check(args, "insert_split_update");
  rt::TaskSpec t = rt::make_task(split_update_kernel(), opt, 2.0 * static_cast<double>(a21_nnz) * args.nrhs);
  t.set_args(args);
  t.data = {{a21, rt::Access::Read}, {x1, rt::Access::Read}, {b2, rt::Access::ReadWrite}};
  rt.submit(std::move(t));
}

}  // namespace hetsparse::codelets
