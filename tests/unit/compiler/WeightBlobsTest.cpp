//===- WeightBlobsTest.cpp - A weight's bytes are in memory once ----------===//
//
// Compiles the built-in Llama decode step (weights with data) through the
// whole pipeline and checks, after the import and after every pass, that
// the bytes held by weight blobs are exactly the bytes of the weights the
// IR holds now: each pass that derives weights (fp8 conversion, slicing per
// chip) has freed the ones it replaced. The emitted program's constants are
// then views of those blobs, and destroying the context frees them all.
//
//===----------------------------------------------------------------------===//
#include "lpx/Dialect/Graph/IR/GraphOps.h"
#include "lpx/Dialect/Graph/IR/WeightBlobs.h"
#include "lpx/Driver/Compile.h"
#include "lpx/Target/ISABridge.h"
#include "lpx/Target/Program/EmitProgram.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/DenseSet.h"
#include <gtest/gtest.h>

using namespace mlir;
using namespace lpx;

namespace {

/// Bytes of the distinct blobs the constants under `root` hold.
uint64_t heldBlobBytes(Operation *root) {
  llvm::DenseSet<void *> seen;
  uint64_t bytes = 0;
  root->walk([&](graph::ConstantOp c) {
    auto r = dyn_cast<DenseResourceElementsAttr>(c.getValue());
    if (r && graph::isBlobWeight(r) &&
        seen.insert(r.getRawHandle().getResource()).second)
      bytes += graph::weightBytes(c.getValue())->size();
  });
  return bytes;
}

struct Stage {
  std::string name;
  uint64_t live, held;
};

/// Records live and held blob bytes after every pass.
class BlobAudit : public PassInstrumentation {
public:
  BlobAudit(std::vector<Stage> &stages, uint64_t base)
      : stages(stages), base(base) {}
  void runAfterPass(Pass *pass, Operation *op) override {
    Operation *module =
        llvm::isa<ModuleOp>(op) ? op : op->getParentOfType<ModuleOp>();
    stages.push_back({pass->getArgument().str(),
                      graph::liveWeightBlobBytes() - base,
                      heldBlobBytes(module)});
  }

private:
  std::vector<Stage> &stages;
  uint64_t base;
};

TEST(WeightBlobs, OneCopyOfEachWeightAfterEveryPass) {
  const uint64_t base = graph::liveWeightBlobBytes();
  {
    auto ctx = makeCompilerContext();
    auto chip = isa::loadChipSpec("lpx3");
    ASSERT_TRUE(bool(chip));
    auto module = importOnnxFile(
        *ctx, std::string(LPX_SOURCE_DIR) + "/models/llama_step/model.onnx",
        ImportOptions{});
    ASSERT_TRUE(succeeded(module));
    std::vector<Stage> stages{{"import", graph::liveWeightBlobBytes() - base,
                               heldBlobBytes(**module)}};
    // The importer's blobs hold the fp32 weights: 4 bytes per element of
    // every constant of 1024 bytes or more.
    uint64_t fp32 = 0;
    (*module)->walk([&](graph::ConstantOp c) {
      auto t = cast<RankedTensorType>(c.getType());
      uint64_t bytes = uint64_t(t.getNumElements()) * 4;
      if (t.getElementType().isF32() && bytes >= graph::kBlobMinBytes)
        fp32 += bytes;
    });
    EXPECT_GT(fp32, 0u);
    EXPECT_EQ(stages.front().held, fp32);

    ASSERT_TRUE(succeeded(attachChip(**module, *chip)));
    CompileOptions opts;
    opts.nodes = 4;
    opts.weights = "fp8e4m3";
    opts.activations = "fp16";
    PassManager pm(ctx.get());
    buildPipeline(pm, opts);
    pm.addInstrumentation(std::make_unique<BlobAudit>(stages, base));
    ASSERT_TRUE(succeeded(pm.run(**module)));

    bool converted = false, partitioned = false;
    for (const Stage &s : stages) {
      SCOPED_TRACE(s.name);
      EXPECT_EQ(s.live, s.held);
      EXPECT_GT(s.held, 0u);
      if (s.name == "lpx-convert-types") {
        converted = true;
        // MatMul weights in one byte, the other constants in two.
        EXPECT_LT(s.held, fp32 / 2 + 1);
      }
      partitioned |= s.name == "lpx-partition";
    }
    EXPECT_TRUE(converted);
    EXPECT_TRUE(partitioned);

    // Emission writes the blobs' own bytes: no copy.
    uint64_t live = graph::liveWeightBlobBytes();
    auto program = emitProgram(**module, "model.onnx");
    ASSERT_TRUE(succeeded(program));
    EXPECT_EQ(graph::liveWeightBlobBytes(), live);
  }
  EXPECT_EQ(graph::liveWeightBlobBytes(), base); // the context freed them
}

TEST(WeightBlobs, FreedWhenTheLastHolderLetsGo) {
  const uint64_t base = graph::liveWeightBlobBytes();
  auto ctx = makeCompilerContext();
  OpBuilder b(ctx.get());
  OwningOpRef<ModuleOp> module = ModuleOp::create(b.getUnknownLoc());
  b.setInsertionPointToEnd(module->getBody());
  auto type = RankedTensorType::get({16, 64}, b.getF32Type());
  graph::WeightBuffer bytes(16 * 64 * 4);
  std::fill(bytes.data().begin(), bytes.data().end(), 1);
  ElementsAttr w = std::move(bytes).take(type, "w");
  auto c1 = b.create<graph::ConstantOp>(b.getUnknownLoc(), w);
  auto c2 = b.create<graph::ConstantOp>(b.getUnknownLoc(), w);
  EXPECT_EQ(graph::liveWeightBlobBytes() - base, 4096u);

  graph::WeightHolders holders(*module);
  auto half = RankedTensorType::get({16, 64}, b.getF16Type());
  ElementsAttr h = graph::deriveWeight(w, half, ".f16",
                                       [](MutableArrayRef<char> out) {
                                         std::fill(out.begin(), out.end(), 2);
                                       });
  holders.setValue(c1, h);
  EXPECT_EQ(graph::liveWeightBlobBytes() - base, 4096u + 2048u); // c2 holds w
  EXPECT_TRUE(graph::isBlobWeight(w));
  holders.setValue(c2, h);
  EXPECT_EQ(graph::liveWeightBlobBytes() - base, 2048u);
  EXPECT_FALSE(graph::isBlobWeight(w));
  EXPECT_EQ(c2.getType(), half);
  EXPECT_EQ((*graph::weightBytes(c2.getValue()))[0], 2);
}

} // namespace
