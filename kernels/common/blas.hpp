// The one place the CPU kernels include CBLAS and LAPACKE (Debian OpenBLAS headers), plus the
// translation of BLAS option characters into CBLAS enums. Characters are accepted in either case,
// like reference BLAS; anything else throws InvalidArgument instead of reaching xerbla (which exits).
#pragma once
#include <cblas.h>
#include <lapacke.h>

#include <string>

#include "hetsparse/error.hpp"

namespace hetsparse::kernels {

[[noreturn]] inline void throw_bad_option(const char* routine, const char* option, char value) {
  throw InvalidArgument(std::string(routine) + ": invalid " + option + " '" + std::string(1, value) + "'");
}

// 'N' no transpose, 'T' transpose; 'C' is accepted as a transpose because the data is real.
inline CBLAS_TRANSPOSE cblas_transpose(char trans, const char* routine) {
  switch (trans) {
    case 'N': case 'n': return CblasNoTrans;
    case 'T': case 't': case 'C': case 'c': return CblasTrans;
    default: throw_bad_option(routine, "trans", trans);
  }
}

inline CBLAS_UPLO cblas_uplo(char uplo, const char* routine) {
  switch (uplo) {
    case 'L': case 'l': return CblasLower;
    case 'U': case 'u': return CblasUpper;
    default: throw_bad_option(routine, "uplo", uplo);
  }
}

inline CBLAS_SIDE cblas_side(char side, const char* routine) {
  switch (side) {
    case 'L': case 'l': return CblasLeft;
    case 'R': case 'r': return CblasRight;
    default: throw_bad_option(routine, "side", side);
  }
}

inline CBLAS_DIAG cblas_diag(char diag, const char* routine) {
  switch (diag) {
    case 'N': case 'n': return CblasNonUnit;
    case 'U': case 'u': return CblasUnit;
    default: throw_bad_option(routine, "diag", diag);
  }
}

// LAPACKE takes the characters themselves; normalise and validate them the same way.
inline char lapack_uplo(char uplo, const char* routine) {
  return cblas_uplo(uplo, routine) == CblasLower ? 'L' : 'U';
}

}  // namespace hetsparse::kernels
