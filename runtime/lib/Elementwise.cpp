//===- Elementwise.cpp - Arithmetic with numpy broadcasting ---------------===//
#include "ElementTypes.h"
#include "Kernels.h"
#include "lpx/isa/ElementwiseFunctions.h"
#include "llvm/ADT/bit.h"

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
/// Each operand's strides broadcast to the result's shape, and the result's.
llvm::Expected<std::array<Strides, 3>>
binaryStrides(const View &a, const View &b, const OutView &out) {
  auto sa = broadcastStrides(a.shape, out.shape);
  if (!sa)
    return sa.takeError();
  auto sb = broadcastStrides(b.shape, out.shape);
  if (!sb)
    return sb.takeError();
  return std::array<Strides, 3>{*sa, *sb, contiguousStrides(out.shape)};
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
  auto strides = binaryStrides(a, b, out);
  if (!strides)
    return strides.takeError();

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

  return dispatchNumericType(opName(op), out.dtype, [&](auto E) -> llvm::Error {
    using Et = decltype(E);
    using C = typename Et::Compute;
    const size_t w = Et::bytes;
    bool divByZero = false;
    // The operation is chosen once; operands of the result's shape are
    // walked linearly, broadcast ones through strides.
    const bool linear = llvm::ArrayRef<int64_t>(a.shape) == out.shape &&
                        llvm::ArrayRef<int64_t>(b.shape) == out.shape;
    auto each = [&](auto f) -> llvm::Error {
      if (linear)
        for (int64_t i = 0, n = out.elements(); i < n; ++i)
          Et::store(out.data + i * w,
                    f(Et::load(a.data + i * w), i));
      else
        forEachIndex<3>(out.shape, *strides, {0, 0, 0},
                        [&](const auto &off) {
                          Et::store(out.data + off[2] * w,
                                    f(Et::load(a.data + off[0] * w), off[1]));
                        });
      if (divByZero)
        return fail("integer division by zero");
      return llvm::Error::success();
    };
    // f(x, index of y in b) for the ops whose y has the result's type.
    auto withY = [&](auto f) {
      return each([&](C x, int64_t yi) {
        return f(x, Et::load(b.data + yi * w));
      });
    };
    switch (op) {
    case Opcode::Add:
      if constexpr (isIntElem<Et>)
        return withY([](C x, C y) { return wrapAdd(x, y); });
      else
        return withY([](C x, C y) { return x + y; });
    case Opcode::Sub:
      if constexpr (isIntElem<Et>)
        return withY([](C x, C y) { return wrapSub(x, y); });
      else
        return withY([](C x, C y) { return x - y; });
    case Opcode::Mul:
      if constexpr (isIntElem<Et>)
        return withY([](C x, C y) { return wrapMul(x, y); });
      else
        return withY([](C x, C y) { return x * y; });
    case Opcode::Div:
      return withY([&](C x, C y) -> C {
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
      });
    case Opcode::Pow:
      return each([&](C x, int64_t yi) {
        return convertValue<C>(
            std::pow(static_cast<double>(x), exponent[yi]));
      });
    default:
      return fail(opName(op) + " is not a binary operation");
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
  return dispatchNumericType(opName(op), out.dtype, [&](auto E) -> llvm::Error {
    using Et = decltype(E);
    using C = typename Et::Compute;
    bool transcendental = op == Opcode::Sqrt || op == Opcode::Sigmoid ||
                          op == Opcode::Tanh;
    if (transcendental && !isFloatElem<Et>)
      return fail(opName(op) + " needs a floating-point type, not " +
                  std::string(isa::dtypeName(out.dtype)));
    // The operation is chosen once; each loop body is one inlined function.
    const int64_t n = x.elements();
    auto each = [&](auto f) -> llvm::Error {
      for (int64_t i = 0; i < n; ++i)
        Et::store(out.data + i * Et::bytes,
                  f(Et::load(x.data + i * Et::bytes)));
      return llvm::Error::success();
    };
    auto viaDouble = [&](auto f) {
      return each([&](C v) { return static_cast<C>(f(double(v))); });
    };
    switch (op) {
    case Opcode::Neg:
      if constexpr (isIntElem<Et>)
        return each([](C v) { return wrapSub(C(0), v); });
      else
        return each([](C v) { return -v; });
    case Opcode::Relu:
      return each([](C v) { return v > C(0) ? v : C(0); });
    case Opcode::Sqrt:
      return viaDouble([](double d) { return std::sqrt(d); });
    case Opcode::Tanh:
      return viaDouble([](double d) { return std::tanh(d); });
    case Opcode::Sigmoid:
      // Two forms so exp never overflows.
      return viaDouble([](double d) {
        return d >= 0 ? 1.0 / (1.0 + std::exp(-d))
                      : std::exp(d) / (1.0 + std::exp(d));
      });
    default:
      return fail(opName(op) + " is not a unary operation");
    }
  });
}

//===----------------------------------------------------------------------===//
// Generic unary and binary functions (ElementwiseFunctions.def).
//===----------------------------------------------------------------------===//

namespace {
using isa::BinaryFn;
using isa::FnDomain;
using isa::FnInfo;
using isa::UnaryFn;

/// Checks `t` against a function's domain.
llvm::Error checkDomain(const FnInfo &fn, DType t) {
  bool isBool = t == DType::Bool;
  bool isFloat = isa::isFloat(t);
  bool ok = fn.accepts(isBool, isFloat, !isBool && !isFloat);
  if (!ok)
    return fail(std::string(fn.mnemonic) +
                " is not defined for " + std::string(isa::dtypeName(t)));
  return llvm::Error::success();
}

double paramOf(llvm::ArrayRef<double> params, size_t i) {
  return params[i];
}

/// The float functions, in double.
double applyFloat(UnaryFn fn, double x, llvm::ArrayRef<double> params) {
  auto p = [&](size_t i) { return paramOf(params, i); };
  switch (fn) {
  case UnaryFn::Abs: return std::fabs(x);
  case UnaryFn::Ceil: return std::ceil(x);
  case UnaryFn::Floor: return std::floor(x);
  case UnaryFn::Round: return std::nearbyint(x); // default mode: half to even
  case UnaryFn::Sign: return x > 0 ? 1.0 : x < 0 ? -1.0 : x;
  case UnaryFn::Exp: return std::exp(x);
  case UnaryFn::Log: return std::log(x);
  case UnaryFn::Reciprocal: return 1.0 / x;
  case UnaryFn::Sin: return std::sin(x);
  case UnaryFn::Cos: return std::cos(x);
  case UnaryFn::Tan: return std::tan(x);
  case UnaryFn::Asin: return std::asin(x);
  case UnaryFn::Acos: return std::acos(x);
  case UnaryFn::Atan: return std::atan(x);
  case UnaryFn::Sinh: return std::sinh(x);
  case UnaryFn::Cosh: return std::cosh(x);
  case UnaryFn::Asinh: return std::asinh(x);
  case UnaryFn::Acosh: return std::acosh(x);
  case UnaryFn::Atanh: return std::atanh(x);
  case UnaryFn::Erf: return std::erf(x);
  case UnaryFn::Softplus: return x > 30 ? x : std::log1p(std::exp(x));
  case UnaryFn::Softsign: return x / (1.0 + std::fabs(x));
  case UnaryFn::Not: return x == 0 ? 1.0 : 0.0;
  case UnaryFn::IsNaN: return std::isnan(x) ? 1.0 : 0.0;
  case UnaryFn::IsInf:
    return (std::isinf(x) && ((x > 0 && p(0) != 0) || (x < 0 && p(1) != 0)))
               ? 1.0
               : 0.0;
  case UnaryFn::Elu: return x >= 0 ? x : p(0) * std::expm1(x);
  case UnaryFn::Selu: return p(1) * (x > 0 ? x : p(0) * std::expm1(x));
  case UnaryFn::LeakyRelu: return x >= 0 ? x : p(0) * x;
  case UnaryFn::HardSigmoid:
    return std::max(0.0, std::min(1.0, p(0) * x + p(1)));
  case UnaryFn::HardSwish:
    return x * std::max(0.0, std::min(1.0, x / 6.0 + 0.5));
  case UnaryFn::ThresholdedRelu: return x > p(0) ? x : 0.0;
  case UnaryFn::Celu:
    return std::max(0.0, x) + std::min(0.0, p(0) * std::expm1(x / p(0)));
  case UnaryFn::Mish:
    return x * std::tanh(x > 30 ? x : std::log1p(std::exp(x)));
  case UnaryFn::Shrink:
    return x < -p(1) ? x + p(0) : x > p(1) ? x - p(0) : 0.0;
  case UnaryFn::Clip:
    return std::isnan(x) ? x : std::min(std::max(x, p(0)), p(1));
  case UnaryFn::BitwiseNot: break; // integers only (its domain)
  case UnaryFn::Quantize:
  case UnaryFn::Dequantize: break; // rescaleFn
  case UnaryFn::NumFns: break;
  }
  return x;
}
} // namespace

llvm::Error lpx::rt::unaryFn(const View &x, const isa::pb::UnaryAttrs &attrs,
                             const OutView &out) {
  const FnInfo *info = isa::unaryFnInfo(attrs.fn());
  if (!info)
    return fail("unknown unary function");
  if (size_t(attrs.params_size()) != info->params)
    return fail(std::string(info->mnemonic) +
                " needs " + llvm::Twine(info->params) + " parameters");
  auto fn = static_cast<UnaryFn>(attrs.fn());
  llvm::ArrayRef<double> params(attrs.params().data(), attrs.params_size());
  if (auto e = checkDomain(*info, x.dtype))
    return e;
  if (!info->convertsType())
    if (auto e = expectType("result", out.dtype,
                            info->boolResult() ? DType::Bool : x.dtype))
      return e;
  if (llvm::ArrayRef<int64_t>(x.shape) != out.shape)
    return fail("operand shape " + shapeStr(x.shape) +
                " differs from result shape " + shapeStr(out.shape));
  if (info->convertsType())
    return rescaleFn(x, fn, params, out);
  const int64_t n = x.elements();
  return dispatchType(x.dtype, [&](auto E) -> llvm::Error {
    using Et = decltype(E);
    using C = typename Et::Compute;
    for (int64_t i = 0; i < n; ++i) {
      C v = Et::load(x.data + i * Et::bytes);
      if constexpr (isIntElem<Et>) {
        // Integer forms of the numeric functions; exact, no double detour
        // except for the comparisons with float parameters.
        C r = v;
        double d = static_cast<double>(v);
        switch (fn) {
        case UnaryFn::Abs:
          if constexpr (std::is_signed_v<C>)
            r = v < 0 ? wrapSub(C(0), v) : v;
          break;
        case UnaryFn::Sign: r = v > 0 ? C(1) : v < 0 ? C(-1) : C(0); break;
        case UnaryFn::BitwiseNot: r = C(~v); break;
        case UnaryFn::Clip:
          if (d < paramOf(params, 0))
            r = convertValue<C>(paramOf(params, 0));
          else if (d > paramOf(params, 1))
            r = convertValue<C>(paramOf(params, 1));
          break;
        case UnaryFn::Shrink: {
          double bias = paramOf(params, 0), lambd = paramOf(params, 1);
          r = d < -lambd  ? convertValue<C>(d + bias)
              : d > lambd ? convertValue<C>(d - bias)
                          : C(0);
          break;
        }
        default:
          return fail("unary function on integers");
        }
        Et::store(out.data + i * Et::bytes, r);
      } else {
        double r = applyFloat(fn, static_cast<double>(v), params);
        if (info->boolResult())
          out.data[i] = r != 0 ? 1 : 0;
        else
          Et::store(out.data + i * Et::bytes, static_cast<C>(r));
      }
    }
    return llvm::Error::success();
  });
}

llvm::Error lpx::rt::binaryFn(const View &a, const View &b,
                              const isa::pb::BinaryAttrs &attrs,
                              const OutView &out) {
  const FnInfo *info = isa::binaryFnInfo(attrs.fn());
  if (!info)
    return fail("unknown binary function");
  auto fn = static_cast<BinaryFn>(attrs.fn());
  if (auto e = expectType("second operand", b.dtype, a.dtype))
    return e;
  if (auto e = checkDomain(*info, a.dtype))
    return e;
  if (auto e = expectType("result", out.dtype,
                          info->boolResult() ? DType::Bool : a.dtype))
    return e;
  auto strides = binaryStrides(a, b, out);
  if (!strides)
    return strides.takeError();
  const size_t ow = isa::dtypeBytes(out.dtype);
  return dispatchType(a.dtype, [&](auto E) -> llvm::Error {
    using Et = decltype(E);
    using C = typename Et::Compute;
    bool divByZero = false;
    auto apply = [&](C x, C y) -> C {
      switch (fn) {
      case BinaryFn::Max:
        if constexpr (isFloatElem<Et>)
          if (std::isnan(x) || std::isnan(y))
            return std::numeric_limits<C>::quiet_NaN();
        return x > y ? x : y;
      case BinaryFn::Min:
        if constexpr (isFloatElem<Et>)
          if (std::isnan(x) || std::isnan(y))
            return std::numeric_limits<C>::quiet_NaN();
        return x < y ? x : y;
      case BinaryFn::Mod:
      case BinaryFn::Fmod:
        if constexpr (isFloatElem<Et>) {
          C r = std::fmod(x, y);
          if (fn == BinaryFn::Mod && r != 0 && ((r < 0) != (y < 0)))
            r += y;
          return r;
        } else if constexpr (isIntElem<Et>) {
          if (y == 0) {
            divByZero = true;
            return 0;
          }
          if constexpr (std::is_signed_v<C>)
            if (y == C(-1))
              return 0;
          C r = static_cast<C>(x % y);
          if constexpr (std::is_signed_v<C>)
            if (fn == BinaryFn::Mod && r != 0 && ((r < 0) != (y < 0)))
              r = static_cast<C>(r + y);
          return r;
        } else {
          return x;
        }
      case BinaryFn::And: return x && y;
      case BinaryFn::Or: return x || y;
      case BinaryFn::Xor: return bool(x) != bool(y);
      case BinaryFn::BitwiseAnd:
      case BinaryFn::BitwiseOr:
      case BinaryFn::BitwiseXor:
        if constexpr (isIntElem<Et>)
          return fn == BinaryFn::BitwiseAnd  ? C(x & y)
                 : fn == BinaryFn::BitwiseOr ? C(x | y)
                                             : C(x ^ y);
        else
          return x;
      case BinaryFn::ShiftLeft:
      case BinaryFn::ShiftRight:
        if constexpr (isIntElem<Et>) {
          using U = std::make_unsigned_t<C>;
          uint64_t s = static_cast<uint64_t>(y);
          if (s >= sizeof(C) * 8)
            return C(0);
          return fn == BinaryFn::ShiftLeft ? C(U(x) << s) : C(U(x) >> s);
        } else {
          return x;
        }
      case BinaryFn::PRelu:
        if constexpr (isIntElem<Et>)
          return x < 0 ? wrapMul(x, y) : x;
        else
          return x < C(0) ? C(x * y) : x;
      case BinaryFn::Equal: return x == y;
      case BinaryFn::Less: return x < y;
      case BinaryFn::Greater: return x > y;
      case BinaryFn::LessEqual: return x <= y;
      case BinaryFn::GreaterEqual: return x >= y;
      case BinaryFn::NumFns: break;
      }
      return x;
    };
    forEachIndex<3>(out.shape, *strides, {0, 0, 0}, [&](const auto &off) {
      C x = Et::load(a.data + off[0] * Et::bytes);
      C y = Et::load(b.data + off[1] * Et::bytes);
      if (info->boolResult() && !isBoolElem<Et>) {
        bool r;
        switch (fn) {
        case BinaryFn::Equal: r = x == y; break;
        case BinaryFn::Less: r = x < y; break;
        case BinaryFn::Greater: r = x > y; break;
        case BinaryFn::LessEqual: r = x <= y; break;
        case BinaryFn::GreaterEqual: r = x >= y; break;
        default: r = false; break;
        }
        out.data[off[2] * ow] = r ? 1 : 0;
      } else {
        Et::store(out.data + off[2] * ow, apply(x, y));
      }
    });
    if (divByZero)
      return fail("integer modulo by zero");
    return llvm::Error::success();
  });
}
