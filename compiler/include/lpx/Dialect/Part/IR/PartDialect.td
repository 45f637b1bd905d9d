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
    // The partition pipeline's decisions (lpx-partition-mesh, -stages,
    // -shard), read by the passes after them: on the module the mesh (a
    // #lpx_part.mesh); on an op its pipeline stages [first, count] and,
    // for an op of an expert placed on chips of its own, those chips as
    // [first, count] offsets from its stages' first chip; on an op its
    // sharding (a #lpx_part.shard); on the function the experts' placement
    // for the remark. lpx-partition-rewrite consumes the per-op ones.
    static constexpr ::llvm::StringLiteral kMeshAttr = "lpx_part.mesh";
    static constexpr ::llvm::StringLiteral kStageAttr = "lpx_part.stage";
    static constexpr ::llvm::StringLiteral kExpertChipsAttr = "lpx_part.chips";
    static constexpr ::llvm::StringLiteral kShardAttr = "lpx_part.shard";
    static constexpr ::llvm::StringLiteral kExpertsAttr = "lpx_part.experts";
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

def Part_MeshAttr : AttrDef<Part_Dialect, "Mesh"> {
  let mnemonic = "mesh";
  let summary = "The placement lpx-partition-mesh chose";
  let description = [{
    `nodes` chips; `tp` chips per tensor-parallel group and `pp` pipeline
    stages, stage s on chips [s * tp, (s + 1) * tp); tp = pp = 0: no mesh
    (the older spread placement). `cut`: the stage count whose shares of
    the weights the stage cut uses (it may fill fewer: pp <= cut);
    `needed`: the fewest stages of tp chips that hold the model (0: none),
    for the fit error; `temporaries`: the bytes a chip keeps for values
    live at once; `replicate`: values of at most these bytes are
    replicated on every chip of their group (0: none); `why`: the reason,
    for the placement remark.
  }];
  let parameters = (ins "int64_t":$nodes, "int64_t":$tp, "int64_t":$pp,
                        "int64_t":$cut, "int64_t":$needed,
                        "uint64_t":$temporaries, "uint64_t":$replicate,
                        StringRefParameter<>:$why);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Part_ShardAttr : AttrDef<Part_Dialect, "Shard"> {
  let mnemonic = "shard";
  let summary = "How lpx-partition-shard splits one op";
  let description = [{
    `kind`: "whole" (runs on nodes[0], its split operands gathered there),
    "columns" (a product with a constant weight cut by its output columns,
    the activation joined on each node when it is split), "reduce_scatter"
    (cut by the reduction axis, each node adding its own column block of
    the partial sums), "tree_sum" (cut by the reduction axis, the partial
    sums added by a tree ending on nodes[0], the result whole),
    "all_reduce" (cut by the reduction axis, the partial sums added on
    every node: the result replicated, a whole copy on each of `nodes`),
    "all_gather" (an embedding cut by columns, its rows joined on every
    node: replicated), "replicated" (a copy on each of `nodes`, reading
    their copies of its replicated operands),
    "pieces" (one op per piece of its split operand, the rule of its op
    family) or "state" (a resident state split like the entry written).
    A split result's piece i holds [lo[i], hi[i]) along `axis` on nodes[i].
  }];
  let parameters = (ins StringRefParameter<>:$kind, "int64_t":$axis,
                        "::mlir::DenseI64ArrayAttr":$lo,
                        "::mlir::DenseI64ArrayAttr":$hi,
                        "::mlir::DenseI64ArrayAttr":$nodes);
  let assemblyFormat = "`<` struct(params) `>`";
}

#endif // LPX_PART_DIALECT_TD
