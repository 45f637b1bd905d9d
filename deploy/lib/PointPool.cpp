//===- PointPool.cpp - Independent points on a pool of threads ------------===//
#include "lpx/deploy/PointPool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

void lpx::deploy::runOnThreads(
    size_t total, unsigned jobs, const std::function<bool(size_t)> &work,
    const std::function<void(size_t done, size_t failed)> &progress) {
  std::atomic<size_t> next{0};
  std::mutex mutex;
  std::condition_variable changed;
  size_t done = 0, failed = 0;

  auto worker = [&] {
    for (size_t i; (i = next.fetch_add(1)) < total;) {
      bool ok = work(i);
      std::lock_guard<std::mutex> lock(mutex);
      ++done;
      failed += !ok;
      changed.notify_one();
    }
  };
  std::vector<std::thread> threads;
  for (unsigned j = 0; j < jobs; ++j) {
    try {
      threads.emplace_back(worker);
    } catch (const std::system_error &) {
      break; // fewer threads than asked for; the caller's works below
    }
  }
  if (threads.empty())
    worker();

  std::unique_lock<std::mutex> lock(mutex);
  while (done < total) {
    changed.wait_for(lock, std::chrono::milliseconds(100));
    if (progress)
      progress(done, failed);
  }
  if (progress)
    progress(done, failed);
  lock.unlock();
  for (std::thread &t : threads)
    t.join();
}

unsigned lpx::deploy::poolThreads(unsigned asked, size_t points) {
  unsigned jobs =
      asked ? asked : std::max(1u, std::thread::hardware_concurrency());
  return unsigned(std::max<size_t>(1, std::min<size_t>(jobs, points)));
}
