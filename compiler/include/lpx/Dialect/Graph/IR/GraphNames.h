//===- GraphNames.h - Names the graph keeps from its ONNX model -*- C++ -*-===//
//
// The attributes that carry the ONNX model's input and output names, and
// the formats a compile held values in, from the importer and the passes
// to the program file (EmitProgram). They
// belong to the graph, not to any stage reading them: the importer and the
// passes need no Target header for them. (kStateAttr, the other argument
// attribute of the graph, is in GraphOps.h beside the ops that read it.)
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DIALECT_GRAPH_IR_GRAPHNAMES_H
#define LPX_DIALECT_GRAPH_IR_GRAPHNAMES_H

#include "llvm/ADT/StringRef.h"

namespace lpx::graph {

/// Argument attribute (string) naming the program input an argument is.
inline constexpr llvm::StringLiteral kInputNameAttr = "lpx_graph.name";
/// Function attribute (array of strings) naming the results, in order.
inline constexpr llvm::StringLiteral kOutputNamesAttr = "lpx_graph.outputs";

/// Function attributes (strings) lpx-convert-types records: the formats it
/// held weights and activations in (absent: the model's own). Emission
/// copies them into the program, from which `lpx run` takes its tolerances.
inline constexpr llvm::StringLiteral kWeightsFormatAttr =
    "lpx_graph.weights_format";
inline constexpr llvm::StringLiteral kActivationsFormatAttr =
    "lpx_graph.activations_format";

} // namespace lpx::graph

#endif
