// Typed errors for hetsparse. Every failure a user can cause (bad file, bad structure, non-SPD matrix)
// or the system can cause (StarPU, CUDA, a library) becomes one of these, with the place named.
#pragma once
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace hetsparse {

// Base of every hetsparse exception.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Malformed input file: the message names file and line ("file: ..." when line is 0: the file as a
// whole, e.g. one that cannot be opened).
class ParseError : public Error {
 public:
  ParseError(const std::string& file, std::int64_t line, const std::string& what)
      : Error(file + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": " + what), file_(file), line_(line) {}
  const std::string& file() const { return file_; }
  std::int64_t line() const { return line_; }

 private:
  std::string file_;
  std::int64_t line_;
};

// A matrix whose structure is wrong for the operation (missing diagonal, entry on the wrong side, ...).
// row/col are 0-based; the message prints them 0-based too and says so.
class StructureError : public Error {
 public:
  StructureError(std::int64_t row, std::int64_t col, const std::string& what)
      : Error(what + " (row " + std::to_string(row) + ", column " + std::to_string(col) + ", 0-based)"),
        row_(row), col_(col) {}
  std::int64_t row() const { return row_; }
  std::int64_t col() const { return col_; }

 private:
  std::int64_t row_, col_;
};

// Bad argument to an API call (sizes that do not match, unknown option value, ...).
class InvalidArgument : public Error {
 public:
  using Error::Error;
};

// A bad setting: an option or environment variable (scheduler name, worker count, ...) whose value
// cannot be used. The message names the setting, the value and what is accepted; the command-line
// tool exits with status 2 for it, as for any usage error.
class InvalidSetting : public InvalidArgument {
 public:
  using InvalidArgument::InvalidArgument;
};

// An allocation refused before it is made because the machine cannot hold it: needed() and
// available() in bytes, both in the message.
class InsufficientMemory : public Error {
 public:
  InsufficientMemory(const std::string& what, std::uint64_t needed, std::uint64_t available)
      : Error(what + " needs " + bytes_text(needed) + ", but only " + bytes_text(available) +
              " of memory are available: check the sizes, or run on a machine with more memory"),
        needed_(needed), available_(available) {}
  std::uint64_t needed() const { return needed_; }
  std::uint64_t available() const { return available_; }
  // "12.3 GiB (13207024435 bytes)"
  static std::string bytes_text(std::uint64_t bytes) {
    char gib[32];
    std::snprintf(gib, sizeof gib, "%.1f GiB", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0));
    return std::string(gib) + " (" + std::to_string(bytes) + " bytes)";
  }

 private:
  std::uint64_t needed_, available_;
};

// A factorization met a non-positive pivot; column() is 0-based in the caller's numbering.
class NotPositiveDefinite : public Error {
 public:
  NotPositiveDefinite(std::int64_t column, const std::string& what)
      : Error(what + " (column " + std::to_string(column) + ", 0-based)"), column_(column) {}
  std::int64_t column() const { return column_; }

 private:
  std::int64_t column_;
};

// A result that is not finite or not accurate: an overflow, a matrix too ill-conditioned for double
// precision, a wrong answer. The message names the entry and the scale involved.
class NumericalFailure : public Error {
 public:
  using Error::Error;
};

// Failures reported by StarPU, the CUDA runtime or a numerical library, with the call that failed.
class RuntimeFailure : public Error {
 public:
  using Error::Error;
};
class CudaError : public RuntimeFailure {
 public:
  using RuntimeFailure::RuntimeFailure;
};

}  // namespace hetsparse
