// Where a pattern's preprocessing went, step by step (the analysis's parts, the selection, each
// scheme preparation's parts), for `hetsparse sptrsv --json` and the benches: what a user waits for
// before the first solve, named so it can be cut. Pure bookkeeping, no CUDA.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace hetsparse::sptrsv {

struct PreparationStep {
  std::string name;
  double seconds = 0;
};

class PreparationSteps {
 public:
  // Adds to the step of that name (a step run once per worker sums over them), else appends it.
  void add(const std::string& name, double seconds) {
    for (PreparationStep& s : steps_) {
      if (s.name == name) {
        s.seconds += seconds;
        return;
      }
    }
    steps_.push_back({name, seconds});
  }
  // Every step of `other`, each name prefixed.
  void add_all(const std::string& prefix, const PreparationSteps& other) {
    for (const PreparationStep& s : other.steps_) add(prefix + s.name, s.seconds);
  }
  const std::vector<PreparationStep>& steps() const { return steps_; }
  double total() const {
    double seconds = 0;
    for (const PreparationStep& s : steps_) seconds += s.seconds;
    return seconds;
  }
  bool empty() const { return steps_.empty(); }

 private:
  std::vector<PreparationStep> steps_;
};

}  // namespace hetsparse::sptrsv
