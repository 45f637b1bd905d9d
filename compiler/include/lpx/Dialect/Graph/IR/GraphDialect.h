//===- GraphDialect.h - lpx_graph dialect -----------------------*- C++ -*-===//
#ifndef LPX_DIALECT_GRAPH_IR_GRAPHDIALECT_H
#define LPX_DIALECT_GRAPH_IR_GRAPHDIALECT_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/Dialect.h"

#include "lpx/Dialect/Graph/IR/GraphOpsDialect.h.inc"

#include "lpx/Dialect/Graph/IR/GraphEnums.h.inc"
#define GET_ATTRDEF_CLASSES
#include "lpx/Dialect/Graph/IR/GraphAttrs.h.inc"

#endif
