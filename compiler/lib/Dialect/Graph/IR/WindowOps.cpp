//===- WindowOps.cpp - lpx_graph conv, conv_transpose, pool verifiers -----===//
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

LogicalResult ConvOp::verify() {
  auto x = rankedType(getInput()), w = rankedType(getWeight());
  auto out = rankedType(getResult());
  int64_t rank = x.getRank(), s = rank - 2;
  if (s < 1 || w.getRank() != rank || out.getRank() != rank)
    return emitOpError("input, weight and result need the same rank, 3 or more");
  Type elt = out.getElementType();
  // Floating-point conv in one type; integer conv in i32, whose operands
  // may also be i8 (the matrix unit accumulates int8 products in int32).
  bool int8Acc32 = elt.isSignlessInteger(32) &&
                   x.getElementType().isSignlessInteger(8) &&
                   w.getElementType().isSignlessInteger(8);
  if (!int8Acc32 &&
      (x.getElementType() != elt || w.getElementType() != elt))
    return emitOpError("operands and result must share the element type "
                       "(or be i8 for an i32 result)");
  if (!llvm::isa<FloatType>(elt) && !elt.isSignlessInteger(32))
    return emitOpError("conv needs a floating-point or i32 type");
  if (int64_t(getStrides().size()) != s || int64_t(getDilations().size()) != s ||
      int64_t(getPads().size()) != 2 * s)
    return emitOpError("strides and dilations need ")
           << s << " entries and pads " << 2 * s;
  int64_t g = getGroup();
  if (g < 1 || x.getDimSize(1) != w.getDimSize(1) * g ||
      w.getDimSize(0) % g != 0)
    return emitOpError("channels do not match the weight and group ") << g;
  if (getBias()) {
    auto b = rankedType(getBias());
    if (b.getRank() != 1 || b.getDimSize(0) != w.getDimSize(0) ||
        b.getElementType() != out.getElementType())
      return emitOpError("bias must be [M] of the result's element type");
  }
  if (out.getDimSize(0) != x.getDimSize(0) || out.getDimSize(1) != w.getDimSize(0))
    return emitOpError("result must be [N, M, ...]");
  for (int64_t d = 0; d < s; ++d) {
    if (getStrides()[d] < 1 || getDilations()[d] < 1)
      return emitOpError("strides and dilations must be positive");
    int64_t want = windowedExtent(x.getDimSize(2 + d), w.getDimSize(2 + d),
                                  getStrides()[d], getDilations()[d],
                                  getPads()[d], getPads()[s + d]);
    if (want < 0 || out.getDimSize(2 + d) != want)
      return emitOpError("result spatial dim ") << d << " should be " << want;
  }
  return success();
}

LogicalResult ConvTransposeOp::verify() {
  auto x = rankedType(getInput()), w = rankedType(getWeight());
  auto out = rankedType(getResult());
  int64_t rank = x.getRank(), s = rank - 2;
  if (s < 1 || w.getRank() != rank || out.getRank() != rank)
    return emitOpError("input, weight and result need the same rank, 3 or more");
  if (x.getElementType() != out.getElementType() ||
      w.getElementType() != out.getElementType())
    return emitOpError("operands and result must share the element type");
  if (!llvm::isa<FloatType>(out.getElementType()))
    return emitOpError("conv_transpose needs a floating-point type");
  if (int64_t(getStrides().size()) != s || int64_t(getDilations().size()) != s ||
      int64_t(getOutputPadding().size()) != s ||
      int64_t(getPads().size()) != 2 * s)
    return emitOpError("strides, dilations and output_padding need ")
           << s << " entries and pads " << 2 * s;
  int64_t g = getGroup();
  if (g < 1 || x.getDimSize(1) != w.getDimSize(0) || w.getDimSize(0) % g != 0)
    return emitOpError("the weight must be [C, M/group, kernel...] for group ")
           << g;
  int64_t m = w.getDimSize(1) * g;
  if (getBias()) {
    auto b = rankedType(getBias());
    if (b.getRank() != 1 || b.getDimSize(0) != m ||
        b.getElementType() != out.getElementType())
      return emitOpError("bias must be [M] of the result's element type");
  }
  if (out.getDimSize(0) != x.getDimSize(0) || out.getDimSize(1) != m)
    return emitOpError("result must be [N, M, ...] with M = ") << m;
  for (int64_t d = 0; d < s; ++d) {
    if (getStrides()[d] < 1 || getDilations()[d] < 1)
      return emitOpError("strides and dilations must be positive");
    if (getOutputPadding()[d] < 0)
      return emitOpError("output_padding must not be negative");
    int64_t want = getStrides()[d] * (x.getDimSize(2 + d) - 1) +
                   getDilations()[d] * (w.getDimSize(2 + d) - 1) + 1 +
                   getOutputPadding()[d] - getPads()[d] - getPads()[s + d];
    if (want < 1 || out.getDimSize(2 + d) != want)
      return emitOpError("result spatial dim ") << d << " should be " << want;
  }
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

