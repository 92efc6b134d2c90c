// The split structure as (name, value) pairs and back (--analyze, the benchmark's table, the fit).
#include <cmath>
#include <string>

#include "planners/split_sptrsv_structure.hpp"

namespace hetsparse::planners {
namespace {

// One field: its name and where it lives, as a double or an integer member.
template <class S>
struct Member {
  const char* name;
  double S::*real;
  std::int64_t S::*integer;
  index_t S::*index;
  bool S::*flag;
};

template <class S>
Member<S> real(const char* n, double S::*m) { return {n, m, nullptr, nullptr, nullptr}; }
template <class S>
Member<S> integer(const char* n, std::int64_t S::*m) { return {n, nullptr, m, nullptr, nullptr}; }
template <class S>
Member<S> index(const char* n, index_t S::*m) { return {n, nullptr, nullptr, m, nullptr}; }
template <class S>
Member<S> flag(const char* n, bool S::*m) { return {n, nullptr, nullptr, nullptr, m}; }

template <class S>
double get(const S& s, const Member<S>& m) {
  return m.real ? s.*m.real : m.integer ? static_cast<double>(s.*m.integer) : m.index ? s.*m.index : (s.*m.flag ? 1 : 0);
}
template <class S>
void put(S& s, const Member<S>& m, double v) {
  if (m.real) s.*m.real = v;
  if (m.integer) s.*m.integer = static_cast<std::int64_t>(std::llround(v));
  if (m.index) s.*m.index = static_cast<index_t>(std::llround(v));
  if (m.flag) s.*m.flag = v != 0;
}

const Member<SplitStructure> kTop[] = {
    integer("rows", &SplitStructure::rows),     integer("nnz", &SplitStructure::nnz),
    integer("NL", &SplitStructure::levels),     real("AP", &SplitStructure::ap),
    real("ARL", &SplitStructure::arl),          real("SFL", &SplitStructure::sfl_pct),
    real("PFR", &SplitStructure::pfr_pct),      integer("MCL", &SplitStructure::mcl),
    integer("MRL", &SplitStructure::mrl),       integer("m", &SplitStructure::pf_min_rows),
    real("split_analysis_s", &SplitStructure::seconds), real("gpu_level_factor", &SplitStructure::gpu_level_factor),
    index("gpu_family", &SplitStructure::gpu_family)};
const Member<CpuGpuCut> kCpuGpu[] = {
    index("cg_level", &CpuGpuCut::level),           flag("cg_parallel_first", &CpuGpuCut::parallel_first),
    real("cg_gain_levels", &CpuGpuCut::gain_levels), real("cg_cpu_levels_pct", &CpuGpuCut::cpu_levels_pct),
    real("cg_cpu_rows_pct", &CpuGpuCut::cpu_rows_pct), real("cg_gpu_pf_rows_pct", &CpuGpuCut::gpu_pf_rows_pct)};
const Member<HtsCut> kHts[] = {index("hts_level", &HtsCut::level), real("hts_part1_rows_pct", &HtsCut::part1_rows_pct),
                               real("hts_part1_nnz_pct", &HtsCut::part1_nnz_pct),
                               integer("hts_part2_levels", &HtsCut::part2_levels)};
const Member<SasCut> kSas[] = {index("sas_level", &SasCut::level), integer("sas_savings", &SasCut::savings),
                               integer("sas_a21_nnz", &SasCut::a21_nnz),
                               integer("sas_long_columns", &SasCut::long_columns),
                               integer("sas_bound", &SasCut::bound)};

const Member<LevelRange> kRange[] = {integer("rows", &LevelRange::rows), integer("nnz", &LevelRange::nnz),
                                     integer("levels", &LevelRange::levels),
                                     integer("wide_levels", &LevelRange::wide_levels),
                                     integer("wide_nnz", &LevelRange::wide_nnz)};

// The LevelRange fields under a prefix ("all_rows", "cg_cpu_nnz", ...).
void list_range(const std::string& prefix, const LevelRange& r, std::vector<std::pair<std::string, double>>& out) {
  for (const Member<LevelRange>& m : kRange) out.emplace_back(prefix + m.name, get(r, m));
}
void read_range(const std::string& prefix, LevelRange& r, const std::map<std::string, double>& values) {
  for (const Member<LevelRange>& m : kRange)
    if (const auto it = values.find(prefix + m.name); it != values.end()) put(r, m, it->second);
}

template <class S, std::size_t N>
void list(const S& s, const Member<S> (&members)[N], std::vector<std::pair<std::string, double>>& out) {
  for (const Member<S>& m : members) out.emplace_back(m.name, get(s, m));
}
template <class S, std::size_t N>
void read(S& s, const Member<S> (&members)[N], const std::map<std::string, double>& values) {
  for (const Member<S>& m : members)
    if (const auto it = values.find(m.name); it != values.end()) put(s, m, it->second);
}

}  // namespace

std::vector<std::pair<std::string, double>> structure_list(const SplitStructure& s) {
  std::vector<std::pair<std::string, double>> out;
  list(s, kTop, out);
  list(s.cpu_gpu, kCpuGpu, out);
  list(s.hts, kHts, out);
  list(s.sas, kSas, out);
  list_range("all_", s.all, out);
  list_range("cg_cpu_", s.cpu_gpu.cpu_side, out);
  list_range("cg_gpu_", s.cpu_gpu.gpu_side, out);
  list_range("hts_p1_", s.hts.part1, out);
  list_range("hts_p2_", s.hts.part2, out);
  return out;
}

SplitStructure structure_from_list(const std::map<std::string, double>& values) {
  SplitStructure s;
  read(s, kTop, values);
  read(s.cpu_gpu, kCpuGpu, values);
  read(s.hts, kHts, values);
  read(s.sas, kSas, values);
  read_range("all_", s.all, values);
  read_range("cg_cpu_", s.cpu_gpu.cpu_side, values);
  read_range("cg_gpu_", s.cpu_gpu.gpu_side, values);
  read_range("hts_p1_", s.hts.part1, values);
  read_range("hts_p2_", s.hts.part2, values);
  return s;
}

}  // namespace hetsparse::planners
