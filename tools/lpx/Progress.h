//===- Progress.h - Progress of a long command on stderr --------*- C++ -*-===//
//
// A redrawn bar when stderr is a terminal; otherwise a plain line at most
// every few seconds, so logs of CI runs stay short and readable.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_TOOLS_PROGRESS_H
#define LPX_TOOLS_PROGRESS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace lpx::deploy {
struct PlanProgress;
}

namespace lpx::cli {

/// Seconds left if the `total - done` units still to do go at the pace of
/// the `done` ones that took `elapsed` seconds; none before the first unit
/// or once all are done (nothing to extrapolate from, or nothing left).
std::optional<double> estimateSecondsLeft(double elapsed, uint64_t done,
                                          uint64_t total);

class Progress {
public:
  /// `unit` names what `done` counts in the plain-line form.
  Progress(std::string what, size_t total, std::string unit = "points");
  /// Redraws if something changed and enough time has passed.
  void update(size_t done, size_t failed);
  /// Clears the bar (terminal) so the command's own output follows cleanly.
  void finish();
  double elapsedSeconds() const;

private:
  std::string what, unit;
  size_t total;
  bool terminal;
  std::chrono::steady_clock::time_point start, lastDraw;
  size_t lastDone = ~size_t(0);
  bool drawn = false;
};

/// The stage a single compile is in, on a terminal only: which of its
/// stages (import, each pass, emission) runs and for how long, redrawn every
/// half second by a thread of its own while one long stage runs. Passes take
/// very different times, so the time left is estimated for the current
/// stage only, from the work it has done so far (work(): ops scheduled,
/// instructions emitted), and only for a stage that counts its work.
class StageProgress {
public:
  explicit StageProgress(std::string what);
  ~StageProgress(); // clears the line
  void stage(llvm::StringRef name, unsigned index, unsigned count);
  /// `done` of `total` units of the current stage; cheap, called per unit.
  void work(uint64_t done, uint64_t total);
  /// Runs `print` (an error message) on a cleared line, with no redraw in
  /// between; the next tick draws the progress again below it.
  void printAbove(llvm::function_ref<void()> print);

private:
  void draw(); // with `mutex` held
  std::string what, name;
  unsigned index = 0, count = 0;
  bool terminal, stop = false, drawn = false;
  std::chrono::steady_clock::time_point start;
  std::atomic<uint64_t> workDone{0}, workTotal{0};
  // When the stage reported its first unit, in ns since `start`: the pace
  // is taken from there, not from the stage's start, because a stage may
  // spend a while setting up before its counted loop.
  std::atomic<int64_t> workStartNs{0};
  std::mutex mutex;
  std::condition_variable wake;
  std::thread ticker;
};

/// A progress line per compile ("decode: prefill on 2 chip(s)") in `bar`
/// (DecodeCommand.cpp: the deploy layer is not this file's).
deploy::PlanProgress compileProgress(std::optional<StageProgress> &bar,
                                     llvm::StringRef command);

} // namespace lpx::cli

#endif
