// RUN: lpx-opt %s --lpx-schedule="chip=%S/../Inputs/test-chip.yaml" --lpx-allocate-sram="chip=%S/../Inputs/test-chip.yaml" | lpx-translate --emit-program-text --chip=%S/../Inputs/test-chip.yaml | FileCheck %s
//
// The schedule and addresses of allocate-sram.mlir, as the program file
// holds them. test-chip: 64-byte vectors, VXM one vector per cycle, latency
// 2, transcendental functions 3 passes. A 1x32xf32 value is 128 bytes = 2
// vectors: neg, relu and add are busy 2 cycles, sigmoid 2 * 3 = 6; all have
// latency 2. One VXM queue: neg at 0, relu at 2 (queue free), sigmoid at 4
// (neg complete at 4), add at 12 (sigmoid complete at 4 + 6 + 2).
// Every buffer is in the table with its node, address, kind and shape; the
// output is named by the function's result.
// CHECK: for 1 node(s) of test-chip
// CHECK: buffers:
// CHECK-NEXT: %0 node 0 @0 input 1x32xf32 arg0
// CHECK-NEXT: %1 node 0 @1024 temp 1x32xf32
// CHECK-NEXT: %2 node 0 @3072 temp 1x32xf32
// CHECK-NEXT: %3 node 0 @2048 temp 1x32xf32
// CHECK-NEXT: %4 node 0 @128 output 1x32xf32 output0
// CHECK-NEXT: node 0:
// CHECK-NEXT: 0 vxm neg %1 <- %0 busy 2 lat 2
// CHECK-NEXT: 2 vxm relu %3 <- %0 busy 2 lat 2
// CHECK-NEXT: 4 vxm sigmoid %2 <- %1 busy 6 lat 2
// CHECK-NEXT: 12 vxm add %4 <- %2 %3 busy 2 lat 2
module attributes {lpx_part.num_nodes = 1 : i64} {
func.func @vxm_chain(%x: tensor<1x32xf32>) -> tensor<1x32xf32> {
  %0 = lpx_graph.neg %x {lpx_part.node = 0 : i64} : tensor<1x32xf32>
  %1 = lpx_graph.sigmoid %0 {lpx_part.node = 0 : i64} : tensor<1x32xf32>
  %2 = lpx_graph.relu %x {lpx_part.node = 0 : i64} : tensor<1x32xf32>
  %3 = lpx_graph.add %1, %2 {lpx_part.node = 0 : i64} : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
  return %3 : tensor<1x32xf32>
}
}
