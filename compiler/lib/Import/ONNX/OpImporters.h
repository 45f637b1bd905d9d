//===- OpImporters.h - One importer per ONNX op family ----------*- C++ -*-===//
//
// Each importer reads one ONNX node through its NodeContext and builds the
// canonical lpx_graph form the op verifiers accept. Ops that infer their
// result type are built without one (NodeContext::create); for the
// others the importer gives the static result type (ONNX inference is only a
// cross-check). On failure it
// has reported the reason via NodeContext::fail.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_LIB_IMPORT_ONNX_OPIMPORTERS_H
#define LPX_LIB_IMPORT_ONNX_OPIMPORTERS_H

#include "ImportContext.h"

#include <initializer_list>

namespace lpx::onnximport {

// ElementwiseImporters.cpp
mlir::LogicalResult importAdd(NodeContext &n);
mlir::LogicalResult importSub(NodeContext &n);
mlir::LogicalResult importMul(NodeContext &n);
mlir::LogicalResult importDiv(NodeContext &n);
mlir::LogicalResult importPow(NodeContext &n);
mlir::LogicalResult importSqrt(NodeContext &n);
mlir::LogicalResult importNeg(NodeContext &n);
mlir::LogicalResult importRelu(NodeContext &n);
mlir::LogicalResult importSigmoid(NodeContext &n);
mlir::LogicalResult importTanh(NodeContext &n);
mlir::LogicalResult importCast(NodeContext &n);
mlir::LogicalResult importWhere(NodeContext &n);

// LinearAlgebraImporters.cpp
mlir::LogicalResult importMatMul(NodeContext &n);
mlir::LogicalResult importGemm(NodeContext &n);
/// numpy matmul of `a` and `b` with a `resultElt` result (shape checked).
mlir::FailureOr<mlir::Value> buildMatMul(NodeContext &n, mlir::Value a,
                                         mlir::Value b, mlir::Type resultElt);

// ReductionImporters.cpp
mlir::LogicalResult importReduceMean(NodeContext &n);

// ConvImporters.cpp
/// lpx_graph.conv of the node's window attributes (group, strides,
/// dilations, pads / auto_pad, kernel_shape); its result type is the op's
/// (i32 for integer operands). `bias` may be null. With `padValue`, x is
/// padded by a Pad with that value first and the conv has no pads; the
/// padded x is kept in `*padded` (when given) for the next conv of x.
mlir::FailureOr<mlir::Value>
buildConv(NodeContext &n, mlir::Value x, mlir::Value w, mlir::Value bias,
          std::optional<double> padValue = std::nullopt,
          mlir::Value *padded = nullptr);

// QuantConv.cpp
/// An int8 x (zero point per tensor, input xZp) by a constant int8 weight
/// (input wIdx, zero point wZp per tensor or per output channel), zero
/// points compile-time constants: the conv in the matrix unit's int8 mode
/// with the zero points by correction terms, plus `bias` (int32, may be
/// null). Null (no failure) when the operands do not have that form.
mlir::FailureOr<mlir::Value> correctedConv(NodeContext &n, unsigned xZp,
                                           unsigned wIdx, unsigned wZp,
                                           mlir::Value bias);

// DataMovementImporters.cpp
mlir::LogicalResult importReshape(NodeContext &n);
mlir::LogicalResult importSqueeze(NodeContext &n);
mlir::LogicalResult importUnsqueeze(NodeContext &n);
mlir::LogicalResult importTranspose(NodeContext &n);
mlir::LogicalResult importConcat(NodeContext &n);
mlir::LogicalResult importSlice(NodeContext &n);
mlir::LogicalResult importGather(NodeContext &n);

// OpTable.cpp
mlir::LogicalResult importConstant(NodeContext &n);

/// Registers `importer` for each of the ONNX op types `ops`.
inline void addImporters(llvm::StringMap<OpImporter> &table,
                         std::initializer_list<const char *> ops,
                         OpImporter importer) {
  for (const char *op : ops)
    table[op] = importer;
}

/// Families registered by table: each adds its ONNX op types.
void addElementwiseImporters(llvm::StringMap<OpImporter> &table);
/// ReductionImporters.cpp: reductions, arg reductions, the softmax family,
/// CumSum, normalizations, global pooling and the losses.
void addReductionImporters(llvm::StringMap<OpImporter> &table);
/// LinearAlgebraImporters.cpp: Det (MatMul and Gemm are in the core table).
void addLinearAlgebraImporters(llvm::StringMap<OpImporter> &table);
void addDataMovementImporters(llvm::StringMap<OpImporter> &table);
/// ShapeImporters.cpp: Shape, Size, ConstantOfShape, Range (compile-time
/// constants).
void addShapeImporters(llvm::StringMap<OpImporter> &table);
void addConvImporters(llvm::StringMap<OpImporter> &table);
/// SelectionImporters.cpp: TopK, GatherND, OneHot, Scatter*, LRN.
void addSelectionImporters(llvm::StringMap<OpImporter> &table);
/// EinsumImporter.cpp.
void addEinsumImporter(llvm::StringMap<OpImporter> &table);
void addResizeImporters(llvm::StringMap<OpImporter> &table);
void addQuantImporters(llvm::StringMap<OpImporter> &table);
/// ControlFlowImporters.cpp: If with a compile-time condition, Loop and Scan
/// with static trip counts (unrolled), and the ops whose output shape depends
/// on input values (reported as such).
void addControlFlowImporters(llvm::StringMap<OpImporter> &table);
/// RecurrentImporters.cpp: RNN, GRU and LSTM, unrolled over the sequence.
void addRecurrentImporters(llvm::StringMap<OpImporter> &table);
/// SignalImporters.cpp: DFT, STFT, window functions, MelWeightMatrix.
void addSignalImporters(llvm::StringMap<OpImporter> &table);
/// GatherScatterImporters.cpp: ReverseSequence (constant lengths), MaxUnpool,
/// GridSample.
void addGatherScatterImporters(llvm::StringMap<OpImporter> &table);
/// Whether `opType`'s importer only reports why the op cannot be compiled
/// (a data-dependent output shape): such ops are not listed as supported.
bool reportsOnly(llvm::StringRef opType);

/// ONNX Slice for one axis: clamps `start`/`end` as the spec says and returns
/// the first index and the element count (start 0 when the count is 0).
struct SliceDim {
  int64_t start;
  int64_t count;
};
SliceDim resolveSliceDim(int64_t start, int64_t end, int64_t step,
                         int64_t dim);

} // namespace lpx::onnximport

#endif
