//===- MatMul.cpp - numpy matmul ------------------------------------------===//
//
// 1-D operands are promoted (A to a row, B to a column) and the added
// dimension dropped from the result; batch dimensions broadcast. Floating
// types multiply with Eigen in their compute type; integers use a plain loop
// with wrapping arithmetic.
//
//===----------------------------------------------------------------------===//
#include "ElementTypes.h"
#include "Kernels.h"
#include <Eigen/Core>

using namespace lpx::rt;
namespace isa = lpx::isa;

namespace {
struct MatMulShape {
  int64_t m, k, n;
  Strides batch;          // the result's batch dims
  Strides aBatch, bBatch; // batch dims of each operand
};
} // namespace

/// Reads m, k, n and the batch dims from the operands and the result buffer
/// the program gives (as elementwise kernels do, the result's shape is not
/// re-derived): the inner dims must agree and each operand's batch dims
/// must broadcast to the result's.
static llvm::Expected<MatMulShape> readShape(llvm::ArrayRef<int64_t> a,
                                             llvm::ArrayRef<int64_t> b,
                                             llvm::ArrayRef<int64_t> out) {
  auto mismatch = [&] {
    return fail("matmul of " + shapeStr(a) + " and " + shapeStr(b) +
                " cannot give a result buffer of " + shapeStr(out));
  };
  if (a.empty() || b.empty())
    return fail("matmul operands must have rank at least 1");
  MatMulShape s;
  bool dropM = a.size() == 1, dropN = b.size() == 1;
  s.m = dropM ? 1 : a[a.size() - 2];
  s.k = a.back();
  int64_t kb = dropN ? b[0] : b[b.size() - 2];
  s.n = dropN ? 1 : b.back();
  if (s.k != kb)
    return fail("matmul inner dimensions differ: " + shapeStr(a) + " x " +
                shapeStr(b));
  // numpy matmul: 1-D operands lose their added dim again in the result.
  size_t tail = (dropM ? 0 : 1) + (dropN ? 0 : 1);
  if (out.size() < tail || (!dropN && out.back() != s.n) ||
      (!dropM && out[out.size() - tail] != s.m))
    return mismatch();
  s.batch.assign(out.begin(), out.end() - tail);
  s.aBatch.assign(a.begin(), a.end() - (dropM ? 1 : 2));
  s.bBatch.assign(b.begin(), b.end() - (dropN ? 1 : 2));
  if (s.batch.size() != std::max(s.aBatch.size(), s.bBatch.size()))
    return mismatch();
  return s;
}

template <typename C>
static void multiply(const C *a, const C *b, C *c, int64_t m, int64_t k,
                     int64_t n) {
  if constexpr (std::is_floating_point_v<C>) {
    using Mat = Eigen::Matrix<C, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    Eigen::Map<const Mat> ma(a, m, k), mb(b, k, n);
    Eigen::Map<Mat> mc(c, m, n);
    mc.noalias() = ma * mb;
  } else {
    using W = WrapType<C>;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        W acc = 0;
        for (int64_t p = 0; p < k; ++p)
          acc += W(a[i * k + p]) * W(b[p * n + j]);
        c[i * n + j] = static_cast<C>(acc);
      }
  }
}

template <typename C> static bool isAligned(const uint8_t *p) {
  return reinterpret_cast<uintptr_t>(p) % alignof(C) == 0;
}

std::vector<float> lpx::rt::widenToFloat(const View &v) {
  std::vector<float> out;
  llvm::consumeError(dispatchType(v.dtype, [&](auto E) -> llvm::Error {
    using Et = decltype(E);
    if constexpr (isFloatElem<Et> ||
                  std::is_same_v<typename Et::Storage, int8_t>) {
      const int64_t n = v.elements();
      out.resize(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i)
        out[i] = static_cast<float>(Et::load(v.data + i * Et::bytes));
    }
    return llvm::Error::success();
  }));
  return out;
}

bool lpx::rt::widensOperand(isa::Opcode op, isa::DType operand,
                            isa::DType result) {
  auto reduced = [](isa::DType t) {
    return isa::isFloat(t) && t != isa::DType::F32 && t != isa::DType::F64;
  };
  if (result == isa::DType::F64 || !isa::isFloat(result))
    return false;
  if (op == isa::Opcode::Conv)
    return operand == result && reduced(operand);
  return op == isa::Opcode::MatMul &&
         (reduced(operand) || operand == isa::DType::I8);
}

/// Elements of a floating-point or int8 view as float: the machine's
/// widened copy when it keeps one, else converted into `copy`.
static llvm::Expected<const float *> floatsOf(const View &v,
                                              std::vector<float> &copy) {
  if (v.widened)
    return v.widened;
  if (!isa::isFloat(v.dtype) && v.dtype != isa::DType::I8)
    return fail("mixed-type matmul needs floating-point or int8 operands");
  copy = widenToFloat(v);
  return copy.data();
}

