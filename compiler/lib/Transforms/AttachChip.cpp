//===- AttachChip.cpp - The chip description on the module ----------------===//
#include "lpx/Dialect/Part/IR/PartDialect.h"
#include "lpx/Target/ISABridge.h"
#include "lpx/Transforms/Passes.h"

namespace lpx {
#define GEN_PASS_DEF_ATTACHCHIP
#include "lpx/Transforms/Passes.h.inc"
} // namespace lpx

using namespace mlir;

namespace {
struct AttachChipPass : lpx::impl::AttachChipBase<AttachChipPass> {
  using AttachChipBase::AttachChipBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::string name = chip.empty() ? lpx::isa::presetNames().front() : chip;
    auto spec = lpx::isa::loadChipSpec(name);
    if (!spec) {
      module.emitError() << llvm::toString(spec.takeError());
      return signalPassFailure();
    }
    if (failed(lpx::attachChip(module, *spec)))
      signalPassFailure();
  }
};
} // namespace
