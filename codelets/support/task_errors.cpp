#include "codelets/support/task_errors.hpp"

#include <starpu.h>

#include <mutex>
#include <string>

#include "hetsparse/error.hpp"

namespace hetsparse::rt {
namespace {
std::mutex g_mutex;
std::exception_ptr g_error;
std::string g_task;
}  // namespace

void record_task_error(std::exception_ptr e, const char* task_name) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_error) return;  // the first failure is the informative one
  g_error = e;
  if (task_name) {
    g_task = task_name;
  } else if (starpu_task* t = starpu_task_get_current(); t && t->name) {
    g_task = t->name;
  }
}

void rethrow_task_error() {
  std::exception_ptr e;
  std::string task;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    e = std::exchange(g_error, nullptr);
    task = std::exchange(g_task, {});
  }
  if (!e) return;
  try {
    std::rethrow_exception(e);
  } catch (const std::exception& ex) {
    throw RuntimeFailure("task '" + task + "' failed: " + ex.what());
  }
}

}  // namespace hetsparse::rt
