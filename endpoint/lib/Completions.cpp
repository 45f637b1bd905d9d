//===- Completions.cpp - A completion request, timed by the simulation ----===//
//
// The request is checked, its prompt counted (Tokeniser.h) and admitted into
// the engine at its arrival's simulated time; its text is made meanwhile.
// The response starts at the first client event: a 429 if the admission
// queue was full, else the first token. A streamed response then writes one
// chunk per token as the driver releases it; a whole one waits for the last.
//
//===----------------------------------------------------------------------===//

#include "Completions.h"
#include "lpx/endpoint/Tokeniser.h"

#include <ctime>

namespace lpx::endpoint {

void sendError(httplib::Response &res, const WireError &e) {
  res.status = e.status;
  res.set_content(errorJson(e), "application/json");
}

namespace {

WireError serverError(int status, const std::string &message) {
  WireError e;
  e.status = status;
  e.type = "server_error";
  e.message = message;
  return e;
}

std::string sse(const std::string &data) { return "data: " + data + "\n\n"; }

/// What a streamed response needs between the library's calls.
struct StreamState {
  std::shared_ptr<RequestStream> events;
  std::optional<serve::TokenEvent> first;
  std::vector<std::string> texts;
  ResponseHead head;
  std::string finish;
  Usage usage;
  bool includeUsage = false;
};

/// One event's SSE text; `done` after the last.
std::string streamText(const StreamState &st, const serve::TokenEvent &ev,
                       bool &done) {
  done = ev.kind != serve::TokenEvent::Token;
  if (!done) {
    size_t i = size_t(ev.tokens - 1);
    return sse(chunkJson(st.head, i < st.texts.size() ? st.texts[i] : "",
                         ev.tokens == 1));
  }
  std::string out = sse(chunkJson(st.head, "", false, st.finish));
  if (st.includeUsage)
    out += sse(usageChunkJson(st.head, st.usage));
  return out + "data: [DONE]\n\n";
}

void streamResponse(httplib::Response &res, std::shared_ptr<StreamState> st) {
  res.set_header("Cache-Control", "no-cache");
  res.set_chunked_content_provider(
      "text/event-stream", [st](size_t, httplib::DataSink &sink) {
        serve::TokenEvent ev;
        if (st->first) {
          ev = *st->first;
          st->first.reset();
        } else if (!st->events->next(ev)) {
          sink.done(); // the server stops: the stream ends here
          return true;
        }
        bool done = false;
        std::string text = streamText(*st, ev, done);
        if (!sink.write(text.data(), text.size()))
          return false; // the client left; the simulation goes on
        if (done)
          sink.done();
        return true;
      });
}

} // namespace

void handleCompletion(EndpointState &s, const httplib::Request &req,
                      httplib::Response &res, Api api) {
  if (s.draining) {
    res.set_header("Connection", "close");
    return sendError(res, serverError(503, "the server is shutting down"));
  }
  CompletionRequest r;
  if (auto err = parseCompletionRequest(req.body, api, r))
    return sendError(res, *err);
  if (r.model != s.opts.model) {
    WireError e;
    e.status = 404;
    e.code = "model_not_found";
    e.param = "model";
    e.message = "The model '" + r.model + "' does not exist; this endpoint "
                "serves '" + s.opts.model + "'";
    return sendError(res, e);
  }
  std::vector<int64_t> ids = promptTokens(r.text);
  if (ids.empty()) {
    WireError e;
    e.param = api == Api::Chat ? "messages" : "prompt";
    e.message = "the prompt is empty";
    return sendError(res, e);
  }
  int64_t prompt = int64_t(ids.size());
  int64_t output = r.maxTokens > 0 ? r.maxTokens : s.opts.defaultOutput;
  if (prompt > s.model.maxPrompt() ||
      prompt + output - 1 > s.model.maxContext()) {
    WireError e;
    e.code = "context_length_exceeded";
    e.param = api == Api::Chat ? "messages" : "prompt";
    e.message = std::to_string(prompt) + " prompt tokens (one per UTF-8 "
                "byte) and " + std::to_string(output) +
                " output tokens do not fit the deployment: its context is " +
                std::to_string(s.model.maxContext()) +
                " positions, its longest prompt " +
                std::to_string(s.model.maxPrompt()) + " tokens";
    return sendError(res, e);
  }

  auto st = std::make_shared<StreamState>();
  st->events = s.driver.submit(prompt, output);
  auto texts = s.content.tokens(ids, output);
  if (!texts)
    return sendError(res, serverError(500, "generating the text failed: " +
                                               llvm::toString(texts.takeError())));
  st->texts = std::move(*texts);
  serve::TokenEvent ev;
  if (!st->events->next(ev))
    return sendError(res, serverError(503, "the server is shutting down"));
  res.set_header("X-Lpx-Simulated", "true");
  res.set_header("X-Lpx-Content", s.content.kind());
  if (ev.kind == serve::TokenEvent::Rejected) {
    WireError e;
    e.status = 429;
    e.type = "requests";
    e.code = "rate_limit_exceeded";
    e.message = "the simulated deployment's admission queue is full; retry "
                "after " + std::to_string(s.opts.retryAfterSeconds) + " s";
    res.set_header("Retry-After", std::to_string(s.opts.retryAfterSeconds));
    return sendError(res, e);
  }
  st->head.api = api;
  st->head.id = std::string(api == Api::Chat ? "chatcmpl-" : "cmpl-") +
                "lpx-" + std::to_string(s.nextId++);
  st->head.created = int64_t(std::time(nullptr));
  st->head.model = s.opts.model;
  st->finish = r.maxTokens > 0 ? "length" : "stop";
  st->usage = {prompt, output};
  st->includeUsage = r.includeUsage;
  if (r.stream) {
    st->first = ev;
    return streamResponse(res, std::move(st));
  }
  std::string text;
  for (bool more = true; more && ev.kind == serve::TokenEvent::Token;
       more = st->events->next(ev))
    if (size_t(ev.tokens - 1) < st->texts.size())
      text += st->texts[size_t(ev.tokens - 1)];
  if (ev.kind != serve::TokenEvent::Done)
    return sendError(res, serverError(503, "the server is shutting down"));
  res.set_content(completionJson(st->head, text, st->finish, st->usage),
                  "application/json");
}

} // namespace lpx::endpoint
