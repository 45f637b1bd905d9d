//===- ModelsCommand.cpp - lpx models list|export -------------------------===//
#include "Commands.h"
#include "Progress.h"

#include "lpx/models/PresetTable.h"
#include "lpx/models/Presets.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>

using namespace lpx;
using namespace lpx::cli;

int lpx::cli::runModelsList() {
  auto table = models::presetTable();
  if (!table)
    return reportError("models list", table.takeError());
  llvm::outs() << *table;
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
  o.ffnOnly = args.ffnOnly;
  for (auto [text, option, out] :
       {std::tuple{&args.layers, "--layers", &o.layers},
        {&args.context, "--context", &o.context},
        {&args.batch, "--batch", &o.batch},
        {&args.prompt, "--prompt", &o.prompt},
        {&args.opset, "--opset", &o.opset}})
    if (llvm::Error e = parsePositive(*text, option, *out))
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
  llvm::outs() << models::exportSummaryLine(*config, o, *summary, args.output)
               << "\n";
  return kOk;
}
