//===- PartDialect.td - lpx_part dialect definition --------*- tablegen -*-===//
#ifndef LPX_PART_DIALECT_TD
#define LPX_PART_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

def Part_Dialect : Dialect {
  let name = "lpx_part";
  let cppNamespace = "::lpx::part";
  let summary = "Placement on nodes and explicit transfers (IR level 2)";
  let description = [{
    At this level every op carries `lpx_part.node = <i64>`, the node (chip)
    whose SRAM holds its result and whose units compute it. A value used on
    another node reaches it only through `lpx_part.transfer`. The module
    carries `lpx_part.num_nodes`, and from `lpx-attach-chip` on (before
    partitioning) `lpx_part.chip`: the resolved chip description (YAML
    text) every later pass and the emitter read, so the chip is named once.
  }];
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    static constexpr ::llvm::StringLiteral kNodeAttr = "lpx_part.node";
    static constexpr ::llvm::StringLiteral kNumNodesAttr = "lpx_part.num_nodes";
    static constexpr ::llvm::StringLiteral kChipAttr = "lpx_part.chip";
    // On the module: the tensor- and pipeline-parallel mesh the partition
    // chose, [tp, pp]; absent when no mesh was used (one node, no heads).
    static constexpr ::llvm::StringLiteral kPlacementAttr = "lpx_part.placement";
    // On a function argument or result: the piece of a program input or
    // output it is, as its offsets in the whole tensor (pieces share a name).
    static constexpr ::llvm::StringLiteral kOffsetsAttr = "lpx_part.offsets";
  }];
}

class Part_Op<string mnemonic, list<Trait> traits = []>
    : Op<Part_Dialect, mnemonic, traits>;

#endif // LPX_PART_DIALECT_TD
