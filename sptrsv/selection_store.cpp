#include "sptrsv/selection_store.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "hetsparse/error.hpp"
#include "sptrsv/fingerprint.hpp"
#include "sptrsv/scheme_timing.hpp"

namespace hetsparse::sptrsv {
namespace {

bool file_exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

void make_dirs(const std::string& path) {
  // mkdir -p: each prefix in turn; EEXIST is fine (another process may create it concurrently).
  for (std::size_t pos = 1; pos <= path.size(); ++pos) {
    if (pos != path.size() && path[pos] != '/') continue;
    const std::string prefix = path.substr(0, pos);
    if (::mkdir(prefix.c_str(), 0755) != 0 && errno != EEXIST) {
      throw InvalidArgument("SpTRSV selection store: cannot create directory '" + prefix + "'");
    }
  }
}

}  // namespace

std::string resolve_perfmodel_dir(const std::string& option) {
  if (!option.empty()) return option;
  if (const char* env = std::getenv("STARPU_PERF_MODEL_DIR"); env && *env) return env;
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  const std::string base = xdg && *xdg ? xdg : std::string(home ? home : "/tmp") + "/.cache";
  return base + "/hetsparse/perfmodels";
}

std::string gpu_file_tag(const std::string& gpu) {
  std::string tag;
  for (char c : gpu) tag += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return tag.empty() ? "unknown_gpu" : tag;
}

SelectionStore::SelectionStore(std::string perfmodel_dir, std::string gpu)
    : dir_(std::move(perfmodel_dir)), gpu_(std::move(gpu)) {}

std::string SelectionStore::folder() const { return dir_ + "/hetsparse_sptrsv"; }
std::string SelectionStore::cache_path() const { return folder() + "/schemes_" + gpu_file_tag(gpu_) + ".tsv"; }
std::string SelectionStore::timings_path() const { return folder() + "/search_" + gpu_file_tag(gpu_) + ".jsonl"; }
std::string SelectionStore::model_path() const { return folder() + "/model_" + gpu_file_tag(gpu_) + ".tsv"; }
std::string SelectionStore::fusion_path() const { return folder() + "/fusion_" + gpu_file_tag(gpu_) + ".tsv"; }

void SelectionStore::ensure_folder() const { make_dirs(folder()); }

std::optional<std::string> SelectionStore::cached_scheme(std::uint64_t fingerprint) const {
  std::ifstream in(cache_path());
  const std::string key = fingerprint_hex(fingerprint);
  std::optional<std::string> found;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream cells(line);
    std::string fp, scheme;
    // A line cut short (a writer killed mid-line) is skipped rather than trusted.
    if (std::getline(cells, fp, '\t') && std::getline(cells, scheme, '\t') && fp == key && !scheme.empty()) {
      found = scheme;
    }
  }
  return found;
}

void SelectionStore::store_scheme(std::uint64_t fingerprint, const std::string& scheme, double ms) const {
  ensure_folder();
  std::ofstream out(cache_path(), std::ios::app);
  out << fingerprint_hex(fingerprint) << '\t' << scheme << '\t' << ms << '\n';
  if (!out) throw InvalidArgument("SpTRSV selection store: cannot write '" + cache_path() + "'");
}

void SelectionStore::append_timings(const std::string& json_line) const {
  ensure_folder();
  std::ofstream out(timings_path(), std::ios::app);
  out << json_line << '\n';
  if (!out) throw InvalidArgument("SpTRSV selection store: cannot write '" + timings_path() + "'");
}

std::optional<double> SelectionStore::fusion_threshold() const {
  std::ifstream in(fusion_path());
  if (!in) return std::nullopt;
  std::string key;
  double v = 0;
  if (!(in >> key >> v) || key != "fusion_threshold" || !(v >= 0)) {
    throw ParseError(fusion_path(), 1, "expected 'fusion_threshold <non-negative number>'");
  }
  return v;
}

