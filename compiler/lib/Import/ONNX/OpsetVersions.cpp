//===- OpsetVersions.cpp - The op versions of opsets 18 to 23 -------------===//
//
// From ONNX's operator_sets.h (opsets 18 to 28) and operator_sets_ml.h
// (ai.onnx.ml 4 and 5). Ops whose version bump only
// added element types (bfloat16 in 22, float8 in 19, int4 in 21, float4 in
// 23) are TypesOnly: the opset-17 schema checks the node and the importer
// rejects an element type it does not have, as at 17.
//
//===----------------------------------------------------------------------===//
#include "lpx/Import/OpsetVersions.h"

#include <initializer_list>
#include <iterator>

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
                                 "blocked (block_size): Sub, Mul per block; "
                                 "float8 / int4 weights (constants) "
                                 "dequantized at import";

/// The op versions with a note of their own, by opset (those that share
/// a handling and a note are in kGroups, below).
const OpVersionEntry kTable[] = {
    // opset 18
    {"CenterCropPad", 18, D, "Slice and Pad about the centre"},
    {"Col2Im", 18, D, "a MatMul by a constant 0/1 scatter matrix"},
    {"GroupNormalization", 18, D,
     "per-group scale: Reshape, ReduceMean, Sqrt, Div, Mul, Add"},
    {"LpPool", 18, T, "ceil_mode (LpPool is not supported at any opset)"},
    {"Mish", 18, D, "x * tanh(softplus(x))"},
    {"Pad", 18, R, "axes input expanded to pads of every dim"},
    {"Resize", 18, R,
     "axes expanded, keep_aspect_ratio_policy applied to sizes; "
     "antialias widens the linear/cubic downscale filter"},
    {"Split", 18, R, "num_outputs turned into split sizes"},
    // opset 19
    {"AveragePool", 19, R,
     "dilations: a depthwise Conv (not with ceil_mode 1 or SAME auto_pad)"},
    {"Cast", 19, R,
     "to FLOAT8E4M3FN / E5M2: rounded to the chip's FP8 (ai.lpx)"},
    {"CastLike", 19, R, "saturate dropped (it only concerns float8)"},
    {"DeformConv", 19, U, "not supported"},
    {"DequantizeLinear", 19, R,
     "float8 weights (constants) dequantized at import"},
    {"Equal", 19, T, "string operands"},
    {"Pad", 19, R, "axes input expanded; wrap mode: a Concat of Slices"},
    {"QuantizeLinear", 19, R,
     "a FLOAT8E4M3FN / E5M2 zero point: rounded to the chip's FP8 (ai.lpx)"},
    {"Resize", 19, R, "as 18; half_pixel_symmetric"},
    // opset 20
    {"AffineGrid", 20, U, "not supported"},
    {"DFT", 20, R, "axis input read as the attribute"},
    {"Gelu", 20, D, "none: x/2 (1 + erf(x/sqrt 2)); tanh: the tanh form"},
    {"GridSample", 20, R, "modes linear/cubic renamed bilinear/bicubic; 4-D"},
    {"ImageDecoder", 20, U, "image bytes"},
    // opset 21 (and the ops of kIrTypeOps, below)
    {"GroupNormalization", 21, D,
     "per-channel scale: Reshape, ReduceMean, Sqrt, Div, Mul, Add"},
    // opset 22 (bfloat16 everywhere)
    {"AveragePool", 22, R, "as 19"},
    {"DeformConv", 22, U, "not supported"},
    {"GridSample", 22, R, "as 20"},
    {"LpPool", 22, T, "as 18"},
    {"Mish", 22, D, "as 18"},
    // opset 23 (and the ops of kIrTypeOps, below)
    {"Attention", 23, D,
     "MatMul, Softmax, MatMul as exporters write them (GQA by repeat_kv); "
     "masks, is_causal, past/present KV, softcap"},
    {"RMSNormalization", 23, D, "x / sqrt(mean(x^2) + epsilon) * scale"},
    {"RotaryEmbedding", 23, D,
     "rotate-half with full-width caches; interleaved or partial: Slice, "
     "Mul, Sub/Add, Concat"},
};

