// TriangularSolver: analysis, variant choice, data registration and one task per solve.
#include "sptrsv/triangular_solver.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "codelets/sptrsv/sptrsv_codelet.hpp"
#include "codelets/sptrsv/sptrsv_level_codelets.hpp"
#include "hetsparse/error.hpp"
#include "sparse/convert.hpp"
#include "sptrsv/selection_store.hpp"
#include "sptrsv/split_solver.hpp"

namespace hetsparse::sptrsv {

// The registered arrays of the pattern. Values (and the level-ordered values) are registered
// apart, since update_values replaces those vectors.
struct TriangularSolver::Handles {
  rt::DataHandle rowptr, colind, values;
  rt::DataHandle level_rows, segments, level_segments;
  rt::DataHandle level_rowptr, level_colind, level_values;
};

namespace {

template <class T>
rt::DataHandle read_only_vector(rt::TaskRuntime& rt, const std::vector<T>& v) {
  // Registered for Read accesses only: StarPU never writes to the host copy.
  return {rt, rt.register_vector({const_cast<T*>(v.data()), v.size(), sizeof(T)})};
}

}  // namespace

TriangularSolver::TriangularSolver(rt::TaskRuntime& runtime) : rt_(runtime) {}

TriangularSolver::~TriangularSolver() = default;

void TriangularSolver::release_matrix() {
  staged_.reset();  // sized for the previous matrix
  split_.reset();  // split hook: the parts and the split's data
  level_tasks_.reset();
  handles_.reset();  // unregisters the previous matrix, if any
  worker_schemes_.reset();
  inline_variant_.reset();
}

TriangularSolver::Shape TriangularSolver::shape() const {
  Shape sh;
  if (device_) {
    const kernels::TriangularDeviceView& v = device_->view;
    sh.n = v.n;
    sh.upper = v.upper;
    sh.nnz = device_->nnz;
    sh.num_levels = v.num_levels;
    sh.num_segments = v.num_segments;
    sh.num_level_segments = v.num_level_segments;
    sh.level_ptr = v.host_level_ptr;
    sh.level_nnz = v.host_level_nnz;
    sh.level_copy = v.level_values != nullptr;
    return sh;
  }
  const TriangularPattern& p = *pattern_;
  const kernels::TriangularView v = p.host_view();
  sh.n = p.rows();
  sh.upper = p.triangle() == Triangle::Upper;
  sh.nnz = p.nnz();
  sh.num_levels = p.num_levels();
  sh.num_segments = v.num_segments;
  sh.num_level_segments = v.num_level_segments;
  sh.level_ptr = p.level_ptr().data();
  sh.level_nnz = p.level_nnz().data();
  sh.level_copy = p.has_level_ordered_copy();
  return sh;
}

void TriangularSolver::register_matrix() {
  auto h = std::make_unique<Handles>();
  const bool segments = variant_index_ >= 0, levels = variant_index_ >= 0 || cpu_levels();
  if (device_) {
    const kernels::TriangularDeviceView& v = device_->view;
    const auto n = static_cast<std::size_t>(v.n), nnz = static_cast<std::size_t>(device_->nnz);
    const auto on_gpu = [&](const auto* p, std::size_t count) {
      return rt::DataHandle(rt_, rt_.register_vector({const_cast<void*>(static_cast<const void*>(p)), count, sizeof(*p),
                                                      device_->device}));
    };
    if (n > 0) {
      h->rowptr = on_gpu(v.rowptr, n + 1);
      h->colind = on_gpu(v.colind, nnz);
      h->values = on_gpu(v.values, nnz);
      if (levels) h->level_rows = on_gpu(v.level_rows, n);
      if (segments) {
        h->segments = on_gpu(v.segments, 2 * static_cast<std::size_t>(v.num_segments) + 1);
        h->level_segments = on_gpu(v.level_segments, 2 * static_cast<std::size_t>(v.num_level_segments) + 1);
      }
      if (levels && v.level_values != nullptr) {
        h->level_rowptr = on_gpu(v.level_rowptr, n + 1);
        h->level_colind = on_gpu(v.level_colind, nnz);
        h->level_values = on_gpu(v.level_values, nnz);
      }
    }
    handles_ = std::move(h);
    return;
  }
  const TriangularPattern& p = *pattern_;
  if (p.rows() > 0) {
    h->rowptr = read_only_vector(rt_, p.rowptr());
    h->colind = read_only_vector(rt_, p.colind());
    if (levels) h->level_rows = read_only_vector(rt_, p.level_rows());
    if (segments) {
      h->segments = read_only_vector(rt_, p.segments());
      h->level_segments = read_only_vector(rt_, p.level_segments());
    }
  }
  handles_ = std::move(h);
  register_values();
}

void TriangularSolver::register_values() {
  handles_->values.reset();
  handles_->level_rowptr.reset();
  handles_->level_colind.reset();
  handles_->level_values.reset();
  const TriangularPattern& p = *pattern_;
  if (p.rows() == 0) return;
  handles_->values = read_only_vector(rt_, p.values());
  if ((variant_index_ >= 0 || cpu_levels()) && p.has_level_ordered_copy()) {
    // The pattern hands its level-ordered copy out only through the host view.
    const kernels::TriangularView v = p.host_view();
    const auto n = static_cast<std::size_t>(p.rows());
    const auto nnz = static_cast<std::size_t>(p.nnz());
    handles_->level_rowptr = {rt_, rt_.register_vector({const_cast<index_t*>(v.level_rowptr), n + 1, sizeof(index_t)})};
    handles_->level_colind = {rt_, rt_.register_vector({const_cast<index_t*>(v.level_colind), nnz, sizeof(index_t)})};
    handles_->level_values = {rt_, rt_.register_vector({const_cast<double*>(v.level_values), nnz, sizeof(double)})};
  }
}

void TriangularSolver::update_values(const Csr& T) {
  if (device_ && host_input_) {
    // Analysed on the GPU from a host CSR: the same pattern analysed again with the new values (the
    // scheme is prepared again either way; the model picks the same for the same pattern).
    validate(T);
    const index_t row = first_pattern_difference(*device_, T);
    if (row >= 0) {
      throw InvalidArgument("sptrsv update_values: the pattern of row " + std::to_string(row) +
                            " (0-based) differs from the analysed one");
    }
    const TriangularSolveOptions options = options_;
    analyze(T, tri_, unit_diagonal_, options);
    return;
  }
  if (device_) throw InvalidArgument("TriangularSolver::update_values after analyze_device: analyze_device again");
  if (!pattern_) throw InvalidArgument("TriangularSolver::update_values before analyze");
  // Let go of the old values first: update_values replaces the vectors they were registered from.
  handles_->values.reset();
  handles_->level_rowptr.reset();
  handles_->level_colind.reset();
  handles_->level_values.reset();
  try {
    pattern_->update_values(T);
  } catch (...) {
    register_values();  // the pattern is unchanged: register its values again
    throw;
  }
  // The workers' prepared copies hold the old values: prepare again (lazily) from the new ones.
  if (worker_schemes_) worker_schemes_ = std::make_unique<WorkerSchemes>(*pattern_, variant_);
  inline_variant_.reset();
  register_values();
  if (split_) split_->update_values(*pattern_);  // split hook
}

codelets::SptrsvMatrixHandles TriangularSolver::matrix_handles(bool device_data, bool levels) const {
  codelets::SptrsvMatrixHandles th;
  th.rowptr = handles_->rowptr.id();
  th.colind = handles_->colind.id();
  th.values = handles_->values.id();
  th.has_device_data = device_data;
  if (device_data) {
    th.segments = handles_->segments.id();
    th.level_segments = handles_->level_segments.id();
  }
  if (levels) {
    th.level_rows = handles_->level_rows.id();
    th.has_level_copy = static_cast<bool>(handles_->level_values);
    if (th.has_level_copy) {
      th.level_rowptr = handles_->level_rowptr.id();
      th.level_colind = handles_->level_colind.id();
      th.level_values = handles_->level_values.id();
    }
  }
  return th;
}

const TriangularFeatures& TriangularSolver::features() const {
  if (device_) return device_->features;
  if (!pattern_) throw InvalidArgument("TriangularSolver::features before analyze");
  return pattern_->features();
}

double TriangularSolver::analysis_seconds() const {
  return device_ ? device_->features.analysis_ms * 1e-3 : pattern_ ? pattern_->analysis_seconds() : 0.0;
}

double TriangularSolver::preprocess_seconds() const {
  return analysis_seconds() + host_pattern_seconds_ + selection_.seconds +
         (worker_schemes_ ? worker_schemes_->preprocess_seconds() : 0.0) +
         (split_ ? split_->setup_seconds() : 0.0);  // split hook
}

PreparationSteps TriangularSolver::preprocess_steps() const {
  PreparationSteps s;
  if (pattern_ && !device_) {
    s.add_all("analysis.", pattern_->steps());
  } else if (device_) {
    if (host_input_) s.add("analysis.upload", upload_seconds_);
    s.add("analysis.gpu", analysis_seconds() - (host_input_ ? upload_seconds_ : 0.0));
    if (host_pattern_seconds_ > 0) s.add("analysis.host_pattern", host_pattern_seconds_);
  }
  s.add("selection", selection_.seconds);
  if (worker_schemes_) s.add_all("prepare.", worker_schemes_->steps());
  if (split_) s.add("split", split_->setup_seconds());
  return s;
}

const TriangularPattern& TriangularSolver::pattern() const { return host_pattern(); }

}  // namespace hetsparse::sptrsv
