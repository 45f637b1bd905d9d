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
#ifndef LPX_TOOLS_TRACEEVENTS_H
#define LPX_TOOLS_TRACEEVENTS_H

#include "Timeline.h"
#include "llvm/Support/JSON.h"

namespace lpx::cli {

llvm::json::Value traceEvents(const Timeline &timeline);

} // namespace lpx::cli

#endif
