#include "planners/tiled_cholesky.hpp"

#include <string>

#include "codelets/gemm/gemm_codelet.hpp"
#include "codelets/potrf/potrf_codelet.hpp"
#include "codelets/syrk/syrk_codelet.hpp"
#include "codelets/trsm/trsm_codelet.hpp"
#include "hetsparse/error.hpp"

namespace hetsparse::planners {

void submit_tiled_cholesky(rt::TaskRuntime& rt, const TiledLayout& L, const std::vector<std::vector<rt::HandleId>>& tile,
                           const std::vector<rt::HandleId>& info, const TiledCholeskyOptions& opts) {
  const int T = L.tiles();
  if (L.nb < 1 || static_cast<int>(tile.size()) != T || static_cast<int>(info.size()) != T)
    throw InvalidArgument("tiled Cholesky: " + std::to_string(T) + " tile rows and info handles expected");
  auto opt = [&](std::string name, int prio, int size) {
    rt::TaskOptions o;
    o.name = std::move(name);
    o.priority = prio;
    o.where = size < opts.gpu_min_tile ? rt::Where::Cpu : rt::Where::Any;
    return o;
  };
  for (int k = 0; k < T; ++k) {
    const int nk = L.tile_size(k);
    // The potrf of panel k gates everything after it: highest priority, decreasing with k.
    codelets::insert_potrf(rt, opt("potrf_" + std::to_string(k), 3 * (T - k), nk), 'L', nk, tile[k][k], info[k]);
    for (int i = k + 1; i < T; ++i)
      codelets::insert_trsm(rt, opt("trsm_" + std::to_string(i) + "_" + std::to_string(k), 3 * (T - k) - 1, nk), 'R',
                            'L', 'T', 'N', L.tile_size(i), nk, 1.0, tile[k][k], tile[i][k]);
    for (int j = k + 1; j < T; ++j) {
      const int nj = L.tile_size(j);
      codelets::insert_syrk(rt, opt("syrk_" + std::to_string(j) + "_" + std::to_string(k), 3 * (T - j), nj), 'L', 'N',
                            nj, nk, -1.0, tile[j][k], 1.0, tile[j][j]);
      for (int i = j + 1; i < T; ++i)
        codelets::insert_gemm(rt,
                              opt("gemm_" + std::to_string(i) + "_" + std::to_string(j) + "_" + std::to_string(k),
                                  3 * (T - j) - 2, nj),
                              'N', 'T', L.tile_size(i), nj, nk, -1.0, tile[i][k], tile[j][k], 1.0, tile[i][j]);
    }
  }
}

}  // namespace hetsparse::planners
