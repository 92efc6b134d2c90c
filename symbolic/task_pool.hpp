// A minimal pool for the parallel ordering: tasks may add tasks, the largest runs first (the
// biggest METIS calls start early, so the small ones fill the gaps at the end), and run() returns
// once every task is done. Results must not depend on which thread runs what: each task writes
// only its own output, so the pool needs no ordering guarantees.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <queue>
#include <thread>
#include <tuple>
#include <vector>

namespace hetsparse::cholesky::detail {

class TaskPool {
 public:
  using Task = std::function<void()>;

  // Thread-safe, also from inside a running task.
  void add(std::int64_t size, Task task) {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      queue_.push(Entry{size, next_id_++, std::move(task)});
    }
    wake_.notify_one();
  }

  // Runs the queue on `threads` threads (the caller's included; each other one calls helper_start
  // first) until it is empty and no task is running. The first exception a task throws stops the
  // pool (queued tasks are dropped) and is rethrown here once every thread has stopped.
  void run(int threads, void (*helper_start)() = nullptr) {
    std::vector<std::thread> helpers;
    for (int t = 1; t < threads; ++t) {
      helpers.emplace_back([this, helper_start] {
        if (helper_start) helper_start();
        work();
      });
    }
    work();
    for (std::thread& h : helpers) h.join();
    if (error_) std::rethrow_exception(error_);
  }

 private:
  struct Entry {
    std::int64_t size;
    std::int64_t id;  // ties: first added first
    Task task;
    bool operator<(const Entry& o) const { return std::tie(size, o.id) < std::tie(o.size, id); }
  };

  void work() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait(lock, [this] { return error_ || !queue_.empty() || running_ == 0; });
      if (error_ || queue_.empty()) break;  // failed, or nothing queued and nothing running
      Task task = std::move(const_cast<Entry&>(queue_.top()).task);
      queue_.pop();
      ++running_;
      lock.unlock();
      std::exception_ptr failure;
      try {
        task();
      } catch (...) {
        failure = std::current_exception();
      }
      lock.lock();
      --running_;
      if (failure && !error_) error_ = failure;
      if (error_ || running_ == 0) wake_.notify_all();  // waiters may now stop
    }
    wake_.notify_all();
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::priority_queue<Entry> queue_;
  std::int64_t next_id_ = 0;
  int running_ = 0;
  std::exception_ptr error_;
};

}  // namespace hetsparse::cholesky::detail
