//===- PartOps.td - lpx_part operations --------------------*- tablegen -*-===//
#ifndef LPX_PART_OPS_TD
#define LPX_PART_OPS_TD

include "lpx/Dialect/Part/IR/PartDialect.td"
include "lpx/Dialect/Graph/IR/InstructionOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Part_TransferOp : Part_Op<"transfer", [Pure, SameOperandsAndResultType,
                                           Lpx_Instruction<"Send">]> {
  let summary = "Move a tensor from one node's SRAM to another's";
  let description = [{
    The result lives on node `to`; the operand must live on node `from`.
    ```mlir
    %b = lpx_part.transfer %a {from = 0 : i64, to = 1 : i64} : tensor<1x64xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, I64Attr:$from, I64Attr:$to);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
  let hasVerifier = 1;
}

#endif // LPX_PART_OPS_TD
