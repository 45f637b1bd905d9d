//===- GraphDialect.td - lpx_graph dialect definition ------*- tablegen -*-===//
#ifndef LPX_GRAPH_DIALECT_TD
#define LPX_GRAPH_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

def Graph_Dialect : Dialect {
  let name = "lpx_graph";
  let cppNamespace = "::lpx::graph";
  let summary = "Tensor-level graph imported from ONNX (IR level 1)";
  let description = [{
    One op per ONNX operator kind, on ranked tensors with static shapes.
    ONNX attributes are normalised at import: axes are non-negative, slices
    carry a start and a step for every dimension, Squeeze/Unsqueeze become
    reshapes. Values have no placement yet; see `lpx_part` for level 2.
    Ops whose operands are all constants fold (GraphFolds.cpp): the
    importer uses that to evaluate shape computations at compile time.
  }];
  let hasConstantMaterializer = 1;
  let useDefaultAttributePrinterParser = 1;
}

class Graph_Op<string mnemonic, list<Trait> traits = []>
    : Op<Graph_Dialect, mnemonic, traits>;

#endif // LPX_GRAPH_DIALECT_TD
