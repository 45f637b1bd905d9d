// RUN: lpx-opt %s --lpx-compile="nodes=2 chip=%S/../Inputs/test-chip.yaml" | FileCheck %s

// The whole pipeline, level 1 to 3: the 4x2 weight (K > N) is split by the
// reduction dimension over two chips, the input is bound in two pieces (one
// per chip), the second half's partial product travels as a scheduled send,
// and every value gets an SRAM address.
// CHECK-LABEL: module attributes {lpx_part.chip = #lpx_part.chip<"---\0Aname:{{ +}}test-chip{{.*}}">, lpx_part.num_nodes = 2 : i64}
// CHECK:       func.func @f(%arg0: tensor<1x2xf32> {lpx_graph.name = "x", lpx_part.node = 0 : i64, lpx_part.offsets = array<i64: 0, 0>, lpx_sched.addr = 0 : i64}, %arg1: tensor<1x2xf32> {lpx_graph.name = "x", lpx_part.node = 1 : i64, lpx_part.offsets = array<i64: 0, 2>, lpx_sched.addr = 0 : i64})
// CHECK-COUNT-1: lpx_sched.send
// CHECK:       lpx_graph.add {{.*}}lpx_sched.slot = #lpx_sched.slot<"vxm"
// CHECK-NOT:   lpx_part.transfer
module {
func.func @f(%x: tensor<1x4xf32> {lpx_graph.name = "x"}) -> tensor<1x2xf32> {
  %w = lpx_graph.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>
  %0 = lpx_graph.matmul %x, %w : (tensor<1x4xf32>, tensor<4x2xf32>) -> tensor<1x2xf32>
  return %0 : tensor<1x2xf32>
}
}
