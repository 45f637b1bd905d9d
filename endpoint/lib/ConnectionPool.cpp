//===- ConnectionPool.cpp - Workers, waiting places, one refuser ----------===//

#include "ConnectionPool.h"

namespace lpx::endpoint {

static thread_local bool tRefusing = false;

bool ConnectionPool::refusing() { return tRefusing; }

ConnectionPool::ConnectionPool(size_t workers, size_t places)
    : workers(std::max<size_t>(workers, 1)), places(places) {
  for (size_t i = 0; i < this->workers; ++i)
    threads.emplace_back([this] { work(false); });
  threads.emplace_back([this] { work(true); });
}

void ConnectionPool::enqueue(std::function<void()> fn) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (busy + jobs.size() < workers + places)
      jobs.push_back(std::move(fn));
    else
      refusals.push_back(std::move(fn));
  }
  cv.notify_all();
}

void ConnectionPool::work(bool refuser) {
  tRefusing = refuser;
  std::deque<std::function<void()>> &mine = refuser ? refusals : jobs;
  for (;;) {
    std::function<void()> fn;
    {
      std::unique_lock<std::mutex> lock(mutex);
      cv.wait(lock, [&] { return stopping || !mine.empty(); });
      if (mine.empty())
        return; // stopping, nothing left
      fn = std::move(mine.front());
      mine.pop_front();
      busy += !refuser;
    }
    fn();
    std::lock_guard<std::mutex> lock(mutex);
    busy -= !refuser;
  }
}

void ConnectionPool::shutdown() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping = true;
  }
  cv.notify_all();
  for (std::thread &t : threads)
    t.join();
}

} // namespace lpx::endpoint
