//===- ServiceTableBuild.cpp - A serving table from simulated programs ----===//
#include "lpx/deploy/ServiceTableBuild.h"

#include "lpx/isa/AtomicFile.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <algorithm>
#include <set>

using namespace lpx;
using namespace lpx::deploy;

#ifndef LPX_VERSION
#define LPX_VERSION "unknown"
#endif

namespace {

llvm::Error error(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg.str());
}

std::string joined(const std::vector<int64_t> &v) {
  std::vector<std::string> s;
  for (int64_t x : v)
    s.push_back(std::to_string(x));
  return llvm::join(s, ",");
}

/// One phase on the plan's chips and placement; not compiling is an error.
llvm::Expected<PhaseResult> simulate(const DecodeTarget &placed,
                                     const PhaseShape &shape, unsigned chips,
                                     llvm::StringRef what,
                                     const PlanProgress &progress) {
  if (progress.compiling)
    progress.compiling(what, chips);
  FitVerdict failure;
  auto r = runPhase(placed, shape, chips, failure, progress.stage);
  if (!r)
    return r.takeError();
  if (!*r)
    return error(llvm::formatv("{0} does not compile on {1} chip(s): {2}",
                               what, chips, failure.message));
  return std::move(**r);
}

/// Sequences whose KV caches at the step's context the SRAM holds: on each
/// chip holding a cache, (free bytes + the step's cache) over the cache of
/// one sequence (the step's cache / its batch); the fewest over chips.
int64_t sequencesSramHolds(const PhaseResult &step, int64_t batch) {
  uint64_t fewest = UINT64_MAX;
  for (const ChipSram &c : sramByChip(*step.program)) {
    const uint64_t perSequence = c.kvCache / uint64_t(batch);
    if (perSequence == 0)
      continue;
    const uint64_t free = c.capacity > c.used() ? c.capacity - c.used() : 0;
    fewest = std::min(fewest, (free + c.kvCache) / perSequence);
  }
  return int64_t(std::min<uint64_t>(fewest, 1u << 20));
}

/// Stages and each one's share of a step, from the step's per-chip
/// occupancy: chips are numbered stage by stage (tp chips to a stage); a
/// stage is occupied as long as its busiest chip.
void stagesOf(const PhaseResult &step, serve::ServiceTable &t) {
  const auto &p = step.program->program();
  const size_t stages = std::max<uint32_t>(p.pp(), 1);
  const size_t width = std::max<size_t>(step.occupied.size() / stages, 1);
  std::vector<double> busy(stages, 0);
  for (size_t c = 0; c < step.occupied.size(); ++c) {
    double &b = busy[std::min(c / width, stages - 1)];
    b = std::max(b, double(step.occupied[c]));
  }
  double sum = 0;
  for (double b : busy)
    sum += b;
  t.stages = int64_t(stages);
  t.stageShare.assign(stages, 1.0 / double(stages));
  if (sum > 0)
    for (size_t s = 0; s < stages; ++s)
      t.stageShare[s] = busy[s] / sum;
}

} // namespace

ServeGrid lpx::deploy::serveGrid(int64_t maxBatch, int64_t context) {
  ServeGrid g;
  for (int64_t b = 1; b < maxBatch; b = b < kEveryBatchUpTo ? b + 1 : 2 * b)
    g.batches.push_back(b);
  g.batches.push_back(maxBatch);
  std::set<int64_t> lengths;
  for (int64_t d : {8, 4, 2, 1})
    if (context / d >= 1)
      lengths.insert(context / d);
  g.contexts.assign(lengths.begin(), lengths.end());
  g.prompts = g.contexts;
  return g;
}

std::string lpx::deploy::serviceTableKey(const DecodeTarget &t, unsigned chips,
                                         int64_t context, const ServeGrid &g) {
  std::string model = t.preset ? t.preset->name : t.modelFile;
  if (!t.preset)
    if (auto b = llvm::MemoryBuffer::getFile(t.modelFile))
      model += llvm::formatv("#{0:x16}", isa::hashText((*b)->getBuffer())).str();
  return llvm::formatv(
             "lpx {0}; model {1}; chip {2:x16}; chips {3}; tp {4}; pp {5}; "
             "weights {6}; activations {7}; context {8}; batches {9}; "
             "contexts {10}; prompts {11}",
             LPX_VERSION, model, isa::hashText(isa::printChipSpec(t.chip)),
             chips, t.tp, t.pp, t.weights.empty() ? "model" : t.weights,
             t.activations.empty() ? "model" : t.activations, context,
             joined(g.batches), joined(g.contexts), joined(g.prompts))
      .str();
}

