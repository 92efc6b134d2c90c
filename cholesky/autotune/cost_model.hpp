// Kernel cost models for the schedule simulator: per codelet and per architecture (one CPU core,
// one CUDA device), time = a * flops^b + c, fitted to StarPU's measured history, or a documented
// dgemm-rate default where a codelet has no measurements on that architecture.
#pragma once
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "cholesky/autotune/perfmodel_history.hpp"

namespace hetsparse::cholesky::autotune {

// Seconds of one task of `flops` floating-point operations.
struct PowerLaw {
  double a = 0, b = 1, c = 0;
  double operator()(double flops) const;
};

struct FitPoint {
  double flops, seconds, weight;
};
// Weighted least squares on the relative error, sum w ((a f^b + c) / t - 1)^2 (close to least
// squares in log space, but linear in a and c): for each b on a grid over [0.25, 2], refined by
// golden section, (a, c >= 0) solve a 2x2 normal system. InvalidArgument when fewer than
// kMinFitPoints points have distinct positive flops and positive times.
inline constexpr int kMinFitPoints = 3;
PowerLaw fit_power_law(const std::vector<FitPoint>& points);

// The fit points of a history: measured entries (n > 0) with positive flops and time, weighted by
// their run count. StarPU keys entries by the data sizes' footprint and stores the flops of the
// first task seen with that footprint, so tasks of equal sizes but other flops share one point.
std::vector<FitPoint> fit_points(const std::vector<HistorySample>& samples);

// Defaults where nothing was measured, a dgemm-rate guess: a CPU core at 20 GFLOP/s with 5 us per
// task, a GPU at 5 TFLOP/s (large-update cuBLAS rate, well under the FP64 peak) with 30 us per task
// (launches, scatter, cuSOLVER workspace queries).
PowerLaw default_cost(ArchKind arch);

struct KernelCost {
  PowerLaw law;
  std::size_t points = 0;  // measured points fitted; 0: the default
};

// What the tuner used for one kernel on one architecture.
struct ModelSummary {
  std::string kernel;
  ArchKind arch;
  KernelCost cost;
};
// "sn_factor        cpu  t = 1.2e-10 * flops^1.010 + 3.1e-06 s  (fitted to 412 measured sizes)", or
// "(DEFAULT: no measurements)".
std::string describe(const ModelSummary& m);

class CostModels {
 public:
  void set(const std::string& kernel, ArchKind arch, const KernelCost& cost) { models_[{kernel, arch}] = cost; }
  // The fitted model, or default_cost(arch) for a kernel/architecture never set.
  double seconds(const std::string& kernel, ArchKind arch, double flops) const;
  bool fitted(const std::string& kernel, ArchKind arch) const;
  // The model of each kernel on the CPU, and on CUDA too when with_cuda (defaults included).
  std::vector<ModelSummary> summary(const std::vector<std::string>& kernels, bool with_cuda) const;

 private:
  std::map<std::pair<std::string, ArchKind>, KernelCost> models_;
};

// Fits the models of `kernels` (codelet names, e.g. "sn_factor") from the history files
// "hetsparse_<kernel>" under perfmodel_dir (see find_perfmodel_file); CUDA devices are pooled.
// Missing files or too few points leave the default. ParseError for a malformed file.
CostModels load_cost_models(const std::string& perfmodel_dir, const std::vector<std::string>& kernels);

}  // namespace hetsparse::cholesky::autotune
