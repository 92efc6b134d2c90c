// Per-device calibration of YuenyeungSpTRSV's fusion threshold (paper Section 6.2): the paper trains
// on Graph 500 (R-MAT) lower triangles of varied parallel granularity and keeps one threshold per
// platform. Here every candidate threshold re-segments each training matrix and the two
// YuenyeungSpTRSV variants (natural and level order) are timed; the threshold with the smallest
// geometric mean time over matrices and variants wins. The result is stored with the perf models
// (SelectionStore::store_fusion_threshold) and TriangularSolver's analysis uses it when present.
// Training only (bench_sptrsv_train): the library reads the stored threshold, never calibrates.
#pragma once
#include <string>
#include <vector>

#include "sparse/csr.hpp"
#include "sptrsv/scheme_timing.hpp"

namespace hetsparse::bench {

struct FusionCalibration {
  double threshold = 0;            // the winner (0 when nothing could be timed)
  std::vector<double> thresholds;  // the candidates, with
  std::vector<double> geomean_ms;  // their geometric-mean solve time (0: not timed)
  int matrices = 0;                // training matrices every candidate solved correctly
  std::string device;
  std::string note;                // why some matrices were left out, or why nothing was timed
};

std::vector<double> default_fusion_thresholds();  // 2 .. 32

// lowers: lower-triangular training matrices (e.g. generate("anchor-rmat:S:E")).
FusionCalibration calibrate_fusion_threshold(const std::vector<Csr>& lowers, const std::vector<double>& thresholds,
                                             const sptrsv::SchemeTimingOptions& timing);

}  // namespace hetsparse::bench
