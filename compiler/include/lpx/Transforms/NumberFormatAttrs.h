//===- NumberFormatAttrs.h - Formats a compile held values in ---*- C++ -*-===//
//
// lpx-convert-types records the formats it was given as string attributes
// on the function it converts (absent: the model's own formats); program
// emission copies them into Program.weights_format / activations_format,
// from which `lpx run` takes its tolerances.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_TRANSFORMS_NUMBERFORMATATTRS_H
#define LPX_TRANSFORMS_NUMBERFORMATATTRS_H

#include "llvm/ADT/StringRef.h"

namespace lpx {
inline constexpr llvm::StringLiteral kWeightsFormatAttr =
    "lpx_graph.weights_format";
inline constexpr llvm::StringLiteral kActivationsFormatAttr =
    "lpx_graph.activations_format";
} // namespace lpx

#endif
