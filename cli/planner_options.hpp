// Command-line knobs of the supernodal Cholesky planner, shared by `hetsparse cholesky` and the
// Cholesky benchmark, so tuning experiments need no rebuild.
#pragma once
#include "cli/args.hpp"
#include "symbolic/analyze_options.hpp"
#include "planners/supernodal_cholesky.hpp"

namespace hetsparse::cli {

// --inst-max-flops, --dpq-min-flops, --subtree-max-flops, --gpu-min-task-flops, --gpu-only-min-flops,
// --gpu-subtree-only-min-flops, ..., and the analysis's --amalgamation and --max-supernode-cols
void add_planner_options(ArgParser& p);
// Override the fields of `th`, and of `ao`, whose options were given.
void apply_planner_options(const ArgParser& p, planners::SizeClassThresholds& th);
void apply_analysis_options(const ArgParser& p, cholesky::AnalyzeOptions& ao);

}  // namespace hetsparse::cli
