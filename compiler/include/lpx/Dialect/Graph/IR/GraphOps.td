//===- GraphOps.td - lpx_graph operations ------------------*- tablegen -*-===//
#ifndef LPX_GRAPH_OPS_TD
#define LPX_GRAPH_OPS_TD

include "lpx/Dialect/Graph/IR/GraphDialect.td"
include "lpx/Dialect/Graph/IR/GraphEnums.td"
include "lpx/Dialect/Graph/IR/InstructionOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

def Graph_ConstantOp : Graph_Op<"constant", [Pure, ConstantLike,
                                              FirstAttrDerivedResultType]> {
  let summary = "A tensor known at compile time (an ONNX initializer or Constant)";
  let description = [{
    ```mlir
    %w = lpx_graph.constant dense<1.0> : tensor<4x4xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs AnyRankedTensor:$result);
  let hasCustomAssemblyFormat = 1;
  let hasFolder = 1;
  let builders = [OpBuilder<(ins "::mlir::ElementsAttr":$value), [{
    build($_builder, $_state, value.getType(), value);
  }]>];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise ops with numpy broadcasting.
//===----------------------------------------------------------------------===//

// Ops with InferTypeOpAdaptor compute their result type from the operands
// (one shape rule, in the op's inferReturnTypes): builders need no result
// type, and the verifier checks the written type against the inferred one.
// Ops with SameOperandsAndResultType and InferTypeOpInterface get theirs
// from ODS.

class Graph_BinaryOp<string mnemonic, string opcode, string what>
    : Graph_Op<mnemonic, [Pure, InferTypeOpAdaptor, Lpx_Instruction<opcode>]> {
  let summary = "Elementwise " # what # " with numpy broadcasting";
  let description = [{
    ```mlir
    %r = lpx_graph.}] # mnemonic # [{ %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$lhs, AnyRankedTensor:$rhs);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Graph_AddOp : Graph_BinaryOp<"add", "Add", "addition">;
def Graph_SubOp : Graph_BinaryOp<"sub", "Sub", "subtraction">;
def Graph_MulOp : Graph_BinaryOp<"mul", "Mul", "multiplication">;
def Graph_DivOp : Graph_BinaryOp<"div", "Div", "division (integer division truncates)">;
def Graph_PowOp : Graph_BinaryOp<"pow", "Pow", "power (the exponent may have another type)">;

def Graph_WhereOp : Graph_Op<"where", [Pure, InferTypeOpAdaptor,
                                        Lpx_Instruction<"Where">]> {
  let summary = "Elementwise select with numpy broadcasting";
  let description = [{
    ```mlir
    %r = lpx_graph.where %c, %x, %y : (tensor<2xi1>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$condition, AnyRankedTensor:$x,
                       AnyRankedTensor:$y);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$condition `,` $x `,` $y attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

class Graph_UnaryOp<string mnemonic, string opcode, string what>
    : Graph_Op<mnemonic, [Pure, SameOperandsAndResultType, InferTypeOpInterface,
    Lpx_Instruction<opcode>]> {
  let summary = "Elementwise " # what;
  let description = [{
    ```mlir
    %r = lpx_graph.}] # mnemonic # [{ %a : tensor<2x3xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
  let hasFolder = 1;
}

def Graph_SqrtOp : Graph_UnaryOp<"sqrt", "Sqrt", "square root">;
def Graph_NegOp : Graph_UnaryOp<"neg", "Neg", "negation">;
def Graph_ReluOp : Graph_UnaryOp<"relu", "Relu", "max(x, 0)">;
def Graph_SigmoidOp : Graph_UnaryOp<"sigmoid", "Sigmoid", "logistic function">;
def Graph_TanhOp : Graph_UnaryOp<"tanh", "Tanh", "hyperbolic tangent">;

def Graph_CastOp : Graph_Op<"cast", [Pure, Lpx_Instruction<"Cast">]> {
  let summary = "Elementwise conversion to the result's element type";
  let description = [{
    ```mlir
    %r = lpx_graph.cast %a : tensor<4xf32> to tensor<4xi32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `to` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Matrix ops.
//===----------------------------------------------------------------------===//

def Graph_MatMulOp : Graph_Op<"matmul", [Pure, InferTypeOpAdaptorWithIsCompatible,
    Lpx_Instruction<"MatMul">]> {
  let summary = "numpy matmul (1-D operands and broadcast batch dims allowed)";
  let description = [{
    ```mlir
    %r = lpx_graph.matmul %a, %b : (tensor<1x64xf32>, tensor<64x128xf32>) -> tensor<1x128xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$lhs, AnyRankedTensor:$rhs);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The result shape (the op's shape rule, used by inferReturnTypes,
    /// hence by builders and the verifier). The inferred element type is
    /// the lhs's; i8 operands may also give i32, so isCompatibleReturnTypes
    /// compares shapes and the verifier checks the element type. Reports
    /// why not at `loc`.
    static ::mlir::FailureOr<::llvm::SmallVector<int64_t>>
    inferShape(std::optional<::mlir::Location> loc,
               ::llvm::ArrayRef<int64_t> lhs, ::llvm::ArrayRef<int64_t> rhs);
  }];
}

def Graph_GemmOp : Graph_Op<"gemm", [Pure]> {
  let summary = "ONNX Gemm: alpha * op(A) * op(B) + beta * C";
  let description = [{
    Kept at import so the op stays recognisable; `lpx-graph-decompose`
    rewrites it into transpose, matmul, mul and add.
    ```mlir
    %r = lpx_graph.gemm %a, %b, %c {alpha = 1.0 : f32, beta = 1.0 : f32, transA = false, transB = true}
        : (tensor<1x64xf32>, tensor<128x64xf32>, tensor<128xf32>) -> tensor<1x128xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$a, AnyRankedTensor:$b,
                       Optional<AnyRankedTensor>:$c,
                       DefaultValuedAttr<F32Attr, "1.0">:$alpha,
                       DefaultValuedAttr<F32Attr, "1.0">:$beta,
                       DefaultValuedAttr<BoolAttr, "false">:$transA,
                       DefaultValuedAttr<BoolAttr, "false">:$transB);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$a `,` $b (`,` $c^)? attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Reductions and normalisation.
//===----------------------------------------------------------------------===//

def Graph_SoftmaxOp : Graph_Op<"softmax", [Pure, SameOperandsAndResultType,
                                          InferTypeOpInterface,
    Lpx_Instruction<"Softmax", 1>]> {
  let summary = "Softmax along one axis (ONNX opset 13 semantics)";
  let description = [{
    ```mlir
    %r = lpx_graph.softmax %a {axis = 1 : i64} : tensor<2x8xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, I64Attr:$axis);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Graph_ReduceMeanOp : Graph_Op<"reduce_mean", [Pure,
                                    Lpx_Instruction<"ReduceMean", 1>]> {
  let summary = "Mean over the listed axes; the result type says keepdims";
  // Builders take keepdims and derive the result type (lpx::graph::reducedShape).
  let description = [{
    ```mlir
    %r = lpx_graph.reduce_mean %a {axes = array<i64: 1>} : (tensor<2x8xf32>) -> tensor<2x1xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, DenseI64ArrayAttr:$axes);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let builders = [OpBuilder<(ins "::mlir::Value":$input,
      "::llvm::ArrayRef<int64_t>":$axes, "bool":$keepdims), [{
    auto t = ::llvm::cast<::mlir::RankedTensorType>(input.getType());
    build($_builder, $_state, ::mlir::RankedTensorType::get(
        reducedShape(t.getShape(), axes, keepdims), t.getElementType()),
        input, axes);
  }]>];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Data movement.
//===----------------------------------------------------------------------===//

def Graph_ReshapeOp : Graph_Op<"reshape", [Pure, Lpx_Instruction<"Copy">]> {
  let summary = "Same elements in a new shape (also a plain copy)";
  let description = [{
    ```mlir
    %r = lpx_graph.reshape %a : tensor<2x8xf32> to tensor<16xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `to` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Graph_TransposeOp : Graph_Op<"transpose", [Pure, InferTypeOpAdaptor,
    Lpx_Instruction<"Transpose", 1>]> {
  let summary = "Permute dimensions";
  let description = [{
    ```mlir
    %r = lpx_graph.transpose %a {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, DenseI64ArrayAttr:$perm);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Graph_ConcatOp : Graph_Op<"concat", [Pure, InferTypeOpAdaptor,
    Lpx_Instruction<"Concat", 1>]> {
  let summary = "Join tensors along one axis";
  let description = [{
    ```mlir
    %r = lpx_graph.concat %a, %b {axis = 0 : i64} : (tensor<2xf32>, tensor<3xf32>) -> tensor<5xf32>
    ```
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$inputs, I64Attr:$axis);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$inputs attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Graph_SliceOp : Graph_Op<"slice", [Pure, Lpx_Instruction<"Slice", 1>]> {
  let summary = "Strided slice with a start and a step for every dimension";
  let description = [{
    Element `i` of dimension `d` of the result is element
    `starts[d] + i * steps[d]` of the input; the result shape gives the
    counts. The importer resolves ONNX's clamping and negative indices.
    ```mlir
    %r = lpx_graph.slice %a {starts = array<i64: 0, 1>, steps = array<i64: 1, 2>}
        : (tensor<2x5xf32>) -> tensor<2x2xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, DenseI64ArrayAttr:$starts,
                       DenseI64ArrayAttr:$steps);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Graph_GatherOp : Graph_Op<"gather", [Pure, InferTypeOpAdaptor,
    Lpx_Instruction<"Gather", 1>]> {
  let summary = "ONNX Gather: take slices along an axis at the given indices";
  let description = [{
    ```mlir
    %r = lpx_graph.gather %data, %idx {axis = 0 : i64}
        : (tensor<10x4xf32>, tensor<3xi64>) -> tensor<3x4xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$data, AnyRankedTensor:$indices,
                       I64Attr:$axis);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$data `,` $indices attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Generic families. Functions are named by mnemonic; the list (and each
// function's operand domain and parameter count) is
// isa/include/lpx/isa/ElementwiseFunctions.def.
//===----------------------------------------------------------------------===//

def Graph_UnaryFnOp : Graph_Op<"unary", [Pure, InferTypeOpAdaptor,
    Lpx_Instruction<"Unary", 1>]> {
  let summary = "Elementwise function from the unary list, with float parameters";
  let description = [{
    The result has the operand's shape; its element type is the operand's,
    or i1 for tests (`isnan`, `isinf`).
    ```mlir
    %r = lpx_graph.unary "elu" %a {params = array<f64: 1.0>} : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, StrAttr:$fn,
                       DefaultValuedAttr<DenseF64ArrayAttr, "{}">:$params);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$fn $input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Graph_RescaleOp : Graph_Op<"rescale", [Pure,
    Lpx_Instruction<"Unary", 1>]> {
  let summary = "QDQ's quantize or dequantize in one vector pass";
  let description = [{
    The unary functions that change the element type (ElementwiseFunctions.def,
    domains ToInt and ToFloat), each step in f32: `quantize` (params pre,
    scale, zero_point, lo, hi) gives saturate(round_half_even(f32(x) * pre /
    scale) + zero_point) to [lo, hi] in the integer result type;
    `dequantize` (params scale, zero_point) gives (f32(x) - zero_point) *
    scale in the float result type. Made by `lpx-fuse-rescale`.
    ```mlir
    %q = lpx_graph.rescale "quantize" %x {params = array<f64: 1.0, 0.5, 0.0, -128.0, 127.0>} : tensor<4xf32> to tensor<4xi8>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, StrAttr:$fn,
                       DenseF64ArrayAttr:$params);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$fn $input attr-dict `:` type($input) `to` type($result)";
  let hasVerifier = 1;
}

def Graph_BinaryFnOp : Graph_Op<"binary", [Pure, InferTypeOpAdaptor,
                                            Lpx_Instruction<"Binary", 1>]> {
  let summary = "Elementwise function from the binary list, numpy broadcasting";
  let description = [{
    Both operands have one element type; comparisons and logic give i1.
    ```mlir
    %r = lpx_graph.binary "less" %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$lhs, AnyRankedTensor:$rhs, StrAttr:$fn);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$fn $lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Graph_ReduceOp : Graph_Op<"reduce", [Pure, Lpx_Instruction<"Reduce", 1>]> {
  let summary = "Reduction over the listed axes; the result type says keepdims";
  let description = [{
    ```mlir
    %r = lpx_graph.reduce "sum" %a {axes = array<i64: 1>} : (tensor<2x8xf32>) -> tensor<2xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, StrAttr:$fn,
                       DenseI64ArrayAttr:$axes);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$fn $input attr-dict `:` functional-type(operands, results)";
  let builders = [OpBuilder<(ins "::mlir::Value":$input, "::llvm::StringRef":$fn,
      "::llvm::ArrayRef<int64_t>":$axes, "bool":$keepdims), [{
    auto t = ::llvm::cast<::mlir::RankedTensorType>(input.getType());
    build($_builder, $_state, ::mlir::RankedTensorType::get(
        reducedShape(t.getShape(), axes, keepdims), t.getElementType()),
        input, fn, axes);
  }]>];
  let hasVerifier = 1;
}

def Graph_ArgReduceOp : Graph_Op<"arg_reduce", [Pure,
                                                Lpx_Instruction<"ArgReduce", 1>]> {
  let summary = "Index (i64) of the max or min along one axis";
  let description = [{
    Ties give the first index, or the last with `select_last_index`.
    ```mlir
    %r = lpx_graph.arg_reduce "max" %a {axis = 1 : i64} : (tensor<2x8xf32>) -> tensor<2x1xi64>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, StrAttr:$fn, I64Attr:$axis,
                       DefaultValuedAttr<BoolAttr, "false">:$select_last_index);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$fn $input attr-dict `:` functional-type(operands, results)";
  let builders = [OpBuilder<(ins "::mlir::Value":$input, "::llvm::StringRef":$fn,
      "int64_t":$axis, "bool":$keepdims, "bool":$select_last_index), [{
    auto t = ::llvm::cast<::mlir::RankedTensorType>(input.getType());
    build($_builder, $_state, ::mlir::RankedTensorType::get(
        reducedShape(t.getShape(), {axis}, keepdims), $_builder.getI64Type()),
        input, fn, axis, select_last_index);
  }]>];
  let hasVerifier = 1;
}

class Graph_AxisOp<string mnemonic, string opcode, string what>
    : Graph_Op<mnemonic, [Pure, SameOperandsAndResultType, InferTypeOpInterface,
    Lpx_Instruction<opcode, 1>]> {
  let summary = what # " along one axis";
  let description = [{
    ```mlir
    %r = lpx_graph.}] # mnemonic # [{ %a {axis = 1 : i64} : tensor<2x8xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, I64Attr:$axis);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Graph_LogSoftmaxOp : Graph_AxisOp<"log_softmax", "LogSoftmax", "Log of the softmax">;
def Graph_HardmaxOp : Graph_AxisOp<"hardmax", "Hardmax", "One-hot of the (first) maximum">;

def Graph_CumSumOp : Graph_Op<"cumsum", [Pure, SameOperandsAndResultType,
                                        InferTypeOpInterface,
    Lpx_Instruction<"CumSum", 1>]> {
  let summary = "Running sum along one axis (ONNX CumSum)";
  let description = [{
    ```mlir
    %r = lpx_graph.cumsum %a {axis = 0 : i64, exclusive = false, reverse = true} : tensor<5xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, I64Attr:$axis,
                       DefaultValuedAttr<BoolAttr, "false">:$exclusive,
                       DefaultValuedAttr<BoolAttr, "false">:$reverse);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Graph_BroadcastOp : Graph_Op<"broadcast", [Pure,
                                               Lpx_Instruction<"Broadcast">]> {
  let summary = "numpy broadcast of the operand to the result shape";
  let description = [{
    ```mlir
    %r = lpx_graph.broadcast %a : (tensor<3x1xf32>) -> tensor<2x3x4xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Graph_PadOp : Graph_Op<"pad", [Pure, InferTypeOpAdaptor,
    Lpx_Instruction<"Pad", 1>]> {
  let summary = "Pad (or crop, with negative pads) every dimension";
  let description = [{
    `pads` holds the begin amounts of every dim, then the end amounts. Mode
    is `constant` (with `value`), `reflect` or `edge`.
    ```mlir
    %r = lpx_graph.pad %a {mode = #lpx_graph.pad_mode<constant>, pads = array<i64: 0, 1, 0, 2>,
        value = 0.0 : f64}
        : (tensor<2x3xf32>) -> tensor<2x6xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, Graph_PadModeAttr:$mode,
                       DenseI64ArrayAttr:$pads,
                       DefaultValuedAttr<F64Attr, "0.0">:$value);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Graph_GatherElementsOp : Graph_Op<"gather_elements", [Pure, InferTypeOpAdaptor,
    Lpx_Instruction<"GatherElements", 1>]> {
  let summary = "ONNX GatherElements: result[i] = data[i with i[axis] = indices[i]]";
  let description = [{
    ```mlir
    %r = lpx_graph.gather_elements %data, %idx {axis = 1 : i64}
        : (tensor<2x2xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$data, AnyRankedTensor:$indices,
                       I64Attr:$axis);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$data `,` $indices attr-dict `:` functional-type(operands, results)";
}

def Graph_ConvOp : Graph_Op<"conv", [Pure, InferTypeOpAdaptor,
    Lpx_Instruction<"Conv", 1>]> {
  let summary = "ONNX Conv: grouped, strided, dilated, padded convolution";
  let description = [{
    Input [N, C, spatial...], weight [M, C/group, kernel...], optional bias
    [M]. `pads` holds the begin amounts of every spatial dim, then the end
    amounts (auto_pad is resolved at import).
    ```mlir
    %r = lpx_graph.conv %x, %w, %b {dilations = array<i64: 1, 1>, group = 1 : i64,
        pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>}
        : (tensor<1x1x5x5xf32>, tensor<1x1x3x3xf32>, tensor<1xf32>) -> tensor<1x1x5x5xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, AnyRankedTensor:$weight,
                       Optional<AnyRankedTensor>:$bias,
                       DenseI64ArrayAttr:$strides,
                       DenseI64ArrayAttr:$dilations,
                       DenseI64ArrayAttr:$pads,
                       DefaultValuedAttr<I64Attr, "1">:$group);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input `,` $weight (`,` $bias^)? attr-dict `:` functional-type(operands, results)";
}

def Graph_ConvTransposeOp : Graph_Op<"conv_transpose", [Pure, InferTypeOpAdaptor,
    Lpx_Instruction<"ConvTranspose", 1>]> {
  let summary = "ONNX ConvTranspose: grouped, strided, dilated transposed convolution";
  let description = [{
    Input [N, C, spatial...], weight [C, M/group, kernel...], optional bias
    [M]. Input position i and kernel tap k add into result position
    i * stride + k * dilation - pad_begin. `pads` holds the begin amounts of
    every spatial dim, then the end amounts; auto_pad and output_shape are
    resolved at import into pads (which may then be negative: the result
    extends past the taps and holds the bias there) and `output_padding`
    (extra result positions at the end). Result extent per spatial dim:
    stride * (in - 1) + dilation * (kernel - 1) + 1 + output_padding -
    pad_begin - pad_end.
    ```mlir
    %r = lpx_graph.conv_transpose %x, %w {dilations = array<i64: 1, 1>,
        output_padding = array<i64: 0, 0>, pads = array<i64: 0, 0, 0, 0>,
        strides = array<i64: 1, 1>}
        : (tensor<1x1x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x5x5xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, AnyRankedTensor:$weight,
                       Optional<AnyRankedTensor>:$bias,
                       DenseI64ArrayAttr:$strides,
                       DenseI64ArrayAttr:$dilations,
                       DenseI64ArrayAttr:$pads,
                       DenseI64ArrayAttr:$output_padding,
                       DefaultValuedAttr<I64Attr, "1">:$group);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input `,` $weight (`,` $bias^)? attr-dict `:` functional-type(operands, results)";
}

def Graph_PoolOp : Graph_Op<"pool", [Pure, Lpx_Instruction<"Pool", 1>]> {
  let summary = "ONNX MaxPool / AveragePool over the spatial dims";
  let description = [{
    `kind` is `max` or `avg`. `pads` holds the begin amounts of every spatial
    dim, then the end amounts; the result shape (floor or ceil mode) is
    chosen at import and windows past the padded end are clipped.
    ```mlir
    %r = lpx_graph.pool %x {kind = #lpx_graph.pool_kind<max>, kernel_shape = array<i64: 2, 2>,
        strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>,
        pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, Graph_PoolKindAttr:$kind,
                       DenseI64ArrayAttr:$kernel_shape,
                       DenseI64ArrayAttr:$strides,
                       DenseI64ArrayAttr:$dilations,
                       DenseI64ArrayAttr:$pads,
                       DefaultValuedAttr<BoolAttr, "false">:$count_include_pad);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

// Value-dependent selection, scatters, grid sampling, the determinant and
// resident state's write.
include "lpx/Dialect/Graph/IR/GraphSelectionOps.td"

#endif // LPX_GRAPH_OPS_TD
