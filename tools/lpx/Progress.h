//===- Progress.h - Progress of a long command on stderr --------*- C++ -*-===//
//
// A redrawn bar when stderr is a terminal; otherwise a plain line at most
// every few seconds, so logs of CI runs stay short and readable.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_TOOLS_PROGRESS_H
#define LPX_TOOLS_PROGRESS_H

#include <chrono>
#include <cstddef>
#include <string>

namespace lpx::cli {

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

} // namespace lpx::cli

#endif
