// The measurements StarPU keeps in a history-based performance model file
// (<dir>/codelets/45/<symbol>.<hostname>): per architecture, one entry per data-size
// footprint with the task's flops (TaskSpec::flops of the first task seen with that footprint),
// the total data size in bytes, and the mean time in microseconds over n runs.
#pragma once
#include <string>
#include <vector>

namespace hetsparse::cholesky::autotune {

enum class ArchKind { Cpu, Cuda };
const char* to_string(ArchKind);

struct HistorySample {
  unsigned footprint = 0;
  double size_bytes = 0, flops = 0, mean_us = 0;
  unsigned n = 0;  // runs averaged; 0: an entry StarPU created but never measured
};

// The history of one single-device architecture of the file (combinations of several devices,
// i.e. parallel workers, are skipped: hetsparse does not use them).
struct ArchHistory {
  ArchKind kind;
  int device = 0;  // CUDA device id; 0 for the CPU core model
  std::vector<HistorySample> samples;
};

// Parses StarPU's text format (version 45, written by StarPU 1.4's perfmodel_history.c): comments
// start with '#', the numbers follow in a fixed order. ParseError naming the file and line on
// anything else.
std::vector<ArchHistory> read_perfmodel_history(const std::string& path);

// The file StarPU would use for `symbol` under perfmodel_dir on this host ($STARPU_HOSTNAME or the
// host name); empty when there is none.
std::string find_perfmodel_file(const std::string& perfmodel_dir, const std::string& symbol);

}  // namespace hetsparse::cholesky::autotune
