//===- SignalImporters.cpp - DFT, STFT, windows, MelWeightMatrix ----------===//
//
// The signal-processing ops of opset 17 need no instruction of their own:
//
//  - HannWindow, HammingWindow, BlackmanWindow and MelWeightMatrix take only
//    compile-time sizes and parameters, so they fold to constant tensors
//    (SignalMath.h), computed with the spec's formulas.
//  - DFT along an axis is one MatMul by a constant real [L*c, 2*bins] matrix
//    (c = 1 for a real, 2 for a complex input; the output interleaves re,
//    im): the matrix unit holds the cos/sin matrix as weights while the
//    signal streams through it. The axis is transposed next to the complex
//    dim first when it is not already there, and back afterwards.
//  - STFT frames the signal with one Gather of constant indices ([frames,
//    frame_length], overlapping frames repeat samples), multiplies by the
//    window (folded into the DFT matrix when the window is a constant) and
//    applies the same DFT matrix.
//
// dft_length, frame_step and frame_length must be compile-time constants.
//
//===----------------------------------------------------------------------===//
#include "OpImporters.h"
#include "SignalMath.h"
#include "Tensors.h"

#include "lpx/Dialect/Graph/IR/GraphOps.h"

#include "llvm/ADT/APFloat.h"

#include <cstring>

using namespace mlir;
using namespace lpx::graph;

