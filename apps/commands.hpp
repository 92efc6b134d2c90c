// The subcommands of the `hetsparse` program; each parses its own arguments (argv after the name).
#pragma once

namespace hetsparse::cli {
int cmd_info(int argc, char** argv);
int cmd_gen(int argc, char** argv);
int cmd_spmv(int argc, char** argv);
int cmd_cholesky(int argc, char** argv);
int cmd_sptrsv(int argc, char** argv);
int cmd_pcg(int argc, char** argv);
}  // namespace hetsparse::cli
