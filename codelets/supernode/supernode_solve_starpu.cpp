// StarPU glue of the supernodal solve's tasks (forward, backward, collect, store, permute) and of the
// panel assembly: buffers and arguments to the kernels of kernels/supernode/supernode_solve.hpp.
#include <algorithm>
#include <string>
#include <vector>

#include "codelets/supernode/supernode_solve_codelet.hpp"
#include "codelets/support/cuda_libraries.hpp"
#include "codelets/support/starpu_binding.hpp"
#include "codelets/support/task_buffers.hpp"
#include "hetsparse/error.hpp"
#include "kernels/supernode/supernode_solve.hpp"

namespace hetsparse::codelets {
namespace {

// The buffers every solve task starts with: unknowns, panels, row lists, external rows.
struct SolveBuffers {
  double* x;
  const double* panels;
  const std::int32_t* rows;
  const std::int32_t* ext_rows;
  SolveBuffers(void* b[])
      : x(rt::vector_ptr<double>(b[0])),
        panels(rt::vector_ptr<const double>(b[1])),
        rows(rt::vector_ptr<const std::int32_t>(b[2])),
        ext_rows(rt::vector_ptr<const std::int32_t>(b[3])) {}
};

double* optional_buffer(void* b[], std::int32_t index) {
  return index >= 0 ? rt::vector_ptr<double>(b[index]) : nullptr;
}

int rows_of(const SolveGroupArgs& g) { return g.c1 - g.c0; }

// Forward: contributions of sources into x (compact = the source's external block).
std::vector<kernels::SolveMove> forward_moves(void* b[], const void* cl_arg, const SolveForwardHeader& h,
                                              const SolveBuffers& s) {
  std::vector<kernels::SolveMove> moves;
  for (const SolveLinkItem& it : rt::task_items<SolveForwardHeader, SolveLinkItem>(cl_arg, h.count))
    moves.push_back({rt::vector_ptr<double>(b[it.buffer]), s.ext_rows + it.src_ext_offset, s.x, it.p0, it.p1, it.ld,
                     h.g.c0, rows_of(h.g), rows_of(h.g)});
  return moves;
}

// Backward: ancestors' unknowns into the group's external block.
std::vector<kernels::SolveMove> backward_moves(void* b[], const void* cl_arg, const SolveBackwardHeader& h,
                                               const SolveBuffers& s, double* ext) {
  std::vector<kernels::SolveMove> moves;
  for (const SolveLinkItem& it : rt::task_items<SolveBackwardHeader, SolveLinkItem>(cl_arg, h.count))
    moves.push_back({ext, s.ext_rows + h.g.ext_offset, rt::vector_ptr<double>(b[it.buffer]), it.p0, it.p1,
                     std::max(1, h.g.next), it.c0, it.ld, it.ld});
  return moves;
}

kernels::SolveGroup cpu_group(const SolveGroupArgs& g, const SolveBuffers& s) {
  return {g.loc, s.rows, s.panels, s.ext_rows + g.ext_offset, g.first, g.last, g.c0, g.c1, g.next, 0};
}

double* cpu_work(std::size_t doubles) {
  thread_local std::vector<double> work;
  if (work.size() < doubles) work.resize(doubles);
  return work.data();
}

// The GPU tasks solve one supernode: the panel of the group's handle, its rows below = its external rows.
kernels::ConstPanelRef gpu_panel(const SolveGroupArgs& g, const SolveBuffers& s) {
  if (g.last != g.first + 1)
    throw InvalidArgument("sn_solve on CUDA: group of supernodes [" + std::to_string(g.first) + ", " +
                          std::to_string(g.last) + ") has more than one (leaf subtrees stay on CPUs)");
  return {s.panels, nullptr, g.top.nrows, g.top.ncols, g.top.first_col};
}

struct ForwardTasks {
  static void cpu(void* b[], void* cl_arg) {
    const auto h = rt::task_args<SolveForwardHeader>(cl_arg);
    const SolveBuffers s(b);
    const int rows = rows_of(h.g);
    if (h.init) {
      if (h.stage_buffer >= 0) {
        kernels::supernode_solve_permute_cpu(rt::vector_ptr<const double>(b[h.stage_buffer]) + h.g.c0, h.n, nullptr,
                                             rows, h.g.nrhs, s.x, rows);
      } else {
        kernels::supernode_solve_permute_cpu(h.host_b, h.ldb, h.host_perm + h.g.c0, rows, h.g.nrhs, s.x, rows);
      }
    }
    const auto moves = forward_moves(b, cl_arg, h, s);
    kernels::supernode_solve_subtract_cpu(moves.data(), static_cast<int>(moves.size()), h.g.nrhs);
    if (!h.solve) return;
    const kernels::SolveGroup g = cpu_group(h.g, s);
    kernels::supernode_group_forward_cpu(g, s.x, rows, optional_buffer(b, h.ext_buffer), std::max(1, h.g.next),
                                         h.g.nrhs, cpu_work(kernels::supernode_group_solve_work_doubles(g, h.g.nrhs)));
  }
  static void cuda(void* b[], void* cl_arg) {
    const auto h = rt::task_args<SolveForwardHeader>(cl_arg);
    const SolveBuffers s(b);
    const int rows = rows_of(h.g);
    cudaStream_t stream = rt::cuda::local_stream();
    if (h.init)  // a CUDA task always starts from the stage
      kernels::supernode_solve_permute_cuda(stream, rt::vector_ptr<const double>(b[h.stage_buffer]) + h.g.c0, h.n,
                                            nullptr, rows, h.g.nrhs, s.x, rows);
    const auto moves = forward_moves(b, cl_arg, h, s);
    kernels::supernode_solve_subtract_cuda(stream, moves.data(), static_cast<int>(moves.size()), h.g.nrhs);
    if (!h.solve) return;
    kernels::supernode_panel_forward_cuda(rt::cuda::local_cublas(), stream, gpu_panel(h.g, s), s.x, rows,
                                          optional_buffer(b, h.ext_buffer), std::max(1, h.g.next), h.g.nrhs);
  }
};

struct BackwardTasks {
  static void cpu(void* b[], void* cl_arg) {
    const auto h = rt::task_args<SolveBackwardHeader>(cl_arg);
    const SolveBuffers s(b);
    double* ext = optional_buffer(b, h.ext_buffer);
    const auto moves = backward_moves(b, cl_arg, h, s, ext);
    kernels::supernode_solve_gather_cpu(moves.data(), static_cast<int>(moves.size()), h.g.nrhs);
    if (!h.solve) return;
    const kernels::SolveGroup g = cpu_group(h.g, s);
    kernels::supernode_group_backward_cpu(g, s.x, rows_of(h.g), ext, std::max(1, h.g.next), h.g.nrhs,
                                          cpu_work(kernels::supernode_group_solve_work_doubles(g, h.g.nrhs)));
  }
  static void cuda(void* b[], void* cl_arg) {
    const auto h = rt::task_args<SolveBackwardHeader>(cl_arg);
    const SolveBuffers s(b);
    double* ext = optional_buffer(b, h.ext_buffer);
    cudaStream_t stream = rt::cuda::local_stream();
    const auto moves = backward_moves(b, cl_arg, h, s, ext);
    kernels::supernode_solve_gather_cuda(stream, moves.data(), static_cast<int>(moves.size()), h.g.nrhs);
    if (!h.solve) return;
    kernels::supernode_panel_backward_cuda(rt::cuda::local_cublas(), stream, gpu_panel(h.g, s), s.x, rows_of(h.g),
                                           ext, std::max(1, h.g.next), h.g.nrhs);
  }
};

std::vector<kernels::SolveBlock> blocks(void* b[], const void* cl_arg, const SolveStoreHeader& h) {
  std::vector<kernels::SolveBlock> out;
  for (const SolveStoreItem& it : rt::task_items<SolveStoreHeader, SolveStoreItem>(cl_arg, h.count))
    out.push_back({rt::vector_ptr<const double>(b[it.buffer]) + it.row0, it.c0, it.c1, it.ld});
  return out;
}

struct CollectTasks {
  static void cpu(void* b[], void* cl_arg) {
    const auto h = rt::task_args<SolveStoreHeader>(cl_arg);
    const auto bs = blocks(b, cl_arg, h);
    kernels::supernode_solve_store_cpu(bs.data(), h.count, h.host_perm, h.nrhs, h.host_out, h.ldo);
  }
};

struct StoreTasks {
  static void cpu(void* b[], void* cl_arg) {
    const auto h = rt::task_args<SolveStoreHeader>(cl_arg);
    const auto bs = blocks(b, cl_arg, h);
    kernels::supernode_solve_store_cpu(bs.data(), h.count, h.identity ? nullptr : rt::vector_ptr<const std::int32_t>(b[1]),
                                       h.nrhs, rt::vector_ptr<double>(b[0]), h.ldo);
  }
  static void cuda(void* b[], void* cl_arg) {
    const auto h = rt::task_args<SolveStoreHeader>(cl_arg);
    const auto bs = blocks(b, cl_arg, h);
    kernels::supernode_solve_store_cuda(rt::cuda::local_stream(), bs.data(), h.count,
                                        h.identity ? nullptr : rt::vector_ptr<const std::int32_t>(b[1]), h.nrhs,
                                        rt::vector_ptr<double>(b[0]), h.ldo);
  }
};

struct PermuteTasks {
  static void cpu(void* b[], void* cl_arg) {
    const auto a = rt::task_args<SolvePermuteArgs>(cl_arg);
    kernels::supernode_solve_permute_cpu(rt::vector_ptr<const double>(b[0]), a.ldi,
                                         rt::vector_ptr<const std::int32_t>(b[1]), a.n, a.nrhs,
                                         rt::vector_ptr<double>(b[2]), a.n);
  }
  static void cuda(void* b[], void* cl_arg) {
    const auto a = rt::task_args<SolvePermuteArgs>(cl_arg);
    kernels::supernode_solve_permute_cuda(rt::cuda::local_stream(), rt::vector_ptr<const double>(b[0]), a.ldi,
                                          rt::vector_ptr<const std::int32_t>(b[1]), a.n, a.nrhs,
                                          rt::vector_ptr<double>(b[2]), a.n);
  }
};

struct AssembleTasks {
  static void cpu(void* b[], void* cl_arg) {
    const auto a = rt::task_args<AssembleArgs>(cl_arg);
    kernels::supernode_assemble_cpu(rt::vector_ptr<double>(b[0]), a.count,
                                    rt::vector_ptr<const double>(b[1]) + a.entry_offset,
                                    rt::vector_ptr<const std::int64_t>(b[2]) + a.entry_offset, a.entries);
  }
  static void cuda(void* b[], void* cl_arg) {
    const auto a = rt::task_args<AssembleArgs>(cl_arg);
    kernels::supernode_assemble_cuda(rt::cuda::local_stream(), rt::vector_ptr<double>(b[0]), a.count,
                                     rt::vector_ptr<const double>(b[1]) + a.entry_offset,
                                     rt::vector_ptr<const std::int64_t>(b[2]) + a.entry_offset, a.entries);
  }
};

// A level task's panels and schedule from its buffers (pointers of the worker's memory) and arguments.
struct LevelCall {
  LevelSolveLevels levels;
  LevelSolveHeader h;
  kernels::LevelSolvePanels panels{};
  kernels::LevelSolveSchedule schedule{};
  const kernels::PanelLocation* loc;
  const std::int32_t* rows;
  double* stage;
  LevelCall(void* b[], const void* cl_arg)
      : h(solve_levels_args(cl_arg, levels)),
        loc(rt::vector_ptr<const kernels::PanelLocation>(b[1])),
        rows(rt::vector_ptr<const std::int32_t>(b[0])),
        stage(rt::vector_ptr<double>(b[2])) {
    for (int k = 0; k < h.groups; ++k) panels.values[k] = rt::vector_ptr<const double>(b[kLevelFirstPanel + k]);
    schedule = {rt::vector_ptr<const kernels::LevelSolveEntry>(b[3]), levels.segments.data(), levels.tiles.data(),
                levels.wide.data(), h.levels};
  }
};

struct LevelTasks {
  static void cpu(void* b[], void* cl_arg) {
    const LevelCall c(b, cl_arg);
    if (c.h.forward) {
      kernels::supernode_levels_forward_cpu(c.panels, c.schedule, c.loc, c.rows, c.stage, c.h.ldn, c.h.nrhs);
    } else {
      kernels::supernode_levels_backward_cpu(c.panels, c.schedule, c.loc, c.rows, c.stage, c.h.ldn, c.h.nrhs);
    }
  }
  static void cuda(void* b[], void* cl_arg) {
    const LevelCall c(b, cl_arg);
    cudaStream_t stream = rt::cuda::local_stream();
    cublasHandle_t handle = rt::cuda::local_cublas();
    if (c.h.forward) {
      kernels::supernode_levels_forward_cuda(handle, stream, c.panels, c.schedule, c.loc, c.rows, c.stage, c.h.ldn,
                                             c.h.nrhs);
    } else {
      kernels::supernode_levels_backward_cuda(handle, stream, c.panels, c.schedule, c.loc, c.rows, c.stage, c.h.ldn,
                                              c.h.nrhs);
    }
  }
};

// One group of a sweep task at a time, the same kernels as its own forward / backward task.
struct SweepStep {
  const SolveSweepItem& it;
  const double* panels;
  double* x;
  double* ext;
  int n, ldc;
  const std::vector<kernels::SolveMove>& moves;
};
struct SweepTasks {
  template <class Step>
  static void each(void* b[], void* cl_arg, Step&& step) {
    const auto h = rt::task_args<SolveSweepHeader>(cl_arg);
    const auto items = rt::task_items<SolveSweepHeader, SolveSweepItem>(cl_arg, h.count);
    const auto* ext_rows = rt::vector_ptr<const std::int32_t>(b[1]);
    std::vector<kernels::SolveMove> moves;
    for (std::size_t i = 0; i < items.size();) {
      const SolveSweepItem& it = items[i];
      double* x = rt::vector_ptr<double>(b[it.x]);
      double* ext = it.ext >= 0 ? rt::vector_ptr<double>(b[it.ext]) : nullptr;
      const int n = it.c1 - it.c0, ldc = std::max(1, it.next);
      moves.clear();
      for (++i; i < items.size() && items[i].kind == 1; ++i) {
        const SolveSweepItem& l = items[i];
        double* other = rt::vector_ptr<double>(b[l.x]);
        if (h.forward) {  // the source's external block into x
          moves.push_back({other, ext_rows + l.ext_offset, x, l.p0, l.p1, l.ld, it.c0, n, n});
        } else {  // the target's unknowns into ext
          moves.push_back({ext, ext_rows + it.ext_offset, other, l.p0, l.p1, ldc, l.lc0, l.ld, l.ld});
        }
      }
      step(h, SweepStep{it, rt::vector_ptr<const double>(b[it.panels]), x, ext, n, ldc, moves});
    }
  }
  static void cpu(void* b[], void* cl_arg) {
    const auto* rows = rt::vector_ptr<const std::int32_t>(b[0]);
    const auto* ext_rows = rt::vector_ptr<const std::int32_t>(b[1]);
    each(b, cl_arg, [&](const SolveSweepHeader& h, const SweepStep& s) {
      const kernels::SolveGroup g{&s.it.top, rows, s.panels, ext_rows + s.it.ext_offset, 0, 1, s.it.c0, s.it.c1,
                                  s.it.next, 0};
      double* work = cpu_work(kernels::supernode_group_solve_work_doubles(g, h.nrhs));
      const int count = static_cast<int>(s.moves.size());
      if (h.forward) {
        kernels::supernode_solve_permute_cpu(rt::vector_ptr<const double>(b[2]) + s.it.c0, h.ldn, nullptr, s.n,
                                             h.nrhs, s.x, s.n);
        kernels::supernode_solve_subtract_cpu(s.moves.data(), count, h.nrhs);
        kernels::supernode_group_forward_cpu(g, s.x, s.n, s.ext, s.ldc, h.nrhs, work);
      } else {
        kernels::supernode_solve_gather_cpu(s.moves.data(), count, h.nrhs);
        kernels::supernode_group_backward_cpu(g, s.x, s.n, s.ext, s.ldc, h.nrhs, work);
      }
    });
  }
  static void cuda(void* b[], void* cl_arg) {
    cudaStream_t stream = rt::cuda::local_stream();
    cublasHandle_t handle = rt::cuda::local_cublas();
    each(b, cl_arg, [&](const SolveSweepHeader& h, const SweepStep& s) {
      const kernels::ConstPanelRef p{s.panels, nullptr, s.it.top.nrows, s.it.top.ncols, s.it.top.first_col};
      const int count = static_cast<int>(s.moves.size());
      if (h.forward) {
        kernels::supernode_solve_permute_cuda(stream, rt::vector_ptr<const double>(b[2]) + s.it.c0, h.ldn, nullptr,
                                              s.n, h.nrhs, s.x, s.n);
        kernels::supernode_solve_subtract_cuda(stream, s.moves.data(), count, h.nrhs);
        kernels::supernode_panel_forward_cuda(handle, stream, p, s.x, s.n, s.ext, s.ldc, h.nrhs);
      } else {
        kernels::supernode_solve_gather_cuda(stream, s.moves.data(), count, h.nrhs);
        kernels::supernode_panel_backward_cuda(handle, stream, p, s.x, s.n, s.ext, s.ldc, h.nrhs);
      }
    });
  }
};

}  // namespace

void bind_supernode_solve(rt::StarpuBindings& b) {
  b.bind<LevelTasks>(supernode_solve_levels_kernel());
  b.bind<SweepTasks>(supernode_solve_sweep_kernel());
  b.bind<ForwardTasks>(supernode_solve_forward_kernel());
  b.bind<BackwardTasks>(supernode_solve_backward_kernel());
  b.bind<CollectTasks>(supernode_solve_collect_kernel());
  b.bind<StoreTasks>(supernode_solve_store_kernel());
  b.bind<PermuteTasks>(supernode_solve_permute_kernel());
  b.bind<AssembleTasks>(supernode_assemble_kernel());
}

}  // namespace hetsparse::codelets
