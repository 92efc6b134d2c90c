// Calibration and report of the split model from bench_sptrsv_split's tables: each triangle's
// structure columns replayed through planners::decide_split against its measured policies.
#pragma once
#include <string>
#include <vector>

namespace hetsparse::bench {

// The timed policies (planners::to_string of each SplitPolicy) and "auto" (the live decision).
std::vector<std::string> split_policy_names();
// The table's columns, in order.
std::vector<std::string> split_table_columns();

// bench_sptrsv_split fit: the cost models by non-negative least squares, then the gates and the split
// margin by coordinate search for the most triangles whose decided policy is within 5 % of their fastest.
int split_fit(int argc, char** argv);
// bench_sptrsv_split report: the figures as markdown (decision against the fastest policy,
// speedup over the best unified policy, the split winners, setup in solves on the anchors).
int split_report(int argc, char** argv);

}  // namespace hetsparse::bench
