// The learned SpTRSV scheme selector ("auto" in model mode): k-nearest neighbours on standardised
// log-features, trained from the search's timing tables. Each training sample is one matrix: its
// model inputs and, per scheme, time / best time of that matrix. A prediction picks the scheme with
// the smallest distance-weighted mean log-ratio over the k nearest samples, so a scheme that is
// close to the best everywhere beats one that wins one neighbour and fails another (the spirit of
// AG-SpTRSV's "85 % of the best" labels, without the MLP's training cost or dependencies). The
// inputs the distance uses are chosen at fit time by forward selection on the leave-one-out loss.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sptrsv/features.hpp"

namespace hetsparse::sptrsv {

// Named features (TriangularFeatures::as_list() names) -> the model's inputs, in model_input_names()
// order: logs of sizes and ratios, so a 1M-row and a 2M-row Laplacian sit close together.
std::vector<std::string> model_input_names();
std::vector<double> model_inputs(const std::map<std::string, double>& features);
std::vector<double> model_inputs(const TriangularFeatures& f);

// One matrix of a timing table: features and the median solve milliseconds of each scheme that ran
// correctly (failed or wrong schemes are left out).
struct TimingSample {
  std::string name;  // matrix or fingerprint, for reports
  std::map<std::string, double> features;
  std::map<std::string, double> times_ms;
};

class SchemeModel {
 public:
  SchemeModel() = default;
  // InvalidArgument when no sample has a timed scheme, or k < 1.
  // gpu, arch: the device the samples were timed on (its name, "sm_90"), recorded in the file.
  static SchemeModel fit(const std::vector<TimingSample>& samples, int k = 3, const std::string& gpu = "",
                         const std::string& arch = "");

  // The predicted scheme among `allowed` (empty: any scheme the model knows); "" when none of them is
  // known to the model. A scheme a neighbour did not time (or that failed there) counts as 10x
  // slower than that neighbour's best. accept: a further filter on the names (null: none).
  // allowed_lives: `allowed` lives, unchanged, for the process (the candidate lists, prepared_scheme.hpp),
  // so the model remembers its indices by its address and never reads its names again.
  std::string predict(const std::vector<double>& inputs, const std::vector<std::string>& allowed = {},
                      bool (*accept)(const std::string&) = nullptr, bool allowed_lives = false) const;
  std::string predict(const TriangularFeatures& f, const std::vector<std::string>& allowed = {}) const {
    return predict(model_inputs(f), allowed);
  }

  // Text file (TSV, see scheme_model.cpp); load throws ParseError naming the file and line.
  void save(const std::string& path) const;
  static SchemeModel load(const std::string& path);

  bool empty() const { return samples_.empty(); }
  const std::string& gpu() const { return gpu_; }
  const std::string& arch() const { return arch_; }  // "" in files written before it was recorded
  const std::vector<std::string>& schemes() const { return schemes_; }
  std::size_t num_samples() const { return samples_.size(); }

 private:
  struct Sample {
    std::string name;
    std::vector<double> z;       // standardised inputs
    std::vector<double> log_ratio;  // per schemes_ entry; kMissing where not timed
  };
  std::vector<double> standardise(const std::vector<double>& inputs) const;
  std::vector<double> scores(const std::vector<double>& z, std::size_t skip) const;
  double loo_loss() const;
  void index_schemes();  // by_name_ and a fresh memo (fit and load)
  std::optional<std::size_t> scheme_index(const std::string& name) const;
  // The indices of `allowed`'s names the model knows (pool): remembered by address for a list that
  // lives (every analysis asks with one of a few; their hundred-odd names are each a cache miss when
  // read cold), else looked up.
  void allowed_indices(const std::vector<std::string>& allowed, bool lives, std::vector<std::size_t>& pool) const;
  struct Memo;

  std::string gpu_, arch_;
  int k_ = 3;
  std::vector<double> mean_, scale_;
  std::vector<double> weight_;  // per input, 0 or 1: the inputs forward selection kept
  std::vector<std::string> schemes_;
  std::vector<std::size_t> by_name_;  // schemes_ indices in name order: a prediction looks names up
  std::shared_ptr<Memo> memo_;         // shared by copies: it only caches what the names give
  std::vector<Sample> samples_;
};

// How many SchemeModel::save calls this process has made: cached looks at model files are taken
// again after one (selection_store.hpp, ModelFileStamp), so a model trained here is found at once.
std::uint64_t models_saved();

// Leave-one-out evaluation: for each sample, a model fitted on the others predicts it; the result
// is the geometric mean of (time of the predicted scheme / best time) and the share of samples
// whose prediction is within 10 % of the best. Needs at least 2 samples.
struct ModelEvaluation {
  double geomean_ratio = 0;
  double within_10_percent = 0;
  int samples = 0;
};
ModelEvaluation leave_one_out(const std::vector<TimingSample>& samples, int k = 3);

}  // namespace hetsparse::sptrsv
