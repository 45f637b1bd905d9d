//===- SpeculativeGenerate.cpp - Greedy speculative decoding on the CPU runtime ===//
//
// A round: the draft takes K steps from the last kept token t0, proposing
// d1..dK; the target runs one step of K + 1 tokens (t0, d1..dK) at their
// positions, writing them into its resident cache, and predicts p1..pK+1;
// the drafts up to the first di != pi are kept, then the target's own
// p(n+1). What the target wrote past the kept tokens is overwritten by the
// next round's step before any query reads it (its positions are masked
// until then), and the draft, whose cache holds t0..dK-1, steps once more
// on dK when all K were kept. So every kept token is the target's greedy
// token given the ones before it.
//
//===----------------------------------------------------------------------===//
#include "ResidentRun.h"
#include "lpx/deploy/Speculative.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace lpx;
using namespace lpx::deploy;
using namespace lpx::deploy::resident;

namespace {

/// One model's programs on the runtime for sequences of one prompt length
/// at batch 1: the decode step, the prefill placed as the step (none for a
/// prompt of one token) and, for the target, the verification of K + 1
/// tokens placed as the step. Machines point at their programs, so neither
/// moves once loaded.
struct RuntimeModel {
  DecodeRunOptions opts;
  TempDir tmp;
  ModelFiles files;
  ResidentProgram step, prefill, verify;
  std::optional<rt::Machine> stepMachine, prefillMachine, verifyMachine;
};

llvm::Error loaded(const ResidentProgram &p, std::optional<rt::Machine> &m) {
  auto machine = rt::Machine::load(*p.program);
  if (!machine)
    return machine.takeError();
  m.emplace(std::move(*machine));
  return llvm::Error::success();
}

/// `opts.model` for prompts of `length` tokens; with `verify`, the step of
/// that many tokens too (the target's).
llvm::Expected<std::unique_ptr<RuntimeModel>>
loadModel(const DecodeRunOptions &opts, int64_t length, int64_t verify) {
  auto m = std::make_unique<RuntimeModel>();
  m->opts = opts;
  m->opts.prompts.resize(1); // batch 1: each prompt a sequence of its own
  auto files = modelFiles(m->opts, length, m->tmp);
  if (!files)
    return files.takeError();
  m->files = *files;
  auto step = compileChecked(m->opts, files->step, "decode step", 1);
  if (!step)
    return step.takeError();
  m->step = std::move(*step);
  const isa::pb::Program &placement = m->step.program->program();
  if (llvm::Error e = loaded(m->step, m->stepMachine))
    return std::move(e);
  if (!files->prefill.empty()) {
    auto prefill = compileChecked(m->opts, files->prefill, "prefill", length,
                                  &placement, m->step.io.context);
    if (!prefill)
      return prefill.takeError();
    m->prefill = std::move(*prefill);
    if (llvm::Error e = loaded(m->prefill, m->prefillMachine))
      return std::move(e);
  }
  if (verify) {
    auto file = exportStepOf(m->opts, *files, verify, "-verify");
    if (!file)
      return file.takeError();
    auto program = compileChecked(m->opts, *file, "verification step", verify,
                                  &placement);
    if (!program)
      return program.takeError();
    m->verify = std::move(*program);
    if (llvm::Error e = loaded(m->verify, m->verifyMachine))
      return std::move(e);
  }
  return m;
}

/// A new sequence: the prompt into `into`'s resident cache (through the
/// prefill, or the step for one token); returns the model's next token.
llvm::Expected<int64_t> start(RuntimeModel &m, const std::vector<int64_t> &prompt,
                              rt::Machine &into) {
  for (auto *machine : {&m.stepMachine, &m.prefillMachine, &m.verifyMachine})
    if (*machine)
      (*machine)->reset();
  const bool prefill = m.prefillMachine.has_value();
  rt::Machine &first = prefill ? *m.prefillMachine : *m.stepMachine;
  auto rows = feed(first, prefill ? m.prefill.io : m.step.io, {prompt}, 0);
  if (!rows)
    return rows.takeError();
  if (&first != &into)
    if (llvm::Error e = first.handStateTo(into))
      return std::move(e);
  return argmax(rows->back().front());
}

/// The model's next token after `id` at `position` (its cache holds the
/// positions before).
llvm::Expected<int64_t> stepOn(RuntimeModel &m, int64_t id, int64_t position) {
  auto rows = feed(*m.stepMachine, m.step.io, {{id}}, position);
  if (!rows)
    return rows.takeError();
  return argmax(rows->front().front());
}

llvm::Error named(llvm::StringRef who, llvm::Error e) {
  return fail(who + ": " + llvm::toString(std::move(e)));
}

/// One prompt's sequence of `tokens` ids, rounds summed into `rounds`.
llvm::Expected<std::vector<int64_t>>
speculate(RuntimeModel &target, RuntimeModel &draft,
          const std::vector<int64_t> &prompt, unsigned tokens, int64_t k,
          SpeculativeRounds &rounds) {
  auto first = start(target, prompt, *target.verifyMachine);
  if (!first)
    return first.takeError();
  if (auto e = start(draft, prompt, *draft.stepMachine); !e)
    return named("draft " + draft.opts.model, e.takeError());
  std::vector<int64_t> sequence = prompt; // every kept id at its position
  sequence.push_back(*first);
  int64_t draftCached = int64_t(prompt.size()); // the draft's valid positions
  while (sequence.size() - prompt.size() < tokens) {
    const int64_t position = int64_t(sequence.size()) - 1; // of t0
    // The draft catches up on kept ids it has not taken (dK, when all
    // of the last round's drafts were kept).
    for (; draftCached < position; ++draftCached)
      if (auto e = stepOn(draft, sequence[size_t(draftCached)], draftCached); !e)
        return named("draft " + draft.opts.model, e.takeError());
    std::vector<int64_t> proposed{sequence.back()};
    for (int64_t i = 0; i < k; ++i) {
      auto next = stepOn(draft, proposed.back(), position + i);
      if (!next)
        return named("draft " + draft.opts.model, next.takeError());
      proposed.push_back(*next);
    }
    auto rows = feed(*target.verifyMachine, target.verify.io, {proposed},
                     position);
    if (!rows)
      return named("verification", rows.takeError());
    int64_t kept = 0;
    while (kept < k && proposed[size_t(kept + 1)] ==
                           argmax((*rows)[size_t(kept)].front()))
      ++kept;
    for (int64_t i = 1; i <= kept; ++i)
      sequence.push_back(proposed[size_t(i)]);
    sequence.push_back(argmax((*rows)[size_t(kept)].front()));
    draftCached = position + std::min(kept, k - 1) + 1;
    rounds.rounds += 1;
    rounds.drafted += k;
    rounds.trials += kept + (kept < k ? 1 : 0);
    rounds.accepted += kept;
    rounds.allAccepted += kept == k ? 1 : 0;
    rounds.tokens += kept + 1;
  }
  return std::vector<int64_t>(sequence.begin() + int64_t(prompt.size()),
                              sequence.begin() + int64_t(prompt.size()) +
                                  tokens);
}

} // namespace

