//===- ModelLimits.h - Bounds on what a model file may ask for --*- C++ -*-===//
//
// A model file comes from anywhere. Before the importer builds anything, the
// parsed model is checked against fixed bounds, so a hostile file gets one
// error line instead of an allocation of its choosing or a stack overflow:
// the node count over all graphs, the nesting of subgraphs (If, Loop, Scan
// bodies) and the element count of every tensor it declares.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_IMPORT_MODELLIMITS_H
#define LPX_IMPORT_MODELLIMITS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "onnx/onnx_pb.h"
#include <cstdint>

namespace lpx::onnximport {

/// Nodes over the main graph and every subgraph. A Llama-70B decoder graph
/// has about 10^4; the bound leaves a factor of 25.
constexpr int64_t kMaxModelNodes = int64_t(1) << 18;
/// Subgraphs inside subgraphs (an If in a Loop body is depth 2).
constexpr int kMaxSubgraphDepth = 16;
/// Elements of one tensor: 2^36 is 64 Gi elements, far above the largest
/// weight of a 70B model (an embedding of 2^30) and above a system's SRAM.
constexpr int64_t kMaxTensorElements = int64_t(1) << 36;

/// Elements of a constant the importer computes itself (ConstantOfShape,
/// Range): it is allocated at import and stored in the program file. 2^28
/// elements is 1 GiB of float32, above any mask or position table of a
/// real model.
constexpr int64_t kMaxFoldedElements = int64_t(1) << 28;

/// The element count of a constant of shape `dims` that the importer is
/// about to compute, or an error when a dim is negative or the count
/// exceeds kMaxFoldedElements (checked without overflow).
llvm::Expected<int64_t> foldedElementCount(llvm::ArrayRef<int64_t> dims);

/// Checks `model` against the bounds above; the error names the bound, the
/// value and where in the model it was found.
llvm::Error checkModelLimits(const onnx::ModelProto &model);

} // namespace lpx::onnximport

#endif
