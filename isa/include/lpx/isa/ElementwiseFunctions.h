//===- ElementwiseFunctions.h - Function ids of generic opcodes -*- C++ -*-===//
//
// Enums and tables generated from ElementwiseFunctions.def. Header-only and
// free of other dependencies, so the lpx_graph verifiers can use it without
// linking lpx_isa.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_ISA_ELEMENTWISEFUNCTIONS_H
#define LPX_ISA_ELEMENTWISEFUNCTIONS_H

#include <cstdint>
#include <optional>
#include <string_view>

namespace lpx::isa {

enum class FnDomain : uint8_t {
  Numeric, Float, Bool, Int, Test, Compare, ToInt, ToFloat
};

/// `passes` value meaning "the chip's transcendental pass count".
inline constexpr unsigned kTranscendentalPasses = 0;

struct FnInfo {
  std::string_view mnemonic;
  unsigned passes; // kTranscendentalPasses or a count
  unsigned params;
  FnDomain domain;
  /// Whether the result element type is bool whatever the operands are.
  constexpr bool boolResult() const {
    return domain == FnDomain::Bool || domain == FnDomain::Test ||
           domain == FnDomain::Compare;
  }
  /// Whether the result's element type is the instruction's own (an
  /// integer for ToInt, a float for ToFloat), not the operand's.
  constexpr bool convertsType() const {
    return domain == FnDomain::ToInt || domain == FnDomain::ToFloat;
  }
  /// Whether `result` is a result element type of the function's kind.
  constexpr bool resultKindOk(bool isFloat, bool isInt) const {
    return domain == FnDomain::ToInt ? isInt : isFloat;
  }
  /// Whether the function is defined for an operand element type of the
  /// given kind; the importer, the verifiers and the runtime all ask here.
  constexpr bool accepts(bool isBool, bool isFloat, bool isInt) const {
    switch (domain) {
    case FnDomain::Numeric: return !isBool;
    case FnDomain::Float: case FnDomain::Test: return isFloat;
    case FnDomain::Bool: return isBool;
    case FnDomain::Int: return isInt;
    case FnDomain::Compare: return true;
    case FnDomain::ToInt: return !isBool;
    case FnDomain::ToFloat: return isInt;
    }
    return false;
  }
};

enum class UnaryFn : int64_t {
#define LPX_UNARY_FN(Name, M, P, N, D) Name,
#include "ElementwiseFunctions.def" // found next to this header
  NumFns
};
enum class BinaryFn : int64_t {
#define LPX_BINARY_FN(Name, M, P, D) Name,
#include "ElementwiseFunctions.def" // found next to this header
  NumFns
};
enum class ReduceFn : int64_t {
#define LPX_REDUCE_FN(Name, M, P) Name,
#include "ElementwiseFunctions.def" // found next to this header
  NumFns
};
enum class ArgReduceFn : int64_t {
#define LPX_ARG_REDUCE_FN(Name, M) Name,
#include "ElementwiseFunctions.def" // found next to this header
  NumFns
};

namespace detail {
#define T kTranscendentalPasses
inline constexpr FnInfo kUnaryFns[] = {
#define LPX_UNARY_FN(Name, M, P, N, D) {M, P, N, FnDomain::D},
#include "ElementwiseFunctions.def" // found next to this header
};
inline constexpr FnInfo kBinaryFns[] = {
#define LPX_BINARY_FN(Name, M, P, D) {M, P, 0, FnDomain::D},
#include "ElementwiseFunctions.def" // found next to this header
};
inline constexpr FnInfo kReduceFns[] = {
#define LPX_REDUCE_FN(Name, M, P) {M, P, 0, FnDomain::Numeric},
#include "ElementwiseFunctions.def" // found next to this header
};
inline constexpr FnInfo kArgReduceFns[] = {
#define LPX_ARG_REDUCE_FN(Name, M) {M, 1, 0, FnDomain::Numeric},
#include "ElementwiseFunctions.def" // found next to this header
};
#undef T

template <typename E, size_t N>
constexpr std::optional<E> fnFromMnemonic(const FnInfo (&table)[N],
                                          std::string_view m) {
  for (size_t i = 0; i < N; ++i)
    if (table[i].mnemonic == m)
      return static_cast<E>(i);
  return std::nullopt;
}
template <size_t N>
constexpr const FnInfo *fnInfo(const FnInfo (&table)[N], int64_t id) {
  return id >= 0 && id < int64_t(N) ? &table[id] : nullptr;
}
} // namespace detail

/// Table entries by id; null for an id outside the list.
constexpr const FnInfo *unaryFnInfo(int64_t id) {
  return detail::fnInfo(detail::kUnaryFns, id);
}
constexpr const FnInfo *binaryFnInfo(int64_t id) {
  return detail::fnInfo(detail::kBinaryFns, id);
}
constexpr const FnInfo *reduceFnInfo(int64_t id) {
  return detail::fnInfo(detail::kReduceFns, id);
}
constexpr const FnInfo *argReduceFnInfo(int64_t id) {
  return detail::fnInfo(detail::kArgReduceFns, id);
}

constexpr std::optional<UnaryFn> unaryFnFromMnemonic(std::string_view m) {
  return detail::fnFromMnemonic<UnaryFn>(detail::kUnaryFns, m);
}
constexpr std::optional<BinaryFn> binaryFnFromMnemonic(std::string_view m) {
  return detail::fnFromMnemonic<BinaryFn>(detail::kBinaryFns, m);
}
constexpr std::optional<ReduceFn> reduceFnFromMnemonic(std::string_view m) {
  return detail::fnFromMnemonic<ReduceFn>(detail::kReduceFns, m);
}
constexpr std::optional<ArgReduceFn>
argReduceFnFromMnemonic(std::string_view m) {
  return detail::fnFromMnemonic<ArgReduceFn>(detail::kArgReduceFns, m);
}

} // namespace lpx::isa

#endif
