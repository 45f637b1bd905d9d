//===- ConvTransposeKernelTest.cpp - The conv_transpose kernel ------------===//
//
// One-instruction programs; every expected value is worked out by hand in
// the comments from the definition: input position i and kernel tap k add
// x[i] * w[k] into result position i * stride + k * dilation - pad_begin.
//
//===----------------------------------------------------------------------===//
#include "TestProgram.h"
#include "lpx/runtime/Runtime.h"

using namespace lpx::rt::test;

namespace {

using V = std::vector<float>;

} // namespace

// attrs: [group, strides, dilations, pads begin, pads end, output_padding].
TEST(ConvTransposeKernel, OneDimStridesPadsDilations) {
  V x = {1, 2, 3}, w = {1, 10};
  // Stride 1: y[o] = sum over i + k = o: 1, 2+10, 3+20, 30.
  EXPECT_EQ(runConvF32(Opcode::ConvTranspose, {1, 1, 3}, x, {1, 1, 2}, w, {},
                       {1, 1, 4}, {1, 1, 1, 0, 0, 0}),
            (V{1, 12, 23, 30}));
  // Stride 2: taps land on 2i and 2i+1 without overlap.
  EXPECT_EQ(runConvF32(Opcode::ConvTranspose, {1, 1, 3}, x, {1, 1, 2}, w, {},
                       {1, 1, 6}, {1, 2, 1, 0, 0, 0}),
            (V{1, 10, 2, 20, 3, 30}));
  // Pads 1 and 1 drop the first and the last of those.
  EXPECT_EQ(runConvF32(Opcode::ConvTranspose, {1, 1, 3}, x, {1, 1, 2}, w, {},
                       {1, 1, 4}, {1, 2, 1, 1, 1, 0}),
            (V{10, 2, 20, 3}));
  // output_padding 1 adds a last position no tap reaches: bias 5 alone.
  EXPECT_EQ(runConvF32(Opcode::ConvTranspose, {1, 1, 3}, x, {1, 1, 2}, w, {5},
                       {1, 1, 7}, {1, 2, 1, 0, 0, 1}),
            (V{6, 15, 7, 25, 8, 35, 5}));
  // Dilation 2: taps at i and i+2: 1, 2, 3+10, 20, 30.
  EXPECT_EQ(runConvF32(Opcode::ConvTranspose, {1, 1, 3}, x, {1, 1, 2}, w, {},
                       {1, 1, 5}, {1, 1, 2, 0, 0, 0}),
            (V{1, 2, 13, 20, 30}));
  // A negative begin pad shifts the taps right by one: a leading 0.
  EXPECT_EQ(runConvF32(Opcode::ConvTranspose, {1, 1, 3}, x, {1, 1, 2}, w, {},
                       {1, 1, 5}, {1, 1, 1, -1, 0, 0}),
            (V{0, 1, 12, 23, 30}));
}

TEST(ConvTransposeKernel, ChannelsGroupsAndTwoDims) {
  // One input channel into two output channels: 2*3, 2*4.
  EXPECT_EQ(runConvF32(Opcode::ConvTranspose, {1, 1, 1}, {2}, {1, 2, 1}, {3, 4},
                       {}, {1, 2, 1}, {1, 1, 1, 0, 0, 0}),
            (V{6, 8}));
  // Two input channels summed into one output channel: 2*3 + 5*4.
  EXPECT_EQ(runConvF32(Opcode::ConvTranspose, {1, 2, 1}, {2, 5}, {2, 1, 1},
                       {3, 4}, {}, {1, 1, 1}, {1, 1, 1, 0, 0, 0}),
            (V{26}));
  // The same with group 2: each channel on its own, 2*3 and 5*4.
  EXPECT_EQ(runConvF32(Opcode::ConvTranspose, {1, 2, 1}, {2, 5}, {2, 1, 1},
                       {3, 4}, {}, {1, 2, 1}, {2, 1, 1, 0, 0, 0}),
            (V{6, 20}));
  // 2x2 input, all-ones 2x2 kernel: each input adds into a 2x2 block.
  // [1 2; 3 4] -> [1, 1+2, 2; 1+3, 1+2+3+4, 2+4; 3, 3+4, 4].
  EXPECT_EQ(runConvF32(Opcode::ConvTranspose, {1, 1, 2, 2}, {1, 2, 3, 4},
                       {1, 1, 2, 2}, {1, 1, 1, 1}, {}, {1, 1, 3, 3},
                       {1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0}),
            (V{1, 3, 2, 4, 10, 6, 3, 7, 4}));
  // Stride 2 in rows only, batch 2 (second batch doubled).
  EXPECT_EQ(runConvF32(Opcode::ConvTranspose, {2, 1, 2, 1}, {1, 2, 2, 4},
                       {1, 1, 1, 1}, {3}, {}, {2, 1, 3, 1},
                       {1, 2, 1, 1, 1, 0, 0, 0, 0, 0, 0}),
            (V{3, 0, 6, 6, 0, 12}));
}

TEST(ConvTransposeKernel, RejectsWrongExtent) {
  std::string err;
  // Stride 1 over 3 with a 2-tap kernel gives 4, not 5.
  runConvF32(Opcode::ConvTranspose, {1, 1, 3}, {1, 2, 3}, {1, 1, 2}, {1, 1}, {},
             {1, 1, 5}, {1, 1, 1, 0, 0, 0}, &err);
  EXPECT_NE(err.find("expected 4"), std::string::npos) << err;
}
