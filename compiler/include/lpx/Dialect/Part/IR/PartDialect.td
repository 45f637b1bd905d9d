//===- PartDialect.td - lpx_part dialect definition --------*- tablegen -*-===//
#ifndef LPX_PART_DIALECT_TD
#define LPX_PART_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
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
    partitioning) `lpx_part.chip`: the parsed chip (`#lpx_part.chip`) every
    later pass and the emitter read, so the chip is named and parsed once.
  }];
  let useDefaultAttributePrinterParser = 1;
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
    // On an op of a chunked prefill (lpx-unroll-chunks): its index in the
    // step of one chunk, the same in every chunk's copy; lpx-schedule
    // keeps each copy of an op after the one of the chunk before.
    static constexpr ::llvm::StringLiteral kChunkOpAttr = "lpx_part.chunk_op";
  }];
}

class Part_Op<string mnemonic, list<Trait> traits = []>
    : Op<Part_Dialect, mnemonic, traits>;

def Part_ChipAttr : AttrDef<Part_Dialect, "Chip"> {
  let mnemonic = "chip";
  let summary = "The chip a module is compiled for, parsed";
  let description = [{
    An isa::ChipSpec, parsed once (when attached or when the IR is read) and
    read by every pass and the emitter through `lpx::chipOf`. Printed and
    read as its resolved description, the YAML text a program embeds:
    `#lpx_part.chip<"---\nname: tsp-v1\n...">`. Its name is the chip's: a
    scheduled module is scheduled for the chip it carries (a chip is not
    attached to a module that is already scheduled).
  }];
  let parameters = (ins
    AttrParameter<"::lpx::isa::ChipSpec", "the parsed chip description"> :$spec);
  let hasCustomAssemblyFormat = 1;
}

#endif // LPX_PART_DIALECT_TD
