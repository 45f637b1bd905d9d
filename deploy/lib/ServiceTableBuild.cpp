//===- ServiceTableBuild.cpp - A serving table from simulated programs ----===//
#include "lpx/deploy/ServiceTableBuild.h"
#include "lpx/deploy/DeployError.h"

#include "lpx/isa/AtomicFile.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <map>
#include <set>
#include <thread>

using namespace lpx;
using namespace lpx::deploy;

#ifndef LPX_VERSION
#define LPX_VERSION "unknown"
#endif

namespace {

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

/// Each stage's share of a program, from its per-chip occupancy (placed as
/// `p`, the plan's step): chips are numbered stage by stage, tp to a stage;
/// a stage is occupied as long as its busiest chip. A program compiled on
/// more chips than its tp x pp mesh (the chips a chunked prefill needs, the
/// step placed on fewer) leaves the chips past the mesh idle, in no stage.
/// Without a mesh the chips split evenly into pp (or one) stages.
std::vector<double> stageShares(const isa::pb::Program &p,
                                const std::vector<uint64_t> &occupied) {
  const size_t stages = std::max<uint32_t>(p.pp(), 1);
  const size_t mesh = size_t(p.tp()) * p.pp();
  const size_t chips =
      mesh && mesh <= occupied.size() ? mesh : occupied.size();
  const size_t width = std::max<size_t>(chips / stages, 1);
  std::vector<double> busy(stages, 0);
  for (size_t c = 0; c < chips; ++c) {
    double &b = busy[std::min(c / width, stages - 1)];
    b = std::max(b, double(occupied[c]));
  }
  double sum = 0;
  for (double b : busy)
    sum += b;
  std::vector<double> shares(stages, 1.0 / double(stages));
  if (sum > 0)
    for (size_t s = 0; s < stages; ++s)
      shares[s] = busy[s] / sum;
  return shares;
}

double seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since)
      .count();
}

/// One point of the table and what its simulation gave.
struct Point {
  PhaseShape shape;
  std::string what;
  double us = 0, hostUs = 0, seconds = 0;
  std::vector<uint64_t> occupied; // per chip (PhaseResult::occupied)
  bool compiled = false; // false: the plan's program, or not reached
  std::string error;
};

bool sameShape(const PhaseShape &a, const PhaseShape &b) {
  return a.context == b.context && a.query == b.query && a.batch == b.batch &&
         a.cache == b.cache && a.chunks == b.chunks && a.logitsAt == b.logitsAt;
}

/// One chunk of `chunk` tokens whose last token is at position `end`: a
/// step of `chunk` query tokens after a past of end - chunk positions, its
/// cache `end` positions (as a decode point at context c reads c). The
/// first chunk (end = chunk) has no past: a prefill of `chunk` tokens into
/// the deployment's cache. The LM head on the chunk's last row only (the
/// prompt's last chunk returns those logits; the others' one row is noise).
PhaseShape chunkShape(int64_t end, int64_t chunk, int64_t context) {
  PhaseShape s{end, chunk, 1, end == chunk ? context : 0};
  s.logitsAt = chunk - 1;
  return s;
}

/// The ends of the chunk points: the chunk, and every prompt of the grid
/// rounded up to a multiple of the chunk.
std::vector<int64_t> chunkEnds(const ServeGrid &g) {
  const int64_t c = g.prefillChunk;
  std::set<int64_t> ends{c};
  for (int64_t p : g.prompts)
    ends.insert((p + c - 1) / c * c);
  return {ends.begin(), ends.end()};
}

/// The prompts prefilled whole: all of them without a chunk, else those of
/// at most one chunk (the chunk itself when none is).
std::vector<int64_t> wholePrompts(const ServeGrid &g) {
  if (!g.prefillChunk)
    return g.prompts;
  std::vector<int64_t> out;
  for (int64_t p : g.prompts)
    if (p <= g.prefillChunk)
      out.push_back(p);
  if (out.empty())
    out.push_back(g.prefillChunk);
  return out;
}

