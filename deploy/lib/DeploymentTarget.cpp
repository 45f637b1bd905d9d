//===- DeploymentTarget.cpp - A deployment from its command-line words ----===//
#include "lpx/deploy/DeploymentTarget.h"

#include "lpx/isa/ChipOverrides.h"
#include "llvm/Support/FileSystem.h"
#include "lpx/models/Export.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>

using namespace lpx;
using namespace lpx::deploy;

static constexpr int64_t kMaxChips = 1 << 16;

/// Whether an ONNX step has past_key_values inputs to keep resident.
static bool hasKvCache(const std::string &model) {
  auto buffer = llvm::MemoryBuffer::getFile(model);
  return buffer && (*buffer)->getBuffer().contains("past_key_values.");
}

llvm::Expected<DecodeTarget> lpx::deploy::loadDeploymentTarget(
    const DeploymentSpec &a,
    const std::function<std::string(llvm::StringRef)> &unknownPreset) {
  DecodeTarget t;
  if (llvm::StringRef(a.model).ends_with_insensitive(".onnx")) {
    if (!llvm::sys::fs::is_regular_file(a.model))
      return llvm::createStringError("cannot read model '" + a.model +
                                     "': no such file");
    t.modelFile = a.model;
    t.noResidentKV = !hasKvCache(a.model);
  } else if (!(t.preset = models::findPreset(a.model))) {
    return llvm::createStringError(unknownPreset(a.model));
  }
  auto chip = isa::loadChipWithOverrides(
      a.chip.empty() ? isa::presetNames().front() : a.chip, a.sets);
  if (!chip)
    return chip.takeError();
  t.chip = std::move(*chip);
  // The formats the chip's deployments use, unless the options say.
  t.weights = a.weights.empty() ? t.chip.formats.weights : a.weights;
  t.activations =
      a.activations.empty() ? t.chip.formats.activations : a.activations;
  t.weightsFromChip = a.weights.empty() && !t.weights.empty();
  t.activationsFromChip = a.activations.empty() && !t.activations.empty();
  t.tp = a.tp;
  t.pp = a.pp;
  return t;
}

llvm::Error ScratchDir::create(llvm::StringRef prefix) {
  if (auto ec = llvm::sys::fs::createUniqueDirectory(prefix, path))
    return llvm::createStringError("cannot make a scratch folder: " +
                                   ec.message());
  return llvm::Error::success();
}

ScratchDir::~ScratchDir() {
  if (!path.empty())
    llvm::sys::fs::remove_directories(path);
}

std::vector<std::string>
lpx::deploy::decodeDefaults(const DecodeTarget &t, int64_t &context,
                            int64_t &prompt, bool batchDefaulted,
                            const std::vector<int64_t> &prompts) {
  std::vector<std::string> said;
  if (!t.preset)
    return said;
  if (context == 0 && !prompts.empty()) {
    context = *std::max_element(prompts.begin(), prompts.end());
    said.push_back(llvm::formatv("context {0} (the longest prompt)", context));
  } else if (context == 0) {
    context = std::min<int64_t>(t.preset->maxContext, kDefaultDecodeContext);
    said.push_back(llvm::formatv("context {0} (the preset's, up to {1})",
                                 context, kDefaultDecodeContext));
  }
  if (prompt == 0 && prompts.empty()) {
    prompt = std::min(kDefaultDecodePrompt, context);
    said.push_back(llvm::formatv("prompt {0}", prompt));
  }
  if (batchDefaulted)
    said.push_back("batch 1");
  return said;
}

