//===- PartDialect.cpp - lpx_part dialect ---------------------------------===//
#include "lpx/Dialect/Part/IR/PartDialect.h"
#include "lpx/Dialect/Part/IR/PartOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace lpx::part;

#include "lpx/Dialect/Part/IR/PartOpsDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "lpx/Dialect/Part/IR/PartAttrs.cpp.inc"

void PartDialect::initialize() {
#define LPX_GENERATED_OPS "lpx/Dialect/Part/IR/PartOps.cpp.inc"
#define LPX_GENERATED_ATTRS "lpx/Dialect/Part/IR/PartAttrs.cpp.inc"
#include "lpx/Dialect/AddGeneratedContents.inc"
}

/// `#lpx_part.chip<"yaml">`: the description is parsed here, once.
Attribute ChipAttr::parse(AsmParser &parser, Type) {
  std::string text;
  SMLoc at = parser.getCurrentLocation();
  if (parser.parseLess() || parser.parseString(&text) || parser.parseGreater())
    return {};
  auto spec = lpx::isa::parseChipSpec(text, PartDialect::kChipAttr);
  if (!spec) {
    parser.emitError(at) << llvm::toString(spec.takeError());
    return {};
  }
  return ChipAttr::get(parser.getContext(), *spec);
}

void ChipAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printer.printString(lpx::isa::printChipSpec(getSpec()));
  printer << '>';
}

LogicalResult PartDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  if (attr.getName() == kNodeAttr || attr.getName() == kNumNodesAttr ||
      attr.getName() == kChunkOpAttr) {
    auto i = dyn_cast<IntegerAttr>(attr.getValue());
    if (!i || i.getInt() < 0)
      return op->emitError() << attr.getName()
                             << " must be a non-negative integer";
    if (attr.getName() == kNumNodesAttr && i.getInt() == 0)
      return op->emitError() << kNumNodesAttr << " must be positive";
    return success();
  }
  if (attr.getName() == kChipAttr) {
    if (!llvm::isa<ModuleOp>(op) || !llvm::isa<ChipAttr>(attr.getValue()))
      return op->emitError() << kChipAttr
                             << " must be a #lpx_part.chip on the module";
    return success();
  }
  if (attr.getName() == kPlacementAttr) {
    auto mesh = dyn_cast<DenseI64ArrayAttr>(attr.getValue());
    if (!llvm::isa<ModuleOp>(op) || !mesh || mesh.size() != 2 ||
        mesh[0] < 1 || mesh[1] < 1)
      return op->emitError() << kPlacementAttr
                             << " must be [tp, pp], both positive, on the "
                                "module";
    return success();
  }
  if (attr.getName() == kMeshAttr) {
    if (!llvm::isa<ModuleOp>(op) || !llvm::isa<MeshAttr>(attr.getValue()))
      return op->emitError() << kMeshAttr
                             << " must be a #lpx_part.mesh on the module";
    return success();
  }
  if (attr.getName() == kStageAttr || attr.getName() == kExpertChipsAttr) {
    auto span = dyn_cast<DenseI64ArrayAttr>(attr.getValue());
    if (!span || span.size() != 2 || span[0] < 0 || span[1] < 1)
      return op->emitError() << attr.getName()
                             << " must be [first, count], count positive";
    return success();
  }
  if (attr.getName() == kShardAttr) {
    auto shard = dyn_cast<ShardAttr>(attr.getValue());
    if (!shard)
      return op->emitError() << kShardAttr << " must be a #lpx_part.shard";
    if (!llvm::is_contained({"whole", "columns", "reduce_scatter", "tree_sum",
                             "all_reduce", "all_gather", "replicated",
                             "pieces", "state"},
                            shard.getKind()))
      return op->emitError() << kShardAttr << " has unknown kind '"
                             << shard.getKind() << "'";
    if (shard.getNodes().empty() ||
        shard.getLo().size() != shard.getHi().size())
      return op->emitError() << kShardAttr
                             << " needs nodes and as many lo as hi";
    return success();
  }
  if (attr.getName() == kExpertsAttr) {
    if (!llvm::isa<DictionaryAttr>(attr.getValue()))
      return op->emitError() << kExpertsAttr << " must be a dictionary";
    return success();
  }
  return op->emitError() << "unknown attribute " << attr.getName();
}

std::optional<int64_t> lpx::part::getNode(Operation *op) {
  if (auto a = op->getAttrOfType<IntegerAttr>(PartDialect::kNodeAttr))
    return a.getInt();
  return std::nullopt;
}

void lpx::part::setNode(Operation *op, int64_t node) {
  op->setAttr(PartDialect::kNodeAttr,
              IntegerAttr::get(IntegerType::get(op->getContext(), 64), node));
}

int64_t lpx::part::getNodeOfValue(Value v) {
  if (Operation *def = v.getDefiningOp())
    return getNode(def).value_or(0);
  // A program input lives where the partitioner put it (an argument
  // attribute of the function), else on node 0.
  auto arg = cast<BlockArgument>(v);
  Operation *parent = arg.getOwner()->getParentOp();
  auto all = parent ? parent->getAttrOfType<ArrayAttr>("arg_attrs") : nullptr;
  if (all && arg.getArgNumber() < all.size())
    if (auto dict = dyn_cast<DictionaryAttr>(all[arg.getArgNumber()]))
      if (auto n = dict.getAs<IntegerAttr>(PartDialect::kNodeAttr))
        return n.getInt();
  return 0;
}

LogicalResult TransferOp::verify() {
  // I64Attr getters are unsigned; read the signed values to catch negatives.
  int64_t from = getFromAttr().getInt(), to = getToAttr().getInt();
  if (from < 0 || to < 0)
    return emitOpError("nodes must be non-negative");
  if (from == to)
    return emitOpError("transfer from node ") << from << " to itself";
  if (auto n = getNode(*this); n && *n != to)
    return emitOpError("is placed on node ") << *n << " but delivers to node "
                                             << to;
  return success();
}

#define GET_OP_CLASSES
#include "lpx/Dialect/Part/IR/PartOps.cpp.inc"