/// Fills every point: the plan's programs where the shape is theirs, else a
/// compile and simulation, on up to kMaxTableWorkers threads (each point its
/// own export and compile; results land in the point, so the table does
/// not depend on the order they finish in). Progress is told one compile
/// at a time. Returns the threads used.
unsigned runPoints(const DecodeTarget &placed, const DecodeRequest &req,
                   const DecodePlan &plan, std::vector<Point> &points,
                   const PlanProgress &progress) {
  std::vector<size_t> todo;
  for (size_t i = 0; i < points.size(); ++i) {
    Point &p = points[i];
    const PhaseResult *known = nullptr;
    if (sameShape(p.shape, req.step))
      known = &plan.step;
    else if (plan.prefill && req.prefill && sameShape(p.shape, *req.prefill))
      known = &*plan.prefill;
    if (known) {
      p.us = known->computeUs();
      p.hostUs = known->hostUs();
      p.occupied = known->occupied;
    } else {
      todo.push_back(i);
    }
  }
  std::mutex told;
  PlanProgress quiet; // one bar at a time: the compile's stages unshown
  quiet.compiling = [&](llvm::StringRef what, unsigned chips) {
    std::lock_guard<std::mutex> lock(told);
    if (progress.compiling)
      progress.compiling(what, chips);
  };
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  auto work = [&](const PlanProgress &tell) {
    for (size_t k; !failed && (k = next++) < todo.size();) {
      Point &p = points[todo[k]];
      const auto start = std::chrono::steady_clock::now();
      auto r = simulate(placed, p.shape, plan.chips, p.what, tell);
      p.seconds = seconds(start);
      if (!r) {
        p.error = llvm::toString(r.takeError());
        failed = true;
        continue;
      }
      p.us = r->computeUs();
      p.hostUs = r->hostUs();
      p.occupied = std::move(r->occupied);
      p.compiled = true;
    }
  };
  const unsigned workers = unsigned(std::min<size_t>(
      std::max(1u, std::min(std::thread::hardware_concurrency(),
                            kMaxTableWorkers)),
      std::max<size_t>(todo.size(), 1)));
  if (workers == 1) {
    work(progress);
    return 1;
  }
  std::vector<std::thread> threads;
  for (unsigned w = 1; w < workers; ++w)
    threads.emplace_back(work, std::cref(quiet));
  work(quiet);
  for (std::thread &t : threads)
    t.join();
  return workers;
}

/// The batches simulated first, at the full context: `anchors` (1, the
/// powers of two and the largest of the grid's) and, between two anchors
/// with batches of the grid between them, the one in the middle (`probes`).
struct BatchProbes {
  std::vector<int64_t> first, anchors;
  std::map<int64_t, std::pair<int64_t, int64_t>> probes; // probe -> anchors
};
BatchProbes batchProbes(const std::vector<int64_t> &grid) {
  BatchProbes p;
  for (int64_t b : grid)
    if ((b & (b - 1)) == 0 || b == grid.back())
      p.anchors.push_back(b);
  p.first = p.anchors;
  for (size_t i = 1; i < p.anchors.size(); ++i) {
    const int64_t lo = p.anchors[i - 1], hi = p.anchors[i], mid = (lo + hi) / 2;
    if (hi - lo >= 2 && std::count(grid.begin(), grid.end(), mid)) {
      p.probes[mid] = {lo, hi};
      p.first.push_back(mid);
    }
  }
  return p;
}

/// The grid's batches less those between two anchors whose probe the
/// interpolation between the anchors meets within kProbeWithin of its
/// simulation (then the step is straight in batch there); where a probe
/// misses (a staircase in batch), every batch between is kept. A kept
/// probe is in the table; a met one is left out (the grid stays whole).
std::vector<int64_t> chooseBatches(const std::vector<int64_t> &grid,
                                   const BatchProbes &p,
                                   const std::map<int64_t, const Point *> &at) {
  std::vector<int64_t> out;
  std::vector<std::pair<int64_t, int64_t>> straight; // open intervals
  for (auto [mid, ends] : p.probes) {
    const double lo = at.at(ends.first)->us, hi = at.at(ends.second)->us;
    const double sim = at.at(mid)->us;
    const double line = lo + (hi - lo) * double(mid - ends.first) /
                                 double(ends.second - ends.first);
    if (sim > 0 && std::abs(line - sim) / sim <= kProbeWithin)
      straight.push_back(ends);
  }
  for (int64_t b : grid) {
    bool skip = false;
    for (auto [lo, hi] : straight)
      skip = skip || (b > lo && b < hi);
    if (!skip)
      out.push_back(b);
  }
  return out;
}

} // namespace

