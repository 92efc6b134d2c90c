// The search's timing tables as JSON lines: one line per searched matrix, with its features and the
// median milliseconds of every scheme that solved it correctly. The scheme model trains on these.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sptrsv/features.hpp"
#include "sptrsv/scheme_model.hpp"

namespace hetsparse::sptrsv {

// One timing-table line: {"matrix","fingerprint","gpu","features":{...},"times_ms":{scheme: ms}}.
std::string timing_record_json(const std::string& matrix, std::uint64_t fingerprint, const std::string& gpu,
                               const TriangularFeatures& f, const std::vector<std::pair<std::string, double>>& times);
// Reads timing-table files (lines without "times_ms" are skipped, e.g. other JSON); a malformed line
// throws ParseError naming the file and line. Only schemes with a positive finite time are kept.
std::vector<TimingSample> read_timing_tables(const std::vector<std::string>& paths);

}  // namespace hetsparse::sptrsv
