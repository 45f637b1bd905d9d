//===- ImportFuzzer.cpp - Bytes into the ONNX importer --------------------===//
//
// The front end of `lpx compile`: any byte string, read as model.onnx, must
// either import or fail with diagnostics; never crash, hang or allocate
// without bound.
//
//===----------------------------------------------------------------------===//
#include "FuzzFiles.h"

#include "lpx/Driver/Compile.h"
#include "lpx/Import/ONNXImporter.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static std::unique_ptr<mlir::MLIRContext> ctx = lpx::makeCompilerContext();
  std::string path = lpx::fuzz::writeInput(data, size, "model.onnx");
  mlir::ScopedDiagnosticHandler quiet(ctx.get(), [](mlir::Diagnostic &) {
    return mlir::success();
  });
  auto module = lpx::importOnnxFile(*ctx, path, lpx::ImportOptions{});
  if (succeeded(module))
    (void)mlir::verify(module->get());
  return 0;
}