namespace lpx::onnximport {
namespace {

/// Input `i` as one integer (a scalar or a one-element tensor).
FailureOr<int64_t> constScalarInt(NodeContext &n, unsigned i,
                                  StringRef what) {
  auto v = n.constInts(i);
  if (failed(v))
    return failure();
  if (v->size() != 1)
    return n.fail(what + " must be a scalar, has " + Twine(v->size()) +
                  " values");
  return (*v)[0];
}

/// Binds output 0 to a constant of the node's output_datatype (default
/// FLOAT; the floating-point types only).
LogicalResult setFloatOutput(NodeContext &n, ArrayRef<int64_t> shape,
                             ArrayRef<double> values) {
  int64_t dtype = n.intAttr("output_datatype", onnx::TensorProto::FLOAT);
  const llvm::fltSemantics *sem = nullptr;
  switch (dtype) {
  case onnx::TensorProto::FLOAT: sem = &APFloat::IEEEsingle(); break;
  case onnx::TensorProto::DOUBLE: sem = &APFloat::IEEEdouble(); break;
  case onnx::TensorProto::FLOAT16: sem = &APFloat::IEEEhalf(); break;
  case onnx::TensorProto::BFLOAT16: sem = &APFloat::BFloat(); break;
  default:
    return n.fail("output_datatype " + dataTypeName(int32_t(dtype)) +
                  " is not supported (floating-point types only)");
  }
  onnx::TensorProto t;
  t.set_data_type(int32_t(dtype));
  for (int64_t d : shape)
    t.add_dims(d);
  std::string raw;
  for (double v : values) {
    APFloat f(v);
    bool lost;
    f.convert(*sem, APFloat::rmNearestTiesToEven, &lost);
    llvm::APInt bits = f.bitcastToAPInt();
    uint64_t word = bits.getZExtValue();
    raw.append(reinterpret_cast<const char *>(&word), bits.getBitWidth() / 8);
  }
  t.set_raw_data(std::move(raw));
  n.setConstOutput(0, std::move(t));
  return success();
}

LogicalResult importWindow(NodeContext &n) {
  WindowKind kind = n.node.op_type() == "HannWindow"      ? WindowKind::Hann
                    : n.node.op_type() == "HammingWindow" ? WindowKind::Hamming
                                                          : WindowKind::Blackman;
  auto size = constScalarInt(n, 0, "size");
  if (failed(size))
    return failure();
  if (*size < 0)
    return n.fail("size must not be negative, is " + Twine(*size));
  bool periodic = n.intAttr("periodic", 1) != 0;
  return setFloatOutput(n, {*size}, windowFunction(kind, *size, periodic));
}

LogicalResult importMelWeightMatrix(NodeContext &n) {
  auto bins = constScalarInt(n, 0, "num_mel_bins");
  if (failed(bins))
    return failure();
  auto dftLength = constScalarInt(n, 1, "dft_length");
  if (failed(dftLength))
    return failure();
  auto rate = constScalarInt(n, 2, "sample_rate");
  if (failed(rate))
    return failure();
  auto lower = n.constDoubles(3);
  if (failed(lower))
    return failure();
  auto upper = n.constDoubles(4);
  if (failed(upper))
    return failure();
  if (lower->size() != 1 || upper->size() != 1)
    return n.fail("lower_edge_hertz and upper_edge_hertz must be scalars");
  if (*bins < 1 || *dftLength < 1 || *rate < 1)
    return n.fail("num_mel_bins, dft_length and sample_rate must be positive");
  std::vector<double> m = melWeightMatrix(*bins, *dftLength, *rate,
                                          float((*lower)[0]), float((*upper)[0]));
  if (m.empty())
    return n.fail("the mel edges must lie in [0, sample_rate / 2]");
  return setFloatOutput(n, {*dftLength / 2 + 1, *bins}, m);
}

/// Multiplies the last dim of `v` ([..., L*c]) by the DFT matrix `w`
/// ([L*c, 2*bins]) and splits the result into [..., bins, 2].
FailureOr<Value> applyDft(NodeContext &n, Value v, int64_t rows, int64_t bins,
                          ArrayRef<double> w) {
  Value m = n.floatConstant({rows, 2 * bins}, n.typeOf(v).getElementType(), w);
  auto y = n.create<MatMulOp>(v, m);
  if (failed(y))
    return failure();
  SmallVector<int64_t> shape(n.typeOf(*y).getShape());
  shape.back() = bins;
  shape.push_back(2);
  return n.reshape(*y, shape);
}

LogicalResult importDFT(NodeContext &n) {
  auto x = n.input(0);
  if (failed(x))
    return failure();
  auto xt = n.typeOf(*x);
  const int64_t rank = xt.getRank();
  Type elt = xt.getElementType();
  if (!llvm::isa<FloatType>(elt))
    return n.fail("the input must be floating-point");
  if (rank < 2)
    return n.fail("the input must have rank 2 or more ([..., signal, 1|2]), "
                  "has rank " + Twine(rank));
  const int64_t c = xt.getDimSize(rank - 1);
  if (c != 1 && c != 2)
    return n.fail("the last dim must be 1 (real) or 2 (complex), is " +
                  Twine(c));
  int64_t axis = n.intAttr("axis", 1);
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis > rank - 2)
    return n.fail("axis " + Twine(n.intAttr("axis", 1)) +
                  " is out of range for rank " + Twine(rank) +
                  " (the last dim holds the complex components)");
  const bool inverse = n.intAttr("inverse", 0) != 0;
  const bool onesided = n.intAttr("onesided", 0) != 0;
  const int64_t len = xt.getDimSize(axis);
  int64_t dftLen = len;
  if (n.hasInput(1)) {
    auto d = constScalarInt(n, 1, "dft_length");
    if (failed(d))
      return failure();
    dftLen = *d;
  }
  if (dftLen < 1)
    return n.fail("dft_length must be positive, is " + Twine(dftLen));
  if (onesided && c == 2)
    return n.fail("onesided needs a real input (last dim 1)");
  if (onesided && inverse)
    return n.fail("onesided with inverse is not supported");
  const int64_t bins = onesided ? dftLen / 2 + 1 : dftLen;

