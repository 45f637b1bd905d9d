//===- DecodeWords.cpp - One decode deployment from its command-line words -===//
#include "lpx/deploy/DecodeWords.h"
#include "lpx/deploy/DeployError.h"
#include "lpx/deploy/StudyRun.h"
#include "lpx/isa/AtomicFile.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

using namespace lpx;
using namespace lpx::deploy;

llvm::Error lpx::deploy::parseDecodeNumbers(const DecodeWords &w,
                                            DecodeNumbers &o) {
  if (auto e = parseDeployment(w, o))
    return e;
  for (auto [text, name, out] :
       {std::tuple{&w.prompt, "--prompt", &o.prompt},
        std::tuple{&w.batch, "--batch", &o.batch},
        std::tuple{&w.prefillChunk, "--prefill-chunk", &o.prefillChunk}}) {
    if (auto e = parsePositive(*text, name, *out))
      return e;
    if (*out < 0)
      return error(llvm::Twine(name) + " " + *text +
                   " is not a positive integer");
  }
  o.greedy = w.sample == "greedy";
  return llvm::Error::success();
}

llvm::Expected<DecodeRequest>
lpx::deploy::decodeRequest(const DecodeTarget &t, const DecodeNumbers &o,
                           int64_t context, int64_t prefillPrompt,
                           int64_t verifyTokens) {
  DecodeRequest req;
  req.chips = unsigned(o.chips);
  req.step = PhaseShape{context, 1, o.batch};
  if (verifyTokens) {
    if (prefillPrompt + verifyTokens > context)
      return error(llvm::formatv("the prompt ({0} tokens) and a step of {1} "
                                 "after it need {2} cache positions; the "
                                 "context is {3}",
                                 prefillPrompt, verifyTokens,
                                 prefillPrompt + verifyTokens, context));
    req.verify = PhaseShape{context, verifyTokens, o.batch};
    req.verify->replicateRows = true;
  }
  if (t.preset && prefillPrompt) {
    req.prompt = prefillPrompt;
    auto prefill = prefillShape(prefillPrompt, o.batch, context,
                                o.prefillChunk, req.chunkWhy);
    if (!prefill)
      return prefill.takeError();
    req.prefill = *prefill;
    req.prefill->argmax = o.greedy;
  }
  return req;
}

llvm::Expected<DecodeMetrics>
lpx::deploy::decodeFromWords(const DecodeWords &w, llvm::StringRef scratchDir,
                             const PlanProgress &progress,
                             unsigned chipsHint,
                             std::shared_ptr<const DecodePlan> *keepPlan,
                             const DecodePlan *source, int64_t verifyTokens) {
  DecodeNumbers o;
  DecodeTarget t;
  if (auto e = parseDecodeNumbers(w, o))
    return std::move(e);
  if (auto e = loadTarget(w, o, t))
    return std::move(e);
  std::vector<std::string> defaults =
      decodeDefaults(t, o.context, o.prompt, w.batch == "1");
  if (auto e = checkDecodeShapes(t, o.context, o.prompt, o.batch, {}))
    return std::move(e);
  t.scratchDir = scratchDir.str();
  auto req = decodeRequest(t, o, o.context, o.prompt, verifyTokens);
  if (!req)
    return req.takeError();
  req->chipsHint = chipsHint;
  auto plan = source ? resimulatePlan(*source, t.chip)
                     : planDecode(t, *req, progress);
  if (!plan)
    return plan.takeError();
  DecodeMetrics m = measureDecode(t, *req, *plan);
  m.defaults = std::move(defaults);
  if (keepPlan)
    *keepPlan = std::make_shared<const DecodePlan>(std::move(*plan));
  return m;
}

llvm::Error lpx::deploy::parseDecodeSweep(const DecodeWords &w,
                                          const DecodeSweepWords &s,
                                          const StudyOptions &study,
                                          DecodeSweepNumbers &o) {
  if (auto e = parseDecodeNumbers(w, o))
    return e;
  if (auto e = parsePositiveList(s.contextSweep, "--context-sweep", o.sweep))
    return e;
  if (auto e = parsePositiveList(s.promptSweep, "--prompt-sweep", o.prompts))
    return e;
  if (!o.prompts.empty() && (o.prompt || !o.sweep.empty()))
    return error("--prompt-sweep gives the prompts; --prompt and "
                 "--context-sweep go without it");
  if (study.sweeps.empty() &&
      (!study.metric.empty() || !study.shard.empty() || study.jobs))
    return error("--metric, --shard and --jobs go with --sweep or "
                 "--sensitivity");
  if (!study.sweeps.empty() && o.sweeping())
    return error("--sweep is a study of whole deployments; --context-sweep "
                 "and --prompt-sweep go without it");
  return llvm::Error::success();
}

llvm::Error lpx::deploy::checkDecodeSweepOutputs(const DecodeSweepWords &s,
                                                 DecodeSweepNumbers &o) {
  if (!o.sweeping()) {
    if (!s.output.empty() || !s.plot.empty())
      return error("-o and --plot go with --context-sweep or --prompt-sweep");
    return llvm::Error::success();
  }
  if (s.output.empty())
    return error(llvm::Twine(o.sweep.empty() ? "--prompt-sweep"
                                             : "--context-sweep") +
                 " needs -o FILE.csv");
  o.plot = s.plot;
  if (o.plot.empty()) {
    llvm::SmallString<256> svg(s.output);
    llvm::sys::path::replace_extension(svg, "svg");
    o.plot = svg.str().str();
  }
  if (auto e = isa::checkOutputPath(s.output))
    return e;
  return isa::checkOutputPath(o.plot);
}

llvm::Error lpx::deploy::loadDecodeSweepTarget(const DecodeWords &w,
                                               DecodeSweepNumbers &o,
                                               DecodeTarget &t) {
  if (auto e = loadTarget(w, o, t))
    return e;
  if (o.sweep.empty())
    decodeDefaults(t, o.context, o.prompt, w.batch == "1", o.prompts);
  return checkDecodeShapes(t, o.context, o.prompt, o.batch, o.sweep,
                           o.prompts);
}

llvm::Expected<DecodeRunOptions>
lpx::deploy::decodeRunOptions(const DecodeWords &w, const DecodeNumbers &o,
                              const std::vector<std::string> &promptIds,
                              unsigned tokens) {
  DecodeRunOptions run;
  run.model = w.model;
  run.chip = w.chip;
  run.sets = w.sets;
  run.chips = o.chips ? unsigned(o.chips) : 1;
  run.tp = unsigned(o.tp); // the step's placement; the prefill follows it
  run.pp = unsigned(o.pp);
  run.context = o.context;
  run.tokens = tokens;
  run.prefillChunk = o.prefillChunk;
  for (const std::string &text : promptIds) {
    auto ids = parseIdList(text);
    if (!ids)
      return ids.takeError();
    run.prompts.push_back(std::move(*ids));
  }
  if (run.prompts.empty())
    run.prompts.push_back({1});
  if (o.batch != int64_t(run.prompts.size()) &&
      !(o.batch == 1 && w.batch == "1"))
    return error("--batch " + w.batch + " needs " + w.batch +
                 " --prompt-ids (one per sequence), not " +
                 llvm::Twine(run.prompts.size()));
  return run;
}
