// RUN: lpx-opt %s --lpx-schedule="chip=%S/../Inputs/test-chip.yaml" --lpx-allocate-sram="chip=%S/../Inputs/test-chip.yaml" | FileCheck %s
//
// Schedule as in schedule.mlir @vxm_chain: neg [0, read until 10),
// sigmoid [4, read until 16), relu [10, read until 16), add [14, output).
// Every 128-byte value takes 128 bytes (64-byte aligned). The input stays at
// 0. neg takes 128; sigmoid 256; relu starts at 10, when the neg's last
// reader (sigmoid, 4 + 6) is done, so it reuses 128; add starts at 14 while
// sigmoid and relu are still read until 16, so it takes 384.
// CHECK-LABEL: func.func @vxm_chain
// CHECK-SAME: lpx_sched.addr = 0 : i64
// CHECK: lpx_graph.neg {{.*}}lpx_sched.addr = 128 : i64
// CHECK: lpx_graph.sigmoid {{.*}}lpx_sched.addr = 256 : i64
// CHECK: lpx_graph.relu {{.*}}lpx_sched.addr = 128 : i64
// CHECK: lpx_graph.add {{.*}}lpx_sched.addr = 384 : i64
module attributes {lpx_part.num_nodes = 1 : i64} {
func.func @vxm_chain(%x: tensor<1x32xf32>) -> tensor<1x32xf32> {
  %0 = lpx_graph.neg %x {lpx_part.node = 0 : i64} : tensor<1x32xf32>
  %1 = lpx_graph.sigmoid %0 {lpx_part.node = 0 : i64} : tensor<1x32xf32>
  %2 = lpx_graph.relu %x {lpx_part.node = 0 : i64} : tensor<1x32xf32>
  %3 = lpx_graph.add %1, %2 {lpx_part.node = 0 : i64} : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
  return %3 : tensor<1x32xf32>
}
}
