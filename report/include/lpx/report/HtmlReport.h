//===- HtmlReport.h - A simulated run as one self-contained page -*- C++ -*-===//
//
// One HTML file with no external reference (styles, SVG and the little
// script are inline): a summary, the bounds and what limits the run, a
// per-chip timeline, unit and link utilisation, each chip's SRAM map over
// time, the hazards and the instruction table. Built from a Timeline, so any
// command that simulates a program (`lpx simulate --report`, later
// `lpx decode --report`) can write it, adding sections of its own.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_REPORT_HTMLREPORT_H
#define LPX_REPORT_HTMLREPORT_H

#include "lpx/report/Timeline.h"
#include "llvm/ADT/ArrayRef.h"
#include <string>

namespace lpx::report {

/// A section a command adds to the report, after the summary.
struct ReportSection {
  std::string id;    // HTML id, unique in the page
  std::string title;
  std::string html;  // the body, already escaped
};

/// Limits that keep the page small for programs of millions of
/// instructions: beyond them the page says what it left out.
struct ReportLimits {
  /// Instructions drawn one by one in all timelines together; beyond this
  /// every track is drawn as busy density (a shade per pixel column).
  size_t slices = 50000;
  /// Buffers drawn in all SRAM maps together, shared evenly by the chips
  /// (at least 100 each); each map keeps those with the most bytes x cycles.
  size_t buffers = 20000;
  /// Rows of the instruction table: the first ones in issue order.
  size_t tableRows = 5000;
};

std::string renderHtmlReport(const Timeline &timeline, llvm::StringRef title,
                             llvm::ArrayRef<ReportSection> extra = {},
                             const ReportLimits &limits = {});

} // namespace lpx::report

#endif
