//===- GraphEnums.td - lpx_graph mode attributes -----------*- tablegen -*-===//
//
// The modes of lpx_graph ops as typed enum attributes, printed as
// `#lpx_graph.pad_mode<reflect>`. Each case has the name of the program
// schema's enum value without its prefix (`reflect` is PAD_REFLECT in
// isa/proto/program.proto); InstructionAttrs.cpp maps one to the other and
// GraphEnumsTest checks every case has its schema value.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_GRAPH_ENUMS_TD
#define LPX_GRAPH_ENUMS_TD

include "lpx/Dialect/Graph/IR/GraphDialect.td"
include "mlir/IR/EnumAttr.td"

class Graph_I32Enum<string name, string summary, list<I32EnumAttrCase> cases>
    : I32EnumAttr<name, summary, cases> {
  let cppNamespace = "::lpx::graph";
  let genSpecializedAttr = 0;
}

class Graph_EnumAttr<EnumAttrInfo info, string mnemonic>
    : EnumAttr<Graph_Dialect, info, mnemonic> {
  let assemblyFormat = "`<` $value `>`";
}

def Graph_PadMode : Graph_I32Enum<"PadMode", "what pad puts in the new elements", [
    I32EnumAttrCase<"Constant", 0, "constant">,
    I32EnumAttrCase<"Reflect", 1, "reflect">,
    I32EnumAttrCase<"Edge", 2, "edge">]>;
def Graph_PadModeAttr : Graph_EnumAttr<Graph_PadMode, "pad_mode">;

def Graph_ScatterReduction : Graph_I32Enum<"ScatterReduction",
    "how a scatter combines an update with the value already there", [
    I32EnumAttrCase<"None", 0, "none">,
    I32EnumAttrCase<"Add", 1, "add">,
    I32EnumAttrCase<"Mul", 2, "mul">,
    I32EnumAttrCase<"Max", 3, "max">,
    I32EnumAttrCase<"Min", 4, "min">]>;
def Graph_ScatterReductionAttr
    : Graph_EnumAttr<Graph_ScatterReduction, "scatter_reduction">;

def Graph_PoolKind : Graph_I32Enum<"PoolKind", "the window function of a pool", [
    I32EnumAttrCase<"Max", 0, "max">,
    I32EnumAttrCase<"Avg", 1, "avg">]>;
def Graph_PoolKindAttr : Graph_EnumAttr<Graph_PoolKind, "pool_kind">;

def Graph_GridSampleMode : Graph_I32Enum<"GridSampleMode",
    "how grid_sample interpolates", [
    I32EnumAttrCase<"Bilinear", 0, "bilinear">,
    I32EnumAttrCase<"Nearest", 1, "nearest">,
    I32EnumAttrCase<"Bicubic", 2, "bicubic">]>;
def Graph_GridSampleModeAttr
    : Graph_EnumAttr<Graph_GridSampleMode, "grid_sample_mode">;

def Graph_GridSamplePadding : Graph_I32Enum<"GridSamplePadding",
    "what grid_sample reads outside the input", [
    I32EnumAttrCase<"Zeros", 0, "zeros">,
    I32EnumAttrCase<"Border", 1, "border">,
    I32EnumAttrCase<"Reflection", 2, "reflection">]>;
def Graph_GridSamplePaddingAttr
    : Graph_EnumAttr<Graph_GridSamplePadding, "grid_sample_padding">;

#endif // LPX_GRAPH_ENUMS_TD
