#include "cholesky/autotune/recorded_dag.hpp"

#include <utility>

#include "runtime/recording_runtime.hpp"

namespace hetsparse::cholesky::autotune {
namespace {

// The recording runtime, counting the handles registered (by us or by the planner): each costs a
// registration and an unregistration in a real run.
class CountingRecorder final : public rt::TaskRuntime {
 public:
  explicit CountingRecorder(int cuda_workers) { rec.set_cuda_workers(cuda_workers); }
  rt::HandleId register_vector(const rt::VectorDesc& d) override { return ++handles, rec.register_vector(d); }
  rt::HandleId register_matrix(const rt::MatrixDesc& d) override { return ++handles, rec.register_matrix(d); }
  rt::HandleId register_csr(const rt::CsrDesc& d) override { return ++handles, rec.register_csr(d); }
  rt::HandleId register_temporary(std::size_t n, std::size_t elem) override {
    return ++handles, rec.register_temporary(n, elem);
  }
  void unregister(rt::HandleId h) override { rec.unregister(h); }
  void submit(rt::TaskSpec t) override { rec.submit(std::move(t)); }
  void wait_all() override {}
  int min_priority() const override { return rec.min_priority(); }
  int max_priority() const override { return rec.max_priority(); }
  // The planner sends a top panel's tasks to the GPU only when the machine has one.
  int cpu_workers() const override { return rec.cpu_workers(); }
  int cuda_workers() const override { return rec.cuda_workers(); }

  rt::RecordingRuntime rec;
  std::size_t handles = 0;
};

// The one call into the planner: its signature follows the planner's (keep this the only place).
// The handles are those CholeskySolver registers, with their shapes but no memory (nothing reads it).
void plan_factorization(rt::TaskRuntime& rt, const SymbolicFactor& sym, const planners::SizeClassThresholds& th) {
  const planners::FactorLayout layout = planners::plan_factor_layout(sym, th.subtree_max_flops);
  std::vector<int> info(sym.supernodes.size());
  const planners::RegisteredFactor data(rt, sym, layout, nullptr, info.data());
  planners::submit_supernodal_cholesky(rt, sym, layout, data, th);
}

}  // namespace

bool has_cuda_implementation(const rt::Kernel& kernel) { return kernel.devices.has(rt::Device::Cuda); }

planners::SizeClassThresholds applied_thresholds(const SymbolicFactor& sym, const planners::SizeClassThresholds& th) {
  planners::SizeClassThresholds out = th;
  out.subtree_max_flops = planners::plan_factor_layout(sym, th.subtree_max_flops).subtree_max_flops;
  return out;
}

TaskGraph record_factorization_dag(const SymbolicFactor& sym, const planners::SizeClassThresholds& th,
                                   int cuda_workers) {
  CountingRecorder rt(cuda_workers);
  plan_factorization(rt, sym, th);
  TaskGraph g;
  g.handles = rt.handles;
  g.tasks.reserve(rt.rec.tasks().size());
  for (const rt::RecordingRuntime::Task& t : rt.rec.tasks())
    g.tasks.push_back({t.kernel, t.spec.flops, t.spec.where, has_cuda_implementation(*t.spec.kernel), t.spec.priority,
                       t.deps});
  return g;
}

}  // namespace hetsparse::cholesky::autotune
