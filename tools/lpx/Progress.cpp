//===- Progress.cpp - Progress of a long command on stderr ----------------===//
#include "Progress.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

using namespace lpx::cli;
using Clock = std::chrono::steady_clock;

namespace {
// Plain lines are for logs: one every 10 seconds is enough to show life.
constexpr double kLineInterval = 10.0;
constexpr double kBarInterval = 0.1;
constexpr int kBarWidth = 30;
} // namespace

Progress::Progress(std::string what, size_t total, std::string unit)
    : what(std::move(what)), unit(std::move(unit)), total(total),
      terminal(llvm::sys::Process::StandardErrIsDisplayed()),
      start(Clock::now()), lastDraw(start) {}

double Progress::elapsedSeconds() const {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

void Progress::update(size_t done, size_t failed) {
  double sinceDraw =
      std::chrono::duration<double>(Clock::now() - lastDraw).count();
  if (done == lastDone || sinceDraw < (terminal ? kBarInterval : kLineInterval))
    return;
  lastDone = done;
  lastDraw = Clock::now();
  double elapsed = elapsedSeconds();
  auto &os = llvm::errs();
  if (!terminal) {
    os << "lpx " << what << ": " << done << "/" << total << " " << unit << " done ("
       << llvm::format("%.1f", elapsed) << " s)\n";
    return;
  }
  int filled = total ? int(kBarWidth * done / total) : kBarWidth;
  os << "\r[" << std::string(filled, '#')
     << std::string(kBarWidth - filled, '.') << "] " << done << "/" << total;
  if (failed)
    os << " (" << failed << " failed)";
  os << llvm::format("  %.1f s", elapsed);
  if (done > 0 && done < total)
    os << llvm::format(", about %.0f s left",
                       elapsed / double(done) * double(total - done));
  os << "\x1b[K"; // erase what a longer previous line left behind
  os.flush();
  drawn = true;
}

void Progress::finish() {
  if (terminal && drawn) {
    llvm::errs() << "\r\x1b[K";
    llvm::errs().flush();
  }
}
