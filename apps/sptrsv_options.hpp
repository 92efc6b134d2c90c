// `hetsparse sptrsv`'s own options (beside the matrix input and the runtime's), declared apart from
// the command so that the command reads as what it does.
#pragma once
#include "cli/args.hpp"

namespace hetsparse::cli {

void add_sptrsv_options(ArgParser& p);

}  // namespace hetsparse::cli
