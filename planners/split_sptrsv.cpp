// The split SpTRSV's task chain: gather, part 1, update, part 2, scatter.
#include "planners/split_sptrsv.hpp"

#include "codelets/split/split_codelet.hpp"
#include "hetsparse/error.hpp"

namespace hetsparse::planners {

rt::Where split_update_where(rt::Where part1, rt::Where part2) {
  return part1 == rt::Where::Cuda || part2 == rt::Where::Cuda ? rt::Where::Cuda : rt::Where::Cpu;
}

void submit_split_solve(rt::TaskRuntime& rt, const SplitSolveShape& shape, const SplitSolveHandles& h,
                        const SplitPartSubmit& part1, const SplitPartSubmit& part2, rt::HandleId b, rt::HandleId x,
                        int nrhs) {
  if (!part1.submit || !part2.submit) throw InvalidArgument("submit_split_solve: a part has no submit function");
  if (b == x) throw InvalidArgument("submit_split_solve: b and x must be two handles");
  const codelets::SplitArgs args{shape.n1, shape.n2, nrhs};  // checked by the insert functions
  // Priorities: the number of the chain's tasks still to come, as a critical path would give them.
  rt::TaskOptions gather;
  gather.name = "split_gather";
  gather.priority = 4;
  gather.where = part1.where;
  codelets::insert_split_gather(rt, gather, h.order, b, h.b1, h.b2, args);
  part1.submit(h.b1, h.x1, nrhs);
  if (shape.a21_nnz > 0) {
    rt::TaskOptions update;
    update.name = "split_update";
    update.priority = 2;
    update.where = split_update_where(part1.where, part2.where);
    codelets::insert_split_update(rt, update, h.a21, h.x1, h.b2, args, shape.a21_nnz);
  }
  part2.submit(h.b2, h.x2, nrhs);
  rt::TaskOptions scatter;
  scatter.name = "split_scatter";
  scatter.priority = 0;
  scatter.where = part2.where;
  codelets::insert_split_scatter(rt, scatter, h.order, h.x1, h.x2, x, args);
}

}  // namespace hetsparse::planners
