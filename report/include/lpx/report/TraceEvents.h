//===- TraceEvents.h - A simulated run as Chrome trace events ---*- C++ -*-===//
//
// The trace-event JSON that chrome://tracing and ui.perfetto.dev open: one
// process per chip, one thread (track) per unit queue and per link, one
// complete ("X") slice per instruction spanning its busy cycles, flow arrows
// from each send to the instructions that read what it delivered, and a
// counter of SRAM bytes in use per chip. Timestamps are microseconds at the
// chip clock; every slice also carries its cycles as arguments.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_REPORT_TRACEEVENTS_H
#define LPX_REPORT_TRACEEVENTS_H

#include "lpx/report/Timeline.h"
#include "llvm/Support/raw_ostream.h"

namespace lpx::report {

/// Streams the trace to `os` event by event: a program of millions of
/// instructions never exists as one JSON value in memory.
void writeTraceEvents(const Timeline &timeline, llvm::raw_ostream &os);

} // namespace lpx::report

#endif
