//===- Passes.td - lpx compiler passes ---------------------*- tablegen -*-===//
#ifndef LPX_TRANSFORMS_PASSES_TD
#define LPX_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def GraphDecompose : Pass<"lpx-graph-decompose", "mlir::func::FuncOp"> {
  let summary = "Rewrite composite graph ops into ops the chip executes";
  let description = [{
    Gemm becomes transpose (for transA/transB), matmul, mul by alpha and add
    of beta * C. Stays at IR level 1.
  }];
  let dependentDialects = ["::lpx::graph::GraphDialect"];
}

def FuseRescale : Pass<"lpx-fuse-rescale", "mlir::func::FuncOp"> {
  let summary = "QDQ's quantise and dequantise chains as one vector op each";
  let description = [{
    A QuantizeLinear with per-tensor f32 scale and zero point (div, round,
    add, clip, cast to an integer) becomes one `lpx_graph.rescale
    "quantize"`, taking over a Relu before it (the saturation's floor rises
    to the zero point), a multiply by a scalar (its `pre`) and a cast from
    an integer: a requantise between two int8 products is one op. A mul of
    an integer's f32 cast (less a scalar zero point) by a scalar scale
    becomes `lpx_graph.rescale "dequantize"`. Every step keeps its f32
    rounding. Per-channel parameters are left as they are.
  }];
  let dependentDialects = ["::lpx::graph::GraphDialect"];
}

def ConvertTypes : Pass<"lpx-convert-types", "mlir::func::FuncOp"> {
  let summary = "Hold weights and activations in chosen number formats";
  let description = [{
    For what-if studies on data types. Constants read only as MatMul weights
    take the `weights` format; every other floating-point value (inputs,
    constants, results) takes the `activations` format, the function's
    fp32 and fp64 inputs and results included: the host converts at the
    boundary, as a deployment's runtime does, so the program is the one the
    same model exported in these formats compiles to (no casts at entry or
    exit). Inputs in another reduced format (bf16, fp8) are cast at their
    first reader and such results cast back.
    Formats: fp32,
    fp16, bf16, fp8e4m3, fp8e5m2; empty keeps the model's. Values are
    rounded to nearest even. Weights may also be `int8`: quantized with one
    symmetric scale per tensor (max |w| / 127), which multiplies the MatMul's
    result.
  }];
  let options = [
    Option<"weights", "weights", "std::string", "\"\"",
           "Format of MatMul weights">,
    Option<"activations", "activations", "std::string", "\"\"",
           "Format of all other floating-point values">,
  ];
  let dependentDialects = ["::lpx::graph::GraphDialect"];
}

def ResidentKV : Pass<"lpx-resident-kv", "mlir::func::FuncOp"> {
  let summary = "Keep a decoder's KV cache resident in SRAM, appended in place";
  let description = [{
    Stays at IR level 1. Every pair of a cache input, a concat of it with
    the new entries along a non-batch axis (one position for a decode
    step; S for a step of S tokens, `lpx models export --prompt S
    --context L` with S < L) and the concat's result returned as an
    output (`past_key_values.{i}.key` -> Concat -> `present.{i}.key` in an
    HF-optimum export; the input and the output may sit behind the casts
    of lpx-convert-types) becomes resident state: the input turns into a
    state argument (`lpx_graph.state`) named as the output, of the
    concat's type, holding every position, and the concat into
    `lpx_graph.state_write` of the new entries at the positions read at
    run time from the `positions` input ([B, S]); the output is dropped.
    Readers of the concat read the whole state; a cache that reaches
    attention's transpose of its last two dims through reshapes and
    broadcasts alone (K^T, after repeat_kv) is kept transposed, so the
    append writes columns and no step transposes the cache. The positions
    not yet written must be masked by the model (the exported decoders
    mask them with their attention_mask), so a step's results are the
    model's.

    With `context` = L, a function with no such pair (the prefill of a
    prompt exported without a past, `--prompt S --context S`) has each
    output named `present.*` ([B, heads, S, head dim], behind a cast or
    not) dropped and written by `lpx_graph.state_write` at the positions
    into a new state argument of L positions, named as the output and laid
    out as the step's (K^T when attention reads it so). Attention keeps
    reading the S entries it computed, so the prefill costs what it did;
    its step then continues from the same states (names, shapes, layout).
    A function with neither, or without the positions input, is an error.
  }];
  let options = [
    Option<"positions", "positions", "std::string", "\"position_ids\"",
           "Name of the input holding each batch row's current position">,
    Option<"context", "context", "int64_t", "0",
           "Cache positions of a prefill exported without a past: its "
           "present.* outputs become states of this many positions (0: none)">,
  ];
  let dependentDialects = ["::lpx::graph::GraphDialect"];
}

