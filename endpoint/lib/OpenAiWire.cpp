//===- OpenAiWire.cpp - Requests checked, responses written ---------------===//
//
// The fields accepted are those of OpenAI's API that a client commonly sends;
// the sampling ones (temperature, top_p, seed, penalties, stop) are accepted
// and do not change the output, which is greedy or synthetic
// (docs/endpoint.md). Anything else is a 400 naming the field.
//
//===----------------------------------------------------------------------===//

#include "lpx/endpoint/OpenAiWire.h"

#include "llvm/Support/JSON.h"

#include <functional>
#include <map>

namespace json = llvm::json;

namespace lpx::endpoint {

std::string errorJson(const WireError &e) {
  auto orNull = [](const std::string &s) -> json::Value {
    if (s.empty())
      return nullptr;
    return s;
  };
  json::Object err{{"message", e.message},
                   {"type", e.type},
                   {"param", orNull(e.param)},
                   {"code", orNull(e.code)}};
  return llvm::formatv("{0}", json::Value(json::Object{{"error", std::move(err)}}))
      .str();
}

namespace {

WireError invalid(const std::string &param, const std::string &message) {
  WireError e;
  e.param = param;
  e.message = message;
  return e;
}

using Check = std::function<std::optional<WireError>(const json::Value &)>;

/// A check that a value is null (every optional field may be, as OpenAI
/// accepts) or of the type `is` tests, named `what` in the error.
Check typed(const char *name, bool (*is)(const json::Value &),
            const char *what) {
  return [=](const json::Value &v) -> std::optional<WireError> {
    if (v.kind() == json::Value::Null || is(v))
      return std::nullopt;
    return invalid(name, std::string("'") + name + "' must be " + what);
  };
}
bool isNumber(const json::Value &v) { return bool(v.getAsNumber()); }
bool isBoolean(const json::Value &v) { return bool(v.getAsBoolean()); }
bool isString(const json::Value &v) { return bool(v.getAsString()); }
bool isInteger(const json::Value &v) { return bool(v.getAsInteger()); }
bool isObject(const json::Value &v) { return bool(v.getAsObject()); }
Check number(const char *name) { return typed(name, isNumber, "a number"); }
Check boolean(const char *name) { return typed(name, isBoolean, "a boolean"); }
Check string(const char *name) { return typed(name, isString, "a string"); }
Check integer(const char *name) { return typed(name, isInteger, "an integer"); }
Check stop() {
  return [](const json::Value &v) -> std::optional<WireError> {
    if (v.kind() == json::Value::Null || v.getAsString())
      return std::nullopt;
    if (const json::Array *a = v.getAsArray()) {
      bool strings = a->size() <= 4;
      for (const json::Value &s : *a)
        strings = strings && s.getAsString();
      if (strings)
        return std::nullopt;
    }
    return invalid("stop", "'stop' must be a string or up to 4 strings");
  };
}
Check anyObject(const char *name) { return typed(name, isObject, "an object"); }

std::map<std::string, Check> knownFields(Api api) {
  std::map<std::string, Check> f = {
      {"model", string("model")},
      {"max_tokens", integer("max_tokens")},
      {"stream", boolean("stream")},
      {"stream_options", anyObject("stream_options")},
      {"temperature", number("temperature")},
      {"top_p", number("top_p")},
      {"n", integer("n")},
      {"stop", stop()},
      {"seed", integer("seed")},
      {"user", string("user")},
      {"presence_penalty", number("presence_penalty")},
      {"frequency_penalty", number("frequency_penalty")},
  };
  if (api == Api::Chat) {
    f["messages"] = [](const json::Value &) { return std::nullopt; };
    f["max_completion_tokens"] = integer("max_completion_tokens");
  } else {
    f["prompt"] = [](const json::Value &) { return std::nullopt; };
  }
  return f;
}

/// A message's content: a string, or text parts ({"type":"text","text"}).
std::optional<WireError> contentText(const json::Value *v, size_t i,
                                     std::string &out) {
  std::string param = "messages[" + std::to_string(i) + "].content";
  if (!v || v->kind() == json::Value::Null)
    return std::nullopt;
  if (auto s = v->getAsString()) {
    out += s->str();
    return std::nullopt;
  }
  if (const json::Array *parts = v->getAsArray()) {
    for (const json::Value &p : *parts) {
      const json::Object *o = p.getAsObject();
      auto type = o ? o->getString("type") : std::nullopt;
      auto text = o ? o->getString("text") : std::nullopt;
      if (!type || *type != "text" || !text || o->size() != 2)
        return invalid(param, "only text content parts "
                              "({\"type\": \"text\", \"text\": ...}) are "
                              "supported");
      out += text->str();
    }
    return std::nullopt;
  }
  return invalid(param, "'" + param + "' must be a string or text parts");
}

std::optional<WireError> messagesText(const json::Value *v, std::string &out) {
  const json::Array *msgs = v ? v->getAsArray() : nullptr;
  if (!msgs)
    return invalid("messages", "'messages' is required: an array of messages");
  if (msgs->empty())
    return invalid("messages", "'messages' must not be empty");
  static const char *const kKeys[] = {"role", "content", "name",
                                      "tool_call_id"};
  for (size_t i = 0; i < msgs->size(); ++i) {
    std::string param = "messages[" + std::to_string(i) + "]";
    const json::Object *m = (*msgs)[i].getAsObject();
    if (!m)
      return invalid(param, "'" + param + "' must be an object");
    for (const auto &kv : *m)
      if (std::find(std::begin(kKeys), std::end(kKeys), kv.first.str()) ==
          std::end(kKeys))
        return invalid(param + "." + kv.first.str(),
                       "unrecognized field '" + kv.first.str() + "' in " +
                           param);
    auto role = m->getString("role");
    if (!role || !llvm::is_contained(std::initializer_list<llvm::StringRef>{
                                         "system", "developer", "user",
                                         "assistant", "tool"},
                                     *role))
      return invalid(param + ".role", "'" + param +
                                          ".role' must be system, developer, "
                                          "user, assistant or tool");
    for (const char *key : {"name", "tool_call_id"})
      if (const json::Value *s = m->get(key); s && !s->getAsString())
        return invalid(param + "." + key, "'" + param + "." + key +
                                              "' must be a string");
    out += role->str() + ": ";
    if (auto err = contentText(m->get("content"), i, out))
      return err;
    out += "\n";
  }
  return std::nullopt;
}

/// The deepest nesting of arrays and objects, strings skipped: the JSON
/// parser recurses per level, so a body of a million '[' must be refused
/// before it is parsed.
size_t nestingDepth(llvm::StringRef body) {
  size_t depth = 0, deepest = 0;
  bool inString = false, escaped = false;
  for (char c : body) {
    if (inString) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

} // namespace

std::optional<WireError> parseCompletionRequest(llvm::StringRef body, Api api,
                                                CompletionRequest &out) {
  if (nestingDepth(body) > kMaxNesting)
    return invalid("", "the body nests arrays and objects more than " +
                           std::to_string(kMaxNesting) + " deep");
  auto parsed = json::parse(body);
  if (!parsed)
    return invalid("", "the body is not valid JSON: " +
                           llvm::toString(parsed.takeError()));
  const json::Object *o = parsed->getAsObject();
  if (!o)
    return invalid("", "the body must be a JSON object");
  std::map<std::string, Check> known = knownFields(api);
  for (const auto &kv : *o) {
    auto k = known.find(kv.first.str());
    if (k == known.end())
      return invalid(kv.first.str(),
                     "unrecognized request argument '" + kv.first.str() + "'");
    if (auto err = k->second(kv.second))
      return err;
  }
  out = CompletionRequest();
  out.api = api;
  auto model = o->getString("model");
  if (!model)
    return invalid("model", "'model' is required");
  out.model = model->str();
  out.stream = o->getBoolean("stream").value_or(false);
  if (const json::Object *so = o->getObject("stream_options")) {
    for (const auto &kv : *so)
      if (kv.first != "include_usage" || !kv.second.getAsBoolean())
        return invalid("stream_options." + kv.first.str(),
                       "stream_options takes only include_usage (a boolean)");
    out.includeUsage = so->getBoolean("include_usage").value_or(false);
  }
  if (auto n = o->getInteger("n"); n && *n != 1)
    return invalid("n", "'n' must be 1: one choice per request");
  for (const char *key : {"max_tokens", "max_completion_tokens"})
    if (auto m = o->getInteger(key)) {
      if (*m < 1)
        return invalid(key, std::string("'") + key + "' must be at least 1");
      out.maxTokens = *m;
    }
  if (api == Api::Chat)
    return messagesText(o->get("messages"), out.text);
  auto prompt = o->getString("prompt");
  if (!prompt)
    return invalid("prompt", "'prompt' is required: a string");
  out.text = prompt->str();
  return std::nullopt;
}

namespace {

json::Object head(const ResponseHead &h, bool chunk) {
  const char *object = h.api == Api::Chat
                           ? (chunk ? "chat.completion.chunk" : "chat.completion")
                           : "text_completion";
  return json::Object{{"id", h.id},
                      {"object", object},
                      {"created", h.created},
                      {"model", h.model},
                      {"system_fingerprint", kFingerprint}};
}

json::Value finishValue(llvm::StringRef finish) {
  if (finish.empty())
    return nullptr;
  return finish.str();
}

json::Object usageJson(const Usage &u) {
  return json::Object{{"prompt_tokens", u.prompt},
                      {"completion_tokens", u.completion},
                      {"total_tokens", u.prompt + u.completion}};
}

std::string text(json::Value v) { return llvm::formatv("{0}", v).str(); }

} // namespace

std::string chunkJson(const ResponseHead &h, llvm::StringRef tokenText,
                      bool first, llvm::StringRef finish) {
  json::Object choice{{"index", 0}, {"finish_reason", finishValue(finish)}};
  if (h.api == Api::Chat) {
    json::Object delta;
    if (first)
      delta["role"] = "assistant";
    if (finish.empty())
      delta["content"] = tokenText.str();
    choice["delta"] = std::move(delta);
  } else {
    choice["text"] = tokenText.str();
    choice["logprobs"] = nullptr;
  }
  json::Object o = head(h, true);
  o["choices"] = json::Array{std::move(choice)};
  return text(std::move(o));
}

std::string usageChunkJson(const ResponseHead &h, const Usage &u) {
  json::Object o = head(h, true);
  o["choices"] = json::Array{};
  o["usage"] = usageJson(u);
  return text(std::move(o));
}

std::string completionJson(const ResponseHead &h, llvm::StringRef content,
                           llvm::StringRef finish, const Usage &u) {
  json::Object choice{{"index", 0}, {"finish_reason", finishValue(finish)}};
  if (h.api == Api::Chat) {
    choice["message"] =
        json::Object{{"role", "assistant"}, {"content", content.str()}};
    choice["logprobs"] = nullptr;
  } else {
    choice["text"] = content.str();
    choice["logprobs"] = nullptr;
  }
  json::Object o = head(h, false);
  o["choices"] = json::Array{std::move(choice)};
  o["usage"] = usageJson(u);
  return text(std::move(o));
}

std::string modelsJson(llvm::StringRef model, int64_t created) {
  json::Object m{{"id", model.str()},
                 {"object", "model"},
                 {"created", created},
                 {"owned_by", "lpx-simulated"}};
  return text(json::Object{{"object", "list"},
                           {"data", json::Array{std::move(m)}}});
}

} // namespace lpx::endpoint
