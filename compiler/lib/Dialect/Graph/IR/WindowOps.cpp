//===- WindowOps.cpp - lpx_graph conv, conv_transpose, pool shape rules --===//
#include "GraphOpUtils.h"
#include "lpx/Dialect/Graph/IR/GraphOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace lpx::graph;
using namespace lpx::graph::detail;

/// Output extent of one spatial dim, or -1 when the window does not fit.
static int64_t windowedExtent(int64_t in, int64_t k, int64_t stride,
                              int64_t dil, int64_t padLo, int64_t padHi) {
  int64_t span = dil * (k - 1) + 1;
  int64_t room = in + padLo + padHi - span;
  if (room < 0)
    return -1;
  return room / stride + 1;
}

/// The spatial rank of a conv's input and weight: their rank less the batch
/// (or out-channel) and channel dims; an error unless they share a rank of 3
/// or more.
static FailureOr<int64_t> spatialRank(std::optional<Location> loc,
                                      RankedTensorType x, RankedTensorType w) {
  int64_t s = x.getRank() - 2;
  if (s < 1 || w.getRank() != x.getRank())
    return emitOptionalError(loc, "input and weight need the same rank, 3 or "
                                  "more");
  return s;
}

/// A conv's optional bias: [m] of the result's element type `elt`.
static LogicalResult checkBias(std::optional<Location> loc, Value bias,
                               int64_t m, Type elt) {
  if (!bias)
    return success();
  auto b = rankedType(bias);
  if (b.getRank() != 1 || b.getDimSize(0) != m || b.getElementType() != elt)
    return emitOptionalError(loc, "bias must be [M] of the result's element "
                                  "type");
  return success();
}

// Conv and conv_transpose infer their result type (InferTypeOpAdaptor): the
// checks below are their shape rules, run by the builders and the verifier.

LPX_INFER_RETURN_TYPES(ConvOp) {
  auto x = rankedType(adaptor.getInput()), w = rankedType(adaptor.getWeight());
  FailureOr<int64_t> spatial = spatialRank(loc, x, w);
  if (failed(spatial))
    return failure();
  int64_t s = *spatial;
  // Floating-point conv in one type; integer conv in i32, whose operands
  // may also be i8 (the matrix unit accumulates int8 products in int32).
  Type elt = x.getElementType();
  if (elt.isSignlessInteger(8) && w.getElementType().isSignlessInteger(8))
    elt = IntegerType::get(ctx, 32);
  else if (w.getElementType() != elt)
    return emitOptionalError(loc, "operands must share the element type (or "
                                  "be i8 for an i32 result)");
  if (!llvm::isa<FloatType>(elt) && !elt.isSignlessInteger(32))
    return emitOptionalError(loc, "conv needs a floating-point or i32 type");
  ArrayRef<int64_t> strides = adaptor.getStrides(),
                    dilations = adaptor.getDilations(), pads = adaptor.getPads();
  if (int64_t(strides.size()) != s || int64_t(dilations.size()) != s ||
      int64_t(pads.size()) != 2 * s)
    return emitOptionalError(loc, "strides and dilations need ", s,
                             " entries and pads ", 2 * s);
  int64_t g = adaptor.getGroup();
  if (g < 1 || x.getDimSize(1) != w.getDimSize(1) * g ||
      w.getDimSize(0) % g != 0)
    return emitOptionalError(loc, "channels ", shapeStr(x.getShape()),
                             " and weight ", shapeStr(w.getShape()),
                             " do not match group ", g);
  if (failed(checkBias(loc, adaptor.getBias(), w.getDimSize(0), elt)))
    return failure();
  SmallVector<int64_t> shape{x.getDimSize(0), w.getDimSize(0)};
  for (int64_t d = 0; d < s; ++d) {
    if (strides[d] < 1 || dilations[d] < 1)
      return emitOptionalError(loc, "strides and dilations must be positive");
    shape.push_back(windowedExtent(x.getDimSize(2 + d), w.getDimSize(2 + d),
                                   strides[d], dilations[d], pads[d],
                                   pads[s + d]));
    if (shape.back() < 0)
      return emitOptionalError(loc, "the window of spatial dim ", d,
                               " does not fit the padded input");
  }
  types.push_back(RankedTensorType::get(shape, elt));
  return success();
}

