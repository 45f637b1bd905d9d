//===- ModelsCommand.cpp - lpx models list|export -------------------------===//
#include "Commands.h"
#include "Progress.h"

#include "lpx/models/Export.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include <fmt/format.h>
#include <optional>

using namespace lpx;
using namespace lpx::cli;

/// 6.74B, 163.04M, 172.22K.
static std::string humanCount(uint64_t n) {
  if (n >= 1000000000)
    return fmt::format("{:.2f}B", double(n) / 1e9);
  if (n >= 1000000)
    return fmt::format("{:.2f}M", double(n) / 1e6);
  return fmt::format("{:.2f}K", double(n) / 1e3);
}

int lpx::cli::runModelsList() {
  auto &os = llvm::outs();
  os << fmt::format("{:<14} {:<8} {:>6} {:>6} {:>5} {:>4} {:>6} {:>7} {:>7} "
                    "{:>7} {:>8}  {}\n",
                    "name", "family", "layers", "hidden", "heads", "kv", "ffn",
                    "experts", "vocab", "context", "params", "source");
  for (const models::DecoderConfig &c : models::presets()) {
    models::ExportOptions o;
    if (llvm::Error e = models::resolveOptions(c, o))
      return reportError("models list", std::move(e));
    // Counted from the graph an export builds, not from a formula.
    uint64_t params = models::summarize(c, o).parameters;
    std::string experts = c.experts ? std::to_string(c.experts) + "/top" +
                                          std::to_string(c.expertsPerToken)
                                    : "-";
    os << fmt::format("{:<14} {:<8} {:>6} {:>6} {:>5} {:>4} {:>6} {:>7} "
                      "{:>7} {:>7} {:>8}  {}\n",
                      c.name, models::familyName(c.family).str(), c.layers,
                      c.hidden, c.heads, c.kvHeads, c.ffn, experts, c.vocab,
                      c.maxContext, humanCount(params), c.source);
  }
  return kOk;
}

int lpx::cli::runModelsExport(const ModelsExportArgs &args) {
  const char *cmd = "models export";
  const models::DecoderConfig *config = models::findPreset(args.name);
  if (!config) {
    return reportError(cmd, unknownPresetMessage(args.name));
  }
  models::ExportOptions o;
  o.shapeOnly = args.shapeOnly;
  if (llvm::Error e = parsePositive(args.layers, "--layers", o.layers))
    return reportError(cmd, std::move(e));
  if (llvm::Error e = parsePositive(args.context, "--context", o.context))
    return reportError(cmd, std::move(e));
  if (llvm::Error e = parsePositive(args.batch, "--batch", o.batch))
    return reportError(cmd, std::move(e));
  if (llvm::Error e = parsePositive(args.prompt, "--prompt", o.prompt))
    return reportError(cmd, std::move(e));
  if (llvm::Error e = parsePositive(args.opset, "--opset", o.opset))
    return reportError(cmd, std::move(e));
  if (llvm::Error e = models::resolveOptions(*config, o))
    return reportError(cmd, std::move(e));

  std::optional<Progress> bar;
  uint64_t lastMiB = 0;
  auto progress = [&](uint64_t done, uint64_t total) {
    if (total < (uint64_t(256) << 20))
      return; // only large exports take long enough to show
    if (!bar)
      bar.emplace("models export", size_t(total >> 20), "MiB of weights");
    if ((done >> 20) != lastMiB)
      bar->update(size_t(lastMiB = done >> 20), 0);
  };
  auto summary = models::exportModel(*config, o, args.output, progress);
  if (bar)
    bar->finish();
  if (!summary)
    return reportError(cmd, summary.takeError());
  llvm::outs() << "wrote " << args.output << ": " << config->name << ", "
               << o.layers << " layers, "
               << (o.prompt > 1 ? std::to_string(o.prompt) + " tokens, " : "")
               << "context " << o.context << ", batch "
               << o.batch << ", " << summary->nodes << " nodes, "
               << humanCount(summary->parameters) << " parameters"
               << (o.shapeOnly ? ", " + std::to_string(summary->shapeOnlyTensors) +
                                     " shape-only weights"
                               : std::string())
               << (summary->externalData ? ", weights in " + args.output + ".data"
                                         : std::string())
               << "\n";
  return kOk;
}