  // Bring the axis next to the component dim: [..., L, c].
  Value v = *x;
  SmallVector<int64_t> perm;
  const bool moved = axis != rank - 2;
  if (moved) {
    for (int64_t d = 0; d < rank - 1; ++d)
      if (d != axis)
        perm.push_back(d);
    perm.push_back(axis);
    perm.push_back(rank - 1);
    auto moved = n.create<TransposeOp>(v, perm);
    if (failed(moved))
      return failure();
    v = *moved;
  }
  SmallVector<int64_t> flat(n.typeOf(v).getShape().drop_back(2));
  flat.push_back(len * c);
  v = n.reshape(v, flat);
  auto y = applyDft(n, v, len * c, bins,
                    dftMatrix(len, c, dftLen, bins, inverse));
  if (failed(y) || !moved)
    return n.setOutput(0, y);
  SmallVector<int64_t> inv(rank);
  for (int64_t i = 0; i < rank; ++i)
    inv[perm[i]] = i;
  return n.setOutput(0, n.create<TransposeOp>(*y, inv));
}

LogicalResult importSTFT(NodeContext &n) {
  auto signal = n.input(0);
  if (failed(signal))
    return failure();
  auto st = n.typeOf(*signal);
  Type elt = st.getElementType();
  if (!llvm::isa<FloatType>(elt))
    return n.fail("the signal must be floating-point");
  if (st.getRank() != 3 || (st.getDimSize(2) != 1 && st.getDimSize(2) != 2))
    return n.fail("the signal must be [batch, length, 1|2]");
  const int64_t batch = st.getDimSize(0), length = st.getDimSize(1),
                c = st.getDimSize(2);
  auto step = constScalarInt(n, 1, "frame_step");
  if (failed(step))
    return failure();
  if (*step < 1)
    return n.fail("frame_step must be positive, is " + Twine(*step));
  int64_t frameLength = -1;
  Value window;
  std::vector<double> windowValues;
  if (n.hasInput(2)) {
    if (const onnx::TensorProto *ct = n.constTensor(2)) {
      if (ct->dims_size() != 1)
        return n.fail("the window must have rank 1");
      auto w = n.constDoubles(2);
      if (failed(w))
        return failure();
      windowValues = std::move(*w);
      frameLength = windowValues.size();
    } else {
      auto w = n.input(2);
      if (failed(w))
        return failure();
      window = *w;
      auto wt = n.typeOf(window);
      if (wt.getRank() != 1)
        return n.fail("the window must have rank 1");
      if (wt.getElementType() != elt)
        return n.fail("the window's element type must be the signal's");
      frameLength = wt.getDimSize(0);
    }
  }
  if (n.hasInput(3)) {
    auto f = constScalarInt(n, 3, "frame_length");
    if (failed(f))
      return failure();
    if (frameLength >= 0 && *f != frameLength)
      return n.fail("frame_length " + Twine(*f) +
                    " differs from the window's length " + Twine(frameLength));
    frameLength = *f;
  }
  if (frameLength < 0)
    return n.fail("one of window and frame_length must be given");
  if (frameLength < 1 || frameLength > length)
    return n.fail("frame_length " + Twine(frameLength) +
                  " must be in [1, signal length " + Twine(length) + "]");
  const bool onesided = n.intAttr("onesided", 1) != 0;
  if (onesided && c == 2)
    return n.fail("onesided needs a real signal (last dim 1)");
  const int64_t frames = (length - frameLength) / *step + 1;
  const int64_t bins = onesided ? frameLength / 2 + 1 : frameLength;

  // [batch, frames, frameLength, c] by one Gather along the signal axis.
  std::vector<int64_t> idx;
  idx.reserve(size_t(frames * frameLength));
  for (int64_t f = 0; f < frames; ++f)
    for (int64_t j = 0; j < frameLength; ++j)
      idx.push_back(f * *step + j);
  auto it = n.tensorOf({frames, frameLength}, n.builder().getI64Type());
  Value indices =
      n.create<ConstantOp>(DenseElementsAttr::get(it, ArrayRef<int64_t>(idx)));
  auto v = n.create<GatherOp>(*signal, indices,
                              n.builder().getI64IntegerAttr(1));
  if (succeeded(v) && window)
    v = n.create<MulOp>(*v, n.reshape(window, {1, 1, frameLength, 1}));
  if (failed(v))
    return failure();
  auto y = applyDft(n, n.reshape(*v, {batch, frames, frameLength * c}),
                    frameLength * c, bins,
                    dftMatrix(frameLength, c, frameLength, bins, false,
                              windowValues));
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

} // namespace

void addSignalImporters(llvm::StringMap<OpImporter> &table) {
  table["DFT"] = importDFT;
  table["STFT"] = importSTFT;
  table["HannWindow"] = importWindow;
  table["HammingWindow"] = importWindow;
  table["BlackmanWindow"] = importWindow;
  table["MelWeightMatrix"] = importMelWeightMatrix;
}

} // namespace lpx::onnximport