LPX_INFER_RETURN_TYPES(ConvTransposeOp) {
  auto x = rankedType(adaptor.getInput()), w = rankedType(adaptor.getWeight());
  Type elt = x.getElementType();
  FailureOr<int64_t> spatial = spatialRank(loc, x, w);
  if (failed(spatial))
    return failure();
  int64_t s = *spatial;
  if (w.getElementType() != elt)
    return emitOptionalError(loc, "operands must share the element type");
  if (!llvm::isa<FloatType>(elt))
    return emitOptionalError(loc, "conv_transpose needs a floating-point type");
  ArrayRef<int64_t> strides = adaptor.getStrides(),
                    dilations = adaptor.getDilations(), pads = adaptor.getPads(),
                    outPad = adaptor.getOutputPadding();
  if (int64_t(strides.size()) != s || int64_t(dilations.size()) != s ||
      int64_t(outPad.size()) != s || int64_t(pads.size()) != 2 * s)
    return emitOptionalError(loc, "strides, dilations and output_padding need ",
                             s, " entries and pads ", 2 * s);
  int64_t g = adaptor.getGroup();
  if (g < 1 || x.getDimSize(1) != w.getDimSize(0) || w.getDimSize(0) % g != 0)
    return emitOptionalError(
        loc, "the weight must be [C, M/group, kernel...] for group ", g);
  int64_t m = w.getDimSize(1) * g;
  if (failed(checkBias(loc, adaptor.getBias(), m, elt)))
    return failure();
  SmallVector<int64_t> shape{x.getDimSize(0), m};
  for (int64_t d = 0; d < s; ++d) {
    if (strides[d] < 1 || dilations[d] < 1)
      return emitOptionalError(loc, "strides and dilations must be positive");
    if (outPad[d] < 0)
      return emitOptionalError(loc, "output_padding must not be negative");
    shape.push_back(strides[d] * (x.getDimSize(2 + d) - 1) +
                    dilations[d] * (w.getDimSize(2 + d) - 1) + 1 + outPad[d] -
                    pads[d] - pads[s + d]);
    if (shape.back() < 1)
      return emitOptionalError(loc, "result spatial dim ", d, " would be ",
                               shape.back());
  }
  types.push_back(RankedTensorType::get(shape, elt));
  return success();
}

LogicalResult PoolOp::verify() {
  auto x = rankedType(getInput()), out = rankedType(getResult());
  int64_t rank = x.getRank(), s = rank - 2;
  if (s < 1 || out.getRank() != rank)
    return emitOpError("input and result need the same rank, 3 or more");
  if (x.getElementType() != out.getElementType())
    return emitOpError("pool must keep the element type");
  if (getKind() == PoolKind::Avg && !llvm::isa<FloatType>(out.getElementType()))
    return emitOpError("average pooling needs a floating-point type");
  if (int64_t(getKernelShape().size()) != s || int64_t(getStrides().size()) != s ||
      int64_t(getDilations().size()) != s || int64_t(getPads().size()) != 2 * s)
    return emitOpError("kernel_shape, strides and dilations need ")
           << s << " entries and pads " << 2 * s;
  if (out.getDimSize(0) != x.getDimSize(0) || out.getDimSize(1) != x.getDimSize(1))
    return emitOpError("result must keep the batch and channel dims");
  for (int64_t d = 0; d < s; ++d) {
    if (getKernelShape()[d] < 1 || getStrides()[d] < 1 || getDilations()[d] < 1)
      return emitOpError("kernel_shape, strides and dilations must be positive");
    int64_t floor = windowedExtent(x.getDimSize(2 + d), getKernelShape()[d],
                                   getStrides()[d], getDilations()[d],
                                   getPads()[d], getPads()[s + d]);
    // ceil mode may add one window that starts inside the padded input.
    if (floor < 0 || (out.getDimSize(2 + d) != floor &&
                      out.getDimSize(2 + d) != floor + 1))
      return emitOpError("result spatial dim ") << d << " should be " << floor;
  }
  return success();
}

