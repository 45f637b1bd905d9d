//===- EndpointSetup.cpp - Options checked, the deployment served ---------===//

#include "lpx/endpoint/EndpointSetup.h"

namespace lpx::endpoint {

static llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// A positive count of `option` into `out`, unless the text is empty.
static llvm::Error positive(const std::string &text, const char *option,
                            int64_t &out) {
  if (text.empty())
    return llvm::Error::success();
  auto v = serve::parseCount(text, option);
  if (!v)
    return v.takeError();
  if (*v < 1)
    return fail(llvm::Twine(option) + " " + text + " is not a positive integer");
  out = *v;
  return llvm::Error::success();
}

llvm::Error parseEndpointWords(const EndpointWords &w, EndpointSetup &s) {
  EndpointOptions &o = s.options;
  if (auto e = parseListen(w.listen, o))
    return e;
  if (llvm::StringRef(w.timeScale).getAsDouble(o.timeScale) ||
      !(o.timeScale > 0) || o.timeScale > 1e9)
    return fail("--time-scale '" + w.timeScale +
                "' is not a positive number (simulated seconds per wall "
                "second, at most 1e9)");
  serve::EngineConfig &e = s.serve.engine;
  int64_t threads = 0, body = 0;
  for (auto [text, option, out] :
       {std::tuple{&w.maxBatch, "--max-batch", &e.maxBatch},
        {&w.prefillChunk, "--prefill-chunk", &s.serve.prefillChunk},
        {&w.defaultMaxTokens, "--default-max-tokens", &o.defaultOutput},
        {&w.threads, "--threads", &threads},
        {&w.maxBody, "--max-body", &body}})
    if (auto err = positive(*text, option, *out))
      return err;
  if (threads > 4096)
    return fail("--threads " + w.threads + " is above 4096");
  o.threads = size_t(threads);
  o.maxBodyBytes = size_t(body);
  if (!w.queue.empty()) {
    auto q = serve::parseCount(w.queue, "--queue");
    if (!q)
      return q.takeError();
    e.queueCapacity = *q;
  }
  auto policy = serve::parsePolicy(w.policy);
  if (!policy)
    return policy.takeError();
  e.policy = *policy;
  if (!w.content.empty() && w.content != "greedy" && w.content != "synthetic")
    return fail("--content '" + w.content + "' is not greedy or synthetic");
  s.content = w.content;
  return llvm::Error::success();
}

llvm::Error serveDeployment(const serve::ServiceTable &table,
                            const EndpointSetup &s, deploy::DecodeRunOptions run,
                            llvm::raw_ostream &log) {
  auto model = serve::ServiceModel::create(table);
  if (!model)
    return model.takeError();
  std::string kind = s.content;
  if (kind.empty())
    kind = runnablePreset(run.model) ? "greedy" : "synthetic";
  if (kind == "greedy" && !runnablePreset(run.model))
    return fail("--content greedy runs the model on the CPU runtime: only the "
                "tiny presets are small enough; '" + run.model +
                "' gets synthetic text");
  EndpointOptions opts = s.options;
  opts.model = run.model;
  run.context = model->maxContext();
  std::unique_ptr<Content> content =
      kind == "greedy" ? greedyContent(std::move(run)) : syntheticContent();
  return runEndpoint(opts, *model, s.serve.engine, *content, log);
}

llvm::ArrayRef<deploy::WordOption<EndpointWords>> endpointWordOptions() {
  using W = EndpointWords;
  static const deploy::WordOption<W> kOptions[] = {
      {"--listen", &W::listen,
       "HOST:PORT (default 127.0.0.1:8000; port 0: any free)"},
      {"--time-scale", &W::timeScale,
       "Simulated seconds per wall second (default 1)"},
      {"--max-batch", &W::maxBatch, "Sequences in a step (default 8)"},
      {"--policy", &W::policy, "chunked or prefill-first"},
      {"--prefill-chunk", &W::prefillChunk,
       "Prompt tokens per prefill chunk of the table"},
      {"--queue", &W::queue,
       "Admission queue places; a full queue answers 429 (default: "
       "unbounded)"},
      {"--content", &W::content,
       "greedy (CPU runtime, tiny presets) or synthetic"},
      {"--default-max-tokens", &W::defaultMaxTokens,
       "Output tokens without max_tokens (default 16)"},
      {"--threads", &W::threads, "Connections served at once (default 64)"},
      {"--max-body", &W::maxBody,
       "Largest request body in bytes (default 1048576)"},
      {"--cache-dir", &W::cacheDir, "Service table cache"},
  };
  return kOptions;
}

} // namespace lpx::endpoint
