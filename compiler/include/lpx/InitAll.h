//===- InitAll.h - Register every lpx dialect and pass ----------*- C++ -*-===//
#ifndef LPX_INITALL_H
#define LPX_INITALL_H

#include "lpx/Dialect/Graph/IR/GraphDialect.h"
#include "lpx/Dialect/Part/IR/PartDialect.h"
#include "lpx/Dialect/Sched/IR/SchedDialect.h"
#include "lpx/Pipeline/Pipeline.h"
#include "lpx/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"

namespace lpx {
inline void registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<mlir::func::FuncDialect, graph::GraphDialect,
                  part::PartDialect, sched::SchedDialect>();
}
inline void registerAllPasses() {
  registerLpxPasses();
  registerPipelines();
}
} // namespace lpx

#endif
