//===- Bindings.h - Host tensors bound whole or in pieces -------*- C++ -*-===//
//
// A program's inputs and outputs are bindings of host tensor names to
// buffers. A tensor too large for one node is bound in pieces (several
// bindings of one name, each with its offsets in the whole tensor; format
// 1.2). These helpers group the pieces of each name and check that they
// tile the whole tensor: along one axis, or (format 3.2) as a grid, such
// as the row and column blocks of a matrix product split across groups.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_ISA_BINDINGS_H
#define LPX_ISA_BINDINGS_H

#include "program.pb.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <optional>
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

/// One piece of a tensor: its shape and its offsets in the whole tensor.
struct PieceBox {
  llvm::ArrayRef<int64_t> shape, offsets;
};

/// Why `pieces` do not tile a tensor as a grid (along every axis their
/// distinct starting offsets cut it into cells; every piece is exactly one
/// cell and every cell one piece), or nullopt, with `whole` the shape they
/// cover. One piece starting at 0 and pieces cutting one axis are grids.
std::optional<std::string> tileGrid(llvm::ArrayRef<PieceBox> pieces,
                                    std::vector<int64_t> &whole);

/// The tensors of `list` (p.inputs() or p.outputs()) in order of first
/// appearance. Errors when pieces disagree in element type or rank, have
/// offsets of the wrong rank, or do not tile the tensor as a grid. Bindings
/// must refer to existing buffers (checked before).
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
