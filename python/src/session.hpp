// The Python module's runtime: one rt::Runtime (StarPU allows one per process) and the engines
// built on it. Closing it releases the engines first, since their handles must be unregistered
// before StarPU shuts down; an engine used after that raises InvalidArgument.
#pragma once
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "hetsparse/error.hpp"
#include "runtime/starpu/runtime.hpp"

namespace hetsparse::python {

class Session {
 public:
  explicit Session(const rt::RuntimeOptions& options) : rt_(std::make_unique<rt::Runtime>(options)) {}
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  rt::Runtime& runtime() const;  // InvalidArgument once closed
  bool closed() const { return !rt_; }
  // Releases every engine, shuts StarPU down (converting the trace) and returns the trace files.
  rt::TraceFiles close();
  // An engine's release function, called by close(); detach() when the engine goes first.
  std::size_t attach(std::function<void()> release);
  void detach(std::size_t id) { engines_.erase(id); }

 private:
  std::unique_ptr<rt::Runtime> rt_;
  std::map<std::size_t, std::function<void()>> engines_;
  std::size_t next_ = 0;
};

// A solver object of type T built on a session's runtime, released when the session closes.
template <class T>
class Engine {
 public:
  Engine(std::shared_ptr<Session> s, std::unique_ptr<T> obj) : session_(std::move(s)), obj_(std::move(obj)) {
    id_ = session_->attach([this] { obj_.reset(); });
  }
  ~Engine() {
    session_->detach(id_);
    obj_.reset();  // its handles go while the runtime is still up
  }
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  T& get() const {
    if (!obj_) throw InvalidArgument("hetsparse: the Runtime this object was built on has been closed");
    return *obj_;
  }
  const std::shared_ptr<Session>& session() const { return session_; }

 private:
  std::shared_ptr<Session> session_;
  std::unique_ptr<T> obj_;
  std::size_t id_ = 0;
};

}  // namespace hetsparse::python
