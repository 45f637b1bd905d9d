//===- PresetTable.cpp - The presets and an export as text ----------------===//
#include "lpx/models/PresetTable.h"
#include "lpx/models/Presets.h"

#include <fmt/format.h>

using namespace lpx;
using namespace lpx::models;

std::string lpx::models::humanCount(uint64_t n) {
  if (n >= 1000000000)
    return fmt::format("{:.2f}B", double(n) / 1e9);
  if (n >= 1000000)
    return fmt::format("{:.2f}M", double(n) / 1e6);
  return fmt::format("{:.2f}K", double(n) / 1e3);
}

llvm::Expected<std::string> lpx::models::presetTable() {
  std::string table = fmt::format(
      "{:<14} {:<8} {:>6} {:>6} {:>5} {:>4} {:>6} {:>7} {:>7} {:>7} {:>8}  "
      "{}\n",
      "name", "family", "layers", "hidden", "heads", "kv", "ffn", "experts",
      "vocab", "context", "params", "source");
  for (const DecoderConfig &c : presets()) {
    ExportOptions o;
    if (llvm::Error e = resolveOptions(c, o))
      return std::move(e);
    // Counted from the graph an export builds, not from a formula.
    uint64_t params = summarize(c, o).parameters;
    std::string experts = c.experts ? std::to_string(c.experts) + "/top" +
                                          std::to_string(c.expertsPerToken)
                                    : "-";
    table += fmt::format("{:<14} {:<8} {:>6} {:>6} {:>5} {:>4} {:>6} {:>7} "
                         "{:>7} {:>7} {:>8}  {}\n",
                         c.name, familyName(c.family).str(), c.layers,
                         c.hidden, c.heads, c.kvHeads, c.ffn, experts, c.vocab,
                         c.maxContext, humanCount(params), c.source);
  }
  return table;
}

std::string lpx::models::exportSummaryLine(const DecoderConfig &config,
                                           const ExportOptions &o,
                                           const ExportSummary &summary,
                                           const std::string &output) {
  std::string line = "wrote " + output + ": " + config.name + ", " +
                     std::to_string(o.layers) + " layers, ";
  if (o.prompt > 1)
    line += std::to_string(o.prompt) + " tokens, ";
  line += "context " + std::to_string(o.context) + ", batch " +
          std::to_string(o.batch) + ", " + std::to_string(summary.nodes) +
          " nodes, " + humanCount(summary.parameters) + " parameters";
  if (o.shapeOnly)
    line += ", " + std::to_string(summary.shapeOnlyTensors) +
            " shape-only weights";
  if (summary.externalData)
    line += ", weights in " + output + ".data";
  return line;
}
