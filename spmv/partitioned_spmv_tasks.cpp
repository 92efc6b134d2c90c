// PartitionedSpmv's tasks: the merges it plans once, and each product's part and merge tasks.
#include <map>
#include <string>

#include "hetsparse/error.hpp"
#include "spmv/partitioned_spmv.hpp"
#include "spmv/partitioned_spmv_internal.hpp"

namespace hetsparse {

using planners::PartitionFormat;

namespace {

bool same_memory(const planners::PartHome& a, const planners::PartHome& b) {
  return a.cpu ? b.cpu : (!b.cpu && a.device == b.device);
}

}  // namespace

rt::TaskOptions PartitionedSpmv::options_at(const planners::PartHome& home, const std::string& name,
                                            int priority) const {
  rt::TaskOptions o;
  o.name = name;
  o.priority = priority;
  if (home.cpu) {
    o.where = rt::Where::Cpu;
    o.workers.numa_node = home.numa;  // -1 (unknown node): any CPU worker
  } else {
    o.where = rt::Where::Cuda;
    o.workers.cuda_device = home.device;
    o.direct = true;  // a product is latency-bound: past the scheduler when the device has one worker
    o.launch_inline = launch_inline_;
  }
  return o;
}

rt::TaskOptions PartitionedSpmv::merge_options(const std::string& name) const {
  planners::PartHome at;
  at.cpu = merge_device_ < 0;
  at.device = merge_device_;
  return options_at(at, name, 1);
}

void PartitionedSpmv::plan_merges() {
  const auto& sp = partition_.parts;
  const auto& homes = placement_.homes;
  if (partition_.format == PartitionFormat::Pcsc) {
    // Two levels, as the placement: the partials of a NUMA domain summed on its first part's device,
    // then the domains' sums into y where the merges run.
    const auto m = static_cast<std::uint32_t>(partition_.rows);
    std::map<int, std::vector<std::size_t>> by_domain;
    for (std::size_t k = 0; k < parts_.size(); ++k)
      if (parts_[k]->has_task) by_domain[homes[k].domain].push_back(k);
    Merge final;
    final.y = y_.front().id();
    final.n = m;
    final.product_beta = true;
    final.name = "spmv_pcsc_merge";
    for (const auto& [domain, ks] : by_domain) {
      if (by_domain.size() > 1 && ks.size() > 1) {
        Merge level;
        level.y = parts_[ks[0]]->out.id();
        level.n = m;
        level.fixed_beta = 1.0;
        level.home = static_cast<int>(ks[0]);
        level.name = "spmv_pcsc_merge_d" + std::to_string(domain);
        for (std::size_t i = 1; i < ks.size(); ++i) level.inputs.push_back({parts_[ks[i]]->out.id(), 0, 0, m});
        merges_.push_back(level);
        final.inputs.push_back({parts_[ks[0]]->out.id(), 0, 0, m});
      } else {
        for (std::size_t k : ks) final.inputs.push_back({parts_[k]->out.id(), 0, 0, m});
      }
    }
    merges_.push_back(final);
    return;
  }
  if (partition_.format != PartitionFormat::Pcoo) return;
  // pCOO: each owner adds, to its last row, the pieces of it that later parts computed.
  for (std::size_t p = 0; p < parts_.size(); ++p) {
    if (!parts_[p]->has_task || parts_[p]->owned == 0) continue;
    Merge own;
    own.y = parts_[p]->owned;
    own.n = static_cast<std::uint32_t>(sp[p].row_end - sp[p].owned_begin());
    own.product_beta = true;
    own.home = static_cast<int>(p);
    own.name = "spmv_pcoo_merge_p" + std::to_string(p);
    own.inputs.push_back({parts_[p]->out.id(), sp[p].shares_first_row ? 1u : 0u, 0, own.n});
    const index_t last = sp[p].row_end - 1;
    for (std::size_t q = p + 1; q < parts_.size(); ++q) {
      if (!parts_[q]->has_task) continue;
      if (!sp[q].shares_first_row || sp[q].row_begin != last) break;
      rt::HandleId piece = parts_[q]->out.id();
      if (!same_memory(homes[p], homes[q])) {  // move one value, not q's whole partial
        parts_[q]->head = rt::DataHandle(rt_, rt_.register_temporary(1, sizeof(double)));
        Merge head;
        head.y = parts_[q]->head.id();
        head.n = 1;
        head.home = static_cast<int>(q);
        head.name = "spmv_pcoo_head_p" + std::to_string(q);
        head.inputs.push_back({piece, 0, 0, 1});
        merges_.push_back(head);
        piece = head.y;
      }
      own.inputs.push_back({piece, 0, own.n - 1, 1});
    }
    merges_.push_back(own);
  }
}

void PartitionedSpmv::submit(double alpha, double beta) {
  if (finished_) throw InvalidArgument("PartitionedSpmv: submit after finish()");
  const bool direct = partition_.format == PartitionFormat::Pcsr;  // parts write y itself
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    Part& part = *parts_[k];
    if (!part.has_task) continue;
    rt::TaskOptions o = options_at(placement_.homes[k], part.name, 0);
    o.flops = 2.0 * double(part.A.colind.size());
    codelets::SpmvPartArgs args;
    args.alpha = alpha;
    args.beta = direct ? beta : 0.0;
    args.tiles = part.plan.tiles();
    args.long_rows = part.plan.long_rows();
    args.max_entries = part.plan.max_entries();
    args.block_threads = part.plan.block_threads();
    args.path = part.path;
    args.cuda_impl = opts_.cuda_impl;
    codelets::insert_spmv_part(rt_, o, {part.a.id(), part.plan_h.id(), part.x, part.out.id(), part.workspace.id()},
                               args);
  }
  for (const Merge& m : merges_) {
    const rt::TaskOptions o = m.home >= 0 ? options_at(placement_.homes[m.home], m.name, 1) : merge_options(m.name);
    codelets::insert_spmv_merge(rt_, o, m.y, m.n, m.product_beta ? beta : m.fixed_beta, m.inputs);
  }
}

}  // namespace hetsparse
