//===- SensitivityReport.h - A sensitivity study's files and page -*- C++ -*-===//
//
// What the sensitivity studies (`lpx sweep --sensitivity`, `lpx decode
// --sensitivity`, `lpx simulate --sensitivity`) write: the CSV, the tornado
// SVG and a self-contained HTML page holding the question, the base, the
// band, the tornado and the rows as a table. Each file is rendered before
// any is written, so a failure leaves none half written.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_SENSITIVITYREPORT_H
#define LPX_DEPLOY_SENSITIVITYREPORT_H

#include "lpx/report/SvgTornado.h"
#include "llvm/Support/Error.h"

#include <initializer_list>
#include <string>

namespace lpx::deploy {

struct SensitivityPage {
  std::string title;    // "TPOT of llama2-7b on lpx3 over its assumptions"
  std::string question; // what was varied, as a sentence
  std::string base;     // "base: 24 chip(s), TTFT 1813.540 us, ..."
  std::string band;     // the summary line: the figure and its band
  report::TornadoSpec tornado;
  std::string csv; // the rows with their header; shown as the page's table
};

/// The page, from <!DOCTYPE html> to </html>.
std::string renderSensitivityReport(const SensitivityPage &page);

/// Writes the CSV, the tornado and the page to those of the paths that
/// are not empty.
llvm::Error writeSensitivityPage(const SensitivityPage &page,
                                 const std::string &csvPath,
                                 const std::string &plotPath,
                                 const std::string &reportPath);

/// " -> a.csv, b.svg" of the paths that are not empty; "" when none is.
std::string writtenTo(std::initializer_list<std::string> paths);

} // namespace lpx::deploy

#endif
