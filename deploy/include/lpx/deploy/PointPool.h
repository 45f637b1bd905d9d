//===- PointPool.h - Independent points on a pool of threads ----*- C++ -*-===//
//
// Sweeps and studies run points that share nothing but read-only inputs:
// each worker takes the next index, and the caller's thread only waits and
// tells progress, so a progress line never races the work.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_POINTPOOL_H
#define LPX_DEPLOY_POINTPOOL_H

#include <cstddef>
#include <functional>

namespace lpx::deploy {

/// Runs `work(i)` for every i below `total` on up to `jobs` threads (the
/// caller's own when none can be started); `work` returns whether point i
/// succeeded and must not throw. `progress` hears (done, failed) on the
/// caller's thread about every 100 ms and once at the end.
void runOnThreads(size_t total, unsigned jobs,
                  const std::function<bool(size_t)> &work,
                  const std::function<void(size_t done, size_t failed)>
                      &progress);

/// The threads for `points` points: `asked`, or one per hardware thread
/// when 0, but no more than the points and at least 1.
unsigned poolThreads(unsigned asked, size_t points);

} // namespace lpx::deploy

#endif
