//===- Passes.h - lpx compiler passes ---------------------------*- C++ -*-===//
#ifndef LPX_TRANSFORMS_PASSES_H
#define LPX_TRANSFORMS_PASSES_H

#include "lpx/Dialect/Graph/IR/GraphDialect.h"
#include "lpx/Dialect/Part/IR/PartDialect.h"
#include "lpx/Dialect/Sched/IR/SchedDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace lpx {
#define GEN_PASS_DECL
#include "lpx/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "lpx/Transforms/Passes.h.inc"
} // namespace lpx

#endif
