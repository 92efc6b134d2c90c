// The command-line spelling of a generated matrix ("lap3d:64x64x32:27", "rmat:18:8", ...),
// shared by the CLI tools and benchmarks so every program names matrices the same way.
#pragma once
#include <string>

#include "sparse/csr.hpp"

namespace hetsparse {

// Builds the matrix a spec names: KIND:ARG[:ARG...]. Throws InvalidArgument for an unknown
// kind (the message lists the known ones) or bad arguments (the message shows the usage).
Csr generate(const std::string& spec);

// One line per kind: its syntax and what it builds, for --help.
std::string generator_help();

}  // namespace hetsparse
