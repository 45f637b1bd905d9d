//===- SchedOps.h - lpx_sched operations ------------------------*- C++ -*-===//
#ifndef LPX_DIALECT_SCHED_IR_SCHEDOPS_H
#define LPX_DIALECT_SCHED_IR_SCHEDOPS_H

#include "lpx/Dialect/Sched/IR/SchedDialect.h"
#include "lpx/Dialect/Graph/IR/InstructionOpInterface.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "lpx/Dialect/Sched/IR/SchedOps.h.inc"

#endif
