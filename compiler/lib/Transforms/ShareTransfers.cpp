//===- ShareTransfers.cpp - A value crosses to another group once ---------===//
//
// The partitioner sends a value to every chip that reads it, each transfer
// routed on its own: a value read on the 8 chips of the next pipeline
// stage (a chunk's mask bias, 2 MB at 256 tokens and a 4,096-position
// context) crosses the one global link between the two groups 8 times, one
// after another. Here the transfers of one value from one chip into
// another group become one transfer to the chip of that group the route
// reaches first, and from there one local transfer to each of the others.
//
//===----------------------------------------------------------------------===//
#include "lpx/Dialect/Part/IR/PartOps.h"
#include "lpx/Target/ISABridge.h"
#include "lpx/Transforms/Passes.h"
#include "lpx/isa/Topology.h"

#include <map>

namespace lpx {
#define GEN_PASS_DEF_SHARETRANSFERS
#include "lpx/Transforms/Passes.h.inc"
} // namespace lpx

using namespace mlir;
using namespace lpx;

namespace {

struct ShareTransfersPass
    : lpx::impl::ShareTransfersBase<ShareTransfersPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<isa::ChipSpec> spec = chipOf(module);
    auto nodes = module->getAttrOfType<IntegerAttr>(
        part::PartDialect::kNumNodesAttr);
    if (failed(spec) || !nodes) {
      module.emitError("run lpx-attach-chip and lpx-partition first");
      return signalPassFailure();
    }
    const uint32_t n = uint32_t(nodes.getInt());
    const int64_t group = std::max<int64_t>(spec->topology.groupSize, 1);
    for (auto f : module.getOps<func::FuncOp>()) {
      // (value, source chip, destination group) -> its transfers, in order.
      std::map<std::tuple<void *, int64_t, int64_t>,
               SmallVector<part::TransferOp>>
          crossing;
      f.walk([&](part::TransferOp t) {
        if (t.getFrom() / group != t.getTo() / group)
          crossing[{t.getInput().getAsOpaquePointer(), t.getFrom(),
                    t.getTo() / group}]
              .push_back(t);
      });
      for (auto &[key, list] : crossing) {
        if (list.size() < 2)
          continue;
        // The relay: the destination the route reaches in fewest hops (the
        // gateway chip when it reads the value); the first in program order
        // on a tie, so it comes before the others.
        part::TransferOp relay = list.front();
        size_t best = SIZE_MAX;
        for (part::TransferOp t : list) {
          size_t hops = isa::route(*spec, n, uint32_t(t.getFrom()),
                                   uint32_t(t.getTo()))
                            .size();
          if (hops < best)
            best = hops, relay = t;
        }
        // The relay must come before every transfer it feeds.
        relay->moveBefore(list.front());
        for (part::TransferOp t : list) {
          if (t == relay)
            continue;
          t.getInputMutable().assign(relay.getResult());
          t.setFrom(relay.getTo());
        }
      }
    }
  }
};

} // namespace
