#include "cli/planner_options.hpp"

#include <limits>
#include <stdexcept>
#include <string>

#include "hetsparse/error.hpp"

namespace hetsparse::cli {

void add_planner_options(ArgParser& p) {
  p.option("inst-max-flops", "F", "updates (per source group and target) under F flops ride in the target's factor task")
      .option("dpq-min-flops", "F", "updates of at least F flops are tasks of their own; between the two, batched per target")
      .option("subtree-max-flops", "F", "leaf subtrees under F flops are one CPU task each (<0 automatic, 0 none)")
      .option("gpu-min-task-flops", "F", "top supernodes with less work than F stay on CPUs")
      .option("gpu-only-min-flops", "F", "top supernodes with at least F flops of work live on the GPU (between the min-task value and F: the scheduler's choice)")
      .option("gpu-subtree-only-min-flops", "F", "leaf subtrees with at least F flops run on a GPU")
      .option("gpu-subtree-min-flops", "F", "leaf subtrees with at least F flops may run on a GPU (< 0: never)")
      .option("gpu-whole-max-flops-per-entry", "F", "with a GPU, factors under F flops per entry of L go to it whole (0: never)")
      .option("gpu-whole-min-flops", "F", "with a GPU, factors of at least F flops (and under the next value) go to it whole (<0: never)")
      .option("gpu-whole-any-max-flops", "F", "with a GPU, factors under F flops go to it whole whatever their flops per entry (from the previous value on)")
      .option("host-whole-max-flops", "F", "factors of at most F flops are factored on the calling thread, without tasks (<0: never)")
      .option("gpu-subtree-fused-max-flops", "F", "GPU subtrees: updates under F flops go to the fused kernel")
      .option("gpu-subtree-batched-max-cols", "N", "GPU subtrees: panels of at most N columns go to the batched factor kernel")
      .option("amalgamation", "N:Z,N:Z,N:Z,N:Z",
              "swCholesky's four relaxed-amalgamation cases (columns:zero fraction), default 8:0.99,32:0.8,64:0.1,1023:0.05")
      .option("max-supernode-cols", "N",
              "supernodes wider than N columns are cut into pieces of at most N (0: never; default " +
                  std::to_string(cholesky::kMaxSupernodeCols) + ")");
}

void apply_planner_options(const ArgParser& p, planners::SizeClassThresholds& th) {
  constexpr double kMost = std::numeric_limits<double>::max();
  if (p.has("inst-max-flops")) th.inst_max_flops = p.get_double_in("inst-max-flops", 0, kMost);
  if (p.has("dpq-min-flops")) th.dpq_min_flops = p.get_double_in("dpq-min-flops", 0, kMost);
  if (p.has("subtree-max-flops")) th.subtree_max_flops = p.get_double("subtree-max-flops");  // < 0: automatic
  if (p.has("gpu-min-task-flops")) th.gpu_min_task_flops = p.get_double_in("gpu-min-task-flops", 0, kMost);
  if (p.has("gpu-only-min-flops")) th.gpu_only_min_flops = p.get_double_in("gpu-only-min-flops", 0, kMost);
  if (p.has("gpu-subtree-only-min-flops"))
    th.gpu_subtree_only_min_flops = p.get_double_in("gpu-subtree-only-min-flops", 0, kMost);
  if (p.has("gpu-subtree-min-flops")) th.gpu_subtree_min_flops = p.get_double_in("gpu-subtree-min-flops", -1, kMost);
  if (p.has("gpu-whole-max-flops-per-entry"))
    th.gpu_whole_max_flops_per_entry = p.get_double_in("gpu-whole-max-flops-per-entry", 0, kMost);
  if (p.has("gpu-whole-min-flops")) th.gpu_whole_min_flops = p.get_double_in("gpu-whole-min-flops", -1, kMost);
  if (p.has("gpu-whole-any-max-flops"))
    th.gpu_whole_any_max_flops = p.get_double_in("gpu-whole-any-max-flops", 0, kMost);
  if (p.has("host-whole-max-flops")) th.host_whole_max_flops = p.get_double_in("host-whole-max-flops", -1, kMost);
  if (p.has("gpu-subtree-fused-max-flops"))
    th.gpu_subtree_fused_max_flops = p.get_double_in("gpu-subtree-fused-max-flops", 0, kMost);
  if (p.has("gpu-subtree-batched-max-cols"))
    th.gpu_subtree_batched_max_cols = static_cast<std::int32_t>(p.get_int_in("gpu-subtree-batched-max-cols", 0, 1 << 20));
}

void apply_analysis_options(const ArgParser& p, cholesky::AnalyzeOptions& ao) {
  if (p.has("max-supernode-cols"))
    ao.max_supernode_cols = static_cast<index_t>(p.get_int_in("max-supernode-cols", 0, index_t{1} << 30));
  if (!p.has("amalgamation")) return;
  const std::string v = p.get("amalgamation");
  std::size_t at = 0;
  for (auto& pair : ao.amalgamation) {
    const std::size_t colon = v.find(':', at), comma = v.find(',', at);
    if (colon == std::string::npos || (comma != std::string::npos && comma < colon))
      throw InvalidSetting("--amalgamation: expected four N:Z pairs separated by commas, got '" + v + "'");
    try {
      pair.nrelax = static_cast<index_t>(std::stol(v.substr(at, colon - at)));
      pair.zrelax = std::stod(v.substr(colon + 1, comma == std::string::npos ? std::string::npos : comma - colon - 1));
    } catch (const std::logic_error&) {
      throw InvalidSetting("--amalgamation: '" + v + "' is not four N:Z pairs of numbers");
    }
    if (pair.nrelax < 1 || pair.zrelax < 0 || pair.zrelax >= 1)
      throw InvalidSetting("--amalgamation: need N >= 1 and 0 <= Z < 1 in '" + v + "'");
    at = comma == std::string::npos ? v.size() : comma + 1;
  }
  if (at < v.size()) throw InvalidSetting("--amalgamation: more than four pairs in '" + v + "'");
}

}  // namespace hetsparse::cli
