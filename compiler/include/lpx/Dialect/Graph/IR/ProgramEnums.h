//===- ProgramEnums.h - IR mode enums as program enums ----------*- C++ -*-===//
//
// The one mapping from lpx_graph's mode enums (GraphEnums.td) to the program
// schema's (isa/proto/program.proto); used when filling instruction
// attributes (InstructionAttrs.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef LPX_DIALECT_GRAPH_IR_PROGRAMENUMS_H
#define LPX_DIALECT_GRAPH_IR_PROGRAMENUMS_H

#include "lpx/Dialect/Graph/IR/GraphDialect.h"
#include "program.pb.h"

namespace lpx::graph {
isa::pb::PadMode toProgram(PadMode mode);
isa::pb::ScatterReduction toProgram(ScatterReduction reduction);
isa::pb::PoolKind toProgram(PoolKind kind);
isa::pb::GridSampleMode toProgram(GridSampleMode mode);
isa::pb::GridSamplePadding toProgram(GridSamplePadding padding);
} // namespace lpx::graph

#endif
