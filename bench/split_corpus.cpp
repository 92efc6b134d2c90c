// Corpus files, the benchmark's triangles, and its results table.
#include "bench/split_corpus.hpp"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "hetsparse/error.hpp"
#include "sparse/convert.hpp"
#include "sparse/generator_spec.hpp"
#include "sparse/matrix_market.hpp"

namespace hetsparse::bench {
namespace {

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  for (std::string item; std::getline(ss, item, '\t');) out.push_back(item);
  if (!line.empty() && line.back() == '\t') out.emplace_back();
  return out;
}

bool is_file(const std::string& source) {
  const auto ends = [&](const std::string& s) {
    return source.size() >= s.size() && source.compare(source.size() - s.size(), s.size(), s) == 0;
  };
  return ends(".mtx") || ends(".mtx.gz");
}

}  // namespace

std::vector<CorpusEntry> read_corpus(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InvalidArgument("corpus file '" + path + "' cannot be read");
  std::vector<CorpusEntry> out;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> f = split_tabs(line);
    if (f.size() != 2 || f[0].empty() || f[1].empty())
      throw InvalidArgument(path + ":" + std::to_string(n) + ": expected 'name<TAB>source'");
    out.push_back({f[0], f[1]});
  }
  return out;
}

Csr corpus_triangle(const CorpusEntry& e, const std::string& matrix_dir) {
  const bool file = is_file(e.source);
  const std::string path = file && !e.source.empty() && e.source[0] != '/' ? matrix_dir + "/" + e.source : e.source;
  const Csr a = file ? load_matrix(path) : generate(e.source);
  const Csr off = triangle(a, Triangle::Lower, false);
  Csr t;
  t.rows = t.cols = off.rows;
  t.rowptr.assign(1, 0);
  for (index_t i = 0; i < off.rows; ++i) {
    double sum = 0.0;
    for (offset_t p = off.rowptr[i]; p < off.rowptr[i + 1]; ++p) {
      t.colind.push_back(off.colind[p]);
      t.values.push_back(off.values[p]);
      sum += std::abs(off.values[p]);
    }
    t.colind.push_back(i);
    t.values.push_back(1.0 + sum);
    t.rowptr.push_back(static_cast<offset_t>(t.colind.size()));
  }
  return t;
}

void append_row(const std::string& path, const std::vector<std::string>& columns, const TableRow& row) {
  const bool fresh = !std::ifstream(path) || std::ifstream(path).peek() == std::ifstream::traits_type::eof();
  std::ofstream out(path, std::ios::app);
  if (!out) throw InvalidArgument("table '" + path + "' cannot be written");
  const auto clean = [](std::string s) {
    for (char& c : s)
      if (c == '\t' || c == '\n' || c == '\r') c = ' ';
    return s;
  };
  if (fresh) {
    for (std::size_t k = 0; k < columns.size(); ++k) out << (k ? "\t" : "") << columns[k];
    out << "\n";
  }
  for (std::size_t k = 0; k < columns.size(); ++k) {
    const auto it = row.find(columns[k]);
    out << (k ? "\t" : "") << (it == row.end() ? "" : clean(it->second));
  }
  out << "\n";
}

std::vector<TableRow> read_tables(const std::vector<std::string>& paths) {
  std::vector<TableRow> rows;
  for (const std::string& path : paths) {
    std::ifstream in(path);
    if (!in) throw InvalidArgument("table '" + path + "' cannot be read");
    std::string line;
    std::vector<std::string> header;
    for (int n = 1; std::getline(in, line); ++n) {
      if (line.empty()) continue;
      const std::vector<std::string> f = split_tabs(line);
      if (header.empty()) {
        header = f;
        continue;
      }
      if (f.size() != header.size())
        throw InvalidArgument(path + ":" + std::to_string(n) + ": " + std::to_string(f.size()) + " fields, the header has " +
                              std::to_string(header.size()));
      TableRow row;
      for (std::size_t k = 0; k < f.size(); ++k) row[header[k]] = f[k];
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

double number(const TableRow& row, const std::string& column) {
  const auto it = row.find(column);
  if (it == row.end() || it->second.empty()) return std::nan("");
  char* end = nullptr;
  const double v = std::strtod(it->second.c_str(), &end);
  return end && *end == '\0' ? v : std::nan("");
}

}  // namespace hetsparse::bench
