// The part-product and merge kernels and their insert functions (no StarPU).
#include "codelets/spmv_part/spmv_part_codelet.hpp"

#include <string>

#include "codelets/cuda_build.hpp"
#include "hetsparse/error.hpp"

namespace hetsparse::codelets {

const rt::Kernel& spmv_part_kernel() {
  static const rt::Kernel k{"spmv_part", kCpuAndCuda};
  return k;
}

const rt::Kernel& spmv_merge_kernel() {
  static const rt::Kernel k{"spmv_merge", kCpuAndCuda};
  return k;
}

void insert_spmv_part(rt::TaskRuntime& rt, const rt::TaskOptions& opt, const SpmvPartData& data,
                      const SpmvPartArgs& args) {
  rt::TaskSpec t = rt::make_task(spmv_part_kernel(), opt, 0.0);
  t.set_args(args);
  t.data = {{data.A, rt::Access::Read},
            {data.plan, rt::Access::Read},
            {data.x, rt::Access::Read},
            {data.y, args.beta == 0.0 ? rt::Access::Write : rt::Access::ReadWrite}};
  if (args.long_rows > 0) t.data.push_back({data.workspace, rt::Access::Scratch});
  rt.submit(std::move(t));
}

void insert_spmv_merge(rt::TaskRuntime& rt, const rt::TaskOptions& opt, rt::HandleId y, std::uint32_t n, double beta,
                       const std::vector<MergeInput>& inputs) {
  if (inputs.size() + 1 > rt::kMaxTaskData)
    throw InvalidArgument("insert_spmv_merge: " + std::to_string(inputs.size()) + " inputs, at most " +
                          std::to_string(rt::kMaxTaskData - 1) + " per task");
  rt::TaskSpec t = rt::make_task(spmv_merge_kernel(), opt, 0.0);
  std::vector<MergeItem> items;
  t.data = {{y, beta == 0.0 ? rt::Access::Write : rt::Access::ReadWrite}};
  double flops = 0;
  for (const MergeInput& in : inputs) {
    if (in.dst > n || in.count > n - in.dst)
      throw InvalidArgument("insert_spmv_merge: an input runs past the " + std::to_string(n) + " entries of y");
    items.push_back({in.src, in.dst, in.count, 0});
    t.data.push_back({in.source, rt::Access::Read});
    flops += in.count;
  }
  t.set_args(MergeHeader{beta, n, static_cast<std::uint32_t>(inputs.size())}, items);
  if (opt.flops < 0) t.flops = flops;
  rt.submit(std::move(t));
}

}  // namespace hetsparse::codelets