std::string lpx::deploy::serviceTableCachePath(llvm::StringRef dir,
                                               llvm::StringRef key) {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(
      path, llvm::formatv("serve-{0:x16}.json", isa::hashText(key)).str());
  return path.str().str();
}

std::string lpx::deploy::defaultCacheDir() {
  llvm::SmallString<256> dir;
  if (auto xdg = llvm::sys::Process::GetEnv("XDG_CACHE_HOME"); xdg && !xdg->empty())
    dir = *xdg;
  else if (auto home = llvm::sys::Process::GetEnv("HOME"))
    llvm::sys::path::append(dir, *home, ".cache");
  else
    dir = ".cache";
  llvm::sys::path::append(dir, "lpx");
  return dir.str().str();
}

llvm::Expected<serve::ServiceTable>
lpx::deploy::buildServiceTable(const DecodeTarget &target, unsigned chips,
                               int64_t context, const ServeGrid &g,
                               const PlanProgress &progress) {
  if (!target.preset)
    return error("lpx serve needs a preset: its decode steps and prefills "
                 "are exported at every batch, context and prompt length of "
                 "the table, an ONNX file has one shape");
  const int64_t maxBatch = g.batches.back();
  DecodeRequest req;
  req.chips = chips;
  req.step = PhaseShape{context, 1, maxBatch};
  req.prefill = PhaseShape{g.prompts.back(), g.prompts.back(), 1, context};
  auto plan = planDecode(target, req, progress);
  if (!plan)
    return plan.takeError();
  DecodeTarget placed = target;
  placed.tp = plan->step.program->program().tp();
  placed.pp = plan->step.program->program().pp();

  serve::ServiceTable t;
  t.deployment = llvm::formatv(
      "{0} on {1}, {2} chip(s), {3}, weights {4}, activations {5}",
      target.preset->name, target.chip.name, plan->chips,
      placed.tp ? llvm::formatv("tp {0} pp {1}", placed.tp, placed.pp).str()
                : std::string("no tensor-parallel or pipeline mesh"),
      target.weights.empty() ? "model" : target.weights,
      target.activations.empty() ? "model" : target.activations);
  for (int64_t b : g.batches)
    for (int64_t c : g.contexts) {
      auto step = simulate(placed, {c, 1, b}, plan->chips,
                           llvm::formatv("decode step b{0} c{1}", b, c).str(),
                           progress);
      if (!step)
        return step.takeError();
      t.decode.push_back({b, c, step->computeUs()});
      if (b == 1 && c == context)
        t.stepHostIoUs = step->hostUs();
      if (b == maxBatch && c == context) {
        stagesOf(*step, t);
        t.maxSequences = sequencesSramHolds(*step, b);
        if (t.maxSequences == 0) // no cache in SRAM: only the batches bound
          t.maxSequences = maxBatch * t.stages;
      }
    }
  for (int64_t p : g.prompts) {
    auto pre = simulate(placed, {p, p, 1, context}, plan->chips,
                        llvm::formatv("prefill p{0}", p).str(), progress);
    if (!pre)
      return pre.takeError();
    t.prefill.push_back({p, 1, 0, pre->computeUs()});
    // The longest prompt's host I/O, for every request: an upper bound.
    t.prefillHostIoUs = pre->hostUs();
  }
  if (auto e = serve::validate(t))
    return std::move(e);
  return t;
}

llvm::Expected<CachedTable>
lpx::deploy::cachedServiceTable(const DecodeTarget &target, unsigned chips,
                                int64_t context, const ServeGrid &g,
                                llvm::StringRef cacheDir,
                                const PlanProgress &progress) {
  CachedTable out;
  const std::string key = serviceTableKey(target, chips, context, g);
  out.path = serviceTableCachePath(cacheDir, key);
  if (auto text = llvm::MemoryBuffer::getFile(out.path)) {
    auto table = serve::parseServiceTable((*text)->getBuffer());
    if (!table)
      out.rebuiltBecause = llvm::toString(table.takeError());
    else if (table->cacheKey != key)
      out.rebuiltBecause = "its key is not this table's";
    else {
      out.table = std::move(*table);
      out.fromCache = true;
      return out;
    }
  }
  auto table = buildServiceTable(target, chips, context, g, progress);
  if (!table)
    return table.takeError();
  table->cacheKey = key;
  out.table = std::move(*table);
  if (auto ec = llvm::sys::fs::create_directories(cacheDir))
    return error("cannot make the cache folder '" + cacheDir +
                 "': " + ec.message());
  if (auto e = isa::writeFileAtomically(
          out.path, llvm::formatv("{0:2}\n", serve::toJson(out.table)).str()))
    return std::move(e);
  return out;
}
