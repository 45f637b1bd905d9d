//===- Compare.h - Comparing tensors with tolerances ------------*- C++ -*-===//
//
// numpy.allclose semantics: |actual - expected| <= atol + rtol * |expected|
// for floating types, NaN equal to NaN, infinities equal only to themselves;
// exact equality for integer and bool types.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_RUNTIME_COMPARE_H
#define LPX_RUNTIME_COMPARE_H

#include "lpx/runtime/HostTensor.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace lpx::rt {

struct CompareResult {
  bool ok = true;
  double worstAbsError = 0; // max |a - e| over finite pairs
  double worstRelError = 0; // max |a - e| / |e| over pairs with e != 0
  std::string where;        // index of the worst mismatch, e.g. "[1, 2]"
  std::string message;      // one line; empty when ok
};
using Mismatch = CompareResult;

struct Tolerance {
  double rtol;
  double atol;
};

/// Tolerances callers use by default, per element type (the one place they
/// are stated; see Compare.cpp): f64 rtol 1e-12, f32 the ONNX backend's rtol
/// 1e-3 / atol 1e-7, reduced-precision formats from their epsilons, exact
/// for integer and bool types.
Tolerance defaultTolerance(isa::DType t);

/// The format whose tolerances fit the outputs of a program compiled with
/// these formats (Program.weights_format / activations_format): the name of
/// the coarser float format of the two (the larger rtol), or empty when
/// neither names one (the model's own formats; int8 weights name none).
llvm::StringRef toleranceFormat(llvm::StringRef weights,
                                llvm::StringRef activations);

CompareResult compareTensors(const HostTensor &expected,
                             const HostTensor &actual, double rtol,
                             double atol);
/// With defaultTolerance(expected.dtype).
CompareResult compareTensors(const HostTensor &expected,
                             const HostTensor &actual);

} // namespace lpx::rt

#endif
