//===- CoverageFormat.cpp - Coverage reports as text, md, json, html ------===//
#include "lpx/deploy/CoverageFormat.h"
#include "lpx/report/Markup.h"

#include "lpx/isa/Program.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

using namespace lpx::deploy;
using namespace lpx::report;

namespace {

const char *statusName(NodeStatus s) {
  switch (s) {
  case NodeStatus::Supported: return "supported";
  case NodeStatus::Folded: return "folded";
  case NodeStatus::Unsupported: return "unsupported";
  }
  return "?";
}

std::string summary(const ModelCoverage &m) {
  return llvm::formatv("{0}/{1} nodes supported, {2} op types missing",
                       m.supported(), m.nodes.size(), m.missingOpTypes().size())
      .str();
}

/// "missing: none; unsupported uses: Conv (...)": op types lpx lacks apart
/// from supported ones used in a way it does not compile; "" when neither.
std::string blocking(const ModelCoverage &m) {
  std::vector<std::string> missing = m.missingOpTypes(),
                           uses = m.unsupportedUses();
  if (missing.empty() && uses.empty())
    return "";
  std::string s = "missing: " + (missing.empty() ? std::string("none")
                                                 : llvm::join(missing, " "));
  if (!uses.empty())
    s += "; unsupported uses: " + llvm::join(uses, ", ");
  return s;
}

std::string verdict(const ModelCoverage &m) {
  return m.portable() ? "portable" : "not portable";
}

std::string costLine(const ModelCoverage &m) {
  if (!m.cost)
    return m.costError.empty() ? "" : "cost: not available (" + m.costError + ")";
  const PortCost &c = *m.cost;
  return llvm::formatv("needs {0} chip(s) of {1} for {2} bytes of weights; "
                       "one inference: {3} cycles = {4:f3} us (host I/O "
                       "{5:f1} us more)",
                       c.nodes, c.chip, c.weightBytes, c.cycles,
                       c.seconds * 1e6, c.hostSeconds * 1e6)
      .str();
}

std::string opLabel(const NodeCoverage &n) {
  return (n.domain.empty() ? "" : n.domain + ".") + n.opType + "-" +
         std::to_string(n.opsetVersion);
}

void writeText(const ModelCoverage &m, llvm::raw_ostream &os) {
  os << m.model << " (opset " << m.opset << ")\n";
  os << llvm::formatv("  {0,-32} {1,-28} {2,-12} {3}\n", "node", "op", "status",
                      "reason");
  for (const NodeCoverage &n : m.nodes)
    os << llvm::formatv("  {0,-32} {1,-28} {2,-12} {3}\n", n.name, opLabel(n),
                        statusName(n.status), n.reason);
  for (const std::string &e : m.modelErrors)
    os << "  model: " << e << "\n";
  os << "  " << summary(m) << "\n";
  if (std::string b = blocking(m); !b.empty())
    os << "  " << b << "\n";
  std::string runTime;
  for (const NodeCoverage &n : m.nodes)
    if (n.status == NodeStatus::Unsupported && n.runTimeShape())
      runTime += " " + n.name;
  if (!runTime.empty())
    os << "  shapes computed at run time (supported ops, see the reasons):"
       << runTime << "\n";
  os << "  verdict: " << verdict(m) << "\n";
  if (std::string c = costLine(m); !c.empty())
    os << "  " << c << "\n";
}

void writeMarkdown(const ModelCoverage &m, llvm::raw_ostream &os) {
  os << "## " << llvm::sys::path::filename(m.model) << " (opset " << m.opset
     << ")\n\n**" << verdict(m) << "**: " << summary(m) << "\n\n";
  if (std::string b = blocking(m); !b.empty())
    os << b << "\n\n";
  if (std::string c = costLine(m); !c.empty())
    os << c << "\n\n";
  os << "| node | op | status | reason |\n|---|---|---|---|\n";
  for (const NodeCoverage &n : m.nodes)
    os << "| " << n.name << " | " << opLabel(n) << " | "
       << statusName(n.status) << " | " << n.reason << " |\n";
  for (const std::string &e : m.modelErrors)
    os << "\nModel problem: " << e << "\n";
  os << "\n";
}

/// Text from the model (names, op types, messages quoting them) or the
/// command line as a JSON string, which must be UTF-8.
std::string jsonText(llvm::StringRef s) { return lpx::isa::validUtf8(s); }

llvm::json::Array jsonTexts(const std::vector<std::string> &list) {
  llvm::json::Array out;
  for (const std::string &s : list)
    out.push_back(jsonText(s));
  return out;
}

llvm::json::Value toJson(const ModelCoverage &m) {
  llvm::json::Array nodes;
  for (const NodeCoverage &n : m.nodes)
    nodes.push_back(llvm::json::Object{{"name", jsonText(n.name)},
                                       {"op_type", jsonText(n.opType)},
                                       {"domain", jsonText(n.domain)},
                                       {"opset_version", n.opsetVersion},
                                       {"status", statusName(n.status)},
                                       {"reason", jsonText(n.reason)}});
  llvm::json::Object o{{"model", jsonText(m.model)},
                       {"opset", m.opset},
                       {"nodes", std::move(nodes)},
                       {"supported", m.supported()},
                       {"folded", m.folded()},
                       {"total", int64_t(m.nodes.size())},
                       {"missing_op_types", jsonTexts(m.missingOpTypes())},
                       {"unsupported_uses", jsonTexts(m.unsupportedUses())},
                       {"model_errors", jsonTexts(m.modelErrors)},
                       {"portable", m.portable()}};
  if (m.cost)
    o["cost"] = llvm::json::Object{{"chip", jsonText(m.cost->chip)},
                                   {"chips", m.cost->nodes},
                                   {"weight_bytes", m.cost->weightBytes},
                                   {"cycles", m.cost->cycles},
                                   {"seconds", m.cost->seconds},
                                   {"host_seconds", m.cost->hostSeconds}};
  else if (!m.costError.empty())
    o["cost_error"] = jsonText(m.costError);
  return std::move(o);
}

void writeHtml(const std::vector<ModelCoverage> &models,
               llvm::raw_ostream &os) {
  os << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
        "<title>lpx operator coverage</title><style>"
        "body{font-family:sans-serif;margin:2em}table{border-collapse:"
        "collapse}td,th{border:1px solid #ccc;padding:2px 8px;text-align:"
        "left}.unsupported{background:#fdd}.folded{background:#eef}"
        "</style></head><body>\n";
  for (const ModelCoverage &m : models) {
    os << "<h2>" << escapeMarkup(llvm::sys::path::filename(m.model))
       << " (opset " << m.opset << ")</h2>\n<p><b>" << verdict(m) << "</b>: "
       << escapeMarkup(summary(m)) << "</p>\n";
    if (std::string c = costLine(m); !c.empty())
      os << "<p>" << escapeMarkup(c) << "</p>\n";
    os << "<table><tr><th>node</th><th>op</th><th>status</th><th>reason</th>"
          "</tr>\n";
    for (const NodeCoverage &n : m.nodes)
      os << "<tr class=\"" << statusName(n.status) << "\"><td>"
         << escapeMarkup(n.name) << "</td><td>" << escapeMarkup(opLabel(n))
         << "</td><td>" << statusName(n.status) << "</td><td>"
         << escapeMarkup(n.reason) << "</td></tr>\n";
    os << "</table>\n";
  }
  os << "</body></html>\n";
}

} // namespace

void lpx::deploy::writeCoverage(const std::vector<ModelCoverage> &models,
                             ReportFormat f, llvm::raw_ostream &os) {
  switch (f) {
  case ReportFormat::Text:
    for (const ModelCoverage &m : models)
      writeText(m, os);
    return;
  case ReportFormat::Markdown:
    os << "# lpx operator coverage\n\n";
    for (const ModelCoverage &m : models)
      writeMarkdown(m, os);
    return;
  case ReportFormat::Json: {
    llvm::json::Array all;
    for (const ModelCoverage &m : models)
      all.push_back(toJson(m));
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(all))) << "\n";
    return;
  }
  case ReportFormat::Html:
    writeHtml(models, os);
    return;
  }
}

llvm::Expected<ReportFormat>
lpx::deploy::reportFormatNamed(llvm::StringRef name) {
  if (name == "text") return ReportFormat::Text;
  if (name == "md") return ReportFormat::Markdown;
  if (name == "json") return ReportFormat::Json;
  if (name == "html") return ReportFormat::Html;
  return llvm::createStringError("unknown format '" + name +
                                 "' (text, md, json, html)");
}