llvm::Error lpx::rt::matMul(const View &a, const View &b, const OutView &out) {
  // int8 x int8 with an int32 result accumulates exactly in int32.
  const bool int8Acc32 = a.dtype == isa::DType::I8 &&
                         b.dtype == isa::DType::I8 &&
                         out.dtype == isa::DType::I32;
  // The matrix unit also takes weights in one format and activations in
  // another (fp8 or int8 weights, fp16 activations): products accumulate in
  // fp32 and round once to the result's format.
  bool mixed = !int8Acc32 && (a.dtype != out.dtype || b.dtype != out.dtype);
  bool weightOk = isa::isFloat(b.dtype) || b.dtype == isa::DType::I8;
  if (mixed && !(isa::isFloat(a.dtype) && weightOk &&
                 isa::isFloat(out.dtype))) {
    if (auto e = expectType("first operand", a.dtype, out.dtype))
      return e;
    if (auto e = expectType("second operand", b.dtype, out.dtype))
      return e;
  }
  auto shape = readShape(a.shape, b.shape, out.shape);
  if (!shape)
    return shape.takeError();
  const MatMulShape &s = *shape;
  auto sa = broadcastStrides(s.aBatch, s.batch);
  auto sb = broadcastStrides(s.bBatch, s.batch);
  if (!sa || !sb)
    return llvm::joinErrors(sa.takeError(), sb.takeError());
  std::array<Strides, 3> strides = {*sa, *sb, contiguousStrides(s.batch)};
  // C = A x B for every batch index, broadcasting A's and B's batch dims.
  auto batched = [&](const auto *va, const auto *vb, auto *vc) {
    const int64_t aMat = s.m * s.k, bMat = s.k * s.n, cMat = s.m * s.n;
    forEachIndex<3>(s.batch, strides, {0, 0, 0}, [&](const auto &off) {
      multiply(va + off[0] * aMat, vb + off[1] * bMat, vc + off[2] * cMat, s.m,
               s.k, s.n);
    });
  };

  if (int8Acc32) {
    using I8 = Elem<int8_t, int8_t>;
    using I32 = Elem<int32_t, int32_t>;
    std::vector<int8_t> a8 = loadAll<I8>(a.data, a.elements());
    std::vector<int8_t> b8 = loadAll<I8>(b.data, b.elements());
    std::vector<int32_t> va(a8.begin(), a8.end()), vb(b8.begin(), b8.end());
    std::vector<int32_t> vc(static_cast<size_t>(out.elements()));
    batched(va.data(), vb.data(), vc.data());
    for (size_t i = 0; i < vc.size(); ++i)
      I32::store(out.data + i * I32::bytes, vc[i]);
    return llvm::Error::success();
  }

  if (mixed) {
    std::vector<float> ca, cb;
    auto va = floatsOf(a, ca);
    if (!va)
      return va.takeError();
    auto vb = floatsOf(b, cb);
    if (!vb)
      return vb.takeError();
    std::vector<float> vc(static_cast<size_t>(out.elements()));
    batched(*va, *vb, vc.data());
    return dispatchType(out.dtype, [&](auto E) -> llvm::Error {
      using Et = decltype(E);
      if constexpr (isFloatElem<Et>) {
        for (size_t i = 0; i < vc.size(); ++i)
          Et::store(out.data + i * Et::bytes,
                    static_cast<typename Et::Compute>(vc[i]));
      }
      return llvm::Error::success();
    });
  }

  return dispatchNumericType("matmul", out.dtype, [&](auto E) -> llvm::Error {
    using Et = decltype(E);
    using C = typename Et::Compute;
    // Operands stored as their compute type at its alignment are
    // multiplied where they are, without copies.
    if constexpr (std::is_same_v<typename Et::Storage, C>) {
      if (isAligned<C>(a.data) && isAligned<C>(b.data) &&
          isAligned<C>(out.data)) {
        batched(reinterpret_cast<const C *>(a.data),
                reinterpret_cast<const C *>(b.data),
                reinterpret_cast<C *>(out.data));
        return llvm::Error::success();
      }
    }
    // Aligned copies: buffers sit at arbitrary byte addresses, and f16,
    // bf16 and fp8 compute in float (a constant's widened once at load).
    auto operand = [&](const View &v, std::vector<C> &copy) -> const C * {
      if constexpr (std::is_same_v<C, float>)
        if (v.widened)
          return v.widened;
      copy = loadAll<Et>(v.data, v.elements());
      return copy.data();
    };
    std::vector<C> ca, cb;
    const C *va = operand(a, ca), *vb = operand(b, cb);
    std::vector<C> vc(static_cast<size_t>(out.elements()));
    batched(va, vb, vc.data());
    for (size_t i = 0; i < vc.size(); ++i)
      Et::store(out.data + i * Et::bytes, vc[i]);
    return llvm::Error::success();
  });
}
