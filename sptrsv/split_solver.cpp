// SplitSolver: the blocks, the two part solvers, the split's registered data and its solves.
#include "sptrsv/split_solver.hpp"

#include <chrono>
#include <cmath>
#include <utility>

#include "hetsparse/error.hpp"
#include "planners/split_sptrsv.hpp"
#include "sptrsv/scheme_spec.hpp"
#include "sptrsv/prepared_scheme.hpp"
#include "sptrsv/scheme_selection.hpp"
#include "sptrsv/selection_store.hpp"

namespace hetsparse::sptrsv {
namespace {

using planners::PartDevice;

// The fixed heuristic's pick (scheme_selection.hpp) from a sub-triangle's row lengths.
std::string heuristic_for(const Csr& c) {
  TriangularFeatures f;
  const double mean = c.rows > 0 ? static_cast<double>(c.nnz()) / c.rows : 0.0;
  double squares = 0.0;
  for (index_t i = 0; i < c.rows; ++i) {
    const auto len = c.rowptr[i + 1] - c.rowptr[i];
    f.rnnz_max = std::max<std::int64_t>(f.rnnz_max, len);
    squares += (static_cast<double>(len) - mean) * (static_cast<double>(len) - mean);
  }
  f.rnnz_cov = mean > 0 ? std::sqrt(squares / c.rows) / mean : 0.0;
  return heuristic_scheme(f);
}

TriangularSolveOptions part_options(const TriangularSolveOptions& parent, PartDevice device, const std::string& scheme,
                                    int k) {
  TriangularSolveOptions o = parent;
  o.split = SplitOptions{};  // a part is never split again
  if (!parent.matrix_name.empty()) o.matrix_name = parent.matrix_name + "/part" + std::to_string(k);
  o.variant = "auto";
  switch (device) {
    case PartDevice::CpuSerial:
      o.device = SolveDevice::Cpu;
      o.cpu_mode = CpuMode::Serial;
      break;
    case PartDevice::CpuLevels:
      o.device = SolveDevice::Cpu;
      o.cpu_mode = CpuMode::ParallelTask;
      break;
    case PartDevice::Gpu:
      o.device = SolveDevice::Gpu;
      o.variant = scheme;
      if (scheme == "auto") o.select = SelectMode::Model;
      break;
  }
  return o;
}

rt::Where part_where(PartDevice d, int nrhs) { return d == PartDevice::Gpu && nrhs == 1 ? rt::Where::Cuda : rt::Where::Cpu; }

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

bool scheme_model_available(const TriangularSolveOptions& o) {
  const std::string gpu = cuda_device_name();
  return !gpu.empty() && find_model_file(SelectionStore(resolve_perfmodel_dir(o.perfmodel_dir), gpu)).has_value();
}

std::string unified_gpu_scheme(const TriangularPattern& whole, const TriangularSolveOptions& options) {
  if (options.variant != "auto") return options.variant;
  if (!scheme_model_available(options)) return heuristic_scheme(whole.features());
  SelectionOptions so;
  so.mode = SelectMode::Model;
  so.perfmodel_dir = options.perfmodel_dir;
  so.expected_solves = options.expected_solves;  // the model's pick weighed as a unified solve's would be
  so.use_cache = false;
  so.record_timings = false;
  return select_scheme(whole, so).scheme;
}

std::pair<int, double> gpu_scheme_steps(const std::string& scheme) {
  const SchemeSpec spec = parse_scheme(scheme);
  const SchemeSpec& base = spec.kind == SchemeKind::Powered ? *spec.base : spec;
  const std::string& v = base.variant;  // empty unless a plain variant
  const int family = v.rfind("syncfree", 0) == 0 || v.rfind("yuenyeung", 0) == 0 ? 0
                     : v.rfind("capellini", 0) == 0                               ? 1
                                                                                  : 2;
  return {family, spec.kind == SchemeKind::Powered ? 1.0 / spec.power : 1.0};
}

SplitSolver::SplitSolver(rt::TaskRuntime& rt, const TriangularPattern& whole, const planners::SplitStructure& structure,
                         const planners::SplitDecision& decision, const TriangularSolveOptions& options,
                         std::string thresholds_source, double decide_seconds)
    : rt_(rt), structure_(structure), decision_(decision), thresholds_source_(std::move(thresholds_source)),
      decide_seconds_(decide_seconds) {
  if (!planners::is_split(decision.policy)) return;
  const auto t0 = std::chrono::steady_clock::now();
  {
    rt::PausedWorkers paused(rt_);
    blocks_ = std::make_unique<planners::SplitBlocks>(whole.host_view(), decision.cut_level);
  }
  // GPU schemes: single-algorithm for GPU-GPU (the model's unpowered pick for the whole triangle),
  // else each GPU part's own pick.
  std::string scheme1 = "auto", scheme2 = "auto";
  if (decision.policy == planners::SplitPolicy::GpuGpu) {
    SelectionOptions so;
    so.perfmodel_dir = options.perfmodel_dir;
    so.expected_solves = options.expected_solves;
    scheme1 = scheme2 =
        select_scheme_by_model(whole.features(), unpowered_candidates(whole.rows(), whole.nnz(), whole.num_levels()), so)
            .scheme;
  } else if (!scheme_model_available(options)) {
    scheme1 = heuristic_for(blocks_->part1());
    scheme2 = heuristic_for(blocks_->part2());
  }
  const Triangle tri = whole.triangle();
  const auto make_part = [&](const Csr& block, PartDevice device, const std::string& scheme, int k) {
    auto part = std::make_unique<TriangularSolver>(rt_);
    const TriangularSolveOptions o = part_options(options, device, scheme, k);
    part->analyze(block, tri, false, o);
    // A part never takes the powered form: its transform may be refused only at the first solve.
    if (device == PartDevice::Gpu && scheme_family(part->chosen_variant()) == SchemeKind::Powered) {
      SelectionOptions so;
      so.perfmodel_dir = options.perfmodel_dir;
      so.expected_solves = options.expected_solves;
      TriangularSolveOptions unpowered = o;
      unpowered.variant = select_scheme_by_model(part->features(),
                                                 unpowered_candidates(part->rows(), part->nnz(), part->num_levels()), so)
                              .scheme;
      part->analyze(block, tri, false, unpowered);
    }
    return part;
  };
  part1_ = make_part(blocks_->part1(), decision.part1, scheme1, 1);
  part2_ = make_part(blocks_->part2(), decision.part2, scheme2, 2);
  const std::vector<index_t>& order = blocks_->order();
  order_ = {rt_, rt_.register_vector({const_cast<index_t*>(order.data()), order.size(), sizeof(index_t)})};
  register_a21();
  build_seconds_ = since(t0);
}

SplitSolver::~SplitSolver() = default;

void SplitSolver::register_a21() {
  a21_.reset();
  if (blocks_->a21_nnz() == 0) return;
  rt::CsrDesc d;
  d.rows = static_cast<std::uint32_t>(blocks_->n2());
  d.cols = static_cast<std::uint32_t>(blocks_->n1());
  d.nnz = static_cast<std::uint32_t>(blocks_->a21_nnz());
  d.values = blocks_->a21_values().data();
  d.colind = const_cast<std::uint32_t*>(blocks_->a21_colind().data());  // read-only accesses
  d.rowptr = const_cast<std::uint32_t*>(blocks_->a21_rowptr().data());
  a21_ = {rt_, rt_.register_csr(d)};
}

void SplitSolver::ensure_buffers(int nrhs) {
  if (nrhs == nrhs_) return;
  hb1_.reset();
  hb2_.reset();
  hx1_.reset();
  hx2_.reset();
  const auto n1 = static_cast<std::size_t>(blocks_->n1()), n2 = static_cast<std::size_t>(blocks_->n2());
  const auto cols = static_cast<std::size_t>(nrhs);
  const auto make = [&](std::vector<double>& v, std::size_t rows) {
    v.assign(rows * cols, 0.0);
    return rt::DataHandle(rt_, rt_.register_matrix({v.data(), rows, rows, cols}));
  };
  hb1_ = make(b1_, n1);
  hb2_ = make(b2_, n2);
  hx1_ = make(x1_, n1);
  hx2_ = make(x2_, n2);
  nrhs_ = nrhs;
}

void SplitSolver::submit(rt::HandleId b, rt::HandleId x, int nrhs) {
  if (!active()) throw InvalidArgument("SplitSolver::submit: the decision is unified, there is no split to solve");
  if (nrhs < 1) throw InvalidArgument("SplitSolver::submit: nrhs must be at least 1");
  ensure_buffers(nrhs);
  planners::SplitSolveShape shape{blocks_->n1(), blocks_->n2(), blocks_->a21_nnz()};
  planners::SplitSolveHandles h{order_.id(), a21_ ? a21_.id() : 0, hb1_.id(), hb2_.id(), hx1_.id(), hx2_.id()};
  TriangularSolver& p1 = *part1_;
  TriangularSolver& p2 = *part2_;
  const planners::SplitPartSubmit s1{part_where(decision_.part1, nrhs),
                                     [&p1](rt::HandleId pb, rt::HandleId px, int k) { p1.submit(pb, px, k); }};
  const planners::SplitPartSubmit s2{part_where(decision_.part2, nrhs),
                                     [&p2](rt::HandleId pb, rt::HandleId px, int k) { p2.submit(pb, px, k); }};
  planners::submit_split_solve(rt_, shape, h, s1, s2, b, x, nrhs);
}

void SplitSolver::update_values(const TriangularPattern& whole) {
  if (!active()) return;
  a21_.reset();  // its values are about to change
  blocks_->update_values(whole.values().data());
  part1_->update_values(blocks_->part1());
  part2_->update_values(blocks_->part2());
  register_a21();
}

const planners::SplitBlocks& SplitSolver::blocks() const {
  if (!active()) throw InvalidArgument("SplitSolver::blocks: the decision is unified");
  return *blocks_;
}

const TriangularSolver& SplitSolver::part(int k) const {
  if (!active() || (k != 1 && k != 2)) throw InvalidArgument("SplitSolver::part: no part " + std::to_string(k));
  return k == 1 ? *part1_ : *part2_;
}

double SplitSolver::setup_seconds() const {
  if (measurement_.measured) return structure_.seconds + decide_seconds_ + measurement_.seconds;
  double prepared = 0.0;  // the parts' scheme preparations (lazy, on each worker's first solve)
  for (const TriangularSolver* p : {part1_.get(), part2_.get()})
    if (p) prepared += p->preprocess_seconds() - p->analysis_seconds() - p->selection().seconds;
  return structure_.seconds + decide_seconds_ + build_seconds_ + prepared;
}

std::string SplitSolver::describe() const {
  std::string text = std::string(planners::to_string(decision_.policy));
  const bool from_auto = measurement_.measured || !measurement_.why.empty();  // the owner's auto mode sets it
  const std::string how = from_auto ? "; decision: " + measurement_.describe() : "";
  if (!active()) return text + " (" + decision_.reason + ")" + how;
  const auto part_text = [&](int k, PartDevice d) {
    const TriangularSolver& p = part(k);
    return std::to_string(k == 1 ? blocks_->n1() : blocks_->n2()) + " rows on " + planners::to_string(d) +
           (d == PartDevice::Gpu ? " (" + p.chosen_variant() + ")" : "");
  };
  return text + " at level " + std::to_string(decision_.cut_level) + " of " + std::to_string(structure_.levels) +
         ": part 1 " + part_text(1, decision_.part1) + ", part 2 " + part_text(2, decision_.part2) + ", A21 " +
         std::to_string(blocks_->a21_nnz()) + " entries (" + decision_.reason + ")" + how;
}

}  // namespace hetsparse::sptrsv
