//===- StateLayout.h - The resident state a program expects ------*- C++ -*-===//
//
// A program's state bindings (format 3.2) say which resident state it reads
// and writes: the state tensors by name, and where each piece lies (node,
// SRAM address, offsets in the whole state). Programs that agree on all of
// it share one state on the chip: a model's prefill leaves its KV cache
// where the decode step reads it.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_ISA_STATELAYOUT_H
#define LPX_ISA_STATELAYOUT_H

#include "program.pb.h"
#include "llvm/Support/Error.h"

namespace lpx::isa {

/// Success when `a` and `b` (named `aName`, `bName` in the message) expect
/// the same resident state: the same state names, each of the same element
/// type and shape, in the same pieces (node, address, bytes, offsets).
/// Otherwise an error naming the first state that differs and how. Both
/// programs must have been verified.
llvm::Error checkSameState(const pb::Program &a, llvm::StringRef aName,
                           const pb::Program &b, llvm::StringRef bName);

} // namespace lpx::isa

#endif
