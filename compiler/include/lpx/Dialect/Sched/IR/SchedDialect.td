//===- SchedDialect.td - lpx_sched dialect definition ------*- tablegen -*-===//
#ifndef LPX_SCHED_DIALECT_TD
#define LPX_SCHED_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

def Sched_Dialect : Dialect {
  let name = "lpx_sched";
  let cppNamespace = "::lpx::sched";
  let summary = "Issue cycles, units, links and SRAM addresses (IR level 3)";
  let description = [{
    Every instruction carries `lpx_sched.slot`, the functional unit and the
    cycle it issues on its node with the busy and latency cycles of the cost
    model; every transfer is an `lpx_sched.send` with a link, a departure
    and an arrival cycle. After `lpx-allocate-sram` every value also has an
    SRAM byte address (`lpx_sched.addr`; on function arguments as an argument
    attribute). Each level-3 op maps to one program instruction.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    static constexpr ::llvm::StringLiteral kSlotAttr = "lpx_sched.slot";
    static constexpr ::llvm::StringLiteral kAddrAttr = "lpx_sched.addr";
  }];
}

class Sched_Op<string mnemonic, list<Trait> traits = []>
    : Op<Sched_Dialect, mnemonic, traits>;

def Sched_SlotAttr : AttrDef<Sched_Dialect, "Slot"> {
  let mnemonic = "slot";
  let summary = "Where and when one instruction runs";
  let description = [{
    `#lpx_sched.slot<"vxm", 120, 4, 4>`: unit, issue cycle, cycles the unit is
    busy, cycles of latency after that. On a unit with several instruction
    queues, `#lpx_sched.slot<"vxm", 120, 4, 4, queue = 1>` names the queue
    (omitted for queue 0).
  }];
  let parameters = (ins StringRefParameter<"functional unit">:$unit,
                        "uint64_t":$issue, "uint64_t":$busy,
                        "uint64_t":$latency,
                        DefaultValuedParameter<"uint64_t", "0">:$queue);
  let assemblyFormat =
      "`<` $unit `,` $issue `,` $busy `,` $latency (`,` `queue` `=` $queue^)? `>`";
  let extraClassDeclaration = [{
    uint64_t getDone() const { return getIssue() + getBusy() + getLatency(); }
  }];
}

#endif // LPX_SCHED_DIALECT_TD
