// The cluster-levels pack (see sptrsv_cluster_levels.hpp) and its serial oracle: host code, in CPU
// builds too, so the pack is tested without a GPU.
#include <algorithm>
#include <cstdint>
#include <string>

#include "hetsparse/error.hpp"
#include "kernels/sptrsv/sptrsv_cluster_levels.hpp"
#include "sparse/host_threads.hpp"

namespace hetsparse::kernels {
namespace {

// The stored entries of the row at level position p, and where its diagonal and off-diagonals are.
struct PositionRow {
  index_t first, last;  // [first, last) in the arrays below
  const index_t* colind;
  const double* values;
  bool upper;
  index_t diagonal() const { return upper ? first : last - 1; }
  index_t off_begin() const { return upper ? first + 1 : first; }
  index_t off_end() const { return upper ? last : last - 1; }
};

PositionRow row_at(const TriangularView& t, index_t p) {
  const bool copy = t.level_rowptr != nullptr;
  const index_t stored = copy ? p : t.level_rows[p];
  const index_t* rowptr = copy ? t.level_rowptr : t.rowptr;
  return {rowptr[stored], rowptr[stored + 1], copy ? t.level_colind : t.colind, copy ? t.level_values : t.values,
          t.upper};
}

// Per position: its level and the narrow run it belongs to (-1 for a wide level).
struct PositionLevels {
  std::vector<index_t> level, run;
  std::vector<index_t> position_of;  // row -> position
};

constexpr std::size_t kChunk = 1 << 15;  // positions (or levels) a host thread takes at least

PositionLevels position_levels(const TriangularView& t, const ClusterLevelsPlan& plan) {
  PositionLevels out;
  const auto n = static_cast<std::size_t>(t.n);
  std::vector<index_t> run_of_level(static_cast<std::size_t>(t.num_levels), -1);
  for (std::size_t r = 0; r < plan.runs.size(); ++r)
    if (!plan.runs[r].wide)
      for (index_t l = plan.runs[r].level_begin; l < plan.runs[r].level_end; ++l)
        run_of_level[static_cast<std::size_t>(l)] = static_cast<index_t>(r);
  out.level.resize(n);
  out.run.resize(n);
  out.position_of.resize(n);
  parallel_chunks(static_cast<std::size_t>(t.num_levels), kChunk / 64, [&](std::size_t begin, std::size_t end) {
    for (std::size_t l = begin; l < end; ++l)
      for (index_t p = t.level_ptr[l]; p < t.level_ptr[l + 1]; ++p) {
        out.level[static_cast<std::size_t>(p)] = static_cast<index_t>(l);
        out.run[static_cast<std::size_t>(p)] = run_of_level[l];
      }
  });
  parallel_chunks(n, kChunk, [&](std::size_t begin, std::size_t end) {
    for (std::size_t p = begin; p < end; ++p) out.position_of[static_cast<std::size_t>(t.level_rows[p])] = static_cast<index_t>(p);
  });
  return out;
}

}  // namespace

index_t cluster_levels_longest(const TriangularView& t) {
  // Every normalised row stores exactly one diagonal: its off-diagonals are its length less one.
  index_t longest = 0;
  for (index_t i = 0; i < t.n; ++i) longest = std::max(longest, t.rowptr[i + 1] - t.rowptr[i] - 1);
  return longest;
}

int cluster_levels_width(const TriangularView& t) {
  const index_t most = cluster_levels_longest(t);
  return most <= 2 ? 2 : most <= 4 ? 4 : ClusterLevelsPack::kMaxWidth;
}

ClusterLevelsPack pack_cluster_levels(const TriangularView& t, const ClusterLevelsPlan& plan) {
  if (t.n > 0 && (t.level_rows == nullptr || t.level_ptr == nullptr)) {
    throw InvalidArgument("clusterlevels: the matrix carries no level schedule");
  }
  ClusterLevelsPack pack;
  pack.n = t.n;
  pack.width = cluster_levels_width(t);
  const PositionLevels where = position_levels(t, plan);
  const index_t threads = static_cast<index_t>(plan.cluster_blocks) * plan.block_threads;
  // The column slot k of position p holds: a ring code when the dependency is the first row of its
  // thread in a level of the same narrow run at most kRingLevels - 1 levels back, else the column.
  // One block without plan.one_block_ring reads x through its L1: no codes then.
  auto encode = [&](index_t p, index_t col) {
    const index_t q = where.position_of[static_cast<std::size_t>(col)];
    const auto pp = static_cast<std::size_t>(p), qq = static_cast<std::size_t>(q);
    const index_t distance = where.level[pp] - where.level[qq];
    const index_t index = q - t.level_ptr[where.level[qq]];
    if ((plan.cluster_blocks == 1 && !plan.one_block_ring) || where.run[pp] < 0 || where.run[pp] != where.run[qq] ||
        distance >= ClusterLevelsPack::kRingLevels || index >= threads) {
      return col;
    }
    return ring_code(where.level[qq], static_cast<int>(index / plan.block_threads),
                     static_cast<int>(index % plan.block_threads));
  };
  const auto n = static_cast<std::size_t>(t.n);
  const auto w = static_cast<std::size_t>(pack.width);
  pack.diagonal.resize(n);
  pack.cols.assign(w * n, -1);
  pack.values.assign(w * n, 0.0);
  // Overflow entries (rows longer than the width) need their offsets first: count, scan, fill.
  std::vector<index_t> extra(n + 1, 0);
  parallel_chunks(n, kChunk, [&](std::size_t begin, std::size_t end) {
    for (std::size_t p = begin; p < end; ++p) {
      const PositionRow r = row_at(t, static_cast<index_t>(p));
      extra[p + 1] = std::max<index_t>(0, r.off_end() - r.off_begin() - pack.width);
    }
  });
  for (std::size_t p = 0; p < n; ++p) extra[p + 1] += extra[p];
  if (extra[n] > 0) {
    pack.overflow_ptr = extra;
    pack.overflow_cols.resize(static_cast<std::size_t>(extra[n]));
    pack.overflow_values.resize(static_cast<std::size_t>(extra[n]));
  }
  parallel_chunks(n, kChunk, [&](std::size_t begin, std::size_t end) {
    for (std::size_t pos = begin; pos < end; ++pos) {
      const auto p = static_cast<index_t>(pos);
      const PositionRow r = row_at(t, p);
      pack.diagonal[pos] = r.values[r.diagonal()];
      for (index_t e = r.off_begin(); e < r.off_end(); ++e) {
        const auto k = static_cast<std::size_t>(e - r.off_begin());
        if (k < w) {
          pack.cols[k * n + pos] = encode(p, r.colind[e]);
          pack.values[k * n + pos] = r.values[e];
        } else {
          const auto o = static_cast<std::size_t>(extra[pos]) + k - w;
          pack.overflow_cols[o] = r.colind[e];
          pack.overflow_values[o] = r.values[e];
        }
      }
    }
  });
  return pack;
}

void solve_cluster_levels_pack_cpu(const TriangularView& t, const ClusterLevelsPlan& plan,
                                   const ClusterLevelsPack& pack, const double* b, double* x) {
  const auto n = static_cast<std::size_t>(pack.n);
  for (index_t l = 0; l < t.num_levels; ++l) {
    for (index_t p = t.level_ptr[l]; p < t.level_ptr[l + 1]; ++p) {
      const auto pos = static_cast<std::size_t>(p);
      const index_t row = t.level_rows[p];
      double sum = 0.0;
      for (std::size_t k = 0; k < static_cast<std::size_t>(pack.width); ++k) {
        index_t col = pack.cols[k * n + pos];
        if (col == -1) continue;
        if (col < -1) {  // the ring slot's level is the one in [l - kRingLevels + 1, l - 1] with that residue
          const RingSlot r = decode_ring(col);
          index_t lq = l - 1;
          while (lq >= 0 && lq > l - ClusterLevelsPack::kRingLevels && lq % ClusterLevelsPack::kRingLevels != r.slot) --lq;
          const index_t q = lq >= 0 ? t.level_ptr[lq] + r.block * plan.block_threads + r.thread : -1;
          if (lq < 0 || lq <= l - ClusterLevelsPack::kRingLevels || q >= t.level_ptr[lq + 1]) {
            throw InvalidArgument("clusterlevels pack: position " + std::to_string(p) + " holds a ring code naming no row");
          }
          col = t.level_rows[q];
        }
        sum += pack.values[k * n + pos] * x[col];
      }
      if (!pack.overflow_ptr.empty()) {
        for (index_t e = pack.overflow_ptr[pos]; e < pack.overflow_ptr[pos + 1]; ++e) {
          sum += pack.overflow_values[static_cast<std::size_t>(e)] * x[pack.overflow_cols[static_cast<std::size_t>(e)]];
        }
      }
      x[row] = (b[row] - sum) / pack.diagonal[pos];
    }
  }
}

}  // namespace hetsparse::kernels
