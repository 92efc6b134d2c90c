// The scheme model's TSV file (SchemeModel::save / load), one record per line, tab-separated:
//   hetsparse-sptrsv-model 1 | gpu NAME | arch ARCH | k K | inputs NAMES... | mean V... | scale V... |
//   weight W... | schemes NAMES... | sample NAME Z... LOGRATIO...   (one line per training matrix)
#include <atomic>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "hetsparse/error.hpp"
#include "sptrsv/scheme_model.hpp"

namespace hetsparse::sptrsv {
namespace {

std::atomic<std::uint64_t> saved_models{0};

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  std::string cell;
  while (std::getline(ss, cell, '\t')) out.push_back(cell);
  return out;
}

std::string fmt(double v) {
  std::ostringstream o;
  o.precision(17);
  o << v;
  return o.str();
}

}  // namespace

std::uint64_t models_saved() { return saved_models.load(); }

void SchemeModel::save(const std::string& path) const {
  std::ofstream out(path);
  if (!out) throw InvalidArgument("SchemeModel::save: cannot write '" + path + "'");
  const auto row = [&out](const std::string& key, const std::vector<std::string>& cells) {
    out << key;
    for (const std::string& c : cells) out << '\t' << c;
    out << '\n';
  };
  const auto nums = [](const std::vector<double>& v) {
    std::vector<std::string> c;
    for (double x : v) c.push_back(fmt(x));
    return c;
  };
  row("hetsparse-sptrsv-model", {"1"});
  row("gpu", {gpu_});
  if (!arch_.empty()) row("arch", {arch_});
  row("k", {std::to_string(k_)});
  row("inputs", model_input_names());
  row("mean", nums(mean_));
  row("scale", nums(scale_));
  row("weight", nums(weight_));
  row("schemes", schemes_);
  for (const Sample& s : samples_) {
    std::vector<std::string> c = {s.name};
    for (const std::string& v : nums(s.z)) c.push_back(v);
    for (const std::string& v : nums(s.log_ratio)) c.push_back(v);
    row("sample", c);
  }
  if (!out) throw InvalidArgument("SchemeModel::save: writing '" + path + "' failed");
  out.close();
  ++saved_models;
}

SchemeModel SchemeModel::load(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InvalidArgument("SchemeModel::load: cannot read '" + path + "'");
  SchemeModel m;
  const std::size_t d = model_input_names().size();
  std::string line;
  long line_no = 0;
  const auto fail = [&](const std::string& why) {
    throw ParseError(path, line_no, "scheme model: " + why);
  };
  const auto numbers = [&](const std::vector<std::string>& c, std::size_t from, std::size_t count) {
    if (c.size() < from + count) fail("expected " + std::to_string(count) + " numbers");
    std::vector<double> v;
    for (std::size_t i = from; i < from + count; ++i) {
      try {
        v.push_back(std::stod(c[i]));
      } catch (const std::exception&) {
        fail("'" + c[i] + "' is not a number");
      }
    }
    return v;
  };
  bool header = false;
  while (std::getline(in, line)) {
    ++line_no;
    const std::vector<std::string> c = split_tabs(line);
    if (c.empty()) continue;
    if (c[0] == "hetsparse-sptrsv-model") {
      if (c.size() < 2 || c[1] != "1") fail("unsupported version");
      header = true;
    } else if (!header) {
      fail("not a hetsparse scheme model (no header line)");
    } else if (c[0] == "gpu") {
      m.gpu_ = c.size() > 1 ? c[1] : "";
    } else if (c[0] == "arch") {
      m.arch_ = c.size() > 1 ? c[1] : "";
    } else if (c[0] == "k") {
      m.k_ = static_cast<int>(numbers(c, 1, 1)[0]);
      if (m.k_ < 1) fail("k must be at least 1");
    } else if (c[0] == "inputs") {
      if (std::vector<std::string>(c.begin() + 1, c.end()) != model_input_names()) fail("inputs differ from this build's");
    } else if (c[0] == "mean") {
      m.mean_ = numbers(c, 1, d);
    } else if (c[0] == "scale") {
      m.scale_ = numbers(c, 1, d);
    } else if (c[0] == "weight") {
      m.weight_ = numbers(c, 1, d);
    } else if (c[0] == "schemes") {
      m.schemes_.assign(c.begin() + 1, c.end());
    } else if (c[0] == "sample") {
      if (c.size() != 2 + d + m.schemes_.size()) fail("sample line with the wrong number of cells");
      Sample s;
      s.name = c[1];
      s.z = numbers(c, 2, d);
      s.log_ratio = numbers(c, 2 + d, m.schemes_.size());
      m.samples_.push_back(std::move(s));
    } else {
      fail("unknown record '" + c[0] + "'");
    }
  }
  if (!header) fail("empty file");
  if (m.mean_.size() != d || m.scale_.size() != d || m.weight_.size() != d) fail("mean, scale or weight missing");
  m.index_schemes();
  return m;
}

}  // namespace hetsparse::sptrsv
