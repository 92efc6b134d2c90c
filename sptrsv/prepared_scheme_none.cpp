// Builds without CUDA: no scheme can run (see prepared_scheme.hpp); every entry point says so.
#include "hetsparse/error.hpp"
#include "sptrsv/prepared_scheme.hpp"

namespace hetsparse::sptrsv {

SchemeKind check_scheme(const std::string& scheme) {
  throw InvalidArgument("SpTRSV scheme '" + scheme + "' asked for, but this build has no CUDA");
}

std::vector<std::string> plain_variant_names() { return {}; }

namespace {
const std::vector<std::string>& no_schemes() {
  static const std::vector<std::string> none;
  return none;
}
}  // namespace

const std::vector<std::string>& candidate_schemes(const TriangularPattern&) { return no_schemes(); }

const std::vector<std::string>& unpowered_candidates(index_t, std::int64_t, index_t) { return no_schemes(); }

std::vector<std::string> powered_candidates(const TriangularPattern&) { return {}; }
bool is_candidate_list(const std::vector<std::string>& list) { return &list == &no_schemes(); }

const std::vector<std::string>& candidate_schemes(index_t, std::int64_t, index_t, std::int64_t) { return no_schemes(); }

bool prepares_from_device_matrix(const SchemeSpec&) { return false; }

struct PreparedScheme::Impl {};

PreparedScheme::PreparedScheme(cudaStream_t, const kernels::TriangularView&, const kernels::TriangularDeviceView&,
                               const std::string& scheme, PoweredCache*) {
  check_scheme(scheme);
}
PreparedScheme::PreparedScheme(cudaStream_t, const kernels::TriangularView&, const kernels::TriangularDeviceView&,
                               const SchemeSpec& spec, PoweredCache*) {
  check_scheme(to_string(spec));
}
std::unique_ptr<PreparedScheme> PreparedScheme::from_device(cudaStream_t, const DeviceMatrix&, const SchemeSpec&) {
  return nullptr;
}
PreparedScheme::~PreparedScheme() = default;
PreparationSteps PreparedScheme::steps() const { return {}; }
void PreparedScheme::solve(cudaStream_t, const double*, double*, const kernels::SolveWorkspace&) const {}
const std::string& PreparedScheme::scheme() const {
  static const std::string none;
  return none;
}
SchemeKind PreparedScheme::kind() const { return SchemeKind::Variant; }
double PreparedScheme::preprocess_seconds() const { return 0; }

struct WorkerSchemes::Slot {};
WorkerSchemes::WorkerSchemes(const TriangularPattern&, std::string scheme) : scheme_(std::move(scheme)) {
  check_scheme(scheme_);
}
WorkerSchemes::WorkerSchemes(SchemeSource, std::string scheme) : scheme_(std::move(scheme)) { check_scheme(scheme_); }
WorkerSchemes::~WorkerSchemes() = default;
void WorkerSchemes::solve(int, cudaStream_t, const double*, double*, const kernels::SolveWorkspace&) {}
void WorkerSchemes::solve_host(int, cudaStream_t, index_t, const double*, double*, double*, const kernels::SolveWorkspace&) {}
double WorkerSchemes::preprocess_seconds() const { return 0; }
PreparationSteps WorkerSchemes::steps() const { return {}; }

}  // namespace hetsparse::sptrsv
