#include "session.hpp"

#include <cstdio>
#include <exception>

#include "hetsparse/error.hpp"

namespace hetsparse::python {

Session::~Session() {
  try {
    close();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hetsparse: error while closing the runtime: %s\n", e.what());
  }
}

rt::Runtime& Session::runtime() const {
  if (!rt_) throw InvalidArgument("hetsparse: the Runtime has been closed");
  return *rt_;
}

rt::TraceFiles Session::close() {
  if (!rt_) return {};
  auto engines = std::move(engines_);
  engines_.clear();
  for (auto& [id, release] : engines) release();
  rt::TraceFiles t = rt_->shutdown();
  rt_.reset();
  return t;
}

std::size_t Session::attach(std::function<void()> release) {
  engines_.emplace(next_, std::move(release));
  return next_++;
}

}  // namespace hetsparse::python
