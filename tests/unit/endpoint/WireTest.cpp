//===- WireTest.cpp - The endpoint's wire format and token rule -----------===//
//
// What the e2e tests cannot see one at a time: each refusal's param, the
// chat prompt's text, the chunks' shape, the byte and Latin-1 rules.

#include "lpx/endpoint/OpenAiWire.h"
#include "lpx/endpoint/Tokeniser.h"

#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

using namespace lpx::endpoint;

namespace {

std::optional<WireError> parse(const std::string &body, Api api,
                               CompletionRequest &r) {
  return parseCompletionRequest(body, api, r);
}

/// The param of the refusal of `body` (a chat request), "" if accepted.
std::string refusedParam(const std::string &body) {
  CompletionRequest r;
  auto err = parse(body, Api::Chat, r);
  EXPECT_TRUE(err) << body;
  if (!err)
    return "";
  EXPECT_EQ(err->status, 400);
  return err->param;
}

TEST(EndpointWire, ChatRequestText) {
  CompletionRequest r;
  auto err = parse(R"({"model": "m", "max_tokens": 3, "stream": true,
      "stream_options": {"include_usage": true}, "temperature": 0.2,
      "stop": ["x"], "messages": [{"role": "system", "content": "Be brief."},
      {"role": "user", "content": [{"type": "text", "text": "Hi"}]}]})",
                   Api::Chat, r);
  ASSERT_FALSE(err) << err->message;
  EXPECT_EQ(r.model, "m");
  EXPECT_EQ(r.text, "system: Be brief.\nuser: Hi\n");
  EXPECT_EQ(r.maxTokens, 3);
  EXPECT_TRUE(r.stream);
  EXPECT_TRUE(r.includeUsage);
}

TEST(EndpointWire, CompletionRequest) {
  CompletionRequest r;
  ASSERT_FALSE(parse(R"({"model": "m", "prompt": "abc", "max_tokens": null})",
                     Api::Completions, r));
  EXPECT_EQ(r.text, "abc");
  EXPECT_EQ(r.maxTokens, -1);
  EXPECT_FALSE(r.stream);
  // A chat field is unknown to /v1/completions.
  EXPECT_TRUE(parse(R"({"model": "m", "prompt": "a", "messages": []})",
                    Api::Completions, r));
}

TEST(EndpointWire, RefusalsNameTheField) {
  const std::string msgs = R"("messages": [{"role": "user", "content": "x"}])";
  EXPECT_EQ(refusedParam(R"({"model": "m", "temperture": 1, )" + msgs + "}"),
            "temperture");
  EXPECT_EQ(refusedParam(R"({"model": "m", "max_tokens": 1.5, )" + msgs + "}"),
            "max_tokens");
  EXPECT_EQ(refusedParam(R"({"model": "m", "n": 3, )" + msgs + "}"), "n");
  EXPECT_EQ(refusedParam(R"({"model": 7, )" + msgs + "}"), "model");
  EXPECT_EQ(refusedParam(R"({"model": "m", "stream_options": {"x": 1}, )" +
                         msgs + "}"),
            "stream_options.x");
  EXPECT_EQ(refusedParam(R"({"model": "m", "messages": [{"role": "user",
      "content": "x", "tool_calls": []}]})"),
            "messages[0].tool_calls");
  EXPECT_EQ(refusedParam(R"({"model": "m", "messages": [{"role": "user",
      "content": [{"type": "image_url", "image_url": {}}]}]})"),
            "messages[0].content");
  EXPECT_EQ(refusedParam(R"({"model": "m", "messages": []})"), "messages");
  EXPECT_EQ(refusedParam("{\"model\": \"m\", \"stop\": [\"a\",\"b\",\"c\",\"d\","
                         "\"e\"], " + msgs + "}"),
            "stop");
  // Nesting past the bound is refused before parsing; at the bound it is
  // parsed (and refused for its content).
  std::string deep(kMaxNesting + 1, '[');
  EXPECT_EQ(refusedParam(deep), "");
  CompletionRequest r;
  auto err = parse(deep, Api::Chat, r);
  ASSERT_TRUE(err);
  EXPECT_NE(err->message.find("nests"), std::string::npos);
}

TEST(EndpointWire, ChunksAndBodies) {
  ResponseHead h{Api::Chat, "chatcmpl-lpx-1", 5, "m"};
  auto first = llvm::json::parse(chunkJson(h, "A", true));
  ASSERT_TRUE(bool(first));
  const llvm::json::Object &o = *first->getAsObject();
  EXPECT_EQ(*o.getString("object"), "chat.completion.chunk");
  EXPECT_EQ(*o.getString("system_fingerprint"), "lpx-simulated");
  const llvm::json::Object &choice =
      *(*o.getArray("choices"))[0].getAsObject();
  EXPECT_EQ(*choice.getObject("delta")->getString("role"), "assistant");
  EXPECT_EQ(*choice.getObject("delta")->getString("content"), "A");
  EXPECT_EQ(choice.get("finish_reason")->kind(), llvm::json::Value::Null);
  auto last = llvm::json::parse(chunkJson(h, "", false, "length"));
  const llvm::json::Object &lc =
      *(*last->getAsObject()->getArray("choices"))[0].getAsObject();
  EXPECT_TRUE(lc.getObject("delta")->empty());
  EXPECT_EQ(*lc.getString("finish_reason"), "length");
  auto whole = llvm::json::parse(completionJson(h, "AB", "stop", {3, 2}));
  const llvm::json::Object *usage = whole->getAsObject()->getObject("usage");
  EXPECT_EQ(*usage->getInteger("total_tokens"), 5);
  WireError e;
  e.message = "m";
  auto err = llvm::json::parse(errorJson(e));
  const llvm::json::Object *eo = err->getAsObject()->getObject("error");
  EXPECT_EQ(eo->get("param")->kind(), llvm::json::Value::Null);
  EXPECT_EQ(*eo->getString("type"), "invalid_request_error");
}

TEST(EndpointTokeniser, BytesInLatin1Out) {
  EXPECT_EQ(promptTokens("A\xC3\xA9"), (std::vector<int64_t>{0x41, 0xC3, 0xA9}));
  EXPECT_EQ(tokenText(0x41), "A");
  EXPECT_EQ(tokenText(0xE9), "\xC3\xA9"); // U+00E9
  EXPECT_EQ(tokenText(0x80), "\xC2\x80");
  EXPECT_EQ(tokenText(700), "<700>");
  EXPECT_EQ(syntheticTokenText(0), "simulated ");
  EXPECT_EQ(syntheticTokenText(7), "simulated ");
}

} // namespace
