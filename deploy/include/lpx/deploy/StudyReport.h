//===- StudyReport.h - A deployment study as one self-contained page -*- C++ -*-===//
//
// `lpx decode --sweep ... --report study.html` (and `lpx serve --sweep`,
// `lpx sweep merge` of their parts): the question (the keys and values
// swept, the options every point shares), the chart of the plotted metric,
// the frontier of tokens/s per user against chips (a decode study: every
// planned point drawn, the frontier's marked and joined), the table of
// every row as the CSV writes it and the points that failed with their
// messages. Drawn from the rows as written, so a merged study's page is
// the whole study's byte for byte.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DEPLOY_STUDYREPORT_H
#define LPX_DEPLOY_STUDYREPORT_H

#include "lpx/deploy/DeploymentStudyTable.h"

namespace lpx::deploy {

struct StudyPage {
  const StudyKind *kind = nullptr;
  const Grid *grid = nullptr;
  const std::vector<std::vector<std::string>> *rows = nullptr; // as written
  std::string title;    // "tpot_us of llama2-70b on lpx3"
  std::string baseLine; // the options every point shares
  std::string metric;   // the plotted column
  std::string plotSvg;  // its chart (renderSvg)
};

/// The page, from <!DOCTYPE html> to </html>.
std::string renderStudyReport(const StudyPage &page);

/// The inline style of the study pages (this one and SensitivityReport's).
const char *studyPageStyle();
/// Their closing script: the page is ready (data-ready '1', for a headless
/// browser) once an element `selector` matches is drawn.
std::string studyPageReady(llvm::StringRef selector);

} // namespace lpx::deploy

#endif
