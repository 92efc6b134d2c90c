// The supernodal solve's tasks and the GPU assembly task: kernels and insert functions (no StarPU;
// the glue is supernode_solve_starpu.cpp).
#include "codelets/supernode/supernode_solve_codelet.hpp"

#include <cstring>
#include <map>

#include "codelets/cuda_build.hpp"
#include "hetsparse/error.hpp"
#include "kernels/supernode/supernode_solve.hpp"

namespace hetsparse::codelets {
namespace {

// Buffers for the links from data.size() on, one per distinct handle; items name their buffer.
std::vector<SolveLinkItem> add_links(rt::TaskSpec& s, const std::vector<SolveLink>& links) {
  std::map<rt::HandleId, std::int32_t> buffer;
  std::vector<SolveLinkItem> items;
  for (const SolveLink& l : links) {
    auto [it, fresh] = buffer.try_emplace(l.handle, static_cast<std::int32_t>(s.data.size()));
    if (fresh) s.data.push_back({l.handle, rt::Access::Read});
    items.push_back({l.src_ext_offset, it->second, l.p0, l.p1, l.c0, l.ld, 0});
  }
  return items;
}

// One buffer per distinct handle (several blocks may lie in one, e.g. a stage).
std::vector<SolveStoreItem> add_blocks(rt::TaskSpec& s, const std::vector<SolveBlockRef>& blocks) {
  std::map<rt::HandleId, std::int32_t> buffer;
  std::vector<SolveStoreItem> items;
  for (const SolveBlockRef& b : blocks) {
    auto [it, fresh] = buffer.try_emplace(b.x, static_cast<std::int32_t>(s.data.size()));
    if (fresh) s.data.push_back({b.x, rt::Access::Read});
    items.push_back({it->second, b.c0, b.c1, b.row0, b.ld, 0});
  }
  return items;
}

}  // namespace

const rt::Kernel& supernode_solve_forward_kernel() {
  static const rt::Kernel k{"sn_solve_forward", kCpuAndCuda};
  return k;
}
const rt::Kernel& supernode_solve_backward_kernel() {
  static const rt::Kernel k{"sn_solve_backward", kCpuAndCuda};
  return k;
}
const rt::Kernel& supernode_solve_collect_kernel() {
  static const rt::Kernel k{"sn_solve_collect", rt::Device::Cpu};
  return k;
}
const rt::Kernel& supernode_solve_store_kernel() {
  static const rt::Kernel k{"sn_solve_store", kCpuAndCuda};
  return k;
}
const rt::Kernel& supernode_solve_permute_kernel() {
  static const rt::Kernel k{"sn_solve_permute", kCpuAndCuda};
  return k;
}
const rt::Kernel& supernode_assemble_kernel() {
  static const rt::Kernel k{"sn_assemble", kCpuAndCuda};
  return k;
}

void insert_solve_forward(rt::TaskRuntime& rt, const rt::TaskOptions& opt, const SolveGroupArgs& g,
                          const SolveFactorData& f, rt::HandleId x, rt::HandleId ext, bool init, bool solve,
                          const SolveInput& in, const std::vector<SolveLink>& from) {
  if (init && in.stage == 0 && (in.host_b == nullptr || opt.where != rt::Where::Cpu))
    throw InvalidArgument("insert_solve_forward: task '" + opt.name + "' reads a host right-hand side off a CPU");
  rt::TaskSpec s = rt::make_task(supernode_solve_forward_kernel(), opt, 0.0);
  s.data = {{x, init ? rt::Access::Write : rt::Access::ReadWrite},
            {f.panels, rt::Access::Read},
            {f.rows, rt::Access::Read},
            {f.ext_rows, rt::Access::Read}};
  SolveForwardHeader h{g, in.host_b, in.host_perm, in.ldb, in.n, init, solve, -1, -1, 0, 0};
  if (solve && g.next > 0) {
    h.ext_buffer = static_cast<std::int32_t>(s.data.size());
    s.data.push_back({ext, rt::Access::Write});
  }
  if (init && in.stage != 0) {
    h.stage_buffer = static_cast<std::int32_t>(s.data.size());
    s.data.push_back({in.stage, rt::Access::Read});
  }
  const auto items = add_links(s, from);
  h.count = static_cast<std::int32_t>(items.size());
  s.set_args(h, items);
  rt.submit(std::move(s));
}

void insert_solve_backward(rt::TaskRuntime& rt, const rt::TaskOptions& opt, const SolveGroupArgs& g,
                           const SolveFactorData& f, rt::HandleId x, rt::HandleId ext, bool first_gather, bool solve,
                           const std::vector<SolveLink>& to) {
  rt::TaskSpec s = rt::make_task(supernode_solve_backward_kernel(), opt, 0.0);
  s.data = {{x, solve ? rt::Access::ReadWrite : rt::Access::Read},
            {f.panels, rt::Access::Read},
            {f.rows, rt::Access::Read},
            {f.ext_rows, rt::Access::Read}};
  SolveBackwardHeader h{g, solve, -1, 0, 0};
  if (g.next > 0) {
    h.ext_buffer = static_cast<std::int32_t>(s.data.size());
    s.data.push_back({ext, first_gather ? rt::Access::Write : rt::Access::ReadWrite});
  }
  const auto items = add_links(s, to);
  h.count = static_cast<std::int32_t>(items.size());
  s.set_args(h, items);
  rt.submit(std::move(s));
}

void insert_solve_collect(rt::TaskRuntime& rt, const rt::TaskOptions& opt, const std::vector<SolveBlockRef>& blocks,
                          double* out, int ldo, const std::int32_t* host_perm, int nrhs) {
  rt::TaskSpec s = rt::make_task(supernode_solve_collect_kernel(), opt, 0.0);
  const auto items = add_blocks(s, blocks);
  s.set_args(SolveStoreHeader{out, host_perm, ldo, nrhs, static_cast<std::int32_t>(items.size()), 0}, items);
  rt.submit(std::move(s));
}

void insert_solve_store(rt::TaskRuntime& rt, const rt::TaskOptions& opt, const std::vector<SolveBlockRef>& blocks,
                        rt::HandleId out, int ldo, rt::HandleId perm, int nrhs) {
  rt::TaskSpec s = rt::make_task(supernode_solve_store_kernel(), opt, 0.0);
  s.data = {{out, rt::Access::ReadWrite}};
  if (perm) s.data.push_back({perm, rt::Access::Read});
  const auto items = add_blocks(s, blocks);
  s.set_args(SolveStoreHeader{nullptr, nullptr, ldo, nrhs, static_cast<std::int32_t>(items.size()), perm ? 0 : 1},
             items);
  rt.submit(std::move(s));
}

void insert_solve_permute(rt::TaskRuntime& rt, const rt::TaskOptions& opt, rt::HandleId in, int ldi,
                          rt::HandleId perm, rt::HandleId stage, int n, int nrhs) {
  rt::TaskSpec s = rt::make_task(supernode_solve_permute_kernel(), opt, 0.0);
  s.data = {{in, rt::Access::Read}, {perm, rt::Access::Read}, {stage, rt::Access::Write}};
  s.set_args(SolvePermuteArgs{n, nrhs, ldi, 0});
  rt.submit(std::move(s));
}

const rt::Kernel& supernode_solve_levels_kernel() {
  static const rt::Kernel k{"sn_solve_levels", kCpuAndCuda};
  return k;
}

namespace {
template <class T>
void append(std::vector<unsigned char>& out, const T* items, std::size_t count) {
  const std::size_t at = out.size();
  out.resize(at + count * sizeof(T));
  if (count) std::memcpy(out.data() + at, items, count * sizeof(T));
}
template <class T>
const unsigned char* take(const unsigned char* in, std::vector<T>& items, std::size_t count) {
  items.resize(count);
  if (count) std::memcpy(items.data(), in, count * sizeof(T));
  return in + count * sizeof(T);
}
}  // namespace

void insert_solve_levels(rt::TaskRuntime& rt, const rt::TaskOptions& opt, bool forward, rt::HandleId rows,
                         rt::HandleId loc, rt::HandleId stage, rt::HandleId entries, int ldn, int nrhs,
                         const std::vector<rt::HandleId>& panels, const LevelSolveLevels& levels) {
  const std::size_t L = levels.tiles.size();
  if (panels.empty() || panels.size() > std::size_t(kernels::kLevelSolveMaxGroups) ||
      panels.size() + kLevelFirstPanel > rt::kMaxTaskData || levels.segments.size() != 3 * L + 1)
    throw InvalidArgument("insert_solve_levels: task '" + opt.name + "' has " + std::to_string(panels.size()) +
                          " groups (1 to " + std::to_string(kernels::kLevelSolveMaxGroups) + "), " +
                          std::to_string(levels.segments.size()) + " segment bounds for " + std::to_string(L) +
                          " levels (3 per level and one)");
  rt::TaskSpec s = rt::make_task(supernode_solve_levels_kernel(), opt, 0.0);
  s.data = {{rows, rt::Access::Read}, {loc, rt::Access::Read}, {stage, rt::Access::ReadWrite}, {entries, rt::Access::Read}};
  for (rt::HandleId p : panels) s.data.push_back({p, rt::Access::Read});
  const LevelSolveHeader h{forward, nrhs, ldn, static_cast<std::int32_t>(panels.size()), static_cast<std::int32_t>(L),
                           static_cast<std::int32_t>(levels.wide.size())};
  append(s.args, &h, 1);  // 24 bytes: the wide items (8-byte fields) stay aligned
  append(s.args, levels.wide.data(), levels.wide.size());
  append(s.args, levels.segments.data(), levels.segments.size());
  append(s.args, levels.tiles.data(), levels.tiles.size());
  rt.submit(std::move(s));
}

LevelSolveHeader solve_levels_args(const void* cl_arg, LevelSolveLevels& levels) {
  LevelSolveHeader h;
  const auto* in = static_cast<const unsigned char*>(cl_arg);
  std::memcpy(&h, in, sizeof(h));
  in = take(in + sizeof(h), levels.wide, static_cast<std::size_t>(h.wide));
  in = take(in, levels.segments, 3 * static_cast<std::size_t>(h.levels) + 1);
  take(in, levels.tiles, static_cast<std::size_t>(h.levels));
  return h;
}

const rt::Kernel& supernode_solve_sweep_kernel() {
  static const rt::Kernel k{"sn_solve_sweep", kCpuAndCuda};
  return k;
}

namespace {

// The buffers of a sweep in order, with their access: a handle read before the sweep writes it
// needs its data (Read, or ReadWrite when the sweep writes it later); one the sweep writes first is
// Write.
struct SweepBuffers {
  std::vector<rt::DataAccess> data;
  std::map<rt::HandleId, std::int32_t> index;
  std::vector<bool> read_first, written;
  std::int32_t use(rt::HandleId h, bool write) {
    auto [it, fresh] = index.try_emplace(h, static_cast<std::int32_t>(data.size()));
    if (fresh) {
      data.push_back({h, rt::Access::Read});
      read_first.push_back(!write);
      written.push_back(write);
    } else if (write) {
      written[it->second] = true;
    }
    return it->second;
  }
};

SweepBuffers sweep_buffers(bool forward, rt::HandleId rows, rt::HandleId ext_rows, rt::HandleId stage,
                           const std::vector<SweepGroup>& groups, std::vector<SolveSweepItem>* items) {
  SweepBuffers b;
  b.use(rows, false);
  b.use(ext_rows, false);
  if (forward) b.use(stage, false);
  for (const SweepGroup& sg : groups) {
    const SolveGroupArgs& g = sg.g;
    SolveSweepItem it{g.top, g.ext_offset, 0, 0, 0, -1, g.c0, g.c1, g.next, 0, 0, 0, 0, 0};
    it.panels = b.use(sg.panels, false);
    std::vector<SolveSweepItem> links;
    for (const SolveLink& l : sg.links) {  // read before the group writes anything
      SolveSweepItem li{};
      li.kind = 1;
      li.x = b.use(l.handle, false);
      li.ext_offset = l.src_ext_offset;
      li.p0 = l.p0;
      li.p1 = l.p1;
      li.lc0 = l.c0;
      li.ld = l.ld;
      links.push_back(li);
    }
    // Forward: x overwritten from the stage; backward: x read (the forward's result) and solved.
    it.x = b.use(sg.x, forward);
    if (!forward) b.written[it.x] = true;
    if (g.next > 0) it.ext = b.use(sg.ext, true);
    if (items) {
      items->push_back(it);
      items->insert(items->end(), links.begin(), links.end());
    }
  }
  for (std::size_t i = 0; i < b.data.size(); ++i)
    if (b.written[i]) b.data[i].mode = b.read_first[i] ? rt::Access::ReadWrite : rt::Access::Write;
  return b;
}

}  // namespace

void insert_solve_sweep(rt::TaskRuntime& rt, const rt::TaskOptions& opt, bool forward, rt::HandleId rows,
                        rt::HandleId ext_rows, rt::HandleId stage, int ldn, int nrhs,
                        const std::vector<SweepGroup>& groups) {
  for (const SweepGroup& sg : groups)
    if (sg.g.last != sg.g.first + 1 || (sg.g.next > 0 && sg.ext == 0))
      throw InvalidArgument("insert_solve_sweep: task '" + opt.name + "' has a group of several supernodes or " +
                            "without its external block");
  rt::TaskSpec s = rt::make_task(supernode_solve_sweep_kernel(), opt, 0.0);
  std::vector<SolveSweepItem> items;
  SweepBuffers b = sweep_buffers(forward, rows, ext_rows, stage, groups, &items);
  if (b.data.size() > rt::kMaxTaskData)
    throw InvalidArgument("insert_solve_sweep: task '" + opt.name + "' takes more than kMaxTaskData handles");
  s.data = std::move(b.data);
  s.set_args(SolveSweepHeader{forward, nrhs, ldn, static_cast<std::int32_t>(items.size())}, items);
  rt.submit(std::move(s));
}

void insert_supernode_assemble(rt::TaskRuntime& rt, const rt::TaskOptions& opt, rt::HandleId group,
                               rt::HandleId values, rt::HandleId positions, const AssembleArgs& a) {
  rt::TaskSpec s = rt::make_task(supernode_assemble_kernel(), opt, 0.0);
  s.data = {{group, rt::Access::Write}, {values, rt::Access::Read}, {positions, rt::Access::Read}};
  s.set_args(a);
  rt.submit(std::move(s));
}

}  // namespace hetsparse::codelets
