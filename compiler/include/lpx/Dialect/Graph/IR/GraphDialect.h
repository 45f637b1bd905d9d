//===- GraphDialect.h - lpx_graph dialect -----------------------*- C++ -*-===//
#ifndef LPX_DIALECT_GRAPH_IR_GRAPHDIALECT_H
#define LPX_DIALECT_GRAPH_IR_GRAPHDIALECT_H

#include "mlir/IR/Dialect.h"

#include "lpx/Dialect/Graph/IR/GraphOpsDialect.h.inc"

#endif
