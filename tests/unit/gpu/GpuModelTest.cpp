//===- GpuModelTest.cpp - The analytic GPU model against hand figures -----===//
//
// A GPU of round numbers and a two-layer model of 1024 wide, so every
// figure below is derived by hand in its comment from GpuModel.h's rules.
//
//===----------------------------------------------------------------------===//
#include "lpx/gpu/GpuModel.h"

#include <gtest/gtest.h>

using namespace lpx::gpu;

namespace {

constexpr const char *kRoundGpu = R"(
name: round
hbm: {bytes: 1e9, bytes_per_second: 1e12}
flops: {fp16: 100e12, fp8: 200e12}
nvlink: {bytes_per_second: 100e9, latency_us: 10}
attainable: {compute: 0.5, bandwidth: 0.5, launch_us: 5}
)";

GpuDeployment deployment(unsigned tp = 1) {
  auto gpu = parseGpuSpec(kRoundGpu, "test");
  EXPECT_TRUE(bool(gpu)) << llvm::toString(gpu.takeError());
  GpuDeployment d;
  d.gpu = *gpu;
  d.tp = tp;
  return d;
}

// Q, K, V, O: 4 x 1024 x 1024 = 4,194,304 parameters a layer; the MLP
// 3 x 1024 x 4096 = 12,582,912; the head 1000 x 1024.
ModelShape twoLayers() {
  ModelShape m;
  m.layers = 2;
  m.hidden = 1024;
  m.heads = m.kvHeads = 8;
  m.headDim = 128;
  m.ffn = 4096;
  m.vocab = 1000;
  return m;
}

TEST(GpuModel, DecodeStepOnOneGpu) {
  StepTime s = stepTime(deployment(), twoLayers(), Step{1, 1, 100});
  // Attention bytes: 8,388,608 of weights + 100 cached rows of K and V
  // (2 x 1024 x 2 = 4,096 bytes each) + the new row = 8,802,304, at
  // 0.5e12 B/s: 17.604608 us a layer (its FLOPs take 0.18 us).
  EXPECT_NEAR(s.attentionUs, 2 * 17.604608, 1e-6);
  EXPECT_NEAR(s.attention.computeUs, 2 * 8798208 / 50e12 * 1e6, 1e-9);
  // The MLP's 25,165,824 bytes: 50.331648 us a layer.
  EXPECT_NEAR(s.ffnUs, 2 * 50.331648, 1e-6);
  // The head's 2,048,000 bytes: 4.096 us; launch 5 us; no all-reduce.
  EXPECT_NEAR(s.head.us(), 4.096, 1e-9);
  EXPECT_EQ(s.allReduceUs, 0);
  EXPECT_NEAR(s.totalUs(), 144.968512, 1e-6);
  EXPECT_EQ(s.bound(), "HBM bandwidth");
}

TEST(GpuModel, TensorParallelHalvesBytesAndAddsAllReduces) {
  StepTime s = stepTime(deployment(2), twoLayers(), Step{1, 1, 100});
  // Per GPU: 4,194,304 weight bytes + half the cache rows (8 KV heads over
  // 2 GPUs) 206,848 = 4,401,152: 8.802304 us a layer.
  EXPECT_NEAR(s.attentionUs, 2 * 8.802304, 1e-6);
  EXPECT_NEAR(s.ffnUs, 2 * 25.165824, 1e-6);
  // Two all-reduces a layer of one 2,048-byte row: 10 us + 2 x 1/2 x 2,048
  // / 100e9 s = 10.02048 us each.
  EXPECT_NEAR(s.allReduceUs, 4 * 10.02048, 1e-9);
  EXPECT_NEAR(s.totalUs(), 115.066176, 1e-6);
}

TEST(GpuModel, LongPrefillIsComputeBound) {
  StepTime s = stepTime(deployment(), twoLayers(), Step{1, 512, 512});
  // The MLP: 2 x 512 x 12,582,912 FLOPs at 50e12 = 257.69803776 us a layer,
  // more than its 50.33 us of weights.
  EXPECT_NEAR(s.ffnUs, 2 * 257.69803776, 1e-6);
  EXPECT_EQ(s.bound(), "compute");
  // The FP8 peak is twice the FP16 one: the compute-bound MLP halves.
  GpuDeployment fp8 = deployment();
  fp8.weights = Format::Fp8;
  EXPECT_NEAR(stepTime(fp8, twoLayers(), Step{1, 512, 512}).ffnUs,
              257.69803776, 1e-6);
}

