//===- Elementwise.cpp - Arithmetic with numpy broadcasting ---------------===//
#include "ElementTypes.h"
#include "Kernels.h"

using namespace lpx::rt;
namespace isa = lpx::isa;
using lpx::isa::DType;
using lpx::isa::Opcode;

llvm::Error lpx::rt::expectType(const char *role, DType got, DType want) {
  if (got == want)
    return llvm::Error::success();
  return fail(llvm::Twine(role) + " has element type " +
              std::string(isa::dtypeName(got)) + ", expected " +
              std::string(isa::dtypeName(want)));
}

static std::string opName(Opcode op) { return std::string(isa::mnemonic(op)); }

namespace {
// Integer arithmetic wraps like numpy; signed overflow must not reach C++.
template <typename T> T wrapAdd(T a, T b) {
  return static_cast<T>(WrapType<T>(a) + WrapType<T>(b));
}
template <typename T> T wrapSub(T a, T b) {
  return static_cast<T>(WrapType<T>(a) - WrapType<T>(b));
}
template <typename T> T wrapMul(T a, T b) {
  return static_cast<T>(WrapType<T>(a) * WrapType<T>(b));
}
} // namespace

llvm::Error lpx::rt::binary(Opcode op, const View &a, const View &b,
                            const OutView &out) {
  if (auto e = expectType("first operand", a.dtype, out.dtype))
    return e;
  // ONNX Pow lets the exponent have its own type.
  if (op != Opcode::Pow)
    if (auto e = expectType("second operand", b.dtype, out.dtype))
      return e;
  auto sa = broadcastStrides(a.shape, out.shape);
  if (!sa)
    return sa.takeError();
  auto sb = broadcastStrides(b.shape, out.shape);
  if (!sb)
    return sb.takeError();
  std::array<Strides, 3> strides = {*sa, *sb, contiguousStrides(out.shape)};

  std::vector<double> exponent;
  if (op == Opcode::Pow) {
    if (auto e = dispatchType(b.dtype, [&](auto E) -> llvm::Error {
          using Ex = decltype(E);
          exponent.resize(b.elements());
          for (int64_t i = 0; i < b.elements(); ++i)
            exponent[i] = convertValue<double>(Ex::load(b.data + i * Ex::bytes));
          return llvm::Error::success();
        }))
      return e;
  }

  return dispatchType(out.dtype, [&](auto E) -> llvm::Error {
    using Et = decltype(E);
    using C = typename Et::Compute;
    if constexpr (isBoolElem<Et>) {
      return fail(opName(op) + " is not defined for bool");
    } else {
      const size_t w = Et::bytes;
      bool divByZero = false;
      auto apply = [&](C x, C y, int64_t yIndex) -> C {
        switch (op) {
        case Opcode::Add:
          if constexpr (isIntElem<Et>)
            return wrapAdd(x, y);
          else
            return x + y;
        case Opcode::Sub:
          if constexpr (isIntElem<Et>)
            return wrapSub(x, y);
          else
            return x - y;
        case Opcode::Mul:
          if constexpr (isIntElem<Et>)
            return wrapMul(x, y);
          else
            return x * y;
        case Opcode::Div:
          if constexpr (isIntElem<Et>) {
            if (y == 0) {
              divByZero = true;
              return 0;
            }
            // C truncation, as ONNX specifies; MIN / -1 wraps to MIN.
            if constexpr (std::is_signed_v<C>)
              if (y == C(-1))
                return wrapSub(C(0), x);
            return static_cast<C>(x / y);
          } else {
            return x / y;
          }
        case Opcode::Pow:
          return convertValue<C>(
              std::pow(static_cast<double>(x), exponent[yIndex]));
        default:
          return x;
        }
      };
      forEachIndex<3>(out.shape, strides, {0, 0, 0}, [&](const auto &off) {
        C x = Et::load(a.data + off[0] * w);
        C y = op == Opcode::Pow ? C(0) : Et::load(b.data + off[1] * w);
        Et::store(out.data + off[2] * w, apply(x, y, off[1]));
      });
      if (divByZero)
        return fail("integer division by zero");
      return llvm::Error::success();
    }
  });
}

llvm::Error lpx::rt::where(const View &cond, const View &x, const View &y,
                           const OutView &out) {
  if (auto e = expectType("condition", cond.dtype, DType::Bool))
    return e;
  if (auto e = expectType("second operand", x.dtype, out.dtype))
    return e;
  if (auto e = expectType("third operand", y.dtype, out.dtype))
    return e;
  std::array<Strides, 4> strides;
  const View *operands[3] = {&cond, &x, &y};
  for (int i = 0; i < 3; ++i) {
    auto s = broadcastStrides(operands[i]->shape, out.shape);
    if (!s)
      return s.takeError();
    strides[i] = *s;
  }
  strides[3] = contiguousStrides(out.shape);
  const size_t w = isa::dtypeBytes(out.dtype);
  forEachIndex<4>(out.shape, strides, {0, 0, 0, 0}, [&](const auto &off) {
    const uint8_t *src = cond.data[off[0]] ? x.data + off[1] * w
                                           : y.data + off[2] * w;
    std::memcpy(out.data + off[3] * w, src, w);
  });
  return llvm::Error::success();
}

llvm::Error lpx::rt::unary(Opcode op, const View &x, const OutView &out) {
  if (auto e = expectType("operand", x.dtype, out.dtype))
    return e;
  if (llvm::ArrayRef<int64_t>(x.shape) != out.shape)
    return fail("operand shape " + shapeStr(x.shape) +
                " differs from result shape " + shapeStr(out.shape));
  return dispatchType(out.dtype, [&](auto E) -> llvm::Error {
    using Et = decltype(E);
    using C = typename Et::Compute;
    if constexpr (isBoolElem<Et>) {
      return fail(opName(op) + " is not defined for bool");
    } else {
      bool transcendental = op == Opcode::Sqrt || op == Opcode::Sigmoid ||
                            op == Opcode::Tanh;
      if (transcendental && !isFloatElem<Et>)
        return fail(opName(op) + " needs a floating-point type, not " +
                    std::string(isa::dtypeName(out.dtype)));
      const int64_t n = x.elements();
      for (int64_t i = 0; i < n; ++i) {
        C v = Et::load(x.data + i * Et::bytes);
        C r = v;
        double d = static_cast<double>(v);
        switch (op) {
        case Opcode::Neg:
          if constexpr (isIntElem<Et>)
            r = wrapSub(C(0), v);
          else
            r = -v;
          break;
        case Opcode::Relu:
          r = v > C(0) ? v : C(0);
          break;
        case Opcode::Sqrt:
          r = static_cast<C>(std::sqrt(d));
          break;
        case Opcode::Tanh:
          r = static_cast<C>(std::tanh(d));
          break;
        case Opcode::Sigmoid:
          // Two forms so exp never overflows.
          if (d >= 0)
            r = static_cast<C>(1.0 / (1.0 + std::exp(-d)));
          else
            r = static_cast<C>(std::exp(d) / (1.0 + std::exp(d)));
          break;
        default:
          return fail(opName(op) + " is not a unary operation");
        }
        Et::store(out.data + i * Et::bytes, r);
      }
      return llvm::Error::success();
    }
  });
}
