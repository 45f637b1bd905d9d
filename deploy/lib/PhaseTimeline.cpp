//===- PhaseTimeline.cpp - When each pipeline stage of a phase is busy ----===//
#include "lpx/deploy/PhaseTimeline.h"
#include "lpx/report/Timeline.h"

#include "llvm/ADT/StringRef.h"
#include <algorithm>
#include <map>

using namespace lpx;
using namespace lpx::deploy;

std::vector<int32_t> lpx::deploy::chunkOfInstructions(const isa::pb::Program &p) {
  std::vector<int32_t> chunkOfBuffer(size_t(p.buffers_size()), -1);
  bool hasIds = false;
  for (int id = 0; id < p.buffers_size(); ++id) {
    const isa::pb::Buffer &b = p.buffers(id);
    if (b.kind() != isa::pb::INPUT)
      continue;
    llvm::StringRef name = b.name();
    unsigned chunk = 0;
    if (name == "input_ids" ||
        (name.consume_front("input_ids.chunk") && !name.getAsInteger(10, chunk))) {
      chunkOfBuffer[size_t(id)] = int32_t(chunk);
      hasIds = true;
    }
  }
  if (!hasIds)
    return {};
  std::vector<int32_t> out(size_t(p.instructions_size()), -1);
  for (int i = 0; i < p.instructions_size(); ++i) {
    const isa::pb::Instruction &inst = p.instructions(i);
    int32_t chunk = -1;
    for (uint32_t id : inst.operands())
      if (p.buffers(int(id)).kind() != isa::pb::STATE)
        chunk = std::max(chunk, chunkOfBuffer[id]);
    out[size_t(i)] = chunk;
    int32_t &result = chunkOfBuffer[inst.result()];
    result = std::max(result, chunk);
  }
  return out;
}

namespace {

/// Adds the cycles of [from, to) inside `window`, each weighing `weight`,
/// to the bins of `bins` that cover the window.
void addBusy(std::vector<float> &bins, CycleSpan window, uint64_t from,
             uint64_t to, double weight) {
  from = std::max(from, window.from);
  to = std::min(to, window.to);
  if (to <= from || bins.empty())
    return;
  const double per = double(window.to - window.from) / double(bins.size());
  const double a = double(from - window.from), b = double(to - window.from);
  for (size_t k = std::min(size_t(a / per), bins.size() - 1);
       k < bins.size() && double(k) * per < b; ++k)
    bins[k] += float(weight * (std::min(b, double(k + 1) * per) -
                               std::max(a, double(k) * per)) /
                     per);
}

/// The program's stages as its latency bound takes them; chips past them
/// (none for a mesh that covers every chip) as one more.
std::vector<StageTiming> stagesOf(const sim::SimResult &sim, uint32_t chips) {
  std::vector<StageTiming> out;
  uint32_t covered = 0;
  for (const sim::StageLatency &s : sim.latency.stages) {
    if (s.firstNode != covered || s.firstNode + s.nodes > chips)
      break;
    out.push_back({s.firstNode, s.nodes, {}, {}, s.firstNode, 0});
    covered += s.nodes;
  }
  if (covered < chips)
    out.push_back({covered, chips - covered, {}, {}, covered, 0});
  return out;
}

/// Every queue of `chip` that issued an instruction, in Timeline's order.
ChipTiming chipInFull(const isa::VerifiedProgram &prog,
                      const sim::ExecutionTrace &trace, CycleSpan window,
                      uint32_t chip, uint64_t occupied) {
  std::map<std::pair<int, uint32_t>, QueueTiming> byQueue;
  for (const sim::InstructionEvent &e : trace.instructions) {
    if (e.node != chip)
      continue;
    QueueTiming &q = byQueue[{int(e.unit), e.queue}];
    if (q.name.empty()) {
      q.name = report::trackName(prog.chip(), e);
      q.unit = e.unit;
      q.busy.assign(kChipBins, 0);
    }
    addBusy(q.busy, window, e.issue, e.busyEnd, 1.0);
    q.busyCycles += e.busyEnd - e.issue;
  }
  ChipTiming c{chip, occupied, {}};
  for (auto &[key, q] : byQueue)
    c.queues.push_back(std::move(q));
  return c;
}

} // namespace

PhaseTimeline lpx::deploy::buildPhaseTimeline(
    const isa::VerifiedProgram &prog, const sim::SimResult &sim,
    const sim::ExecutionTrace &trace, const std::vector<uint64_t> &occupied,
    const std::vector<int32_t> &chunkOf) {
  PhaseTimeline t;
  t.cycles = sim.totalCycles;
  t.stageBins = kStageBins;
  t.chipBins = kChipBins;
  const uint32_t chips = uint32_t(occupied.size());
  t.stages = stagesOf(sim, chips);
  if (t.stages.empty()) // no chip
    return t;
  for (int32_t c : chunkOf)
    t.chunks = std::max<int64_t>(t.chunks, int64_t(c) + 1);
  std::vector<uint32_t> stageOf(chips, 0);
  for (uint32_t s = 0; s < t.stages.size(); ++s) {
    StageTiming &st = t.stages[s];
    st.chunks.assign(size_t(t.chunks), CycleSpan{UINT64_MAX, 0});
    st.busy.assign(kStageBins, 0);
    for (uint32_t c = st.firstChip; c < st.firstChip + st.chips; ++c) {
      stageOf[c] = s;
      if (occupied[c] > st.busiestOccupied) {
        st.busiestOccupied = occupied[c];
        st.busiestChip = c;
      }
    }
    if (st.busiestOccupied > t.stages[t.busiestStage].busiestOccupied)
      t.busiestStage = s;
  }
  for (const sim::InstructionEvent &e : trace.instructions) {
    if (e.node >= chips)
      continue;
    StageTiming &st = t.stages[stageOf[e.node]];
    addBusy(st.busy, {0, std::max<uint64_t>(t.cycles, 1)}, e.issue,
            e.busyEnd, 1.0 / double(st.chips));
    const int32_t chunk =
        e.instruction < chunkOf.size() ? chunkOf[e.instruction] : 0;
    if (chunk < 0)
      continue;
    CycleSpan &span = st.chunks[size_t(chunk)];
    span.from = std::min(span.from, e.issue);
    span.to = std::max(span.to, e.done);
  }
  for (StageTiming &st : t.stages)
    for (CycleSpan &span : st.chunks)
      if (span.from == UINT64_MAX)
        span = {};
  // The busiest stage's chips, longest occupied first, over the stage's
  // window: its chunks' first issue to their last completion.
  const StageTiming &b = t.stages[t.busiestStage];
  t.detailWindow = {UINT64_MAX, 0};
  for (const CycleSpan &span : b.chunks)
    if (!span.empty())
      t.detailWindow = {std::min(t.detailWindow.from, span.from),
                        std::max(t.detailWindow.to, span.to)};
  if (t.detailWindow.empty())
    t.detailWindow = {0, std::max<uint64_t>(t.cycles, 1)};
  std::vector<uint32_t> order;
  for (uint32_t c = b.firstChip; c < b.firstChip + b.chips; ++c)
    order.push_back(c);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) {
    return occupied[x] > occupied[y];
  });
  order.resize(std::min<size_t>(order.size(), kDetailChips));
  for (uint32_t c : order)
    t.detail.push_back(
        chipInFull(prog, trace, t.detailWindow, c, occupied[c]));
  return t;
}
