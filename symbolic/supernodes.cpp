// Fundamental supernodes and relaxed amalgamation.
#include "symbolic/supernodes.hpp"

#include <string>

#include "hetsparse/error.hpp"

namespace hetsparse::cholesky {
namespace {

void assign_row_offsets(std::vector<Supernode>& supernodes) {
  offset_t next = 0;
  for (Supernode& s : supernodes) {
    s.row_begin = next;
    next += s.nrows;
  }
}

void check_pairs(const std::array<AmalgamationPair, 4>& pairs) {
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    if (pairs[i].nrelax < 0 || !(pairs[i].zrelax >= 0.0)) {
      throw InvalidArgument("analyze: amalgamation[" + std::to_string(i) + "] = {" + std::to_string(pairs[i].nrelax) +
                            ", " + std::to_string(pairs[i].zrelax) + "}: bounds must be >= 0");
    }
  }
}

}  // namespace

std::vector<index_t> column_to_supernode(const std::vector<Supernode>& supernodes, index_t n) {
  std::vector<index_t> owner(static_cast<std::size_t>(n));
  for (std::size_t s = 0; s < supernodes.size(); ++s) {
    for (index_t j = 0; j < supernodes[s].ncols; ++j) owner[supernodes[s].first_col + j] = static_cast<index_t>(s);
  }
  return owner;
}

std::vector<Supernode> fundamental_supernodes(const std::vector<index_t>& parent, const std::vector<offset_t>& counts) {
  const auto n = static_cast<index_t>(parent.size());
  std::vector<index_t> num_children(parent.size(), 0);
  for (index_t j = 0; j < n; ++j) {
    // A panel needs its diagonal block, and rows below it only if the column has a parent.
    if (counts[j] < 1 || counts[j] > n - j || (parent[j] == -1) != (counts[j] == 1) ||
        (parent[j] != -1 && (parent[j] <= j || parent[j] >= n))) {
      throw InvalidArgument("fundamental_supernodes: column " + std::to_string(j) + " has parent " +
                            std::to_string(parent[j]) + " and count " + std::to_string(counts[j]) +
                            ": not an elimination tree with its column counts");
    }
    if (parent[j] != -1) ++num_children[parent[j]];
  }
  std::vector<Supernode> supernodes;
  for (index_t j = 0; j < n; ++j) {
    const bool continues = j > 0 && parent[j - 1] == j && num_children[j] == 1 && counts[j - 1] == counts[j] + 1;
    if (continues) {
      ++supernodes.back().ncols;
    } else {
      supernodes.push_back(Supernode{j, 1, 0, counts[j], -1});
    }
  }
  const std::vector<index_t> owner = column_to_supernode(supernodes, n);
  for (Supernode& s : supernodes) {
    const index_t up = parent[s.first_col + s.ncols - 1];
    s.parent = up == -1 ? -1 : owner[up];
  }
  assign_row_offsets(supernodes);
  return supernodes;
}

std::vector<Supernode> amalgamate(const std::vector<Supernode>& fundamental,
                                  const std::array<AmalgamationPair, 4>& pairs) {
  check_pairs(pairs);
  const auto count = static_cast<index_t>(fundamental.size());
  // A group is a run f .. top of fundamental supernodes merged into one; it only grows downwards,
  // so its top never changes and is its name. Indexed by the top: its columns and explicit zeros.
  std::vector<index_t> top(fundamental.size());
  std::vector<index_t> group_cols(fundamental.size());
  std::vector<offset_t> group_zeros(fundamental.size(), 0);
  for (index_t f = count - 1; f >= 0; --f) {
    const Supernode& child = fundamental[f];
    top[f] = f;
    group_cols[f] = child.ncols;
    if (f + 1 == count || child.parent == -1 || child.parent > top[f + 1]) continue;  // parent not next
    const index_t t = top[f + 1];
    const offset_t below = fundamental[t].nrows - fundamental[t].ncols;  // rows under the group's block
    const offset_t cols = static_cast<offset_t>(child.ncols) + group_cols[t];
    // Counted from its diagonal down, child column c had child.nrows - c entries and gets the
    // merged panel's cols + below - c: each of the child's columns gains the same number of zeros.
    const offset_t zeros = group_zeros[t] + child.ncols * (cols + below - child.nrows);
    const double stored = 0.5 * static_cast<double>(cols) * static_cast<double>(cols + 1) +
                          static_cast<double>(cols) * static_cast<double>(below);
    const double z = static_cast<double>(zeros) / stored;
    bool merge = false;
    for (const AmalgamationPair& pair : pairs) merge = merge || (cols <= pair.nrelax && z <= pair.zrelax);
    if (!merge) continue;
    top[f] = t;
    group_cols[t] = static_cast<index_t>(cols);
    group_zeros[t] = zeros;
  }

  std::vector<Supernode> merged;
  std::vector<index_t> group_of(fundamental.size());
  for (index_t f = 0; f < count; ++f) {
    if (f == 0 || top[f] != top[f - 1]) {
      const Supernode& t = fundamental[top[f]];
      const index_t cols = group_cols[top[f]];
      merged.push_back(Supernode{fundamental[f].first_col, cols, 0, cols + (t.nrows - t.ncols), t.parent});
    }
    group_of[f] = static_cast<index_t>(merged.size()) - 1;
  }
  for (Supernode& s : merged) {
    if (s.parent != -1) s.parent = group_of[s.parent];
  }
  assign_row_offsets(merged);
  return merged;
}

}  // namespace hetsparse::cholesky
