//===- OpsetVersions.cpp - The op versions of opsets 18 to 23 -------------===//
//
// From ONNX's operator_sets.h (opsets 18 to 28). Ops whose version bump only
// added element types (bfloat16 in 22, float8 in 19, int4 in 21, float4 in
// 23) are TypesOnly: the opset-17 schema checks the node and the importer
// rejects an element type it does not have, as at 17.
//
//===----------------------------------------------------------------------===//
#include "lpx/Import/OpsetVersions.h"

namespace lpx {

namespace {
using H = VersionHandling;
constexpr H T = H::TypesOnly, R = H::Rewritten, D = H::Decomposed,
            U = H::Unsupported;

constexpr const char *kReduce = "axes input read as the attribute; "
                                "noop_with_empty_axes";
constexpr const char *kNewer = "newer than opset 23, the newest the "
                                "importer reads";
constexpr const char *kBitwise = "the elementwise unit's integer bitwise "
                                  "functions (format 3.3)";
constexpr const char *kQuant = "saturate and output_dtype folded; blocked "
                               "(block_size): Div, Round, Add, Clip per block";
constexpr const char *kDequant = "output_dtype must be the scale's type; "
                                 "blocked (block_size): Sub, Mul per block";

const OpVersionEntry kTable[] = {
    // opset 18
    {"BitwiseAnd", 18, R, kBitwise},
    {"BitwiseNot", 18, R, kBitwise},
    {"BitwiseOr", 18, R, kBitwise},
    {"BitwiseXor", 18, R, kBitwise},
    {"CenterCropPad", 18, D, "Slice and Pad about the centre"},
    {"Col2Im", 18, D, "a MatMul by a constant 0/1 scatter matrix"},
    {"GroupNormalization", 18, D,
     "per-group scale: Reshape, ReduceMean, Sqrt, Div, Mul, Add"},
    {"LpPool", 18, T, "ceil_mode (LpPool is not supported at any opset)"},
    {"Mish", 18, D, "x * tanh(softplus(x))"},
    {"OptionalGetElement", 18, U, "optional types"},
    {"OptionalHasElement", 18, U, "optional types"},
    {"Pad", 18, R, "axes input expanded to pads of every dim"},
    {"ReduceL1", 18, R, kReduce},
    {"ReduceL2", 18, R, kReduce},
    {"ReduceLogSum", 18, R, kReduce},
    {"ReduceLogSumExp", 18, R, kReduce},
    {"ReduceMax", 18, R, kReduce},
    {"ReduceMean", 18, R, kReduce},
    {"ReduceMin", 18, R, kReduce},
    {"ReduceProd", 18, R, kReduce},
    {"ReduceSumSquare", 18, R, kReduce},
    {"Resize", 18, R,
     "axes expanded, keep_aspect_ratio_policy applied to sizes; "
     "antialias=1 not supported"},
    {"ScatterElements", 18, T, "reduction max/min: the graph scatter has it"},
    {"ScatterND", 18, T, "reduction max/min: the graph scatter has it"},
    {"Split", 18, R, "num_outputs turned into split sizes"},
    // opset 19
    {"AveragePool", 19, R,
     "dilations: a depthwise Conv (not with ceil_mode 1 or SAME auto_pad)"},
    {"Cast", 19, R, "saturate dropped (it only concerns float8)"},
    {"CastLike", 19, R, "saturate dropped (it only concerns float8)"},
    {"Constant", 19, T, ""},
    {"DeformConv", 19, U, "not supported"},
    {"DequantizeLinear", 19, T, ""},
    {"Equal", 19, T, "string operands"},
    {"Identity", 19, T, ""},
    {"If", 19, T, ""},
    {"Loop", 19, T, ""},
    {"Pad", 19, R, "axes input expanded; wrap mode not supported"},
    {"QuantizeLinear", 19, R, "saturate dropped (it only concerns float8)"},
    {"Reshape", 19, T, ""},
    {"Resize", 19, R, "as 18; half_pixel_symmetric"},
    {"Scan", 19, T, ""},
    {"Shape", 19, T, ""},
    {"Size", 19, T, ""},
    // opset 20
    {"AffineGrid", 20, U, "not supported"},
    {"ConstantOfShape", 20, T, ""},
    {"DFT", 20, R, "axis input read as the attribute"},
    {"Gelu", 20, D, "none: x/2 (1 + erf(x/sqrt 2)); tanh: the tanh form"},
    {"GridSample", 20, R, "modes linear/cubic renamed bilinear/bicubic; 4-D"},
    {"ImageDecoder", 20, U, "image bytes"},
    {"IsInf", 20, T, ""},
    {"IsNaN", 20, T, ""},
    {"ReduceMax", 20, R, kReduce},
    {"ReduceMin", 20, R, kReduce},
    {"RegexFullMatch", 20, U, "string tensors"},
    {"StringConcat", 20, U, "string tensors"},
    {"StringSplit", 20, U, "string tensors"},
    // opset 21
    {"Cast", 21, R, "saturate dropped"},
    {"CastLike", 21, R, "saturate dropped"},
    {"Constant", 21, T, ""},
    {"ConstantOfShape", 21, T, ""},
    {"DequantizeLinear", 21, R, kDequant},
    {"Flatten", 21, T, ""},
    {"GroupNormalization", 21, D,
     "per-channel scale: Reshape, ReduceMean, Sqrt, Div, Mul, Add"},
    {"Identity", 21, T, ""},
    {"If", 21, T, ""},
    {"Loop", 21, T, ""},
    {"Pad", 21, R, "as 19"},
    {"QLinearMatMul", 21, T, ""},
    {"QuantizeLinear", 21, R, kQuant},
    {"Reshape", 21, T, ""},
    {"Scan", 21, T, ""},
    {"Shape", 21, T, ""},
    {"Size", 21, T, ""},
    {"Squeeze", 21, T, ""},
    {"Transpose", 21, T, ""},
    {"Unsqueeze", 21, T, ""},
    // opset 22 (bfloat16 everywhere)
    {"Acos", 22, T, ""},
    {"Acosh", 22, T, ""},
    {"Asin", 22, T, ""},
    {"Asinh", 22, T, ""},
    {"Atan", 22, T, ""},
    {"Atanh", 22, T, ""},
    {"AveragePool", 22, R, "as 19"},
    {"Bernoulli", 22, T, ""},
    {"Conv", 22, T, ""},
    {"ConvTranspose", 22, T, ""},
    {"Cos", 22, T, ""},
    {"Cosh", 22, T, ""},
    {"DeformConv", 22, U, "not supported"},
    {"Det", 22, T, ""},
    {"Dropout", 22, T, ""},
    {"Elu", 22, T, ""},
    {"EyeLike", 22, T, ""},
    {"GRU", 22, T, ""},
    {"GlobalAveragePool", 22, T, ""},
    {"GlobalLpPool", 22, T, ""},
    {"GlobalMaxPool", 22, T, ""},
    {"GridSample", 22, R, "as 20"},
    {"HardSigmoid", 22, T, ""},
    {"HardSwish", 22, T, ""},
    {"InstanceNormalization", 22, T, ""},
    {"LSTM", 22, T, ""},
    {"LpNormalization", 22, T, ""},
    {"LpPool", 22, T, "as 18"},
    {"MaxPool", 22, T, ""},
    {"MaxRoiPool", 22, T, ""},
    {"MaxUnpool", 22, T, ""},
    {"Mish", 22, D, "as 18"},
    {"Multinomial", 22, T, ""},
    {"NegativeLogLikelihoodLoss", 22, T, ""},
    {"RNN", 22, T, ""},
    {"RandomNormal", 22, T, ""},
    {"RandomNormalLike", 22, T, ""},
    {"RandomUniform", 22, T, ""},
    {"RandomUniformLike", 22, T, ""},
    {"RoiAlign", 22, T, ""},
    {"Round", 22, T, ""},
    {"Selu", 22, T, ""},
    {"Sin", 22, T, ""},
    {"Sinh", 22, T, ""},
    {"Softplus", 22, T, ""},
    {"Softsign", 22, T, ""},
    {"Tan", 22, T, ""},
    {"ThresholdedRelu", 22, T, ""},
    // opset 23
    {"Attention", 23, D,
     "MatMul, Softmax, MatMul per head group; masks, is_causal, GQA, "
     "past/present KV, softcap"},
    {"Cast", 23, R, "saturate dropped"},
    {"CastLike", 23, R, "saturate dropped"},
    {"Constant", 23, T, ""},
    {"ConstantOfShape", 23, T, ""},
    {"DequantizeLinear", 23, R, kDequant},
    {"Flatten", 23, T, ""},
    {"Identity", 23, T, ""},
    {"If", 23, T, ""},
    {"Loop", 23, T, ""},
    {"Pad", 23, R, "as 19"},
    {"QuantizeLinear", 23, R, kQuant},
    {"RMSNormalization", 23, D, "x / sqrt(mean(x^2) + epsilon) * scale"},
    {"Reshape", 23, T, ""},
    {"RotaryEmbedding", 23, D,
     "Gather of the caches, Slice, Mul, Sub/Add, Concat; interleaved or not"},
    {"Scan", 23, T, ""},
    {"Shape", 23, T, ""},
    {"Size", 23, T, ""},
    {"Squeeze", 23, T, ""},
    {"Transpose", 23, T, ""},
    {"Unsqueeze", 23, T, ""},
    // Opsets 24 to kNewestKnownOpset (ONNX's operator_sets.h of August
    // 2026): recognised, so a model at those opsets imports every node
    // unchanged since 23 and names the others.
    {"Attention", 24, U, kNewer},
    {"Attention", 25, U, kNewer},
    {"BitCast", 26, U, kNewer},
    {"Cast", 24, U, kNewer},
    {"Cast", 25, U, kNewer},
    {"CastLike", 24, U, kNewer},
    {"CastLike", 25, U, kNewer},
    {"CausalConvWithState", 27, U, kNewer},
    {"Celu", 28, U, kNewer},
    {"Constant", 24, U, kNewer},
    {"Constant", 25, U, kNewer},
    {"ConstantOfShape", 24, U, kNewer},
    {"ConstantOfShape", 25, U, kNewer},
    {"CumProd", 26, U, kNewer},
    {"DequantizeLinear", 24, U, kNewer},
    {"DequantizeLinear", 25, U, kNewer},
    {"Flatten", 24, U, kNewer},
    {"Flatten", 25, U, kNewer},
    {"Identity", 24, U, kNewer},
    {"Identity", 25, U, kNewer},
    {"If", 24, U, kNewer},
    {"If", 25, U, kNewer},
    {"LinearAttention", 27, U, kNewer},
    {"Loop", 24, U, kNewer},
    {"Loop", 25, U, kNewer},
    {"Pad", 24, U, kNewer},
    {"Pad", 25, U, kNewer},
    {"QuantizeLinear", 24, U, kNewer},
    {"QuantizeLinear", 25, U, kNewer},
    {"Range", 27, U, kNewer},
    {"Reshape", 24, U, kNewer},
    {"Reshape", 25, U, kNewer},
    {"Scan", 24, U, kNewer},
    {"Scan", 25, U, kNewer},
    {"Shape", 24, U, kNewer},
    {"Shape", 25, U, kNewer},
    {"Size", 24, U, kNewer},
    {"Size", 25, U, kNewer},
    {"SplitToSequence", 24, U, kNewer},
    {"Squeeze", 24, U, kNewer},
    {"Squeeze", 25, U, kNewer},
    {"SwiGLU", 28, U, kNewer},
    {"Swish", 24, U, kNewer},
    {"TensorScatter", 24, U, kNewer},
    {"TopK", 24, U, kNewer},
    {"Transpose", 24, U, kNewer},
    {"Transpose", 25, U, kNewer},
    {"Unsqueeze", 24, U, kNewer},
    {"Unsqueeze", 25, U, kNewer},};
} // namespace

llvm::ArrayRef<OpVersionEntry> newerOpVersions() { return kTable; }

const OpVersionEntry *newerOpVersion(llvm::StringRef op, int64_t opset) {
  const OpVersionEntry *best = nullptr;
  for (const OpVersionEntry &e : kTable)
    if (op == e.op && e.since <= opset && (!best || e.since > best->since))
      best = &e;
  return best;
}

std::vector<llvm::StringRef> newOpElementTypes(llvm::StringRef op) {
  static const std::vector<llvm::StringRef> floats = {
      "bfloat16", "double", "float", "float16"};
  static const std::vector<llvm::StringRef> ints = {
      "int16", "int32", "int64", "int8", "uint16", "uint32", "uint64", "uint8"};
  if (op.starts_with("Bitwise"))
    return ints;
  if (op == "CenterCropPad") {
    std::vector<llvm::StringRef> all = floats;
    all.insert(all.end(), ints.begin(), ints.end());
    all.push_back("bool");
    return all;
  }
  for (llvm::StringRef f : {"Gelu", "Mish", "GroupNormalization", "Col2Im",
                            "RMSNormalization", "RotaryEmbedding", "Attention"})
    if (op == f)
      return floats;
  return {};
}

llvm::StringRef handlingName(VersionHandling how) {
  switch (how) {
  case VersionHandling::TypesOnly:
    return "types only";
  case VersionHandling::Rewritten:
    return "rewritten";
  case VersionHandling::Decomposed:
    return "decomposed";
  case VersionHandling::Unsupported:
    return "not supported";
  }
  return "";
}

} // namespace lpx