def GroupedAttention : Pass<"lpx-grouped-attention", "mlir::func::FuncOp"> {
  let summary = "Grouped-query attention reads each shared KV head once";
  let description = [{
    Stays at IR level 1. A batched MatMul whose right operand is repeat_kv
    of a KV tensor x [B, kv, m, n] (a reshape to [B, kv, 1, m, n], a
    broadcast to [B, kv, g, m, n] and a reshape to [B, kv * g, m, n], then
    possibly a transpose of the last two dims) and whose left operand A is
    [B, kv * g, s, m] becomes reshape(reshape(A) x x): the g query heads
    that share a KV head are stacked as the rows of one product with that
    head, [B, kv, g * s, m] x [B, kv, m, n], and the result reshaped back
    to [B, kv * g, s, n]. The same products, without the g copies of the
    cache that repeat_kv writes every step; the copies go when nothing else
    reads them. Run after lpx-resident-kv, which recognises K^T through the
    repeat.
  }];
  let dependentDialects = ["::lpx::graph::GraphDialect"];
}

def AttachChip : Pass<"lpx-attach-chip", "mlir::ModuleOp"> {
  let summary = "Attach the resolved chip description to the module";
  let description = [{
    Loads the chip (a preset name or a description file; empty: the first
    preset) once and stores it, parsed, on the module as `lpx_part.chip`
    (a #lpx_part.chip). lpx-partition, lpx-schedule, lpx-allocate-sram and
    program emission read the chip from there. The compiler driver attaches
    an in-memory chip (e.g. one edited by `--set`) directly. A module that
    is already scheduled keeps its chip: attaching another is an error.
  }];
  let options = [
    Option<"chip", "chip", "std::string", "\"\"",
           "Chip preset name or description file (default: the first preset)">,
  ];
  let dependentDialects = ["::lpx::part::PartDialect"];
}

def Partition : Pass<"lpx-partition", "mlir::ModuleOp"> {
  let summary = "Place every op on a node and make cross-node values explicit";
  let description = [{
    IR level 1 to 2: the pipeline lpx-partition-mesh, lpx-partition-stages,
    lpx-partition-shard, lpx-partition-rewrite, lpx-partition-transfers
    (each below), with the whole weights that slices replaced freed at its
    end. A transformer (a projection reshaped into heads), or any model
    given `tp` or `pp`, is placed tensor- and pipeline-parallel: stages of
    consecutive layers on groups of `tp` nodes, and in each group the
    shardings that MatMuls with constant weights start (columns, on head
    boundaries) propagated through the ops one rule per op family, with
    row-split MatMuls summed over the group's links; a remark says which
    placement was chosen. Otherwise MatMuls whose right operand is a
    constant 2-D weight are split tensor-parallel over all nodes and other
    ops stay on a home node that moves to the next node when the current
    one's SRAM is full of weights. Every value used on another node than
    its own goes through `lpx_part.transfer`.
  }];
  let options = [
    Option<"numNodes", "nodes", "unsigned", "1", "Number of nodes (chips)">,
    Option<"tp", "tp", "unsigned", "0",
           "Chips per tensor-parallel group (0: the group size, up to the "
           "model's KV heads)">,
    Option<"pp", "pp", "unsigned", "0",
           "Pipeline stages (0: the nodes left over by tp)">,
    Option<"replicateBytes", "replicate-bytes", "uint64_t", "0",
           "On a mesh, values of at most this many bytes are replicated: a "
           "product cut by rows all-reduces them, the ops after it run on "
           "every chip of the group (0: none; at most a 4096th of a "
           "chip's SRAM)">,
  ];
  let dependentDialects = ["::lpx::graph::GraphDialect",
                           "::lpx::part::PartDialect"];
}

def PartitionMesh : Pass<"lpx-partition-mesh", "mlir::ModuleOp"> {
  let summary = "Choose the mesh: tp x pp and the chips";
  let description = [{
    First step of lpx-partition. Puts `lpx_part.mesh` (a #lpx_part.mesh) on
    the module: for a transformer (a projection reshaped into heads), or
    any model given `tp` or `pp`, `tp` chips per group (the group size or
    `tp`, lowered to divide the KV heads or experts) and `pp` stages (the
    nodes left over, no more than the layers fill), with the fewest stages
    that hold the model and the reason; else tp = pp = 0 (the older spread
    placement). Unfuses fused projections; also sets `lpx_part.placement`.
  }];
  let options = [
    Option<"numNodes", "nodes", "unsigned", "1", "Number of nodes (chips)">,
    Option<"tp", "tp", "unsigned", "0",
           "Chips per tensor-parallel group (0: the group size, up to the "
           "model's KV heads)">,
    Option<"pp", "pp", "unsigned", "0",
           "Pipeline stages (0: the nodes left over by tp)">,
    Option<"replicateBytes", "replicate-bytes", "uint64_t", "0",
           "On a mesh, values of at most this many bytes are replicated: a "
           "product cut by rows all-reduces them, the ops after it run on "
           "every chip of the group (0: none; at most a 4096th of a "
           "chip's SRAM)">,
  ];
  let dependentDialects = ["::lpx::graph::GraphDialect",
                           "::lpx::part::PartDialect"];
}

def PartitionStages : Pass<"lpx-partition-stages", "mlir::ModuleOp"> {
  let summary = "Cut the mesh's pipeline stages: a stage per op";
  let description = [{
    Second step of lpx-partition (a mesh placement only). Every op but
    constants and the return gets `lpx_part.stage = array<i64: first,
    count>`: consecutive layers by weight bytes, cut after a residual add;
    count > 1 for a table or expert block spread over stages of its own.
    A mixture-of-experts block's sum becomes a tree of adds, and the ops of
    an expert placed on chips of its own get `lpx_part.chips` (offsets from
    the stage's first chip); the function gets `lpx_part.experts` (what the
    remark says). Stage attributes are per op, so an op may be given any
    stage (a copy of a layer on the stage of its weights).
  }];
  let dependentDialects = ["::lpx::graph::GraphDialect",
                           "::lpx::part::PartDialect"];
}

def PartitionShard : Pass<"lpx-partition-shard", "mlir::ModuleOp"> {
  let summary = "Annotate each op's sharding";
  let description = [{
    Third step of lpx-partition (a mesh placement only). Walks the ops in
    program order and propagates splits: every op gets `lpx_part.shard` (a
    #lpx_part.shard) saying whether it runs whole on a node, is cut by
    columns, is cut by its reduction axis with partial sums reduce-
    scattered, added by a tree or all-reduced, runs piecewise by its op
    family's rule, or splits a resident state; with its result's split
    axis, ranges and nodes. Changes nothing else.
  }];
  let dependentDialects = ["::lpx::graph::GraphDialect",
                           "::lpx::part::PartDialect"];
}

def PartitionRewrite : Pass<"lpx-partition-rewrite", "mlir::ModuleOp"> {
  let summary = "Rewrite the ops as their shardings say, one op per piece";
  let description = [{
    Fourth step of lpx-partition. On a mesh: every op becomes its pieces
    (or stays whole) as its `lpx_part.shard` says, each with its
    `lpx_part.node`; the decision attributes are consumed; the placement
    (and experts) remarks say what was placed. Without one: the spread
    placement. Then program inputs read through slices and outputs joined
    from blocks are bound in pieces.
  }];
  let dependentDialects = ["::lpx::graph::GraphDialect",
                           "::lpx::part::PartDialect"];
}

def PartitionTransfers : Pass<"lpx-partition-transfers", "mlir::ModuleOp"> {
  let summary = "Insert a transfer for every value read on another node";
  let description = [{
    Last step of lpx-partition: every program output in a buffer of its
    own, an `lpx_part.transfer` for every operand on another node than its
    reader (a constant is cloned), `lpx_part.num_nodes` on the module; on a
    mesh, the fit check (every node's resident data within its SRAM, else
    an error naming the fullest node and the chips that would hold them).
  }];
  let dependentDialects = ["::lpx::graph::GraphDialect",
                           "::lpx::part::PartDialect"];
}

def UnrollChunks : Pass<"lpx-unroll-chunks", "mlir::ModuleOp"> {
  let summary = "A chunked prefill: the placed step of one chunk, unrolled";
  let description = [{
    Stays at IR level 2. The function is the placed step of one chunk of a
    prompt (C tokens written into resident state at `position_ids`, its
    attention reading the whole state, masked). It becomes `chunks` copies
    of that step in one program: copy k reads inputs of its own (each
    non-state argument again, named `NAME.chunk{k}`; copy 0 keeps the
    names), shares every constant (the weights) and writes into the state
    as copy k - 1 left it (its state_write's state is the previous copy's
    write), so its attention reads the cache of chunks 0..k. Only the last
    copy's results are returned; what computed the others' (their LM head)
    goes. Chunk k's tokens are at positions kC..(k+1)C-1 (the host feeds
    them so): its attention reads the first (k+1)C positions of each state
    (a slice after its write) and its scores, mask and probabilities are
    that long, when they are the chain MatMul, reshape, elementwise ops and
    softmax that the product with V sums (else the copy reads the whole
    state, masked). Every op keeps its node, so copy k + 1 runs on a stage
    while copy k is on the next: lpx-schedule pipelines the chunks (each op
    carries its index in the step, `lpx_part.chunk_op`, and its copies run
    in chunk order) and lpx-allocate-sram reuses one chunk's temporaries
    for the next. chunks = 1 changes nothing.
  }];
  let options = [
    Option<"chunks", "chunks", "unsigned", "1", "Copies of the chunk step">,
  ];
  let dependentDialects = ["::lpx::graph::GraphDialect",
                           "::lpx::part::PartDialect"];
}

def ShareTransfers : Pass<"lpx-share-transfers", "mlir::ModuleOp"> {
  let summary = "A value crosses to another group of chips once";
  let description = [{
    Stays at IR level 2. The transfers of one value from one chip to
    several chips of another topology group (the readers of a value in the
    next pipeline stage) become one transfer to the one of those chips that
    the route reaches in fewest hops, and from it a local transfer to each
    of the others, so the value crosses the groups' global link once, not
    once per reader. Run on a chunked prefill (after lpx-unroll-chunks),
    where every chunk's mask bias crosses to every chip of each stage.
  }];
  let dependentDialects = ["::lpx::part::PartDialect"];
}

def Schedule : Pass<"lpx-schedule", "mlir::ModuleOp"> {
  let summary = "Give every instruction a unit and an issue cycle";
  let description = [{
    IR level 2 to 3. Visits ops in program order and issues each at the first
    cycle where all operands are complete and its unit (or link) is free,
    using the shared cost model (`isa::instructionCost`). Transfers become
    `lpx_sched.send` with a link, departure and arrival cycle.
  }];
  let dependentDialects = ["::lpx::sched::SchedDialect"];
}

def AllocateSram : Pass<"lpx-allocate-sram", "mlir::ModuleOp"> {
  let summary = "Give every value an address in its node's SRAM";
  let description = [{
    Constants, inputs and outputs keep their space for the whole program;
    other values are freed once their last reader has finished (by scheduled
    cycle), so reusing space cannot overwrite data still being read. Fails
    with the bytes needed when a node's SRAM is too small.
  }];
}

def VerifyPartitioned : Pass<"lpx-verify-partitioned", "mlir::ModuleOp"> {
  let summary = "Check the level-2 invariants";
  let description = [{
    The module has `lpx_part.num_nodes`; every op (constants included, the
    return excepted) is placed on a node below it; every operand is on its
    user's node (program inputs are on node 0), so a value used on another
    node goes through an `lpx_part.transfer`, which reads on its `from` node.
    Changes nothing; fails with an error on each op that breaks a rule.
  }];
}

def VerifyScheduled : Pass<"lpx-verify-scheduled", "mlir::ModuleOp"> {
  let summary = "Check the level-3 invariants";
  let description = [{
    The level-2 invariants, and: no `lpx_part.transfer` is left (every
    transfer became `lpx_sched.send` hops, which carry link, depart and
    arrive); every instruction and send has an `lpx_sched.slot`; every value
    (function arguments, constants, results) has an SRAM address
    (`lpx_sched.addr`). Changes nothing.
  }];
}

#endif // LPX_TRANSFORMS_PASSES_TD
