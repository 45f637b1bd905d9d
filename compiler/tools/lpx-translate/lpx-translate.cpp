//===- lpx-translate.cpp - ONNX to IR, IR to program text -----------------===//
//
// mlir-translate for lpx, so lit covers both ends of the compiler:
//   --import-onnx        an ONNX model (binary, or the ONNX textual format of
//                        onnx/defs/parser.h) to lpx_graph IR (level 1);
//   --emit-program-text  a scheduled, allocated module (level 3) to the
//                        program file's disassembly (isa::disassemble).
//
//===----------------------------------------------------------------------===//
#include "lpx/Import/ImportArgs.h"
#include "lpx/Import/ONNXImporter.h"
#include "lpx/InitAll.h"
#include "lpx/Target/ISABridge.h"
#include "lpx/Target/Program/EmitProgram.h"
#include "lpx/isa/Disassemble.h"
#include "lpx/isa/Program.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

static llvm::cl::list<std::string>
    inputShapes("input-shape", llvm::cl::desc("--import-onnx: pin a graph "
                                              "input's dims (name=1x128)"));
static llvm::cl::list<std::string>
    constInputs("const-input", llvm::cl::desc("--import-onnx: fold a graph "
                                              "input from a .pb file "
                                              "(name=file.pb)"));
static llvm::cl::opt<std::string>
    chip("chip", llvm::cl::desc("--emit-program-text: attach this chip (preset "
                                "name or YAML path) instead of the module's"));

/// The model is read by path (external data lives next to it), so the input
/// must be a file, not standard input.
static OwningOpRef<Operation *> importOnnx(llvm::SourceMgr &sm,
                                           MLIRContext *ctx) {
  StringRef path =
      sm.getMemoryBuffer(sm.getMainFileID())->getBufferIdentifier();
  Location loc = FileLineColLoc::get(ctx, path, 0, 0);
  auto opts = lpx::cli::parseImportArgs(
      std::vector<std::string>(inputShapes.begin(), inputShapes.end()),
      std::vector<std::string>(constInputs.begin(), constInputs.end()));
  if (!opts) {
    emitError(loc) << llvm::toString(opts.takeError());
    return nullptr;
  }
  if (path == "<stdin>" || path == "-") {
    emitError(loc) << "--import-onnx reads a model file, not standard input";
    return nullptr;
  }
  auto module = lpx::importOnnxFile(*ctx, path, *opts);
  if (failed(module))
    return nullptr;
  return OwningOpRef<Operation *>(module->release());
}

/// Emits (verified, as a file reader would) and disassembles: the text is
/// what `lpx inspect` would show for the written file.
static LogicalResult emitProgramText(Operation *op, llvm::raw_ostream &os) {
  auto module = dyn_cast<ModuleOp>(op);
  if (!module)
    return op->emitError("expected a builtin.module");
  if (!chip.empty()) {
    auto spec = lpx::isa::loadChipSpec(chip);
    if (!spec)
      return op->emitError(llvm::toString(spec.takeError()));
    if (failed(lpx::attachChip(module, *spec)))
      return failure();
  }
  std::string name = "module";
  if (auto loc = dyn_cast<FileLineColLoc>(op->getLoc()))
    name = llvm::sys::path::filename(loc.getFilename().getValue()).str();
  auto program = lpx::emitProgram(module, name); // verified
  if (failed(program))
    return failure();
  lpx::isa::disassemble(*program, os);
  return success();
}

int main(int argc, char **argv) {
  TranslateToMLIRRegistration importReg(
      "import-onnx", "ONNX model (binary or text) to lpx_graph IR", importOnnx,
      [](DialectRegistry &registry) { lpx::registerAllDialects(registry); });
  TranslateFromMLIRRegistration emitReg(
      "emit-program-text", "level-3 module to program text", emitProgramText,
      [](DialectRegistry &registry) { lpx::registerAllDialects(registry); });
  return failed(mlirTranslateMain(argc, argv, "lpx translation driver"));
}
