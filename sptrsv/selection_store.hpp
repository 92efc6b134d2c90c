// Where the SpTRSV selection keeps what it learned on one device, next to StarPU's performance
// models (rt options perfmodel_dir, else $STARPU_PERF_MODEL_DIR, else ~/.cache/hetsparse/perfmodels),
// in a hetsparse_sptrsv/ folder, one file of each kind per GPU model:
//   schemes_<gpu>.tsv    search winners: "fingerprint<TAB>scheme<TAB>ms" (the last line for a key wins)
//   search_<gpu>.jsonl   full timing tables (timing_record_json), the model's training data
//   model_<gpu>.tsv      the trained scheme model (SchemeModel)
//   fusion_<gpu>.tsv     the calibrated YuenyeungSpTRSV fusion threshold ("fusion_threshold<TAB>v")
#pragma once
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sptrsv/scheme_model.hpp"

namespace hetsparse::sptrsv {

// The perf-model directory a Runtime with this option would use (same rule as rt::resolve_options).
std::string resolve_perfmodel_dir(const std::string& option);
// A GPU name as a file-name part: letters and digits kept, anything else '_' ("NVIDIA_H100_80GB_HBM3").
std::string gpu_file_tag(const std::string& gpu);

class SelectionStore {
 public:
  // dir: the perf-model directory (resolve_perfmodel_dir); gpu: the device name.
  SelectionStore(std::string perfmodel_dir, std::string gpu);

  std::string folder() const;
  std::string cache_path() const;
  std::string timings_path() const;
  std::string model_path() const;
  std::string fusion_path() const;

  // Search winner for a fingerprint, if cached.
  std::optional<std::string> cached_scheme(std::uint64_t fingerprint) const;
  void store_scheme(std::uint64_t fingerprint, const std::string& scheme, double ms) const;
  void append_timings(const std::string& json_line) const;

  std::optional<double> fusion_threshold() const;
  void store_fusion_threshold(double threshold) const;

  const std::string& gpu() const { return gpu_; }

 private:
  void ensure_folder() const;
  std::string dir_, gpu_;
};

// When a look at the model files was taken. Every analysis selects, and a look costs system calls
// (a cold file system: a tenth of a millisecond), so a look stands until a model is saved in this
// process (models_saved) or a second has passed: a file another process writes is seen within it.
struct ModelFileStamp {
  std::uint64_t saved = 0;
  std::chrono::steady_clock::time_point at{};
  static ModelFileStamp now() { return {models_saved(), std::chrono::steady_clock::now()}; }
  bool current() const {
    return saved == models_saved() && std::chrono::steady_clock::now() - at < std::chrono::seconds(1);
  }
};

// The trained model file for the store's GPU: $HETSPARSE_SPTRSV_MODEL if set, else the store's
// model_<gpu>.tsv, else the shipped data/sptrsv_model_<gpu tag>.tsv (installed, bundled or in the
// source tree), else a shipped model of another GPU of the same architecture (this process's device:
// an H200 takes the H100's); nullopt if none exists. Looked up again when the last look is not
// current (ModelFileStamp).
std::optional<std::string> find_model_file(const SelectionStore& store);

// The first sptrsv_model_*.tsv in `dirs` (in order, names sorted) whose "arch" record is `arch`;
// nullopt for an empty arch or none.
std::optional<std::string> model_file_of_architecture(const std::vector<std::string>& dirs, const std::string& arch);

}  // namespace hetsparse::sptrsv