/// The op versions that share a handling and a note, by opset: among them
/// those that only added element types the opset-17 schema checks as before
/// (TypesOnly, no note).
struct VersionGroup {
  int since;
  H how;
  const char *note;
  std::initializer_list<const char *> ops;
};
const VersionGroup kGroups[] = {
    {18, R, kBitwise, {"BitwiseAnd", "BitwiseNot", "BitwiseOr", "BitwiseXor"}},
    {18, U, "optional types", {"OptionalGetElement", "OptionalHasElement"}},
    {18,
     R,
     kReduce,
     {"ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceMax",
      "ReduceMean", "ReduceMin", "ReduceProd", "ReduceSumSquare"}},
    {18, T, "reduction max/min: the graph scatter has it",
     {"ScatterElements", "ScatterND"}},
    {19,
     T,
     "",
     {"Constant", "Identity", "If", "Loop", "Reshape", "Scan", "Shape",
      "Size"}},
    {20, R, kReduce, {"ReduceMax", "ReduceMin"}},
    {20, U, "string tensors", {"RegexFullMatch", "StringConcat", "StringSplit"}},
    {20, T, "", {"ConstantOfShape", "IsInf", "IsNaN"}},
    {21, T, "", {"QLinearMatMul"}},
    {22,
     T,
     "",
     {"Acos", "Acosh", "Asin", "Asinh", "Atan", "Atanh", "Bernoulli", "Conv",
      "ConvTranspose", "Cos", "Cosh", "Det", "Dropout", "Elu", "EyeLike",
      "GRU", "GlobalAveragePool", "GlobalLpPool", "GlobalMaxPool",
      "HardSigmoid", "HardSwish", "InstanceNormalization", "LSTM",
      "LpNormalization", "MaxPool", "MaxRoiPool", "MaxUnpool", "Multinomial",
      "NegativeLogLikelihoodLoss", "RNN", "RandomNormal", "RandomNormalLike",
      "RandomUniform", "RandomUniformLike", "RoiAlign", "Round", "Selu",
      "Sin", "Sinh", "Softplus", "Softsign", "Tan", "ThresholdedRelu"}},
    // Opsets 24 to kNewestKnownOpset (ONNX's operator_sets.h of August
    // 2026): recognised, so a model at those opsets imports every node
    // unchanged since 23 and names the others.
    {24, U, kNewer,
     {"Attention", "SplitToSequence", "Swish", "TensorScatter", "TopK"}},
    {25, U, kNewer, {"Attention"}},
    {26, U, kNewer, {"BitCast", "CumProd"}},
    {27, U, kNewer, {"CausalConvWithState", "LinearAttention", "Range"}},
    {28, U, kNewer, {"Celu", "SwiGLU"}},
};

/// The ops whose type constraints list every IR type: ONNX bumps them all
/// whenever it adds types (int4 at 21, float4 at 23, float8e8m0 at 24,
/// int2 at 25), so each has a version at every one of those opsets.
constexpr const char *kIrTypeOps[] = {
    "Cast",     "CastLike",       "Constant", "ConstantOfShape",
    "DequantizeLinear", "Flatten", "Identity", "If",
    "Loop",     "Pad",            "QuantizeLinear", "Reshape",
    "Scan",     "Shape",          "Size",     "Squeeze",
    "Transpose", "Unsqueeze"};

/// How the importer reads an IR-type op's version of opset 21 or 23.
OpVersionEntry irTypeVersion(const char *op, int since) {
  llvm::StringRef name(op);
  if (since > kNewestOpset)
    return {op, since, U, kNewer};
  if (name == "Cast" || name == "CastLike")
    return {op, since, R, "saturate dropped"};
  if (name == "Pad")
    return {op, since, R, "as 19"};
  if (name == "QuantizeLinear")
    return {op, since, R, kQuant};
  if (name == "DequantizeLinear")
    return {op, since, R, kDequant};
  return {op, since, T, ""};
}

/// kTable, kGroups and the IR-type ops' versions of opsets 21, 23, 24 and
/// 25.
const std::vector<OpVersionEntry> &allVersions() {
  static const std::vector<OpVersionEntry> all = [] {
    std::vector<OpVersionEntry> v(std::begin(kTable), std::end(kTable));
    for (const VersionGroup &g : kGroups)
      for (const char *op : g.ops)
        v.push_back({op, g.since, g.how, g.note});
    for (int since : {21, 23, 24, 25})
      for (const char *op : kIrTypeOps)
        v.push_back(irTypeVersion(op, since));
    return v;
  }();
  return all;
}

constexpr const char *kMl = "no ai.onnx.ml (traditional ML) op is "
                            "supported";

// ai.onnx.ml opsets 4 (ONNX 1.15) and 5 (ONNX 1.16 to 1.18).
const OpVersionEntry kMlTable[] = {
    {"LabelEncoder", 4, U, kMl},
    {"TreeEnsemble", 5, U, kMl},
    {"TreeEnsembleClassifier", 5, U, "deprecated at ai.onnx.ml 5"},
    {"TreeEnsembleRegressor", 5, U, "deprecated at ai.onnx.ml 5"},
};

/// The entry of `table` for `op` at `opset`: its newest version up to it.
const OpVersionEntry *versionAt(llvm::ArrayRef<OpVersionEntry> table,
                                llvm::StringRef op, int64_t opset) {
  const OpVersionEntry *best = nullptr;
  for (const OpVersionEntry &e : table)
    if (op == e.op && e.since <= opset && (!best || e.since > best->since))
      best = &e;
  return best;
}
} // namespace

llvm::ArrayRef<OpVersionEntry> newerOpVersions() { return allVersions(); }

const OpVersionEntry *newerOpVersion(llvm::StringRef op, int64_t opset) {
  return versionAt(allVersions(), op, opset);
}

llvm::ArrayRef<OpVersionEntry> newerMlOpVersions() { return kMlTable; }

const OpVersionEntry *newerMlOpVersion(llvm::StringRef op, int64_t mlOpset) {
  return versionAt(kMlTable, op, mlOpset);
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
