//===- PrefillStream.cpp - A prompt's chunks pipelined through the stages -===//
//
// Chunked prefill on a pipeline: a prompt's first chunk rides an iteration
// of its group (with the group's decode step); its later chunks need not
// wait for that iteration to come back, only for the chunk before to leave
// the first stage: chunk k + 1 at stage s attends over the cache that
// chunks 0..k wrote there, and chunks cross every stage in order. So the
// chunks follow each other through the stages, as `lpx decode`'s chunked
// program runs them (a prompt alone: one pass plus, per later chunk, about
// the busiest stage's part of a chunk). A group streams one prompt at a
// time: its next prompt starts (rides an iteration) once the last chunk of
// this one is sent.
//
// A ready chunk enters the first stage only when that stage is free, ready
// chunks in the order they became ready; a group iteration does not wait
// for them (the decode steps chunked prefill is there to keep moving go
// first). From the first stage on every item is served first come, first
// served (the tandem recursion of ServerSide.cpp).
//
//===----------------------------------------------------------------------===//

#include "EngineState.h"

#include <algorithm>

namespace lpx::serve {

void EngineState::firstToken(Live &l, Nanos now) {
  l.generated = 1; // the prefill's logits give the first token
  l.rec.firstToken = now + l.down;
  l.rec.serverFirstToken = now;
  l.rec.hostIoFirst = l.rec.hostIo;
}

void EngineState::nextChunk(int32_t id, Nanos now) {
  readyChunks.push_back(id);
  feedFirstStage(now);
}

void EngineState::firstStageFree(int32_t, Nanos now) {
  wakePending = false;
  feedFirstStage(now);
}

void EngineState::feedFirstStage(Nanos now) {
  while (!readyChunks.empty() && stageFree.front() <= now) {
    int32_t id = readyChunks.front();
    readyChunks.pop_front();
    sendChunk(id, now);
  }
  if (!readyChunks.empty() && !wakePending) {
    // Another item holds the first stage: look again when it leaves.
    wakePending = true;
    schedule(stageFree.front(), EventKind::FirstStageFree);
  }
}

void EngineState::sendChunk(int32_t id, Nanos now) {
  Live &l = lives[size_t(id)];
  Nanos compute = fromUs(chunkUs(l));
  l.toPrefill -= l.chunkNow;
  ++stats.iterations;
  sink.onIteration(now, l.rec.group, 0, l.chunkNow, int64_t(waiting.size()),
                   compute);
  l.chunkNow = 0;
  Nanos firstStageExit = now;
  Nanos exit = traverse(now, Item{0, compute}, firstStageExit);
  if (l.toPrefill > 0) {
    schedule(firstStageExit, EventKind::NextChunk, id);
    return;
  }
  schedule(exit + fromUs(model.table().prefillHostIoUs), EventKind::PrefillOut,
           id);
  // The group's next prompt may start its chunks.
  const int gi = l.rec.group;
  if (!groups[size_t(gi)].busy)
    plan(gi, now);
}

void EngineState::prefillOut(int32_t id, Nanos now) {
  Live &l = lives[size_t(id)];
  l.streaming = false;
  l.rec.hostIo += fromUs(model.table().prefillHostIoUs);
  firstToken(l, now);
  sink.onToken(now + l.down, l.rec.id, l.generated);
  const int gi = l.rec.group;
  Group &g = groups[size_t(gi)];
  if (l.generated >= l.call.output) {
    g.members.erase(std::find(g.members.begin(), g.members.end(), id));
    finishSequence(id, now);
  }
  // It decodes from its group's next iteration on (now, if the group is
  // idle); a slot it freed may admit a waiting request.
  if (!g.busy)
    plan(gi, now);
  fillIdleGroups(now);
}

} // namespace lpx::serve