void SelectionStore::store_fusion_threshold(double threshold) const {
  ensure_folder();
  std::ofstream out(fusion_path());
  out << "fusion_threshold\t" << threshold << '\n';
  if (!out) throw InvalidArgument("SpTRSV selection store: cannot write '" + fusion_path() + "'");
}

// <prefix>/share/hetsparse of the running program (bin/ beside share/: an install and the GPU bundle).
std::string shipped_data_dir() {
  char exe[4096];
  const ssize_t len = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (len <= 0) return "";
  std::string dir(exe, static_cast<std::size_t>(len));
  dir = dir.substr(0, dir.find_last_of('/'));   // .../bin
  dir = dir.substr(0, dir.find_last_of('/'));   // ...
  return dir + "/share/hetsparse";
}

std::optional<std::string> model_file_of_architecture(const std::vector<std::string>& dirs, const std::string& arch) {
  if (arch.empty()) return std::nullopt;
  for (const std::string& dir : dirs) {
    std::vector<std::string> files;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
      const std::string name = entry.path().filename().string();
      if (name.rfind("sptrsv_model_", 0) == 0 && name.size() > 4 && name.compare(name.size() - 4, 4, ".tsv") == 0)
        files.push_back(entry.path().string());
    }
    std::sort(files.begin(), files.end());
    for (const std::string& f : files) {
      std::ifstream in(f);
      for (std::string line; std::getline(in, line) && line.rfind("sample", 0) != 0;) {
        if (line == "arch\t" + arch) return f;
      }
    }
  }
  return std::nullopt;
}

namespace {

std::optional<std::string> look_for_model_file(const SelectionStore& store) {
  std::vector<std::string> candidates, shipped_dirs;
  const std::string file = "sptrsv_model_" + gpu_file_tag(store.gpu()) + ".tsv";
  // An explicit file first (an override for experiments), then a model trained on this machine, then
  // the one shipped with the program (installed or bundled), then the source tree's (a build tree).
  if (const char* env = std::getenv("HETSPARSE_SPTRSV_MODEL"); env && *env) candidates.emplace_back(env);
  candidates.push_back(store.model_path());
  if (const std::string shipped = shipped_data_dir(); !shipped.empty()) shipped_dirs.push_back(shipped);
#ifdef HETSPARSE_SOURCE_DIR
  shipped_dirs.push_back(std::string(HETSPARSE_SOURCE_DIR) + "/data");
#endif
  for (const std::string& dir : shipped_dirs) candidates.push_back(dir + "/" + file);
  for (const std::string& c : candidates)
    if (file_exists(c)) return c;
  // Only for this process's own device: a store for another GPU has no architecture to match.
  if (store.gpu() != cuda_device_name()) return std::nullopt;
  // Scanned once per process and set of folders: the shipped folders do not change while it runs (a
  // model trained here is found above, by its exact name), and every analysis asks.
  static std::mutex mutex;
  static std::map<std::vector<std::string>, std::optional<std::string>> scanned;
  std::lock_guard<std::mutex> lock(mutex);
  if (const auto it = scanned.find(shipped_dirs); it != scanned.end()) return it->second;
  return scanned[shipped_dirs] = model_file_of_architecture(shipped_dirs, cuda_device_architecture());
}

}  // namespace

std::optional<std::string> find_model_file(const SelectionStore& store) {
  struct Look {
    std::optional<std::string> file;
    ModelFileStamp stamp;
  };
  static std::mutex mutex;
  static std::map<std::string, Look> looks;  // by override, store file and GPU
  const char* env = std::getenv("HETSPARSE_SPTRSV_MODEL");
  std::string key = std::string(env != nullptr ? env : "") + '\n' + store.model_path() + '\n' + store.gpu();
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = looks.find(key); it != looks.end() && it->second.stamp.current()) return it->second.file;
  }
  const ModelFileStamp stamp = ModelFileStamp::now();  // before the look: a save during it makes it stale
  std::optional<std::string> file = look_for_model_file(store);
  std::lock_guard<std::mutex> lock(mutex);
  looks[std::move(key)] = Look{file, stamp};
  return file;
}

}  // namespace hetsparse::sptrsv