llvm::Expected<SpeculativeRunResult>
lpx::deploy::generateSpeculative(const DecodeRunOptions &opts,
                                 llvm::StringRef draftName,
                                 unsigned draftChips, int64_t k) {
  if (opts.prefillChunk)
    return fail("--prefill-chunk goes without --draft in a --run");
  auto prompted = promptLength(opts, "speculative runs take prompts of one "
                                     "length");
  if (!prompted)
    return prompted.takeError();
  const int64_t length = *prompted;
  auto target = loadModel(opts, length, k + 1);
  if (!target)
    return target.takeError();
  DecodeRunOptions d = opts;
  d.model = draftName.str();
  d.chips = draftChips;
  d.tp = d.pp = 0; // the compiler's placement on the draft's own chips
  d.context = (*target)->step.io.context;
  d.prefillChunk = 0;
  auto draft = loadModel(d, length, 0);
  if (!draft)
    return named("draft " + d.model, draft.takeError());
  SpeculativeRunResult r;
  for (const std::vector<int64_t> &prompt : opts.prompts) {
    DecodeRunOptions one = opts;
    one.prompts = {prompt};
    // Room for the last round's verification past the tokens asked for.
    if (llvm::Error e = checkPrompts(one, (*target)->step.io, k))
      return std::move(e);
    auto ids = speculate(**target, **draft, prompt, opts.tokens, k, r.rounds);
    if (!ids)
      return ids.takeError();
    r.generatedIds.push_back(std::move(*ids));
  }
  return r;
}

llvm::Error lpx::deploy::runSpeculative(const DecodeRunOptions &target,
                                        const SpeculativeNumbers &s, bool json,
                                        llvm::raw_ostream &os) {
  auto run = generateSpeculative(target, s.draft->name, target.chips, s.k);
  if (!run)
    return run.takeError();
  const SpeculativeRunResult &r = *run;
  const SpeculativeRounds &n = r.rounds;
  if (!json) {
    os << llvm::formatv(
        "speculative decoding of {0} with draft {1}, K = {2}, on the CPU "
        "runtime: {3} sequence(s), {4} rounds, {5} of {6} drafts compared "
        "kept (acceptance {7:f3}), {8:f2} tokens per round:\n",
        target.model, s.draft->name, s.k, r.generatedIds.size(), n.rounds,
        n.accepted, n.trials, n.acceptance(), n.tokensPerRound());
    for (const std::vector<int64_t> &ids : r.generatedIds) {
      for (size_t i = 0; i < ids.size(); ++i)
        os << (i ? "," : "") << ids[i];
      os << "\n";
    }
    return llvm::Error::success();
  }
  auto lists = [&](const std::vector<std::vector<int64_t>> &seqs) {
    llvm::json::Array all;
    for (const std::vector<int64_t> &ids : seqs)
      all.push_back(llvm::json::Array(ids));
    return seqs.size() == 1 ? std::move(all.front())
                            : llvm::json::Value(std::move(all));
  };
  llvm::json::Object o{
      {"model", target.model},
      {"chips", target.chips},
      {"prompt_ids", lists(target.prompts)},
      {"generated_ids", lists(r.generatedIds)},
      {"speculative",
       llvm::json::Object{{"draft", s.draft->name},
                          {"k", s.k},
                          {"rounds", n.rounds},
                          {"drafted", n.drafted},
                          {"compared", n.trials},
                          {"accepted", n.accepted},
                          {"all_accepted_rounds", n.allAccepted},
                          {"tokens", n.tokens},
                          {"acceptance", n.acceptance()},
                          {"tokens_per_round", n.tokensPerRound()}}}};
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(o))) << "\n";
  return llvm::Error::success();
}
