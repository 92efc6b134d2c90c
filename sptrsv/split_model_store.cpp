// Finding and reading the split model's thresholds file.
#include "sptrsv/split_model_store.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#include "hetsparse/error.hpp"
#include "sptrsv/selection_store.hpp"

namespace hetsparse::sptrsv {
namespace {

bool readable(const std::string& path) { return std::ifstream(path).good(); }

}  // namespace

std::string split_model_store_path(const std::string& perfmodel_dir, const std::string& gpu) {
  return resolve_perfmodel_dir(perfmodel_dir) + "/hetsparse_sptrsv/split_model_" + gpu_file_tag(gpu) + ".tsv";
}

std::optional<std::string> find_split_model_file(const std::string& explicit_file, const std::string& perfmodel_dir,
                                                 const std::string& gpu) {
  if (!explicit_file.empty()) return explicit_file;
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("HETSPARSE_SPLIT_MODEL"); env && *env) candidates.emplace_back(env);
  if (!gpu.empty()) {
    candidates.push_back(split_model_store_path(perfmodel_dir, gpu));
#ifdef HETSPARSE_SOURCE_DIR
    candidates.push_back(std::string(HETSPARSE_SOURCE_DIR) + "/data/split_model_" + gpu_file_tag(gpu) + ".tsv");
#endif
  }
  for (const std::string& c : candidates)
    if (readable(c)) return c;
  return std::nullopt;
}

LoadedThresholds load_split_thresholds(const std::string& explicit_file, const std::string& perfmodel_dir,
                                       const std::string& gpu) {
  const std::optional<std::string> file = find_split_model_file(explicit_file, perfmodel_dir, gpu);
  if (!file) return {planners::SplitThresholds{}, "built-in defaults (the paper's thresholds, rough costs)"};
  std::ifstream in(*file);
  if (!in) throw InvalidArgument("split model file '" + *file + "' cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  return {planners::SplitThresholds::from_tsv(text.str(), *file), *file};
}

}  // namespace hetsparse::sptrsv