llvm::Error lpx::deploy::checkDecodeShapes(const DecodeTarget &t,
                                           int64_t context, int64_t prompt,
                                           int64_t batch,
                                           const std::vector<int64_t> &sweep,
                                           const std::vector<int64_t> &prompts) {
  if (!t.preset) {
    if (context || prompt || batch != 1 || !sweep.empty() || !prompts.empty())
      return llvm::createStringError(
          "--context, --prompt, --batch and the sweeps shape a preset's "
          "export; an ONNX file has its own shapes");
    return llvm::Error::success();
  }
  std::vector<int64_t> contexts = sweep;
  std::vector<int64_t> prefills = prompts;
  if (contexts.empty()) {
    if (context == 0)
      return llvm::createStringError("--context is required with a preset (positions in the "
                   "KV cache at the decode step)");
    if (prefills.empty() && prompt == 0)
      return llvm::createStringError("--prompt is required with a preset (tokens in the "
                   "prompt; the prefill's length)");
    if (prefills.empty())
      prefills.push_back(prompt);
    for (int64_t p : prefills)
      if (context < p)
        return llvm::createStringError(
            "--context " + llvm::Twine(context) + " is smaller than --prompt " +
            llvm::Twine(p) + ": the cache must hold the prompt");
    contexts.push_back(context);
  }
  for (int64_t l : contexts) {
    models::ExportOptions step;
    step.context = l;
    step.batch = batch;
    if (auto e = models::resolveOptions(*t.preset, step))
      return e;
  }
  for (int64_t p : prefills) { // the prefill: the prompt, no past
    models::ExportOptions prefill;
    prefill.context = prefill.prompt = p;
    prefill.batch = batch;
    if (auto e = models::resolveOptions(*t.preset, prefill))
      return e;
  }
  return llvm::Error::success();
}

llvm::Error lpx::deploy::parsePositiveList(const std::string &text,
                                           llvm::StringRef option,
                                           std::vector<int64_t> &out) {
  llvm::SmallVector<llvm::StringRef> items;
  llvm::StringRef(text).split(items, ',', -1, false);
  for (llvm::StringRef item : items) {
    int64_t l = 0;
    if (auto e = parsePositive(item.trim().str(), option.str().c_str(), l))
      return e;
    if (l < 0)
      return llvm::createStringError(option + " '" + item +
                                     "' is not a positive integer");
    out.push_back(l);
  }
  return llvm::Error::success();
}

llvm::Error lpx::deploy::parsePositive(const std::string &text, const char *option,
                                    int64_t &out) {
  if (text.empty())
    return llvm::Error::success();
  if (llvm::StringRef(text).getAsInteger(10, out) || out == 0)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "%s '%s' is not a positive integer", option, text.c_str());
  return llvm::Error::success();
}

std::string lpx::deploy::unknownPresetMessage(llvm::StringRef name) {
  std::string names;
  for (const lpx::models::DecoderConfig &c : lpx::models::presets())
    names += std::string(names.empty() ? "" : ", ") + c.name;
  return "unknown model preset '" + name.str() + "' (presets: " + names + ")";
}

llvm::Error lpx::deploy::parseDeployment(const DeploymentArgs &a,
                                      DeploymentNumbers &o) {
  for (auto [text, name, out] :
       {std::tuple{&a.context, "--context", &o.context},
        std::tuple{&a.chips, "--chips", &o.chips},
        std::tuple{&a.tp, "--tp", &o.tp}, std::tuple{&a.pp, "--pp", &o.pp}}) {
    if (auto e = parsePositive(*text, name, *out))
      return e;
    if (*out < 0)
      return llvm::createStringError(llvm::Twine(name) + " " + *text +
                                     " is not a positive integer");
  }
  if (o.chips > kMaxChips)
    return llvm::createStringError("--chips " + a.chips + " is more than " +
                 llvm::Twine(kMaxChips));
  return llvm::Error::success();
}

llvm::Error lpx::deploy::loadTarget(const DeploymentArgs &a,
                                 const DeploymentNumbers &o, DecodeTarget &t) {
  auto target = loadDeploymentTarget(
      {a.model, a.chip, a.sets, a.weights, a.activations, unsigned(o.tp),
       unsigned(o.pp)},
      unknownPresetMessage);
  if (!target)
    return target.takeError();
  t = std::move(*target);
  return llvm::Error::success();
}

