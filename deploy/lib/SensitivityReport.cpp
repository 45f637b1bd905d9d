//===- SensitivityReport.cpp - A sensitivity study's files and page -------===//
#include "lpx/deploy/SensitivityReport.h"
#include "lpx/deploy/StudyReport.h"
#include "lpx/deploy/SweepReport.h"

#include "lpx/isa/AtomicFile.h"
#include "lpx/report/HtmlPage.h"
#include "lpx/report/Markup.h"

using namespace lpx;
using namespace lpx::deploy;
using report::escapeMarkup;

namespace {

/// The CSV as a table: its first record the header, one row per record.
std::string csvTable(llvm::StringRef csv) {
  std::string h = "<div class='wide'><table id='sensitivity-table'>";
  bool head = true;
  for (const CsvRecord &r : splitCsv(csv)) {
    h += head ? "<thead><tr>" : "<tr>";
    for (const std::string &f : r.fields)
      h += (head ? "<th>" : "<td>") + escapeMarkup(f) +
           (head ? "</th>" : "</td>");
    h += head ? "</tr></thead><tbody>\n" : "</tr>\n";
    head = false;
  }
  return h + "</tbody></table></div>\n";
}

} // namespace

std::string lpx::deploy::renderSensitivityReport(const SensitivityPage &p) {
  std::string h = report::htmlPageStart(p.title, studyPageStyle()) + "<h1>" +
                  escapeMarkup(p.title) + "</h1>\n";
  h += report::htmlSection(
      "question", "The question",
      "<p>" + escapeMarkup(p.question) + "</p>\n<p id='base'>" +
          escapeMarkup(p.base) + "</p>\n<p id='band'>" + escapeMarkup(p.band) +
          "</p>\n");
  h += report::htmlSection("tornado", "Which assumptions move it most",
                           "<div class='plot'>" +
                               report::renderTornadoSvg(p.tornado) +
                               "</div>\n");
  h += report::htmlSection("rows", "Every assumption", csvTable(p.csv));
  return h + report::htmlPageEnd(studyPageReady("#tornado svg"));
}

llvm::Error lpx::deploy::writeSensitivityPage(const SensitivityPage &p,
                                              const std::string &csvPath,
                                              const std::string &plotPath,
                                              const std::string &reportPath) {
  for (const std::string *path : {&csvPath, &plotPath, &reportPath})
    if (!path->empty())
      if (auto e = isa::checkOutputPath(*path))
        return e;
  const std::string svg =
      plotPath.empty() ? "" : report::renderTornadoSvg(p.tornado);
  const std::string page =
      reportPath.empty() ? "" : renderSensitivityReport(p);
  for (auto [path, text] : {std::pair{&csvPath, &p.csv}, {&plotPath, &svg},
                            {&reportPath, &page}})
    if (!path->empty())
      if (auto e = isa::writeFileAtomically(*path, *text))
        return e;
  return llvm::Error::success();
}

std::string lpx::deploy::writtenTo(std::initializer_list<std::string> paths) {
  std::string out;
  for (const std::string &p : paths)
    if (!p.empty())
      out += (out.empty() ? " -> " : ", ") + p;
  return out;
}
