// Dense tiled Cholesky (right-looking, lower) as a task graph: potrf on the diagonal tile, trsm below
// it, syrk/gemm updates of the trailing matrix. Planners emit tasks through rt::TaskRuntime only.
#pragma once
#include <vector>

#include "runtime/task_runtime.hpp"

namespace hetsparse::planners {

struct TiledLayout {
  int n = 0;   // matrix order
  int nb = 0;  // tile size (the last tile row/column may be smaller)
  int tiles() const { return (n + nb - 1) / nb; }
  int tile_size(int t) const { return t + 1 < tiles() ? nb : n - nb * (tiles() - 1); }
};

struct TiledCholeskyOptions {
  int gpu_min_tile = 0;  // tiles smaller than this stay on CPUs (per-task device restriction)
};

// tile[i][j] (i >= j) are handles of the lower tiles; info[k] a 1-int vector per diagonal tile.
// Priorities follow the critical path: panel k before the updates of later panels.
void submit_tiled_cholesky(rt::TaskRuntime& rt, const TiledLayout& layout,
                           const std::vector<std::vector<rt::HandleId>>& tile, const std::vector<rt::HandleId>& info,
                           const TiledCholeskyOptions& opts = {});

}  // namespace hetsparse::planners
