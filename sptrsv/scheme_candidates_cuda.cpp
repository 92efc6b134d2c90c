// The candidate scheme lists of "auto" on the GPU (see prepared_scheme.hpp): the plain variants,
// cusparse, clusterlevels and its groups of lanes, wavefront, the AG space of the shape and, where they
// qualify, the powered forms. Made once per class of shapes. Compiled only in CUDA builds.
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "kernels/sptrsv/sptrsv.hpp"
#include "sptrsv/ag/ag_scheme.hpp"
#include "sptrsv/prepared_scheme.hpp"

namespace hetsparse::sptrsv {

std::vector<std::string> plain_variant_names() { return kernels::gpu_variants(); }

namespace {

bool powered_qualifies(index_t levels, std::int64_t longest_row) {
  return levels >= kPoweredMinLevels && longest_row <= kPoweredMaxRow;
}

std::vector<std::string> powered_names() {
  std::vector<std::string> out;
  for (const int power : {2, 4, 8, 16})
    for (const char* base : {"cusparse", "syncfree_levelorder", "yuenyeung_levelorder", "clusterlevels"})
      out.push_back("pow" + std::to_string(power) + ":" + base);
  return out;
}

std::vector<std::string> powered_candidates(index_t levels, std::int64_t longest_row) {
  return powered_qualifies(levels, longest_row) ? powered_names() : std::vector<std::string>{};
}

}  // namespace

std::vector<std::string> powered_candidates(const TriangularPattern& p) {
  return powered_candidates(p.num_levels(), p.features().rnnz_max);
}

namespace {

// The two lists of one class of shapes (the address of the AG space's names, which
// ag_search_space_names keeps, names the class): without and with the powered forms, made together.
struct CandidateLists {
  std::vector<std::string> unpowered;
  std::vector<std::string> with_powered;
};

std::mutex g_lists_mutex;
std::map<const std::vector<std::string>*, CandidateLists> g_lists;  // nodes never move nor go

CandidateLists& lists_of(index_t n, std::int64_t nnz, index_t levels) {
  const double mean_row = n > 0 ? double(nnz) / double(n) : 0.0;
  const std::vector<std::string>& ag_names = ag::ag_search_space_names(n, nnz, levels, mean_row);
  std::lock_guard<std::mutex> lock(g_lists_mutex);
  CandidateLists& lists = g_lists[&ag_names];
  if (lists.unpowered.empty()) {
    std::vector<std::string> out = kernels::gpu_variants();
    out.emplace_back("cusparse");
    out.emplace_back("clusterlevels");
    out.emplace_back("clusterlevels:lanes=8");  // long rows in narrow levels (cluster_rows_lanes)
    out.emplace_back("clusterlevels:lanes=32");
    out.emplace_back("wavefront");
    out.insert(out.end(), ag_names.begin(), ag_names.end());
    const std::vector<std::string> powered = powered_names();
    std::vector<std::string> all = out;
    const auto plain_and_cusparse = static_cast<std::ptrdiff_t>(kernels::gpu_variants().size() + 2);
    all.insert(all.begin() + plain_and_cusparse, powered.begin(), powered.end());  // the order candidate_schemes had
    lists.with_powered = std::move(all);
    lists.unpowered = std::move(out);
  }
  return lists;
}

}  // namespace

const std::vector<std::string>& unpowered_candidates(index_t n, std::int64_t nnz, index_t levels) {
  return lists_of(n, nnz, levels).unpowered;
}

const std::vector<std::string>& candidate_schemes(index_t n, std::int64_t nnz, index_t levels, std::int64_t longest_row) {
  const CandidateLists& lists = lists_of(n, nnz, levels);
  return powered_qualifies(levels, longest_row) ? lists.with_powered : lists.unpowered;
}

const std::vector<std::string>& candidate_schemes(const TriangularPattern& p) {
  return candidate_schemes(p.rows(), p.nnz(), p.num_levels(), p.features().rnnz_max);
}

bool is_candidate_list(const std::vector<std::string>& list) {
  std::lock_guard<std::mutex> lock(g_lists_mutex);
  for (const auto& [key, lists] : g_lists)
    if (&list == &lists.unpowered || &list == &lists.with_powered) return true;
  return false;
}

}  // namespace hetsparse::sptrsv
