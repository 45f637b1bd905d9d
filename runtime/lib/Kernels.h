//===- Kernels.h - Kernels the dispatcher calls -----------------*- C++ -*-===//
//
// Each kernel checks that its operands are consistent with the result (types,
// shapes, attributes) before touching memory, so a malformed program gives an
// error rather than an out-of-bounds access. Results are written to `out`,
// which never aliases an operand.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_RUNTIME_KERNELS_H
#define LPX_RUNTIME_KERNELS_H

#include "Shape.h"
#include "lpx/isa/DType.h"
#include "lpx/isa/ElementwiseFunctions.h"
#include "lpx/isa/Opcode.h"
#include "program.pb.h"

namespace lpx::rt {
namespace pb = lpx::isa::pb;

/// A repeated attribute field as an ArrayRef.
inline llvm::ArrayRef<int64_t>
arrayOf(const google::protobuf::RepeatedField<int64_t> &f) {
  return {f.data(), static_cast<size_t>(f.size())};
}

struct View {
  isa::DType dtype;
  llvm::ArrayRef<int64_t> shape;
  const uint8_t *data;
  /// The elements as float when the machine keeps them so (a constant in a
  /// reduced format read by the matrix kernels, widened once at load: see
  /// widensOperand); else null, and kernels convert `data` themselves.
  const float *widened = nullptr;
  int64_t elements() const { return product(shape); }
};

struct OutView {
  isa::DType dtype;
  llvm::ArrayRef<int64_t> shape;
  uint8_t *data;
  int64_t elements() const { return product(shape); }
};

// MatMul.cpp
llvm::Error matMul(const View &a, const View &b, const OutView &out);
/// Whether `op` reads an operand of type `operand` as float when its result
/// has type `result` (the matrix kernels on reduced formats, and int8
/// weights of a float matmul), so that a constant operand is worth keeping
/// widened (View::widened).
bool widensOperand(isa::Opcode op, isa::DType operand, isa::DType result);
/// The elements of `v` (a floating-point or int8 view) as float, converted
/// as the matrix kernels convert them.
std::vector<float> widenToFloat(const View &v);
// Elementwise.cpp: Add, Sub, Mul, Div, Pow.
llvm::Error binary(isa::Opcode op, const View &a, const View &b,
                   const OutView &out);
llvm::Error where(const View &cond, const View &x, const View &y,
                  const OutView &out);
// Elementwise.cpp: Sqrt, Neg, Relu, Sigmoid, Tanh.
llvm::Error unary(isa::Opcode op, const View &x, const OutView &out);
// TypeConvert.cpp
llvm::Error cast(const View &x, const OutView &out);
// Reduce.cpp
llvm::Error softmax(const View &x, int64_t axis, const OutView &out);
llvm::Error reduceMean(const View &x, llvm::ArrayRef<int64_t> axes,
                       const OutView &out);
// DataMovement.cpp
llvm::Error transpose(const View &x, llvm::ArrayRef<int64_t> perm,
                      const OutView &out);
llvm::Error concat(llvm::ArrayRef<View> xs, int64_t axis, const OutView &out);
llvm::Error slice(const View &x, const pb::SliceAttrs &attrs,
                  const OutView &out);
llvm::Error gather(const View &data, const View &indices, int64_t axis,
                   const OutView &out);
/// Copy and Send: the same bytes, possibly under a new shape.
llvm::Error copyBytes(const View &x, const OutView &out);

// Generic families; the attributes name the function from
// ElementwiseFunctions.def.
// Elementwise.cpp
llvm::Error unaryFn(const View &x, const pb::UnaryAttrs &attrs,
                    const OutView &out);
llvm::Error binaryFn(const View &a, const View &b,
                     const pb::BinaryAttrs &attrs, const OutView &out);
// Rescale.cpp: unary quantize and dequantize (unaryFn hands them over,
// the shapes checked).
llvm::Error rescaleFn(const View &x, isa::UnaryFn fn,
                      llvm::ArrayRef<double> params, const OutView &out);
// Reduce.cpp
llvm::Error reduce(const View &x, const pb::ReduceAttrs &attrs,
                   const OutView &out);
llvm::Error argReduce(const View &x, const pb::ArgReduceAttrs &attrs,
                      const OutView &out);
llvm::Error logSoftmax(const View &x, int64_t axis, const OutView &out);
llvm::Error hardmax(const View &x, int64_t axis, const OutView &out);
llvm::Error cumSum(const View &x, const pb::CumSumAttrs &attrs,
                   const OutView &out);
// DataMovement.cpp
llvm::Error broadcast(const View &x, const OutView &out);
llvm::Error pad(const View &x, const pb::PadAttrs &attrs,
                const OutView &out);
llvm::Error gatherElements(const View &data, const View &indices,
                           int64_t axis, const OutView &out);
// Conv.cpp
llvm::Error conv(llvm::ArrayRef<View> in, const pb::ConvAttrs &attrs,
                 const OutView &out);
llvm::Error pool(const View &x, const pb::PoolAttrs &attrs,
                 const OutView &out);
// Selection.cpp
llvm::Error topK(const View &x, const pb::TopKAttrs &attrs,
                 const OutView &out);
llvm::Error scatterElements(const View &data, const View &indices,
                            const View &updates, const pb::ScatterAttrs &attrs,
                            const OutView &out);
llvm::Error scatterND(const View &data, const View &indices,
                      const View &updates, const pb::ScatterAttrs &attrs,
                      const OutView &out);
// GridSample.cpp
llvm::Error gridSample(const View &x, const View &grid,
                       const pb::GridSampleAttrs &attrs, const OutView &out);
/// Determinants of X [..., n, n] (partial pivoting, in double).
llvm::Error det(const View &x, const OutView &out);
llvm::Error convTranspose(llvm::ArrayRef<View> in, const pb::ConvAttrs &attrs,
                          const OutView &out);

// State.cpp: writes `update` into `state` in place (the only kernel whose
// result is not a scratch buffer; see Opcodes.def).
llvm::Error stateWrite(const View &update, const View &position, int64_t axis,
                       const OutView &state);

/// Error unless `v` has element type `want`; `role` names the operand.
llvm::Error expectType(const char *role, isa::DType got, isa::DType want);

} // namespace lpx::rt

#endif
