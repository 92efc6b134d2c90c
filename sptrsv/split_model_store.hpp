// Where the split model's thresholds (planners::SplitThresholds) come from: a file named in the
// options, $HETSPARSE_SPLIT_MODEL, the selection store's hetsparse_sptrsv/split_model_<gpu>.tsv, the
// repository's data/split_model_<gpu>.tsv (committed, bench_sptrsv_split fit), else the paper's values.
#pragma once
#include <optional>
#include <string>

#include "planners/split_sptrsv_decision.hpp"

namespace hetsparse::sptrsv {

// The first existing file of that list for this GPU name ("" without a GPU: only the first two).
std::optional<std::string> find_split_model_file(const std::string& explicit_file, const std::string& perfmodel_dir,
                                                 const std::string& gpu);

struct LoadedThresholds {
  planners::SplitThresholds thresholds;
  std::string source;  // the file, or "built-in defaults ..."
};
// Reads the file found; InvalidArgument (naming the file and line) for a malformed one, IoError-like
// InvalidArgument for an explicit file that cannot be read.
LoadedThresholds load_split_thresholds(const std::string& explicit_file, const std::string& perfmodel_dir,
                                       const std::string& gpu);

// The store's path for this GPU (bench_sptrsv_split fit writes there).
std::string split_model_store_path(const std::string& perfmodel_dir, const std::string& gpu);

}  // namespace hetsparse::sptrsv
