//===- EngineDriver.cpp - Simulated time released at wall time ------------===//

#include "lpx/endpoint/EngineDriver.h"

#include <cmath>

namespace lpx::endpoint {

void RequestStream::push(const serve::TokenEvent &ev) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    events.push_back(ev);
  }
  cv.notify_one();
}

void RequestStream::close() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    closed = true;
  }
  cv.notify_one();
}

bool RequestStream::next(serve::TokenEvent &ev) {
  std::unique_lock<std::mutex> lock(mutex);
  cv.wait(lock, [&] { return !events.empty() || closed; });
  if (events.empty())
    return false;
  ev = events.front();
  events.pop_front();
  return true;
}

EngineDriver::EngineDriver(std::unique_ptr<serve::OnlineEngine> engine,
                           double timeScale)
    : engine(std::move(engine)), timeScale(timeScale), start(Clock::now()),
      thread([this] { loop(); }) {}

EngineDriver::~EngineDriver() { stop(); }

serve::Nanos EngineDriver::simTime(Clock::time_point wall) const {
  auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(wall - start);
  return serve::Nanos(std::llround(double(ns.count()) * timeScale));
}

EngineDriver::Clock::time_point EngineDriver::wallTime(serve::Nanos sim) const {
  // Rounded up: an event is never released before its time.
  double ns = std::ceil(double(sim) / timeScale);
  if (ns > 1e18) // beyond any wait worth making
    return Clock::time_point::max();
  return start + std::chrono::nanoseconds(int64_t(ns));
}

std::shared_ptr<RequestStream> EngineDriver::submit(int64_t prompt,
                                                    int64_t output) {
  auto stream = std::make_shared<RequestStream>();
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (stopping) {
      stream->closed = true;
      return stream;
    }
    serve::Nanos at = std::max(simTime(Clock::now()), engine->now());
    streams[engine->admit(prompt, output, at)] = stream;
  }
  wake.notify_one();
  return stream;
}

int64_t EngineDriver::inFlight() {
  std::lock_guard<std::mutex> lock(mutex);
  return engine->inFlight();
}

void EngineDriver::loop() {
  std::unique_lock<std::mutex> lock(mutex);
  while (!stopping) {
    out.clear();
    engine->advanceTo(std::max(simTime(Clock::now()), engine->now()), out);
    for (const serve::TokenEvent &ev : out) {
      auto s = streams.find(ev.request);
      if (s == streams.end())
        continue;
      s->second->push(ev);
      if (ev.kind != serve::TokenEvent::Token)
        streams.erase(s);
    }
    std::optional<serve::Nanos> next = engine->nextEventTime();
    Clock::time_point until =
        next ? wallTime(*next) : Clock::time_point::max();
    if (until != Clock::time_point::max())
      wake.wait_until(lock, until);
    else
      wake.wait(lock);
  }
  for (auto &[id, s] : streams)
    s->close();
  streams.clear();
}

void EngineDriver::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping = true;
  }
  wake.notify_one();
  if (thread.joinable())
    thread.join();
}

} // namespace lpx::endpoint
