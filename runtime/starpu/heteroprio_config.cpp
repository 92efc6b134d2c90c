// hetsparse's configuration of StarPU's heteroprio scheduler. heteroprio reads a task's priority as
// its bucket, and every arch mapped to a bucket must be able to run each of its tasks; planners give
// priorities along the critical path and restrict small tasks to CPUs and big ones to GPUs. So the
// priority range is cut into kBands critical-path bands, each with three buckets: CPU-only tasks,
// CUDA-only tasks, tasks that may run anywhere. CPU workers visit their own and the "anywhere"
// buckets from the most critical band down, CUDA workers likewise, and the CUDA workers are the
// faster kind for the shared buckets: a CPU worker takes an "anywhere" task only when that bucket
// holds many more than the GPUs can absorb (slow factor).
#include <starpu.h>
#include <starpu_heteroprio.h>

#include <algorithm>

#include "runtime/starpu/runtime_impl.hpp"

namespace hetsparse::rt {
namespace {

constexpr int kBands = 32;  // 3 * kBands buckets: within StarPU's HETEROPRIO_MAX_PRIO
enum Kind { CpuOnly = 0, CudaOnly = 1, Anywhere = 2 };
unsigned bucket(int band, Kind k) { return static_cast<unsigned>(3 * band + k); }

}  // namespace

int heteroprio_bucket(int priority, Where where) {
  const int lo = starpu_sched_get_min_priority(), hi = starpu_sched_get_max_priority();
  const int band = std::clamp(static_cast<int>((double(priority) - lo) * kBands / (double(hi) - lo + 1)), 0, kBands - 1);
  const Kind k = where == Where::Cpu ? CpuOnly : where == Where::Cuda ? CudaOnly : Anywhere;
  return static_cast<int>(bucket(band, k));
}

void configure_heteroprio(unsigned ctx) {
  const bool gpus = starpu_worker_get_count_by_type(STARPU_CUDA_WORKER) > 0;
  for (starpu_worker_archtype arch : {STARPU_CPU_WORKER, STARPU_CUDA_WORKER}) {
    if (starpu_worker_get_count_by_type(arch) <= 0) continue;
    const Kind own = arch == STARPU_CPU_WORKER ? CpuOnly : CudaOnly;
    starpu_heteroprio_set_nb_prios(ctx, arch, 2 * kBands);
    unsigned i = 0;
    for (int band = kBands - 1; band >= 0; --band) {  // most critical first
      starpu_heteroprio_set_mapping(ctx, arch, i++, bucket(band, own));
      starpu_heteroprio_set_mapping(ctx, arch, i++, bucket(band, Anywhere));
    }
  }
  if (!gpus) return;
  for (int band = 0; band < kBands; ++band) {
    starpu_heteroprio_set_faster_arch(ctx, STARPU_CUDA_WORKER, bucket(band, Anywhere));
    starpu_heteroprio_set_arch_slow_factor(ctx, STARPU_CPU_WORKER, bucket(band, Anywhere), kHeteroprioCpuSlowFactor);
  }
}

}  // namespace hetsparse::rt
