//===- SchedOps.td - lpx_sched operations ------------------*- tablegen -*-===//
#ifndef LPX_SCHED_OPS_TD
#define LPX_SCHED_OPS_TD

include "lpx/Dialect/Sched/IR/SchedDialect.td"
include "lpx/Dialect/Graph/IR/InstructionOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Sched_SendOp : Sched_Op<"send", [Pure, SameOperandsAndResultType,
                                     Lpx_Instruction<"Send">]> {
  let summary = "A scheduled chip-to-chip transfer over one link";
  let description = [{
    Leaves node `from` on outgoing `link` at cycle `depart`; its last byte is
    in node `to`'s SRAM at cycle `arrive`.
    ```mlir
    %b = lpx_sched.send %a {from = 0 : i64, to = 1 : i64, link = 0 : i64,
                            depart = 10 : i64, arrive = 236 : i64} : tensor<1x64xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, I64Attr:$from, I64Attr:$to,
                       I64Attr:$link, I64Attr:$depart, I64Attr:$arrive);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
  let hasVerifier = 1;
}

#endif // LPX_SCHED_OPS_TD
