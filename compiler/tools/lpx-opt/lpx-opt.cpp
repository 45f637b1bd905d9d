//===- lpx-opt.cpp - Run lpx passes on any IR level -----------------------===//
#include "lpx/InitAll.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  lpx::registerAllDialects(registry);
  lpx::registerAllPasses();
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "lpx optimizer driver\n", registry));
}
