//===- ServerSide.cpp - Admission, iterations by policy, pipeline stages --===//
//
// Continuous batching: a group re-forms at the end of every iteration, its
// finished sequences leaving and queued requests joining (up to the max batch
// and the cache slots). An iteration passes through the stages in order, each
// stage occupied for its share of the iteration's compute time and working on
// one group at a time, first come first served; the host I/O of the iteration
// follows outside the stages, so another group can use them meanwhile.
//
// Every group visits the stages in the same order and each stage serves in
// arrival order, so no group overtakes another: the groups meet the stages in
// the order they entered the first one. A group's exit from each stage is
// therefore known when it enters the pipeline (the tandem-queue recursion
// exit[s] = max(exit[s-1], free[s]) + time[s]), and one event per iteration
// suffices instead of one per stage. A prompt's later chunks enter the
// stages on their own (PrefillStream.cpp).
//
//===----------------------------------------------------------------------===//

#include "EngineState.h"

#include <algorithm>

namespace lpx::serve {

bool EngineState::tooLong(const Call &c) const {
  if (c.prompt > model.maxPrompt())
    return true;
  return c.output > 1 && c.prompt + c.output - 1 > model.maxContext();
}

void EngineState::serverArrive(int32_t id, Nanos now) {
  Live &l = lives[size_t(id)];
  sink.onEvent(now, EngineEvent::ServerArrival, l.rec.id);
  if (tooLong(l.call)) {
    l.rec.tooLong = true;
    sink.onEvent(now, EngineEvent::Rejected, l.rec.id);
    schedule(now + l.down, EventKind::ClientReject, id);
    return;
  }
  l.rec.serverArrival = now;
  waiting.push_back(id);
  fillIdleGroups(now);
  if (cfg.queueCapacity >= 0 && int64_t(waiting.size()) > cfg.queueCapacity) {
    // Only this request joined: it is the one beyond the last place.
    waiting.pop_back();
    Live &r = lives[size_t(id)];
    r.rec.serverArrival = -1;
    sink.onEvent(now, EngineEvent::Rejected, r.rec.id);
    schedule(now + r.down, EventKind::ClientReject, id);
    return;
  }
  stats.peakWaiting = std::max(stats.peakWaiting, int64_t(waiting.size()));
}

void EngineState::setBusy(Group &g, bool busy) {
  busyGroups += int64_t(busy) - int64_t(g.busy);
  g.busy = busy;
}

void EngineState::fillIdleGroups(Nanos now) {
  // Under load every group is busy: nothing to look for (an iteration's
  // return would otherwise scan every group).
  if (busyGroups == int64_t(groups.size()))
    return;
  // No cache slot to take: an idle group has nobody to admit, and an idle
  // group has nothing else to plan (it would not be idle).
  if (kept.empty() && running >= cacheLimit)
    return;
  for (size_t gi = 0; gi < groups.size() && !waiting.empty(); ++gi)
    if (!groups[gi].busy)
      plan(int(gi), now);
}

/// A cache slot for a request of `session`: its own kept cache, a free slot,
/// or the oldest kept cache of another session, evicted.
bool EngineState::takeSlot(int64_t session) {
  auto own = kept.find(session);
  if (own != kept.end()) {
    keptOrder.erase(own->second.first);
    kept.erase(own);
    return true;
  }
  if (running + int64_t(kept.size()) < cacheLimit)
    return true;
  if (kept.empty())
    return false;
  auto oldest = keptOrder.begin();
  kept.erase(oldest->second);
  keptOrder.erase(oldest);
  ++stats.evictions;
  return true;
}

void EngineState::admit(Group &g, Nanos now) {
  while (int64_t(g.members.size()) < cfg.maxBatch && !waiting.empty()) {
    // Every cache slot taken and none kept to evict: no lookups (under
    // load most iterations end here).
    if (kept.empty() && running >= cacheLimit)
      return;
    int32_t id = waiting.front();
    Live &l = lives[size_t(id)];
    bool reuse = false;
    if (cfg.keepSessionCache && l.call.cachedPrefix > 0 &&
        l.call.cachedPrefix < l.call.prompt) {
      auto own = kept.find(l.call.session);
      reuse = own != kept.end() && own->second.second == l.call.cachedPrefix;
    }
    if (!takeSlot(l.call.session))
      return;
    waiting.pop_front();
    ++running;
    stats.peakRunning = std::max(stats.peakRunning, running);
    l.toPrefill = reuse ? l.call.prompt - l.call.cachedPrefix : l.call.prompt;
    l.rec.prefilled = l.toPrefill;
    l.rec.admission = now;
    l.rec.group = int32_t(&g - groups.data());
    g.members.push_back(id);
    sink.onEvent(now, EngineEvent::Admission, l.rec.id);
  }
}

double EngineState::decodePartUs(const Group &g, int64_t &decoding) const {
  int64_t context = 0;
  decoding = 0;
  for (int32_t id : g.members) {
    const Live &l = lives[size_t(id)];
    if (l.toPrefill == 0 && l.generated > 0) {
      ++decoding;
      context = std::max(context, l.call.prompt + l.generated);
    }
  }
  return decoding ? model.decodeUs(decoding, context) : 0.0;
}

double EngineState::chunkUs(Live &l) const {
  if (!model.hasChunkedPrefill()) {
    l.chunkNow = l.toPrefill;
    return model.prefillUs(l.toPrefill, 1);
  }
  const int64_t c = model.table().prefillChunk;
  l.chunkNow = std::min(c, l.toPrefill);
  int64_t end = l.call.prompt - l.toPrefill + l.chunkNow;
  return model.prefillChunkUs(std::max(end, c), 1);
}

double EngineState::prefillFirstItems(const std::vector<int32_t> &prefilling,
                                      int64_t &tokens) {
  // All prompts waiting, padded to the longest of each batch the table has;
  // each batch (or, longer than any whole prompt the table holds, each
  // chunk of each prompt) enters the stages behind the one before.
  double us = 0;
  int64_t maxB = model.maxPrefillBatch();
  for (size_t i = 0; i < prefilling.size(); i += size_t(maxB)) {
    size_t end = std::min(prefilling.size(), i + size_t(maxB));
    int64_t longest = 0;
    for (size_t j = i; j < end; ++j) {
      const Live &l = lives[size_t(prefilling[j])];
      tokens += l.toPrefill;
      longest = std::max(longest, l.toPrefill);
    }
    if (model.hasChunkedPrefill() && longest > model.maxWholePrompt()) {
      for (size_t j = i; j < end; ++j) {
        Live &l = lives[size_t(prefilling[j])];
        const int64_t all = l.toPrefill;
        while (l.toPrefill > 0) {
          double chunk = chunkUs(l);
          us += chunk;
          items.push_back({0, fromUs(chunk)});
          l.toPrefill -= l.chunkNow;
        }
        l.toPrefill = l.chunkNow = all;
      }
    } else {
      double batch = model.prefillUs(longest, int64_t(end - i));
      us += batch;
      items.push_back({0, fromUs(batch)});
      for (size_t j = i; j < end; ++j)
        lives[size_t(prefilling[j])].chunkNow = lives[size_t(prefilling[j])].toPrefill;
    }
  }
  return us;
}

bool EngineState::plan(int gi, Nanos now) {
  Group &g = groups[size_t(gi)];
  admit(g, now);
  std::vector<int32_t> &prefilling = scratch;
  prefilling.clear();
  for (int32_t id : g.members) {
    Live &l = lives[size_t(id)];
    l.stepping = false;
    l.chunkNow = 0;
    if (l.toPrefill > 0)
      prefilling.push_back(id);
  }
  int64_t decoding = 0;
  double us = 0;
  int64_t prefillTokens = 0;
  items.clear();
  const ServiceTable &t = model.table();
  int32_t rider = -1; // chunked: the sequence whose chunk rides the step
  if (cfg.policy == Policy::PrefillFirst && !prefilling.empty()) {
    us = prefillFirstItems(prefilling, prefillTokens);
  } else {
    const double stepUs = decodePartUs(g, decoding);
    us += stepUs;
    for (int32_t id : g.members) {
      Live &l = lives[size_t(id)];
      l.stepping = l.toPrefill == 0 && l.generated > 0;
    }
    // One chunk (a whole prompt when the table has none) of the oldest
    // sequence still to prefill, unless its chunks are already streaming
    // (PrefillStream.cpp): one prompt of a group at a time.
    if (!prefilling.empty() && !lives[size_t(prefilling.front())].streaming) {
      rider = prefilling.front();
      us += chunkUs(lives[size_t(rider)]);
      prefillTokens = lives[size_t(rider)].chunkNow;
    }
    if (us > 0)
      items.push_back({fromUs(stepUs), fromUs(us - stepUs)});
  }
  g.decodesNow = decoding > 0;
  if (us <= 0) {
    setBusy(g, false);
    return false;
  }
  int64_t prefillsDone = 0;
  for (int32_t id : prefilling) {
    const Live &l = lives[size_t(id)];
    prefillsDone += l.chunkNow > 0 && l.chunkNow == l.toPrefill;
  }
  g.hostIo = fromUs(double(decoding) * t.stepHostIoUs +
                    double(prefillsDone) * t.prefillHostIoUs);
  Nanos compute = 0;
  for (const Item &item : items)
    compute += item.step + item.prefill;
  setBusy(g, true);
  ++stats.iterations;
  sink.onIteration(now, gi, decoding, prefillTokens, int64_t(waiting.size()),
                   compute);
  Nanos exit = now, firstStageExit = now;
  for (const Item &item : items)
    exit = traverse(now, item, firstStageExit);
  schedule(exit + g.hostIo, EventKind::GroupReturn, gi);
  if (rider >= 0) {
    Live &l = lives[size_t(rider)];
    if (l.chunkNow < l.toPrefill) {
      // More chunks: the next one need not wait for the group's return,
      // only for this one to leave the first stage (the cache it attends
      // over at each stage is written by then, chunks crossing each stage
      // in order).
      l.toPrefill -= l.chunkNow;
      l.chunkNow = 0;
      l.streaming = true;
      schedule(firstStageExit, EventKind::NextChunk, rider);
    }
  }
  return true;
}

namespace {
/// One item's walk through the stages: stage s ends its part at upTo(s) of
/// the item's time (`total` at the last), the tandem recursion
/// exit[s] = max(exit[s-1], free[s]) + part[s]. Returns the exit. It runs
/// as exit[s] = upTo(s) + m[s], m[s] = max(m[s-1], free[s] - upTo(s-1)),
/// m[-1] = now (the same integers): one max a stage on the chain from
/// stage to stage instead of a max and an add.
template <typename UpTo>
Nanos walk(Nanos now, Nanos total, std::vector<Nanos> &stageFree, UpTo upTo) {
  Nanos *free = stageFree.data();
  const size_t last = stageFree.size() - 1;
  Nanos before = 0, m = now;
  for (size_t s = 0; s < last; ++s) {
    const Nanos at = upTo(s);
    m = std::max(m, free[s] - before);
    free[s] = m + at;
    before = at;
  }
  m = std::max(m, free[last] - before);
  free[last] = m + total;
  return free[last];
}
} // namespace

Nanos EngineState::traverse(Nanos now, const Item &item,
                            Nanos &firstStageExit) {
  // Stage s ends its part of the step at cumStepShare[s] of the step's time,
  // and of the prefill at cumPrefillShare[s] of the prefill's (32-bit fixed
  // point, integer arithmetic), so the parts sum to the whole exactly. One
  // kind alone under 2^31 ns (the common case) multiplies in 64 bits.
  const Nanos total = item.step + item.prefill;
  const uint64_t *cumStep = cumStepShare.data();
  const uint64_t *cumPrefill = cumPrefillShare.data();
  Nanos exit;
  if (item.prefill == 0 && item.step < (Nanos(1) << 31)) {
    const uint64_t v = uint64_t(item.step);
    exit = walk(now, total, stageFree,
                [&](size_t s) { return Nanos((v * cumStep[s]) >> 32); });
  } else if (item.step == 0 && item.prefill < (Nanos(1) << 31)) {
    const uint64_t v = uint64_t(item.prefill);
    exit = walk(now, total, stageFree,
                [&](size_t s) { return Nanos((v * cumPrefill[s]) >> 32); });
  } else {
    exit = walk(now, total, stageFree, [&](size_t s) {
      return Nanos((__int128(item.step) * cumStep[s]) >> 32) +
             Nanos((__int128(item.prefill) * cumPrefill[s]) >> 32);
    });
  }
  firstStageExit = stageFree.front();
  return exit;
}

void EngineState::finishSequence(int32_t id, Nanos now) {
  Live &l = lives[size_t(id)];
  --running;
  l.rec.serverDone = now;
  if (cfg.keepSessionCache && l.call.agent && l.call.hasNext) {
    uint64_t order = keptClock++;
    kept[l.call.session] = {order, l.call.prompt + l.call.output};
    keptOrder[order] = l.call.session;
  }
  schedule(now + l.down, EventKind::ClientDone, id);
}

void EngineState::groupReturn(int gi, Nanos now) {
  Group &g = groups[size_t(gi)];
  size_t stay = 0;
  for (int32_t id : g.members) {
    Live &l = lives[size_t(id)];
    if (l.streaming) { // not in the group's iterations until it is out
      g.members[stay++] = id;
      continue;
    }
    l.rec.hostIo += g.hostIo;
    bool token = l.stepping;
    if (l.stepping) {
      ++l.generated;
    } else if (l.chunkNow > 0) {
      l.toPrefill -= l.chunkNow;
      l.chunkNow = 0;
      if (l.toPrefill == 0) {
        firstToken(l, now);
        token = true;
      }
    }
    if (token)
      sink.onToken(now + l.down, l.rec.id, l.generated);
    l.stepping = false;
    if (l.generated >= l.call.output)
      finishSequence(id, now);
    else
      g.members[stay++] = id;
  }
  g.members.resize(stay);
  setBusy(g, false);
  plan(gi, now);
  fillIdleGroups(now);
}

} // namespace lpx::serve
