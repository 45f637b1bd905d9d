//===- PartOps.h - lpx_part operations --------------------------*- C++ -*-===//
#ifndef LPX_DIALECT_PART_IR_PARTOPS_H
#define LPX_DIALECT_PART_IR_PARTOPS_H

#include "lpx/Dialect/Part/IR/PartDialect.h"
#include "lpx/Dialect/Graph/IR/InstructionOpInterface.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "lpx/Dialect/Part/IR/PartOps.h.inc"

#endif
