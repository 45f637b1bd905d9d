//===- ServiceTableCacheTest.cpp - The serving table's cache key and entries ===//
//
// The key changes with each thing the table depends on and with nothing
// else; a damaged entry, or one stored under another key, is rebuilt (by
// compiling and simulating tiny-llama on lpx3, a fraction of a second) and
// the rebuilt entry is then read back.
//
//===----------------------------------------------------------------------===//
#include "lpx/deploy/DeploymentTarget.h"
#include "lpx/deploy/ServiceTableBuild.h"

#include "lpx/isa/AtomicFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

using namespace lpx;
using namespace lpx::deploy;

namespace {

DecodeTarget tinyLlama(std::vector<std::string> sets = {}) {
  auto t = loadDeploymentTarget({"tiny-llama", "lpx3", std::move(sets), "", "",
                                 0, 0},
                                [](llvm::StringRef) { return "no preset"; });
  EXPECT_TRUE(bool(t)) << llvm::toString(t.takeError());
  return std::move(*t);
}

TEST(ServeGrid, EveryBatchUpTo16ThenPowersOfTwo) {
  ServeGrid g = serveGrid(8, 64);
  EXPECT_EQ(g.batches, (std::vector<int64_t>{1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(g.contexts, (std::vector<int64_t>{8, 16, 32, 64}));
  EXPECT_EQ(g.prompts, g.contexts);
  std::vector<int64_t> wide{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
                            13, 14, 15, 16, 32, 40};
  EXPECT_EQ(serveGrid(40, 4).batches, wide);
  EXPECT_EQ(serveGrid(40, 4).contexts, (std::vector<int64_t>{1, 2, 4}));
  EXPECT_EQ(serveGrid(1, 1).batches, (std::vector<int64_t>{1}));
}

TEST(ServeGrid, ChunkedWhenTheLargestPromptIsMoreThanOneChunk) {
  // lpx decode's choice (DecodePlan.h): at most 8 chunks of at least 256
  // tokens, a multiple of 32. Context 2304: 2304 / 8 = 288 (8 chunks);
  // 512: 256 (2 chunks); 256: one chunk, whole; 300: 2 chunks of 256 need
  // 512 positions, more than the context: whole.
  EXPECT_EQ(serveGrid(8, 2304).prefillChunk, 288);
  EXPECT_EQ(serveGrid(8, 512).prefillChunk, 256);
  EXPECT_EQ(serveGrid(8, 256).prefillChunk, 0);
  EXPECT_EQ(serveGrid(8, 300).prefillChunk, 0);
  EXPECT_EQ(serveGrid(8, 64).prefillChunk, 0);
  // Asked for (--prefill-chunk): that chunk, unless the prompt is one.
  EXPECT_EQ(serveGrid(2, 256, 64).prefillChunk, 64);
  EXPECT_EQ(serveGrid(2, 256, 256).prefillChunk, 0);
}

TEST(ServiceTableKey, NamesTheChunkOfAChunkedTableOnly) {
  const DecodeTarget base = tinyLlama();
  const std::string whole = serviceTableKey(base, 0, 256, serveGrid(2, 256));
  const std::string chunked =
      serviceTableKey(base, 0, 256, serveGrid(2, 256, 64));
  EXPECT_EQ(whole.find("chunk"), std::string::npos) << whole;
  EXPECT_EQ(chunked, whole + "; prefill chunk 64");
  EXPECT_NE(serviceTableKey(base, 0, 256, serveGrid(2, 256, 128)), chunked);
}

TEST(ServiceTableKey, ChangesWithEachInput) {
  const DecodeTarget base = tinyLlama();
  const ServeGrid grid = serveGrid(8, 64);
  const std::string key = serviceTableKey(base, 0, 64, grid);
  EXPECT_EQ(key, serviceTableKey(tinyLlama(), 0, 64, grid)); // stable
  EXPECT_NE(key.find("lpx 0."), std::string::npos) << key;   // the version
  std::vector<std::string> others;
  others.push_back(serviceTableKey(base, 2, 64, grid));
  others.push_back(serviceTableKey(base, 0, 32, grid));
  others.push_back(serviceTableKey(base, 0, 64, serveGrid(4, 64)));
  others.push_back(serviceTableKey(tinyLlama({"clock_mhz=900"}), 0, 64, grid));
  DecodeTarget t = base;
  t.tp = 1;
  others.push_back(serviceTableKey(t, 0, 64, grid));
  t = base;
  t.pp = 1;
  others.push_back(serviceTableKey(t, 0, 64, grid));
  t = base;
  t.weights = "int8";
  others.push_back(serviceTableKey(t, 0, 64, grid));
  t = base;
  t.activations = "fp32";
  others.push_back(serviceTableKey(t, 0, 64, grid));
  t = base;
  t.preset = models::findPreset("llama2-7b");
  others.push_back(serviceTableKey(t, 0, 64, grid));
  for (const std::string &o : others) {
    EXPECT_NE(o, key);
    EXPECT_NE(serviceTableCachePath("/c", o), serviceTableCachePath("/c", key));
  }
}

struct CacheDir : ::testing::Test {
  ScratchDir dir;
  DecodeTarget target = tinyLlama();
  void SetUp() override {
    ASSERT_FALSE(bool(dir.create("lpx-serve-cache-test")));
    target.scratchDir = dir.path.str().str();
  }
  llvm::Expected<CachedTable> get() {
    return cachedServiceTable(target, 0, 64, serveGrid(2, 64), dir.path);
  }
};

TEST_F(CacheDir, DamagedEntryIsRebuiltThenRead) {
  const std::string path = serviceTableCachePath(
      dir.path, serviceTableKey(target, 0, 64, serveGrid(2, 64)));
  ASSERT_FALSE(bool(isa::writeFileAtomically(path, "{\"format\": \"lpx-serv")));
  auto first = get();
  ASSERT_TRUE(bool(first)) << llvm::toString(first.takeError());
  EXPECT_FALSE(first->fromCache);
  EXPECT_FALSE(first->rebuiltBecause.empty());
  EXPECT_EQ(first->path, path);
  EXPECT_EQ(first->table.decode.size(), 2u * 4u);
  EXPECT_EQ(first->table.source, "simulated");

  auto second = get();
  ASSERT_TRUE(bool(second)) << llvm::toString(second.takeError());
  EXPECT_TRUE(second->fromCache);
  EXPECT_TRUE(second->rebuiltBecause.empty());
  ASSERT_EQ(second->table.decode.size(), first->table.decode.size());
  for (size_t i = 0; i < first->table.decode.size(); ++i)
    EXPECT_DOUBLE_EQ(second->table.decode[i].us, first->table.decode[i].us);
}

TEST_F(CacheDir, EntryOfAnotherKeyIsRebuilt) {
  auto built = get();
  ASSERT_TRUE(bool(built)) << llvm::toString(built.takeError());
  // A whole, valid table that claims another key (a hash collision or a
  // copied file): not this table's, so rebuilt.
  serve::ServiceTable other = built->table;
  other.cacheKey = "lpx 0.0.0; model other";
  other.decode[0].us *= 2;
  ASSERT_FALSE(bool(isa::writeFileAtomically(
      built->path, llvm::formatv("{0:2}", serve::toJson(other)).str())));
  auto again = get();
  ASSERT_TRUE(bool(again)) << llvm::toString(again.takeError());
  EXPECT_FALSE(again->fromCache);
  EXPECT_EQ(again->rebuiltBecause, "its key is not this table's");
  EXPECT_DOUBLE_EQ(again->table.decode[0].us, built->table.decode[0].us);
}

} // namespace