ServeGrid lpx::deploy::serveGrid(int64_t maxBatch, int64_t context,
                                 int64_t chunk) {
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
  std::string why;
  auto chunked = prefillShape(g.prompts.back(), 1, context, chunk, why);
  if (chunked && chunked->chunks > 1)
    g.prefillChunk = chunked->query;
  else if (!chunked)
    llvm::consumeError(chunked.takeError()); // chunks past the context: whole
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
             .str() +
         // Tables before the prefill's own stage shares are rebuilt.
         "; prefill stage shares" +
         // Only a chunked table names its chunk.
         (g.prefillChunk
              ? llvm::formatv("; prefill chunk {0}", g.prefillChunk).str()
              : std::string());
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
                               const PlanProgress &progress,
                               TableBuildStats *stats) {
  const auto start = std::chrono::steady_clock::now();
  if (!target.preset)
    return error("lpx serve needs a preset: its decode steps and prefills "
                 "are exported at every batch, context and prompt length of "
                 "the table, an ONNX file has one shape");
  const int64_t maxBatch = g.batches.back();
  DecodeRequest req;
  req.chips = chips;
  // The chip search's counts one at a time, each count's prefill beside
  // its step when there are two cores, and its bisection leaning to the
  // misfits: a misfit of the chunked prefill stops where the SRAM runs out
  // (6 to 13 s of CPU on llama2-70b on tsp-v1), a fit compiles it whole
  // and simulates it (17 to 21 s). Two counts at once compiled counts the
  // search then did not need.
  req.prefillBesideStep = std::thread::hardware_concurrency() >= 2;
  req.cheapMisfits = true;
  req.step = PhaseShape{context, 1, maxBatch};
  req.prefill = PhaseShape{g.prompts.back(), g.prompts.back(), 1, context};
  if (g.prefillChunk) { // the largest prompt's chunks, as lpx decode runs them
    std::string why;
    auto chunked =
        prefillShape(g.prompts.back(), 1, context, g.prefillChunk, why);
    if (!chunked)
      return chunked.takeError();
    req.prefill = *chunked;
  }
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
  if (stats)
    stats->planSeconds = seconds(start);

  // Every point, each compiled and simulated on the plan's chips and
  // placement; the plan's own two programs are two of them (the largest
  // step and the whole-context prefill) and are not compiled again. First
  // the batches: the anchors and probes at the full context decide which
  // batches between the anchors are simulated (chooseBatches).
  const auto pointStart = std::chrono::steady_clock::now();
  auto step = [&](int64_t b, int64_t c) {
    return Point{PhaseShape{c, 1, b},
                 llvm::formatv("decode step b{0} c{1}", b, c).str()};
  };
  std::vector<Point> points;
  const BatchProbes probes = batchProbes(g.batches);
  for (int64_t b : probes.first)
    points.push_back(step(b, context));
  unsigned workers = runPoints(placed, req, *plan, points, progress);
  std::map<int64_t, const Point *> atContext;
  for (const Point &p : points)
    atContext[p.shape.batch] = &p;
  const std::vector<int64_t> batches =
      chooseBatches(g.batches, probes, atContext);
  std::vector<Point> rest;
  for (int64_t b : batches)
    for (int64_t c : g.contexts)
      if (c != context || !atContext.count(b))
        rest.push_back(step(b, c));
  for (int64_t p : wholePrompts(g))
    rest.push_back(
        {PhaseShape{p, p, 1, context}, llvm::formatv("prefill p{0}", p).str()});
  if (g.prefillChunk)
    for (int64_t end : chunkEnds(g))
      rest.push_back({chunkShape(end, g.prefillChunk, context),
                      llvm::formatv("prefill chunk {0} e{1}", g.prefillChunk,
                                    end)
                          .str()});
  workers = std::max(workers, runPoints(placed, req, *plan, rest, progress));
  points.insert(points.end(), rest.begin(), rest.end());
  for (const Point &p : points)
    if (!p.error.empty())
      return error(p.error);
  auto find = [&](const PhaseShape &shape) -> const Point & {
    for (const Point &p : points)
      if (sameShape(p.shape, shape))
        return p;
    llvm_unreachable("every point was run");
  };
  for (int64_t b : batches)
    for (int64_t c : g.contexts) {
      const Point &s = find({c, 1, b});
      t.decode.push_back({b, c, s.us});
      if (b == 1 && c == context)
        t.stepHostIoUs = s.hostUs;
    }
  const isa::pb::Program &placedStep = plan->step.program->program();
  t.stages = std::max<int64_t>(placedStep.pp(), 1);
  t.stageShare = stageShares(placedStep, plan->step.occupied);
  t.maxSequences = sequencesSramHolds(plan->step, maxBatch);
  if (t.maxSequences == 0) // no cache in SRAM: only the batches bound
    t.maxSequences = maxBatch * t.stages;
  for (int64_t p : wholePrompts(g)) {
    const Point &pre = find({p, p, 1, context});
    t.prefill.push_back({p, 1, 0, pre.us});
    // The longest prompt's host I/O, for every request: an upper bound.
    t.prefillHostIoUs = pre.hostUs;
  }
  // A prefill's shares from the longest one-pass prefill the table holds:
  // the whole-context prefill, or the chunk ending at the context.
  const Point *longest = &find({wholePrompts(g).back(), wholePrompts(g).back(),
                                1, context});
  if (g.prefillChunk) {
    t.prefillChunk = g.prefillChunk;
    for (int64_t end : chunkEnds(g))
      t.prefill.push_back({end, 1, g.prefillChunk,
                           find(chunkShape(end, g.prefillChunk, context)).us});
    longest = &find(chunkShape(chunkEnds(g).back(), g.prefillChunk, context));
    // The plan's chunked prefill of the longest prompt: all its tokens in,
    // its logits out, for every request (an upper bound).
    t.prefillHostIoUs = plan->prefill->hostUs();
  }
  t.prefillStageShare = stageShares(placedStep, longest->occupied);
  if (stats) {
    stats->pointSeconds = seconds(pointStart);
    stats->points = points.size();
    stats->workers = workers;
    for (const Point &p : points)
      if (p.compiled) {
        ++stats->compiled;
        if (p.seconds > stats->slowestSeconds) {
          stats->slowestSeconds = p.seconds;
          stats->slowest = p.what;
        }
      }
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
  auto table =
      buildServiceTable(target, chips, context, g, progress, &out.built);
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
