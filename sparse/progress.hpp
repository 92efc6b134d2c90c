// Progress lines on stderr for long phases (reading, analysis, factorization, timed loops), so a
// run on a large problem shows what it is doing. Off unless progress_wanted(): a terminal on
// stderr, or asked for (a --progress option, HETSPARSE_PROGRESS=1).
//
//   ProgressReporter progress("cholesky", progress_wanted(asked));
//   progress.begin("ordering");            // [cholesky] ordering ...
//   progress.update(done, total, "tasks"); // at most one line a second
//   progress.end();                        // [cholesky] ordering: 1.23 s
#pragma once
#include <cstdint>
#include <string>

namespace hetsparse {

// HETSPARSE_PROGRESS=1 or `asked`: yes; HETSPARSE_PROGRESS=0: no; unset: whether stderr is a
// terminal. InvalidSetting for another HETSPARSE_PROGRESS value.
bool progress_wanted(bool asked);

class ProgressReporter {
 public:
  ProgressReporter(std::string who, bool enabled);
  ProgressReporter(const ProgressReporter&) = delete;
  ProgressReporter& operator=(const ProgressReporter&) = delete;
  ~ProgressReporter();  // a phase still open was cut short: no time printed for it

  bool enabled() const { return enabled_; }
  // Starts a phase (ending the one open, if any).
  void begin(const std::string& phase);
  // done of total units in the open phase; printed at most once a second (on a terminal the line
  // is rewritten in place, elsewhere each update is a line of its own).
  void update(std::int64_t done, std::int64_t total, const char* unit);
  // Ends the open phase with its time; no-op when none is open.
  void end();

 private:
  std::string who_, phase_;
  bool enabled_, terminal_, open_ = false, dirty_ = false;  // dirty_: a terminal line without its "\n"
  double start_ = 0, last_ = 0;
};

}  // namespace hetsparse
