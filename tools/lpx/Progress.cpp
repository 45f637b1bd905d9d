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
// A stage's pace says little before its counted work has run this long.
constexpr double kMinWorkSecondsForEstimate = 1.0;
} // namespace

std::optional<double> lpx::cli::estimateSecondsLeft(double elapsed,
                                                    uint64_t done,
                                                    uint64_t total) {
  if (done == 0 || done >= total)
    return std::nullopt;
  return elapsed / double(done) * double(total - done);
}

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
    os << "lpx " << what << ": " << done << "/" << total << " " << unit
       << " done (" << llvm::format("%.1f s", elapsed);
    if (auto left = estimateSecondsLeft(elapsed, done, total))
      os << llvm::format(", about %.0f s left", *left);
    os << ")\n";
    return;
  }
  int filled = total ? int(kBarWidth * done / total) : kBarWidth;
  os << "\r[" << std::string(filled, '#')
     << std::string(kBarWidth - filled, '.') << "] " << done << "/" << total;
  if (failed)
    os << " (" << failed << " failed)";
  os << llvm::format("  %.1f s", elapsed);
  if (auto left = estimateSecondsLeft(elapsed, done, total))
    os << llvm::format(", about %.0f s left", *left);
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

StageProgress::StageProgress(std::string what)
    : what(std::move(what)),
      terminal(llvm::sys::Process::StandardErrIsDisplayed()),
      start(Clock::now()) {
  if (!terminal)
    return;
  ticker = std::thread([this] {
    std::unique_lock<std::mutex> lock(mutex);
    // Nothing for a compile that is over in a moment.
    wake.wait_for(lock, std::chrono::milliseconds(500), [&] { return stop; });
    while (!stop) {
      draw();
      wake.wait_for(lock, std::chrono::milliseconds(500), [&] { return stop; });
    }
  });
}

StageProgress::~StageProgress() {
  if (!ticker.joinable())
    return;
  {
    std::lock_guard<std::mutex> lock(mutex);
    stop = true;
  }
  wake.notify_one();
  ticker.join();
  if (drawn) {
    llvm::errs() << "\r\x1b[K";
    llvm::errs().flush();
  }
}

void StageProgress::stage(llvm::StringRef stageName, unsigned i, unsigned n) {
  if (!terminal)
    return;
  std::lock_guard<std::mutex> lock(mutex);
  name = stageName.str();
  index = i;
  count = n;
  workDone = 0;
  workTotal = 0;
  if (drawn)
    draw();
}

void StageProgress::work(uint64_t done, uint64_t total) {
  if (!terminal)
    return;
  if (done == 1) // a stage's (or a function's) counted loop starts
    workStartNs.store(
        std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() -
                                                             start)
            .count(),
        std::memory_order_relaxed);
  workTotal.store(total, std::memory_order_relaxed);
  workDone.store(done, std::memory_order_relaxed);
}

void StageProgress::printAbove(llvm::function_ref<void()> print) {
  std::lock_guard<std::mutex> lock(mutex);
  if (drawn) {
    llvm::errs() << "\r\x1b[K";
    llvm::errs().flush();
    drawn = false;
  }
  print();
}

void StageProgress::draw() {
  double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  double inWork =
      elapsed - double(workStartNs.load(std::memory_order_relaxed)) * 1e-9;
  int filled = count ? int(kBarWidth * index / count) : 0;
  auto &os = llvm::errs();
  os << "\r[" << std::string(filled, '#') << std::string(kBarWidth - filled, '.')
     << "] " << what << ": stage " << index + 1 << "/" << count << " " << name;
  // The compile thread writes these without the lock: a redraw may pair a
  // count with an older total, which the check below keeps sane and the
  // next redraw corrects.
  uint64_t total = workTotal.load(std::memory_order_relaxed);
  uint64_t done = workDone.load(std::memory_order_relaxed);
  if (total && done <= total)
    os << " " << done * 100 / total << "%";
  os << llvm::format("  %.1f s", elapsed);
  if (inWork >= kMinWorkSecondsForEstimate)
    if (auto left = estimateSecondsLeft(inWork, done, total))
      os << llvm::format(", about %.0f s left in this stage", *left);
  os << "\x1b[K";
  os.flush();
  drawn = true;
}
