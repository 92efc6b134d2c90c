// CPU solve modes and the per-level task planner.
#include "sptrsv/cpu_solve.hpp"

#include "codelets/sptrsv/sptrsv_level_codelets.hpp"
#include "hetsparse/error.hpp"
#include "sparse/named_values.hpp"

namespace hetsparse::sptrsv {

namespace {
constexpr Named<CpuMode> kCpuModes[] = {
    {CpuMode::Serial, "serial"}, {CpuMode::ParallelTask, "parallel-task"}, {CpuMode::LevelTasks, "level-tasks"}};
}  // namespace

CpuMode parse_cpu_mode(const std::string& name) { return parse_named(name, kCpuModes, "CPU solve mode"); }

const char* to_string(CpuMode m) { return name_of(m, kCpuModes); }

LevelTaskPlanner::LevelTaskPlanner(rt::TaskRuntime& rt, const LevelTaskOptions& options)
    : rt_(rt), options_(options) {
  if (options.chunks < 1 || options.min_entries_per_task < 1)
    throw InvalidArgument("LevelTaskPlanner: chunks and min_entries_per_task must be at least 1");
  for (int i = 0; i < 2 * options.chunks; ++i) tokens_.emplace_back(rt, rt.register_temporary(1, 1));
}

void LevelTaskPlanner::submit(const kernels::TriangularView& view, const codelets::SptrsvMatrixHandles& T,
                              rt::HandleId b, rt::HandleId x, index_t nrhs) {
  if (planned_for_ != view.level_ptr || planned_n_ != view.n || planned_nrhs_ != nrhs) {
    steps_ = kernels::plan_level_steps(view, nrhs, options_.chunks, options_.min_entries_per_task);
    planned_for_ = view.level_ptr;
    planned_n_ = view.n;
    planned_nrhs_ = nrhs;
  }
  codelets::SptrsvLevelParams params;
  params.n = view.n;
  params.upper = view.upper;
  params.nrhs = nrhs;
  // Stored entries of positions [begin, end): the flops (and perf model size) of a task.
  const auto entries = [&view](index_t begin, index_t end) -> std::int64_t {
    if (view.level_rowptr != nullptr) return std::int64_t{view.level_rowptr[end]} - view.level_rowptr[begin];
    std::int64_t e = 0;
    for (index_t pos = begin; pos < end; ++pos)
      e += view.rowptr[view.level_rows[pos] + 1] - view.rowptr[view.level_rows[pos]];
    return e;
  };

  rt::TaskOptions fence;
  fence.name = "sptrsv_level_open";
  fence.where = rt::Where::Cpu;
  codelets::insert_sptrsv_level_fence(rt_, fence, x, rt::Access::Write);
  tasks_ = 1;
  std::vector<rt::HandleId> previous;  // the tokens the last step's tasks wrote
  std::vector<rt::HandleId> written;
  rt::TaskOptions share;
  share.where = rt::Where::Cpu;
  const auto chunks = static_cast<std::size_t>(options_.chunks);
  for (std::size_t s = 0; s < steps_.size(); ++s) {
    const kernels::LevelStep& step = steps_[s];
    written.clear();
    const std::size_t shares = step.shared() ? step.cuts.size() - 1 : 1;
    share.name = step.shared() ? "sptrsv_level_share" : "sptrsv_level_run";
    for (std::size_t i = 0; i < shares; ++i) {
      const index_t begin = step.shared() ? step.cuts[i] : step.begin;
      const index_t end = step.shared() ? step.cuts[i + 1] : step.end;
      if (begin == end) continue;  // an empty share: no task
      std::vector<rt::DataAccess> order;
      order.reserve(previous.size() + 1);
      for (rt::HandleId h : previous) order.push_back({h, rt::Access::Read});
      const rt::HandleId token = tokens_[(s % 2) * chunks + i].id();
      order.push_back({token, rt::Access::Write});
      written.push_back(token);
      codelets::insert_sptrsv_level_range(rt_, share, T, b, x, params, begin, end, entries(begin, end), order);
      ++tasks_;
    }
    previous.swap(written);
  }
  fence.name = "sptrsv_level_close";
  codelets::insert_sptrsv_level_fence(rt_, fence, x, rt::Access::ReadWrite);
  ++tasks_;
}

}  // namespace hetsparse::sptrsv
