// Options of the symbolic analysis: which fill-reducing ordering, which part of A the caller
// stores, and how far fundamental supernodes are merged (relaxed amalgamation).
#pragma once
#include <array>
#include <vector>

#include "sparse/types.hpp"

namespace hetsparse {
class ProgressReporter;
}

namespace hetsparse::cholesky {

enum class Ordering {
  Metis,    // METIS nested dissection on the graph of A (AnalyzeOptions::ordering_threads)
  Natural,  // the identity
  User,     // AnalyzeOptions::user_perm
};

// Which entries of the symmetric A the Csr holds. Full input must be symmetric in pattern and
// values: asymmetry is reported, not silently symmetrised.
enum class InputTriangle { Lower, Upper, Full };

// One merge case: a child supernode may be merged into its parent when the merged supernode has
// at most nrelax columns and at most a fraction zrelax of its stored entries are explicit zeros.
struct AmalgamationPair {
  index_t nrelax;
  double zrelax;
};

// swCholesky (Li et al., Sec. 3.4.3) merges a supernode into its parent when any of four cases
// holds for the merged supernode (ns columns, fraction z of explicit zeros):
//   1) ns <= nrelax0 and z <= zrelax3      2) ns <= nrelax1 and z <= zrelax0
//   3) ns <= nrelax2 and z <= zrelax1      4) ns <= nrelax3 and z <= zrelax2
// Entry i of AnalyzeOptions::amalgamation is case i + 1, i.e. {nrelax_i, zrelax_(i+3 mod 4)}.
// Two readings of the text: case 4 is printed "ns <= zrelax3", a typo for nrelax3 (the only width
// bound not yet used; it is tuned in (512, 1024)); and z is the fraction of explicit zeros, not
// of nonzeros as the text says once: cases 2-4 are CHOLMOD's rule, where z counts zeros, and only
// that reading lets case 1 (tiny supernodes, z up to zrelax3 in (0.8, 1)) merge almost anything.
// The paper tunes the eight values per matrix and publishes none. The zero fractions are CHOLMOD's
// for the three pairs it shares (zrelax0..2 = 0.8, 0.1, 0.05) and the most permissive corner of the
// paper's tuning ranges for the fourth (zrelax3 = 0.99, nrelax3 = 1023). The widths are twice
// CHOLMOD's 4, 16, 48 (8, 32, 64): measured on the H100 node (docs/benchmarks.md), wider leaf
// supernodes make the CPU's leaf-subtree phase, the critical path of a CPU + GPU factorization,
// cheaper: lap3d 100^3 0.74-0.79 s -> 0.63-0.64 s, 128^3 2.07 s -> 1.86 s.
inline constexpr std::array<AmalgamationPair, 4> kSwCholeskyAmalgamation = {{
    {8, 0.99},     // case 1: tiny supernodes merge unless almost all zeros
    {32, 0.8},     // case 2
    {64, 0.1},     // case 3
    {1023, 0.05},  // case 4: wide merges only when nearly free
}};

// The widest supernode the analysis keeps: wider ones (the top separators of 3D meshes, thousands of
// columns) are cut, so that updates into one separator run concurrently on the GPU's streams.
// Measured on the H100 node (docs/benchmarks.md, nineteenth session).
inline constexpr index_t kMaxSupernodeCols = 1024;

struct AnalyzeOptions {
  Ordering ordering = Ordering::Metis;
  // With Ordering::User: old index = user_perm[new index], a permutation of 0 .. n-1. Must be
  // empty for the other orderings (a permutation that would be ignored is an error).
  std::vector<index_t> user_perm;
  // Ordering::Metis on this many threads: 1 is one serial METIS_NodeND call; otherwise the top
  // levels of the dissection are split here and the parts ordered concurrently (nested_dissection.hpp),
  // 0 meaning one thread per CPU the process started with (sparse/host_threads.hpp). The order depends
  // on the count (it sets how many parts), never on thread timing; graphs under 10000 vertices
  // always take the serial call.
  int ordering_threads = 0;
  InputTriangle input = InputTriangle::Lower;
  std::array<AmalgamationPair, 4> amalgamation = kSwCholeskyAmalgamation;
  // false: keep the fundamental supernodes (no explicit zeros in L).
  bool amalgamate = true;
  // Supernodes wider than this are cut into pieces of at most this many columns
  // (supernode_split.hpp); 0: never. See kMaxSupernodeCols.
  index_t max_supernode_cols = kMaxSupernodeCols;
  // Not owned; when set, each phase (ordering, elimination tree, ...) is reported as it runs.
  ProgressReporter* progress = nullptr;
};

}  // namespace hetsparse::cholesky
