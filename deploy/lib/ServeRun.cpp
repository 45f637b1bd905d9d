//===- ServeRun.cpp - One `lpx serve` run on a service table --------------===//
#include "lpx/deploy/ServeRun.h"
#include "lpx/deploy/DeployError.h"

#include "lpx/isa/AtomicFile.h"
#include "lpx/deploy/DeploymentTarget.h"
#include "lpx/deploy/ServeReport.h"
#include "lpx/serve/Report.h"
#include "lpx/serve/ServeTrace.h"
#include "llvm/Support/FormatVariadic.h"

#include <functional>

using namespace lpx;
using namespace lpx::deploy;

namespace {

/// `fn(text)` into `out` unless `text` is empty.
template <typename T, typename F>
llvm::Error parseInto(const std::string &text, T &out, F fn) {
  if (text.empty())
    return llvm::Error::success();
  auto v = fn(text);
  if (!v)
    return v.takeError();
  out = std::move(*v);
  return llvm::Error::success();
}

} // namespace

llvm::Error lpx::deploy::parseServeSetup(const ServeWords &a, ServeSetup &s) {
  if (a.workload.empty())
    return error("--workload is required (poisson:, closed:, agent: or "
                 "trace:FILE; docs/serving.md)");
  serve::EngineConfig &e = s.engine;
  auto count = [](const char *what) {
    return [what](llvm::StringRef t) { return serve::parseCount(t, what); };
  };
  int64_t seed = 1;
  if (auto err = parseInto(a.workload, s.workload, serve::parseWorkload))
    return err;
  if (auto err = parseInto(a.maxBatch, e.maxBatch, count("--max-batch")))
    return err;
  if (e.maxBatch < 1)
    return error("--max-batch " + a.maxBatch + " is not a positive integer");
  auto duration = [](llvm::StringRef t) {
    return serve::parseDuration(t, "--duration");
  };
  llvm::Error err = llvm::Error::success();
  (void)!err; // each step runs only while the ones before it succeeded
  for (auto step : std::initializer_list<std::function<llvm::Error()>>{
           [&] { return parseInto(a.policy, e.policy, serve::parsePolicy); },
           [&] { return parseInto(a.queue, e.queueCapacity, count("--queue")); },
           [&] { return parseInto(a.retry, e.retry, serve::parseRetry); },
           [&] { return parseInto(a.network, e.network, serve::parseNetwork); },
           [&] { return parseInto(a.duration, e.duration, duration); },
           [&] { return parseInto(a.requests, e.requests, count("--requests")); },
           [&] { return parseInto(a.seed, seed, count("--seed")); },
           [&]() -> llvm::Error {
             if (auto err = parseInto(a.prefillChunk, s.prefillChunk,
                                      count("--prefill-chunk")))
               return err;
             if (!a.prefillChunk.empty() && s.prefillChunk < 1)
               return error("--prefill-chunk " + a.prefillChunk +
                            " is not a positive integer");
             return llvm::Error::success();
           }})
    if ((err = step()))
      return err;
  e.seed = uint64_t(seed);
  e.keepSessionCache = a.keepSessionCache;
  if (!a.slo.empty()) {
    auto slo = serve::parseSlo(a.slo);
    if (!slo)
      return slo.takeError();
    s.slo = std::move(*slo);
  }
  if (!a.duration.empty() && !a.requests.empty())
    return error("--duration and --requests: give one");
  if (e.requests == 0 || e.duration == 0)
    return error("--duration and --requests must be positive");
  if (a.duration.empty() && a.requests.empty() &&
      s.workload.kind != serve::WorkloadKind::Trace)
    e.duration = 10 * serve::kNanosPerS; // documented default
  s.csvPath = a.output;
  s.workloadText = a.workload;
  if (!a.loadSweep.empty()) {
    auto loads = serve::parseLoads(a.loadSweep, s.workload.kind);
    if (!loads)
      return loads.takeError();
    s.loads = std::move(*loads);
  } else if (!a.curveCsv.empty() || !a.curveSvg.empty()) {
    return error("--curve-csv and --curve-svg need --load-sweep");
  }
  s.curveCsv = a.curveCsv;
  s.curveSvg = a.curveSvg;
  s.reportPath = a.report;
  s.tracePath = a.trace;
  return llvm::Error::success();
}

