//===- DecodeWords.cpp - One decode deployment from its command-line words -===//
#include "lpx/deploy/DecodeWords.h"
#include "lpx/deploy/DeployError.h"

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
                           int64_t context, int64_t prefillPrompt) {
  DecodeRequest req;
  req.chips = unsigned(o.chips);
  req.step = PhaseShape{context, 1, o.batch};
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
                             const DecodePlan *source) {
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
  auto req = decodeRequest(t, o, o.context, o.prompt);
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
