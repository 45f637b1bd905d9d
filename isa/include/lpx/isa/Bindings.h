//===- Bindings.h - Host tensors bound whole or in pieces -------*- C++ -*-===//
//
// A program's inputs and outputs are bindings of host tensor names to
// buffers. A tensor too large for one node is bound in pieces (several
// bindings of one name, each with its offsets in the whole tensor; format
// 1.2). These helpers group the pieces of each name and check that they
// tile the whole tensor along one axis.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_ISA_BINDINGS_H
#define LPX_ISA_BINDINGS_H

#include "program.pb.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace lpx::isa {

/// One host tensor: its pieces (one binding when it is bound whole) and the
/// shape of the whole tensor.
struct HostBinding {
  std::string name;
  std::vector<const pb::Binding *> pieces;
  std::vector<int64_t> shape;
  uint32_t dtype = 0;
};

/// The tensors of `list` (p.inputs() or p.outputs()) in order of first
/// appearance. Errors when pieces disagree in element type or rank, have
/// offsets of the wrong rank, overlap, leave a gap or cut more than one
/// axis. Bindings must refer to existing buffers (checked before).
llvm::Expected<std::vector<HostBinding>>
groupBindings(const pb::Program &p,
              const google::protobuf::RepeatedPtrField<pb::Binding> &list);

/// Copies the piece of `b` between the whole tensor `whole` (of `shape`)
/// and the buffer bytes `piece`: into the piece when `toPiece`, else back.
void copyPiece(const pb::Program &p, const pb::Binding &b,
               const std::vector<int64_t> &shape, uint8_t *whole,
               uint8_t *piece, bool toPiece);

} // namespace lpx::isa

#endif