llvm::Expected<CachedTable>
lpx::deploy::serveTable(DecodeTarget t, unsigned chips, int64_t context,
                        const ServeSetup &setup, llvm::StringRef cacheDir,
                        const PlanProgress &progress) {
  if (!t.preset)
    return error(
        "--model " + t.modelFile +
        ": a decode-step ONNX file holds one step, at one batch and one "
        "context, and no prefill; the service table needs the step at every "
        "batch up to --max-batch and at several contexts, and the prefill at "
        "several prompt lengths, which lpx exports from a preset only (lpx "
        "models list)");
  int64_t prompt = 0; // the prefill of a whole context must compile too
  decodeDefaults(t, context, prompt, false);
  if (auto e = checkDecodeShapes(t, context, context, setup.engine.maxBatch, {}))
    return std::move(e);
  if (setup.prefillChunk) { // chunks of the whole context must fit it
    std::string why;
    if (auto s = prefillShape(context, 1, context, setup.prefillChunk, why); !s)
      return s.takeError();
  }
  ScratchDir scratch;
  if (auto e = scratch.create("lpx-serve"))
    return std::move(e);
  t.scratchDir = scratch.path.str().str();
  return cachedServiceTable(t, chips, context,
                            serveGrid(setup.engine.maxBatch, context,
                                      setup.prefillChunk),
                            cacheDir.empty() ? defaultCacheDir() : cacheDir,
                            progress);
}


llvm::Expected<ServeOutcome>
lpx::deploy::runServe(const serve::ServiceModel &model, const ServeSetup &s) {
  ServeOutcome out;
  serve::MetricsCollector metrics(s.slo);
  std::optional<serve::PerfettoTraceSink> trace;
  if (!s.tracePath.empty())
    trace.emplace();
  auto run = [&](serve::RecordSink *csv) -> llvm::Error {
    auto source = serve::makeRequestSource(s.workload, s.engine.seed);
    if (!source)
      return source.takeError();
    std::vector<serve::RecordSink *> sinks{&metrics, &out.timeline};
    if (csv)
      sinks.push_back(csv);
    if (trace)
      sinks.push_back(&*trace);
    serve::TeeSink tee(std::move(sinks));
    auto stats = serve::runServing(model, **source, s.engine, tee);
    if (!stats)
      return stats.takeError();
    out.stats = *stats;
    return llvm::Error::success();
  };
  if (s.csvPath.empty()) {
    if (auto e = run(nullptr))
      return std::move(e);
  } else if (auto e = isa::writeFileAtomicallyChecked(
                 s.csvPath, [&](llvm::raw_ostream &os) -> llvm::Error {
                   serve::CsvRequestWriter csv(os);
                   return run(&csv);
                 })) {
    return std::move(e);
  }
  out.results = metrics.results();
  if (!s.loads.empty()) {
    auto curve = serve::sweepLoad(model, s.workload, s.loads, s.engine, s.slo);
    if (!curve)
      return curve.takeError();
    out.curve = std::move(*curve);
  }
  if (trace)
    if (auto e = isa::writeFileAtomicallyChecked(
            s.tracePath, [&](llvm::raw_ostream &os) -> llvm::Error {
              trace->write(os);
              return llvm::Error::success();
            }))
      return std::move(e);
  return out;
}

llvm::Error lpx::deploy::serveAndReport(const CachedTable &c,
                                        const ServeSetup &s, bool json,
                                        llvm::raw_ostream &os) {
  auto model = serve::ServiceModel::create(c.table);
  if (!model)
    return model.takeError();
  auto out = runServe(*model, s);
  if (!out)
    return out.takeError();
  std::vector<std::string> wrote;
  auto write = [&](const std::string &path,
                   const std::string &text) -> llvm::Error {
    if (path.empty())
      return llvm::Error::success();
    wrote.push_back(path);
    return isa::writeFileAtomically(path, text);
  };
  if (out->curve) {
    std::string csv;
    llvm::raw_string_ostream cs(csv);
    serve::writeSweepCsv(*out->curve, cs);
    if (auto e = write(s.curveCsv, csv))
      return e;
    if (auto e = write(s.curveSvg, renderCurveSvg(*out->curve, s)))
      return e;
  }
  if (!s.reportPath.empty())
    if (auto e = write(s.reportPath, renderServeReport(*out, s, c)))
      return e;
  if (!s.tracePath.empty())
    wrote.push_back(s.tracePath);
  if (json) {
    llvm::json::Value v =
        serve::reportJson(out->results, out->stats, s.engine, c.table);
    if (out->curve)
      (*v.getAsObject())["load_sweep"] =
          serve::sweepJson(*out->curve, s.workload.kind);
    os << llvm::formatv("{0:2}", v) << "\n";
    return llvm::Error::success();
  }
  printServeText(*out, s, c, os);
  if (out->curve)
    printSweepText(*out->curve, s, os);
  if (!s.csvPath.empty())
    wrote.insert(wrote.begin(), s.csvPath);
  for (const std::string &path : wrote)
    os << "wrote " << path << "\n";
  return llvm::Error::success();
}


llvm::Error lpx::deploy::checkServeOutputs(const ServeWords &w) {
  for (const std::string *path :
       {&w.output, &w.curveCsv, &w.curveSvg, &w.report, &w.trace})
    if (!path->empty())
      if (auto e = isa::checkOutputPath(*path))
        return e;
  return llvm::Error::success();
}
