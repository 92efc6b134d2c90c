#include "bench/sptrsv_timing.hpp"

namespace hetsparse::bench {

// The names of kernels::gpu_variants() (codelets/sptrsv/sptrsv_support_cuda.cu), which a CPU-only
// build does not compile; keep the two lists in step.
std::vector<std::string> sptrsv_gpu_variant_names() {
  return {"syncfree",           "capellini",           "yuenyeung",           "levelset",
          "syncfree_levelorder", "capellini_levelorder", "yuenyeung_levelorder"};
}

SptrsvGpuTiming time_sptrsv_gpu(const kernels::TriangularView&, const std::vector<double>&,
                                const std::vector<double>&, const SptrsvTimingOptions& options) {
  SptrsvGpuTiming t;
  t.reason = "no CUDA device/build (built without CUDA)";
  std::vector<std::string> names = options.variants.empty() ? sptrsv_gpu_variant_names() : options.variants;
  if (options.cusparse) names.emplace_back("cusparse");
  for (const std::string& name : names) {
    SptrsvSolveTiming s;
    s.name = name;
    s.status = "unavailable";
    s.error = t.reason;
    t.solves.push_back(s);
  }
  return t;
}

}  // namespace hetsparse::bench
