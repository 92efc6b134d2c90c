// FxT -> Paje conversion at shutdown. StarPU writes prof_file_<user>_<rank> into STARPU_FXT_PREFIX;
// starpu_fxt_tool turns it into paje.trace (ViTE), dag.dot and tasks.rec.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "hetsparse/error.hpp"
#include "runtime/starpu/runtime_impl.hpp"

#ifndef HETSPARSE_STARPU_BINDIR
#define HETSPARSE_STARPU_BINDIR ""
#endif

namespace hetsparse::rt {
namespace fs = std::filesystem;
namespace {

// $HETSPARSE_FXT_TOOL, then beside our own executable (the bundle), then StarPU's bin dir, then PATH.
std::string find_fxt_tool() {
  if (const char* v = std::getenv("HETSPARSE_FXT_TOOL"); v && *v) return v;
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec && fs::exists(self.parent_path() / "starpu_fxt_tool")) return (self.parent_path() / "starpu_fxt_tool").string();
  fs::path built = fs::path(HETSPARSE_STARPU_BINDIR) / "starpu_fxt_tool";
  if (!std::string(HETSPARSE_STARPU_BINDIR).empty() && fs::exists(built)) return built.string();
  return "starpu_fxt_tool";
}

int run(const std::vector<std::string>& argv, const std::string& log) {
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    if (FILE* f = std::freopen(log.c_str(), "w", stdout)) dup2(fileno(f), STDERR_FILENO);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

TraceFiles convert_trace(const std::string& dir) {
  std::vector<std::string> inputs;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().rfind("prof_file_", 0) == 0) inputs.push_back(e.path().string());
  if (inputs.empty())
    throw RuntimeFailure("trace: StarPU wrote no FxT file into " + dir + " (was StarPU built with FxT?)");
  std::vector<std::string> argv{find_fxt_tool()};
  for (const auto& in : inputs) argv.insert(argv.end(), {"-i", in});
  argv.insert(argv.end(), {"-d", dir});
  const std::string log = dir + "/starpu_fxt_tool.log";
  if (int rc = run(argv, log); rc != 0)
    throw RuntimeFailure("trace: " + argv[0] + " failed (exit " + std::to_string(rc) + "), see " + log);
  TraceFiles t;
  t.dir = dir;
  auto have = [&](const char* name) { return fs::exists(fs::path(dir) / name) ? (fs::path(dir) / name).string() : ""; };
  t.paje = have("paje.trace");
  t.dag = have("dag.dot");
  t.tasks = have("tasks.rec");
  if (t.paje.empty()) throw RuntimeFailure("trace: " + argv[0] + " produced no paje.trace in " + dir);
  return t;
}

}  // namespace hetsparse::rt
