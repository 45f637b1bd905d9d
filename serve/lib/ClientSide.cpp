//===- ClientSide.cpp - Clients: sends, network, retries, sessions --------===//

#include "EngineState.h"

using llvm::Error;

namespace lpx::serve {

bool EngineState::mayStart(const Call &call) const {
  if (cfg.requests >= 0 && stats.calls >= cfg.requests)
    return false;
  if (cfg.duration >= 0 && call.sendAt > cfg.duration)
    return false;
  return true;
}

/// Reads the next open arrival and schedules its Pull at the time the source
/// knew of it: one arrival is read ahead at a time, so a trace streams.
Error EngineState::pullArrival(Nanos now) {
  if (sourceDone)
    return Error::success();
  auto next = source.nextArrival();
  if (!next)
    return next.takeError();
  if (!*next || !mayStart(**next)) {
    sourceDone = true;
    return Error::success();
  }
  pendingArrival = **next;
  schedule(std::max(now, pendingArrival->issuedAt), EventKind::Pull);
  return Error::success();
}

bool EngineState::startCall(const Call &call, Nanos now) {
  if (!mayStart(call))
    return false;
  ++stats.calls;
  int32_t id = newLive(call);
  if (call.agent && !sessions.count(call.session))
    sessions[call.session].start = call.sendAt;
  schedule(std::max(now, call.sendAt), EventKind::Send, id);
  return true;
}

void EngineState::send(int32_t id, Nanos now) {
  Live &l = lives[size_t(id)];
  if (l.rec.retries == 0)
    sink.onEvent(now, EngineEvent::Arrival, l.rec.id);
  Nanos rtt = drawRoundTrip(cfg.network, network);
  Nanos up = rtt / 2;
  l.down = rtt - up;
  l.rec.network += rtt;
  schedule(now + up, EventKind::ServerArrive, id);
}

void EngineState::clientReject(int32_t id, Nanos now) {
  Live &l = lives[size_t(id)];
  if (!l.rec.tooLong && l.rec.retries < cfg.retry.retries) {
    ++l.rec.retries;
    Nanos wait = drawBackoff(cfg.retry, l.rec.retries, retry);
    l.rec.backoff += wait;
    schedule(now + wait, EventKind::Send, id);
    return;
  }
  l.rec.completed = false;
  finishCall(id, now);
}

void EngineState::clientDone(int32_t id, Nanos now) {
  lives[size_t(id)].rec.completed = true;
  finishCall(id, now);
}

void EngineState::finishCall(int32_t id, Nanos now) {
  // Copies: startCall below may grow `lives`.
  RequestRecord rec = lives[size_t(id)].rec;
  Call call = lives[size_t(id)].call;
  rec.completion = now;
  freeLive(id);
  sink.onEvent(now, EngineEvent::Departure, rec.id);
  sink.onRequest(rec);

  bool followed = false;
  if (std::optional<Call> next = source.followUp(call, now, rec.completed))
    followed = startCall(*next, now);

  if (call.agent) {
    SessionProgress &sp = sessions[call.session];
    ++sp.calls;
    sp.callsE2E += rec.e2e();
    if (call.index > 0)
      sp.waits += call.waitBefore;
    if (!followed) {
      SessionRecord s;
      s.session = call.session;
      s.calls = sp.calls;
      s.start = sp.start;
      s.end = now;
      s.callsE2E = sp.callsE2E;
      s.waits = sp.waits;
      s.completed = rec.completed && !call.hasNext;
      sessions.erase(call.session);
      sink.onSession(s);
    }
  }
  if (!followed) {
    auto k = kept.find(call.session);
    if (k != kept.end()) {
      keptOrder.erase(k->second.first);
      kept.erase(k);
      fillIdleGroups(now);
    }
  }
}

} // namespace lpx::serve
