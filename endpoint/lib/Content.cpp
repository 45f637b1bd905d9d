//===- Content.cpp - Greedy tokens from the runtime, or synthetic text ----===//

#include "lpx/endpoint/Content.h"
#include "lpx/endpoint/Tokeniser.h"

#include <list>
#include <map>
#include <mutex>

namespace lpx::endpoint {

Content::~Content() = default;

bool runnablePreset(llvm::StringRef model) { return model.starts_with("tiny-"); }

namespace {

class Synthetic : public Content {
public:
  llvm::Expected<std::vector<std::string>>
  tokens(const std::vector<int64_t> &, int64_t count) override {
    std::vector<std::string> out;
    for (int64_t i = 0; i < count; ++i)
      out.push_back(syntheticTokenText(i));
    return out;
  }
  const char *kind() const override { return "synthetic"; }
};

class Greedy : public Content {
public:
  Greedy(deploy::DecodeRunOptions base, size_t entries)
      : base(std::move(base)), entries(std::max<size_t>(entries, 1)) {}

  llvm::Expected<std::vector<std::string>>
  tokens(const std::vector<int64_t> &prompt, int64_t count) override {
    std::lock_guard<std::mutex> lock(mutex);
    Key key{prompt, count};
    if (auto hit = cache.find(key); hit != cache.end()) {
      order.splice(order.begin(), order, hit->second.second);
      return hit->second.first;
    }
    deploy::DecodeRunOptions opts = base;
    opts.prompts = {prompt};
    opts.tokens = unsigned(count);
    auto run = deploy::generateGreedy(opts);
    if (!run)
      return run.takeError();
    std::vector<std::string> texts;
    for (int64_t id : run->generatedIds.front())
      texts.push_back(tokenText(id));
    if (cache.size() >= entries) {
      cache.erase(order.back());
      order.pop_back();
    }
    order.push_front(key);
    cache.emplace(key, std::make_pair(texts, order.begin()));
    return texts;
  }
  const char *kind() const override { return "greedy"; }

private:
  using Key = std::pair<std::vector<int64_t>, int64_t>;
  deploy::DecodeRunOptions base;
  size_t entries;
  std::mutex mutex;
  std::list<Key> order; // most recent first
  std::map<Key, std::pair<std::vector<std::string>, std::list<Key>::iterator>>
      cache;
};

} // namespace

std::unique_ptr<Content> syntheticContent() {
  return std::make_unique<Synthetic>();
}

std::unique_ptr<Content> greedyContent(deploy::DecodeRunOptions base,
                                       size_t cacheEntries) {
  return std::make_unique<Greedy>(std::move(base), cacheEntries);
}

} // namespace lpx::endpoint
