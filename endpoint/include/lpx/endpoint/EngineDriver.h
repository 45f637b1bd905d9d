//===- EngineDriver.h - The serving engine on the wall clock ----*- C++ -*-===//
//
// One thread owns a serve::OnlineEngine and ties its simulated clock to the
// wall clock: sim = (wall - start) * timeScale. A request is admitted at the
// simulated time of its arrival; the thread sleeps until the wall time of
// the engine's next event, advances the engine there and hands each client
// event to its request's stream, whose HTTP handler writes the chunk then.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_ENDPOINT_ENGINEDRIVER_H
#define LPX_ENDPOINT_ENGINEDRIVER_H

#include "lpx/serve/OnlineEngine.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>

namespace lpx::endpoint {

/// One request's client events, in order.
class RequestStream {
public:
  /// Waits for the next event; false once the driver has stopped and no
  /// event is left.
  bool next(serve::TokenEvent &ev);

private:
  friend class EngineDriver;
  void push(const serve::TokenEvent &ev);
  void close();
  std::mutex mutex;
  std::condition_variable cv;
  std::deque<serve::TokenEvent> events;
  bool closed = false;
};

class EngineDriver {
public:
  using Clock = std::chrono::steady_clock;
  /// `timeScale` simulated seconds per wall second (> 0).
  EngineDriver(std::unique_ptr<serve::OnlineEngine> engine, double timeScale);
  ~EngineDriver();

  /// Admits a request at the simulated now; its events come on the stream.
  std::shared_ptr<RequestStream> submit(int64_t prompt, int64_t output);
  /// The simulated time of a wall instant, and back.
  serve::Nanos simTime(Clock::time_point wall) const;
  Clock::time_point wallTime(serve::Nanos sim) const;
  int64_t inFlight();
  /// Closes every stream and ends the thread.
  void stop();

private:
  void loop();

  std::unique_ptr<serve::OnlineEngine> engine;
  double timeScale;
  Clock::time_point start;
  std::mutex mutex;
  std::condition_variable wake;
  bool stopping = false;
  std::unordered_map<int64_t, std::shared_ptr<RequestStream>> streams;
  std::vector<serve::TokenEvent> out; // reused per advance
  std::thread thread;
};

} // namespace lpx::endpoint

#endif // LPX_ENDPOINT_ENGINEDRIVER_H
