//===- ConnectionPool.h - Bounded connections (private) ---------*- C++ -*-===//
//
// cpp-httplib 0.11 hands each accepted connection to a TaskQueue; its own
// ThreadPool queues without a limit. This one serves `workers` connections at
// once with `places` more waiting; a connection beyond them runs on one
// refusal thread, where refusing() is true and the pre-routing handler
// answers 503 and closes it. (The job owns the socket: it must run to close
// it, so a refusal is an answer, not a drop.)
//
//===----------------------------------------------------------------------===//
#ifndef LPX_ENDPOINT_LIB_CONNECTIONPOOL_H
#define LPX_ENDPOINT_LIB_CONNECTIONPOOL_H

#include <httplib.h>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace lpx::endpoint {

class ConnectionPool : public httplib::TaskQueue {
public:
  ConnectionPool(size_t workers, size_t places);
  void enqueue(std::function<void()> fn) override;
  void shutdown() override;
  /// True on the refusal thread.
  static bool refusing();

private:
  void work(bool refuser);
  std::mutex mutex;
  std::condition_variable cv;
  std::deque<std::function<void()>> jobs, refusals;
  size_t workers, places, busy = 0;
  bool stopping = false;
  std::vector<std::thread> threads;
};

} // namespace lpx::endpoint

#endif
