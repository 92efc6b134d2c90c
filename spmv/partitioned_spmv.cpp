// PartitionedSpmv set-up: topology, placement, format, part matrices, plans and handles.
#include "spmv/partitioned_spmv.hpp"

#include <map>
#include <string>

#include "hetsparse/error.hpp"
#include "runtime/csr32.hpp"
#include "spmv/part_matrices.hpp"
#include "spmv/partitioned_spmv_internal.hpp"

namespace hetsparse {

using planners::PartitionFormat;

PartitionedSpmv::PartitionedSpmv(rt::TaskRuntime& rt, const Csr& A, VectorRef x, VectorRef y,
                                 const PartitionedSpmvOptions& o)
    : rt_(rt), opts_(o) {
  if (x.n != static_cast<std::size_t>(A.cols) || y.n != static_cast<std::size_t>(A.rows))
    throw InvalidArgument("PartitionedSpmv: x has " + std::to_string(x.n) + " entries and y " + std::to_string(y.n) +
                          ", the matrix is " + std::to_string(A.rows) + " x " + std::to_string(A.cols));
  if ((x.data == nullptr && x.n > 0) || (y.data == nullptr && y.n > 0))
    throw InvalidArgument("PartitionedSpmv: x or y is a null pointer");
  topology_ = o.topology.domains.empty() ? planners::flat_topology(rt.cuda_devices(), rt.cpu_workers()) : o.topology;
  const double bytes = 12.0 * double(A.nnz()) + 20.0 * double(A.rows);
  placement_ = planners::place_parts(topology_, bytes, A.nnz(), A.cols, o.placement);
  std::vector<double> weights, rates;
  for (const planners::PartHome& h : placement_.homes) {
    weights.push_back(h.weight);
    rates.push_back(h.bytes_per_s);
  }
  choice_ = planners::choose_partition(A, weights, rates, o.format, o.model);
  partition_ = planners::make_partition(A, choice_.format, weights);

  merge_device_ = y.cuda_device;
  for (std::size_t k = 0; k < placement_.homes.size() && merge_device_ < 0; ++k)
    if (!placement_.homes[k].cpu) merge_device_ = placement_.homes[k].device;

  std::vector<Csr> matrices = part_matrices(A, partition_);
  // What each GPU streams a product, all its parts: whether the matrix stays in its L2 (choose_spmv).
  std::map<int, std::uint64_t> device_nnz;
  for (std::size_t k = 0; k < matrices.size(); ++k)
    if (!placement_.homes[k].cpu) device_nnz[placement_.homes[k].device] += static_cast<std::uint64_t>(matrices[k].nnz());
  const char* fmt = planners::to_string(partition_.format);
  for (std::size_t k = 0; k < matrices.size(); ++k) {
    auto part = std::make_unique<Part>(matrices[k]);
    matrices[k] = Csr{};  // one copy of the part at a time
    part->has_task = partition_.has_task(k);
    part->name = std::string("spmv_") + fmt + "_p" + std::to_string(k);
    const planners::PartHome& home = placement_.homes[k];
    const kernels::SpmvChoice chosen = kernels::choose_spmv(kernels::row_profile(part->A.rowptr.data(), part->A.rows),
                                                            home.cpu ? 0 : device_nnz[home.device]);
    part->tiles = o.tiles ? *o.tiles : chosen.tiles;
    part->plan = kernels::TilePlan(part->A.rowptr.data(), part->A.rows, 0, part->tiles);
    part->path = o.path ? *o.path : chosen.path;
    if (part->has_task) {
      part->a = rt::make_csr_handle(rt_, part->A);
      auto& words = const_cast<std::vector<std::uint32_t>&>(part->plan.words());
      part->plan_h = rt::DataHandle(rt_, rt_.register_vector({words.data(), words.size(), sizeof(std::uint32_t)}));
      if (part->plan.long_rows() > 0)
        part->workspace = rt::DataHandle(rt_, rt_.register_temporary(part->plan.workspace_bytes(), 1));
    }
    parts_.push_back(std::move(part));
  }
  register_vectors(x, y);
  plan_merges();
  launch_inline_ = o.inline_products && merge_device_ >= 0;
  for (std::size_t k = 0; k < parts_.size(); ++k)
    if (parts_[k]->has_task && (placement_.homes[k].cpu || placement_.homes[k].device != merge_device_))
      launch_inline_ = false;  // parts on several devices run side by side as tasks
}

PartitionedSpmv::~PartitionedSpmv() {
  try {
    finish();
  } catch (...) {  // a destructor must not throw; finish() reports errors when called directly
  }
}

void PartitionedSpmv::register_vectors(VectorRef x, VectorRef y) {
  const auto reg = [&](VectorRef v, std::size_t offset, std::size_t n) {
    rt::VectorDesc d{v.data + offset, n, sizeof(double), v.cuda_device};
    return rt::DataHandle(rt_, rt_.register_vector(d));
  };
  for (VectorRef v : {x, y}) {  // host vectors pinned once for all their slices
    if (v.cuda_device < 0 && v.n > 0) {
      rt_.pin_host_range(v.data, v.n * sizeof(double));
      pinned_.push_back(v.data);
    }
  }
  const PartitionFormat f = partition_.format;
  if (f == PartitionFormat::Pcsc) {
    y_.push_back(reg(y, 0, y.n));
  } else {
    x_.push_back(reg(x, 0, x.n));
  }
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    Part& part = *parts_[k];
    const planners::SpmvPart& sp = partition_.parts[k];
    if (!part.has_task) continue;
    if (f == PartitionFormat::Pcsc) {
      x_.push_back(reg(x, sp.col_begin, sp.col_end - sp.col_begin));
      part.x = x_.back().id();
      part.out = rt::DataHandle(rt_, rt_.register_temporary(y.n, sizeof(double)));
    } else {
      part.x = x_.front().id();
      if (f == PartitionFormat::Pcsr) {
        part.out = reg(y, sp.row_begin, sp.rows());
      } else {
        part.out = rt::DataHandle(rt_, rt_.register_temporary(sp.rows(), sizeof(double)));
        if (sp.row_end > sp.owned_begin()) {
          y_.push_back(reg(y, sp.owned_begin(), sp.row_end - sp.owned_begin()));
          part.owned = y_.back().id();
        }
      }
    }
  }
}

std::vector<kernels::SpmvPath> PartitionedSpmv::paths() const {
  std::vector<kernels::SpmvPath> p;
  for (const auto& part : parts_) p.push_back(part->path);
  return p;
}

std::vector<std::uint32_t> PartitionedSpmv::tile_entries() const {
  std::vector<std::uint32_t> t;
  for (const auto& part : parts_) t.push_back(part->tiles.max_entries);
  return t;
}

std::size_t PartitionedSpmv::tasks_per_product() const {
  std::size_t n = merges_.size();
  for (const auto& part : parts_) n += part->has_task;
  return n;
}

void PartitionedSpmv::finish() {
  if (finished_) return;
  finished_ = true;
  for (auto& part : parts_) {
    part->out.reset();
    part->head.reset();
    part->workspace.reset();
    part->plan_h.reset();
    part->a.reset();
  }
  y_.clear();
  x_.clear();
  for (void* p : pinned_) rt_.unpin_host_range(p);
  pinned_.clear();
}

}  // namespace hetsparse
