//===- Timeline.cpp - A simulated run laid out as tracks ------------------===//
#include "lpx/report/Timeline.h"

#include "lpx/isa/UnitOps.h"
#include <algorithm>
#include <map>

using namespace lpx;
using namespace lpx::report;

namespace {

// Units in the order the simulator reports them; links after the units.
constexpr isa::Unit kUnits[] = {isa::Unit::MEM, isa::Unit::MXM,
                                isa::Unit::SXM, isa::Unit::VXM};
constexpr uint32_t kLinkBase = 1000; // ids of link tracks: kLinkBase + link

uint32_t trackId(const sim::InstructionEvent &e, uint32_t maxQueues) {
  if (e.unit == isa::Unit::C2C)
    return kLinkBase + e.queue;
  uint32_t slot = 0;
  while (slot < 4 && kUnits[slot] != e.unit)
    ++slot;
  return slot * maxQueues + e.queue;
}

// Every unit queue of every chip gets a track, used or not, so an idle unit
// is visible as idle; links only when they carried something.
void addUnitTracks(const isa::VerifiedProgram &prog, uint32_t maxQueues,
                   std::map<std::pair<uint32_t, uint32_t>, Track> &byKey) {
  for (uint32_t node = 0; node < prog.program().num_nodes(); ++node)
    for (isa::Unit u : kUnits)
      for (uint32_t q = 0; q < isa::queueCount(prog.chip(), u); ++q) {
        sim::InstructionEvent probe;
        probe.unit = u;
        probe.queue = q;
        Track &t = byKey[{node, trackId(probe, maxQueues)}];
        t.node = node;
        t.id = trackId(probe, maxQueues);
        t.name = trackName(prog.chip(), probe);
      }
}

std::vector<SramPoint> stepSeries(std::map<uint64_t, int64_t> deltas) {
  std::vector<SramPoint> out;
  int64_t level = 0;
  for (auto [cycle, delta] : deltas) {
    if (delta == 0 && !out.empty())
      continue;
    level += delta;
    out.push_back({cycle, uint64_t(std::max<int64_t>(level, 0))});
  }
  return out;
}

} // namespace

std::string lpx::report::trackName(const isa::ChipSpec &chip,
                                   const sim::InstructionEvent &e) {
  if (e.unit == isa::Unit::C2C)
    return "link" + std::to_string(e.queue);
  std::string name(isa::unitName(e.unit));
  if (isa::queueCount(chip, e.unit) > 1)
    name += std::to_string(e.queue);
  return name;
}

Timeline lpx::report::buildTimeline(const isa::VerifiedProgram &prog,
                                 const sim::SimResult &result,
                                 const sim::ExecutionTrace &trace) {
  Timeline t;
  t.prog = &prog;
  t.result = &result;
  t.trace = &trace;
  uint32_t maxQueues = 1;
  for (isa::Unit u : kUnits)
    maxQueues = std::max(maxQueues, isa::queueCount(prog.chip(), u));

  std::map<std::pair<uint32_t, uint32_t>, Track> byKey;
  addUnitTracks(prog, maxQueues, byKey);
  for (size_t i = 0; i < trace.instructions.size(); ++i) {
    const sim::InstructionEvent &e = trace.instructions[i];
    Track &track = byKey[{e.node, trackId(e, maxQueues)}];
    if (track.name.empty()) {
      track.node = e.node;
      track.id = trackId(e, maxQueues);
      track.name = trackName(prog.chip(), e);
    }
    track.events.push_back(i);
    track.busy += e.busyEnd - e.issue;
  }
  std::map<std::pair<uint32_t, uint32_t>, size_t> indexOf;
  for (auto &[key, track] : byKey) {
    indexOf[key] = t.tracks.size();
    t.tracks.push_back(std::move(track));
  }
  t.trackOfEvent.resize(trace.instructions.size());
  for (size_t i = 0; i < trace.instructions.size(); ++i)
    t.trackOfEvent[i] = indexOf[{trace.instructions[i].node,
                                 trackId(trace.instructions[i], maxQueues)}];

  // Transfers: a send's result is read by later instructions on the
  // receiving chip; each such reader ends one arrow.
  std::map<uint32_t, size_t> sendOf; // result buffer -> send event
  for (size_t i = 0; i < trace.instructions.size(); ++i) {
    const isa::pb::Instruction &inst = t.instruction(i);
    for (uint32_t op : inst.operands())
      if (auto it = sendOf.find(op); it != sendOf.end())
        t.flows.push_back({it->second, i});
    if (trace.instructions[i].unit == isa::Unit::C2C)
      sendOf[inst.result()] = i;
  }
  std::stable_sort(t.flows.begin(), t.flows.end(),
                   [](const Flow &a, const Flow &b) { return a.send < b.send; });

  std::vector<std::map<uint64_t, int64_t>> deltas(prog.program().num_nodes());
  for (const sim::BufferLifetime &b : trace.buffers) {
    deltas[b.node][b.from] += int64_t(b.bytes);
    deltas[b.node][b.to] -= int64_t(b.bytes);
  }
  for (auto &d : deltas) {
    d.try_emplace(0, 0);
    t.sramInUse.push_back(stepSeries(std::move(d)));
  }
  return t;
}

uint64_t Timeline::sramPeak(uint32_t node) const {
  uint64_t peak = 0;
  for (const SramPoint &p : sramInUse[node])
    peak = std::max(peak, p.bytes);
  return peak;
}

const isa::pb::Instruction &Timeline::instruction(size_t event) const {
  return prog->program().instructions(
      int(trace->instructions[event].instruction));
}

std::string Timeline::op(size_t event) const {
  return std::string(isa::mnemonic(isa::opcodeOf(instruction(event))));
}

std::string Timeline::label(size_t event) const {
  const std::string &origin = instruction(event).origin();
  return origin.empty() ? op(event) : op(event) + " " + origin;
}

double Timeline::cyclesToUs(uint64_t cycles) const {
  return double(cycles) / prog->chip().clockMHz;
}
