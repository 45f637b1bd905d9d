//===- StageWork.h - Work done so far in a compile stage --------*- C++ -*-===//
//
// How far the running compile stage has got, for the time-left estimate of
// `lpx compile`'s progress line. A stage with a long loop (scheduling,
// SRAM allocation, emission) counts its units of work with a StageWork; the
// driver installs a sink for the compile (ScopedStageWorkSink) and hears
// `done` of `total`. Without a sink a report costs one thread-local load.
// The sink is per thread: the compiler is single-threaded, while
// `lpx sweep` compiles on several threads at once (each without a sink).
//
//===----------------------------------------------------------------------===//
#ifndef LPX_SUPPORT_STAGEWORK_H
#define LPX_SUPPORT_STAGEWORK_H

#include <cstdint>
#include <functional>

namespace lpx {

using StageWorkSink = std::function<void(uint64_t done, uint64_t total)>;

namespace detail {
inline thread_local const StageWorkSink *stageWorkSink = nullptr;
} // namespace detail

/// Installs `sink` on this thread while in scope (none if it is empty).
class ScopedStageWorkSink {
public:
  explicit ScopedStageWorkSink(const StageWorkSink &sink)
      : saved(detail::stageWorkSink) {
    detail::stageWorkSink = sink ? &sink : nullptr;
  }
  ~ScopedStageWorkSink() { detail::stageWorkSink = saved; }
  ScopedStageWorkSink(const ScopedStageWorkSink &) = delete;
  ScopedStageWorkSink &operator=(const ScopedStageWorkSink &) = delete;

private:
  const StageWorkSink *saved;
};

/// `total` units of one stage's work (ops, tasks, instructions); step()
/// after each one tells the sink.
class StageWork {
public:
  explicit StageWork(uint64_t total) : total(total) {}
  void step() {
    ++done;
    if (const StageWorkSink *sink = detail::stageWorkSink)
      (*sink)(done, total);
  }

private:
  uint64_t total, done = 0;
};

} // namespace lpx

#endif
