// RUN: not lpx-translate --emit-program-text --chip=%S/../Inputs/test-chip.yaml %s 2>&1 | FileCheck %s
//
// Emission refuses a module that is not at level 3.
// CHECK: error: argument arg0 has no SRAM address; run lpx-allocate-sram first
module attributes {lpx_part.num_nodes = 1 : i64} {
func.func @unscheduled(%x: tensor<1x32xf32>) -> tensor<1x32xf32> {
  %0 = lpx_graph.neg %x {lpx_part.node = 0 : i64} : tensor<1x32xf32>
  return %0 : tensor<1x32xf32>
}
}