TEST(GpuModel, ExpertsReadAreThoseTheTokensTouch) {
  ModelShape m = twoLayers();
  m.experts = 8;
  m.expertsPerToken = 2;
  // One token touches 2 experts: (2 x 12,582,912 + the router's 8,192)
  // parameters x 2 bytes = 50,348,032 bytes a layer.
  StepTime one = stepTime(deployment(), m, Step{1, 1, 100}, Blocks::Ffn);
  EXPECT_NEAR(one.ffn.bytes, 2 * 50348032.0, 1e-3);
  // Two tokens touch 8 (1 - (3/4)^2) = 3.5 in expectation.
  StepTime two = stepTime(deployment(), m, Step{2, 1, 100}, Blocks::Ffn);
  EXPECT_NEAR(two.ffn.bytes, 2 * (3.5 * 12582912 + 8192) * 2, 1e-3);
  // The FFN side has no attention, head or launch.
  EXPECT_EQ(one.attentionUs, 0);
  EXPECT_EQ(one.launchUs, 0);
}

TEST(GpuModel, MemoryAndFewestGpus) {
  GpuMemory mem = memoryPerGpu(deployment(), twoLayers(), 1, 100);
  // (2 x 4,194,304 + 2 x 1000 x 1024) x 2 + 2 x 12,582,912 x 2 bytes.
  EXPECT_DOUBLE_EQ(mem.weights, 71204864.0);
  // 100 positions x 2 layers x K and V x 1024 x 2 bytes.
  EXPECT_DOUBLE_EQ(mem.kvCache, 819200.0);
  EXPECT_EQ(fewestGpus(deployment(), twoLayers(), 1, 100), 1u);
  // At batch 150 and context 1000 the cache is 4,096 x 1000 x 150 bytes a
  // layer, 1.2288 GB in all: with the weights it fits 0.9 x 1 GB only
  // split over 2 GPUs (614.4 + 35.6 MB each).
  EXPECT_EQ(fewestGpus(deployment(), twoLayers(), 150, 1000), 2u);
}

TEST(GpuModel, DecodeFigures) {
  GpuDecode d = analyticDecode(deployment(), twoLayers(), 4, 64, 100);
  EXPECT_NEAR(d.tpotUs, stepTime(deployment(), twoLayers(), Step{4, 1, 100})
                            .totalUs(),
              1e-9);
  EXPECT_NEAR(d.tokensPerSecond, 4 * 1e6 / d.tpotUs, 1e-6);
  EXPECT_NEAR(d.ttftUs, stepTime(deployment(), twoLayers(), Step{4, 64, 64})
                            .totalUs(),
              1e-9);
}

TEST(GpuSpec, PresetsLoadAndBadInputIsOneLine) {
  for (const std::string &name : gpuPresetNames()) {
    auto g = loadGpuSpec(name);
    ASSERT_TRUE(bool(g)) << llvm::toString(g.takeError());
    EXPECT_EQ(g->name, name);
  }
  auto h200 = loadGpuSpec("h200");
  ASSERT_TRUE(bool(h200));
  EXPECT_DOUBLE_EQ(h200->hbmBytesPerSecond, 4.8e12);
  auto unknown = loadGpuSpec("a100");
  ASSERT_FALSE(bool(unknown));
  EXPECT_EQ(llvm::toString(unknown.takeError()),
            "unknown GPU 'a100' (presets: h100-sxm, h200, b200; or a "
            "description file)");
  auto bad = parseGpuSpec("name: x\nhbm: {bytes: 0, bytes_per_second: 1}\n"
                          "flops: {fp16: 1, fp8: 1}\nnvlink: "
                          "{bytes_per_second: 1, latency_us: 0}\nattainable: "
                          "{compute: 1, bandwidth: 1, launch_us: 0}\n",
                          "x.yaml");
  ASSERT_FALSE(bool(bad));
  EXPECT_EQ(llvm::toString(bad.takeError()),
            "GPU description 'x.yaml': hbm.bytes '0' is out of range");
  auto unknownKey = parseGpuSpec(std::string(kRoundGpu) + "pcie: {lanes: 16}\n",
                                 "y.yaml");
  ASSERT_FALSE(bool(unknownKey));
  EXPECT_EQ(llvm::toString(unknownKey.takeError()),
            "GPU description 'y.yaml': unknown key pcie.lanes");
  EXPECT_FALSE(bool(parseFormat("int3")));
}

} // namespace
