//===- TraceEvents.cpp - A simulated run as Chrome trace events -----------===//
#include "lpx/report/TraceEvents.h"
#include "llvm/Support/JSON.h"

using namespace lpx;
using namespace lpx::report;
using llvm::json::Array;
using llvm::json::Object;

namespace {

constexpr const char *kSramCounter = "SRAM in use";

Object metadata(const char *name, uint32_t pid, int64_t tid,
                Object args) {
  Object m{{"ph", "M"}, {"name", name}, {"pid", pid}, {"args", std::move(args)}};
  if (tid >= 0)
    m["tid"] = tid;
  return m;
}

Object slice(const Timeline &t, size_t i) {
  const sim::InstructionEvent &e = t.trace->instructions[i];
  const isa::pb::Instruction &inst = t.instruction(i);
  const Track &track = t.tracks[t.trackOfEvent[i]];
  Object args{{"instruction", int64_t(e.instruction)},
              {"op", t.op(i)},
              {"node", inst.origin()},
              {"chip", e.node},
              {"result", t.prog->program().buffers(int(inst.result())).name()},
              {"bytes_read", int64_t(e.bytesRead)},
              {"bytes_written", int64_t(e.bytesWritten)},
              {"macs", int64_t(e.macs)},
              {"issue_cycle", int64_t(e.issue)},
              {"busy_cycles", int64_t(e.busyEnd - e.issue)},
              {"latency_cycles", int64_t(e.done - e.busyEnd)},
              {"done_cycle", int64_t(e.done)},
              {"hazards", e.hazards}};
  if (e.unit == isa::Unit::C2C)
    args["dst_chip"] = inst.dst_node();
  return Object{{"ph", "X"},
                {"name", t.label(i)},
                {"cat", std::string(isa::unitName(e.unit))},
                {"pid", e.node},
                {"tid", track.id},
                {"ts", t.cyclesToUs(e.issue)},
                {"dur", t.cyclesToUs(e.busyEnd - e.issue)},
                {"args", std::move(args)}};
}

// A flow starts inside the send's slice and ends, bound to the enclosing
// slice, at the reader's issue on the receiving chip.
void addFlow(const Timeline &t, const Flow &f, size_t id, Array &out) {
  auto end = [&](const char *ph, size_t event) {
    const sim::InstructionEvent &e = t.trace->instructions[event];
    return Object{{"ph", ph},
                  {"name", "transfer"},
                  {"cat", "transfer"},
                  {"id", int64_t(id)},
                  {"pid", e.node},
                  {"tid", t.tracks[t.trackOfEvent[event]].id},
                  {"ts", t.cyclesToUs(e.issue)}};
  };
  out.push_back(end("s", f.send));
  Object finish = end("f", f.consumer);
  finish["bp"] = "e";
  out.push_back(std::move(finish));
}

} // namespace

void lpx::report::writeTraceEvents(const Timeline &t, llvm::raw_ostream &os) {
  const isa::pb::Program &p = t.prog->program();
  const sim::SimResult &r = *t.result;
  llvm::json::OStream j(os);
  j.objectBegin();
  j.attribute("displayTimeUnit", "ns");
  j.attributeObject("otherData", [&] {
    j.attribute("source_model", p.source_model());
    j.attribute("chip", t.prog->chip().name);
    j.attribute("clock_mhz", t.prog->chip().clockMHz);
    j.attribute("nodes", p.num_nodes());
    j.attribute("total_cycles", int64_t(r.totalCycles));
    j.attribute("instructions", int64_t(r.instructions));
    j.attribute("hazard_count", int64_t(r.hazardCount));
    j.attribute("lower_bound", int64_t(r.lowerBound));
    j.attribute("bottleneck", r.bottleneck);
  });
  j.attributeBegin("traceEvents");
  j.arrayBegin();
  for (uint32_t node = 0; node < p.num_nodes(); ++node) {
    j.value(metadata("process_name", node, -1,
                     Object{{"name", "chip " + std::to_string(node)}}));
    j.value(
        metadata("process_sort_index", node, -1, Object{{"sort_index", node}}));
  }
  for (const Track &track : t.tracks) {
    j.value(metadata("thread_name", track.node, track.id,
                     Object{{"name", track.name}}));
    j.value(metadata("thread_sort_index", track.node, track.id,
                     Object{{"sort_index", track.id}}));
  }
  for (size_t i = 0; i < t.trace->instructions.size(); ++i)
    j.value(slice(t, i));
  Array flow;
  for (size_t f = 0; f < t.flows.size(); ++f) {
    flow.clear();
    addFlow(t, t.flows[f], f, flow);
    for (llvm::json::Value &v : flow)
      j.value(v);
  }
  for (uint32_t node = 0; node < p.num_nodes(); ++node)
    for (const SramPoint &pt : t.sramInUse[node])
      j.value(Object{{"ph", "C"},
                     {"name", kSramCounter},
                     {"pid", node},
                     {"ts", t.cyclesToUs(pt.cycle)},
                     {"args", Object{{"bytes", int64_t(pt.bytes)}}}});
  j.arrayEnd();
  j.attributeEnd();
  j.objectEnd();
}
