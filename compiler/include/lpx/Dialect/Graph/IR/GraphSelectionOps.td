//===- GraphSelectionOps.td - Selection, scatter, state ops -*- tablegen -*-===//
//
// Included by GraphOps.td (where the families and traits they use are
// defined), at the place these ops have in the generated op list.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_GRAPH_SELECTION_OPS_TD
#define LPX_GRAPH_SELECTION_OPS_TD

//===----------------------------------------------------------------------===//
// Value-dependent selection and scatters.
//===----------------------------------------------------------------------===//

def Graph_TopKOp : Graph_Op<"top_k", [Pure, InferTypeOpAdaptor,
    Lpx_Instruction<"TopK", 1>]> {
  let summary = "Indices (i64) of the k largest or smallest elements along one axis";
  let description = [{
    In value order (ties: lower index first; NaN above every number). The
    ONNX importer takes the values with a `gather_elements` by these
    indices.
    ```mlir
    %i = lpx_graph.top_k %x {axis = 1 : i64, k = 3 : i64} : (tensor<3x4xf32>) -> tensor<3x3xi64>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, I64Attr:$axis, I64Attr:$k,
                       DefaultValuedAttr<BoolAttr, "true">:$largest,
                       DefaultValuedAttr<BoolAttr, "true">:$sorted);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Graph_ScatterElementsOp : Graph_Op<"scatter_elements", [Pure, InferTypeOpAdaptor,
    Lpx_Instruction<"ScatterElements", 1>]> {
  let summary = "ONNX ScatterElements: data with updates written along an axis";
  let description = [{
    result[i with i[axis] = indices[i]] = updates[i], or combined with the
    data by `reduction` (`none`, `add`, `mul`, `max`, `min`). Indices and
    updates share one shape of the data's rank; negative indices count from
    the end.
    ```mlir
    %r = lpx_graph.scatter_elements %d, %i, %u {axis = 1 : i64,
        reduction = #lpx_graph.scatter_reduction<add>}
        : (tensor<1x5xf32>, tensor<1x2xi64>, tensor<1x2xf32>) -> tensor<1x5xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$data, AnyRankedTensor:$indices,
                       AnyRankedTensor:$updates, I64Attr:$axis,
                       DefaultValuedAttr<Graph_ScatterReductionAttr,
                           "::lpx::graph::ScatterReduction::None">:$reduction);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$data `,` $indices `,` $updates attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Graph_ScatterNDOp : Graph_Op<"scatter_nd", [Pure, InferTypeOpAdaptor,
    Lpx_Instruction<"ScatterND", 1>]> {
  let summary = "ONNX ScatterND: data with slices at index tuples replaced";
  let description = [{
    indices [q..., k], updates [q..., data dims k..]: the slice
    data[indices[q]] becomes updates[q], or is combined with it by
    `reduction` (`none`, `add`, `mul`, `max`, `min`).
    ```mlir
    %r = lpx_graph.scatter_nd %d, %i, %u
        : (tensor<4x4xf32>, tensor<2x1xi64>, tensor<2x4xf32>) -> tensor<4x4xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$data, AnyRankedTensor:$indices,
                       AnyRankedTensor:$updates,
                       DefaultValuedAttr<Graph_ScatterReductionAttr,
                           "::lpx::graph::ScatterReduction::None">:$reduction);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$data `,` $indices `,` $updates attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Graph_GridSampleOp : Graph_Op<"grid_sample", [Pure, InferTypeOpAdaptor,
    Lpx_Instruction<"GridSample", 1>]> {
  let summary = "ONNX GridSample: X [N, C, H, W] sampled at grid [N, Ho, Wo, 2]";
  let description = [{
    The grid holds (x, y) normalized to [-1, 1]; `mode` is `bilinear`,
    `nearest` or `bicubic`, `padding_mode` `zeros`, `border` or
    `reflection` (semantics in Opcodes.def, `grid_sample`).
    ```mlir
    %r = lpx_graph.grid_sample %x, %g {mode = #lpx_graph.grid_sample_mode<bicubic>,
        padding_mode = #lpx_graph.grid_sample_padding<border>, align_corners = true}
        : (tensor<1x1x4x4xf32>, tensor<1x6x6x2xf32>) -> tensor<1x1x6x6xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, AnyRankedTensor:$grid,
                       DefaultValuedAttr<Graph_GridSampleModeAttr,
                           "::lpx::graph::GridSampleMode::Bilinear">:$mode,
                       DefaultValuedAttr<Graph_GridSamplePaddingAttr,
                           "::lpx::graph::GridSamplePadding::Zeros">:$padding_mode,
                       DefaultValuedAttr<BoolAttr, "false">:$align_corners);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input `,` $grid attr-dict `:` functional-type(operands, results)";
}

def Graph_DetOp : Graph_Op<"det", [Pure, InferTypeOpAdaptor,
    Lpx_Instruction<"Det">]> {
  let summary = "Determinant of each trailing n x n matrix (partial pivoting)";
  let description = [{
    ```mlir
    %d = lpx_graph.det %x : (tensor<3x2x2xf32>) -> tensor<3xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Graph_StateWriteOp : Graph_Op<"state_write",
                                  [Lpx_Instruction<"StateWrite", 1>]> {
  let summary = "Write positions of resident state in place (a KV cache append)";
  let description = [{
    `state` is a function argument marked `lpx_graph.state`: a buffer that
    stays in SRAM across runs (zero when the program is loaded) and is never
    bound to the host, or an earlier state_write's result (each chunk of a
    chunked prefill writes after the one before; one write per such
    result). `update` has the state's shape except n positions
    along dim `axis` (n = 1 for a decode step, a prompt's length for a
    prefill); for every batch row b and i < n, entry i is written at index
    `position[b, i]` of dim `axis`. The result is the whole state after the
    write, in the state's own buffer (no copy). `position` is [B, n], or [B]
    when n = 1. Not pure: it writes memory that outlives the run. Made by
    `lpx-resident-kv`; the program opcode is `state_write`.
    ```mlir
    %s = lpx_graph.state_write %k, %pos into %state {axis = 2 : i64}
        : (tensor<1x2x8x4xf32>, tensor<1x2x1x4xf32>, tensor<1x1xi64>) -> tensor<1x2x8x4xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$state, AnyRankedTensor:$update,
                       AnyRankedTensor:$position, I64Attr:$axis);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$update `,` $position `into` $state attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

#endif // LPX_GRAPH_SELECTION_OPS_TD
