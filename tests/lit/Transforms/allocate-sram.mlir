// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-schedule --lpx-allocate-sram | FileCheck %s
//
// Schedule as in schedule.mlir @vxm_chain: neg writes during [0, 4),
// relu [2, 6), sigmoid [4, 12), add [12, 16); each reads its operands in its
// window. Values are placed in order of start cycle. Every 128-byte value
// takes 128 bytes (64-byte aligned). test-chip has 2 slices x 2 banks of
// 4096 / 4 = 1024 bytes.
//  input:   0 (bank 0), for the whole program.
//  neg:     written while neg reads the input (bank 0) -> 1024 (bank 1).
//  relu:    written while it reads the input (bank 0) and neg writes bank 1
//           -> 2048 (bank 2).
//  sigmoid: written while it reads neg (bank 1) and relu writes bank 2 and
//           reads bank 0 -> 3072 (bank 3).
//  add:     written while it reads sigmoid (bank 3) and relu (bank 2) ->
//           the first free place in another bank: 128 (bank 0).
// CHECK-LABEL: func.func @vxm_chain
// CHECK-SAME: lpx_sched.addr = 0 : i64
// CHECK: lpx_graph.neg {{.*}}lpx_sched.addr = 1024 : i64
// CHECK: lpx_graph.sigmoid {{.*}}lpx_sched.addr = 3072 : i64
// CHECK: lpx_graph.relu {{.*}}lpx_sched.addr = 2048 : i64
// CHECK: lpx_graph.add {{.*}}lpx_sched.addr = 128 : i64
module attributes {lpx_part.num_nodes = 1 : i64} {
func.func @vxm_chain(%x: tensor<1x32xf32>) -> tensor<1x32xf32> {
  %0 = lpx_graph.neg %x {lpx_part.node = 0 : i64} : tensor<1x32xf32>
  %1 = lpx_graph.sigmoid %0 {lpx_part.node = 0 : i64} : tensor<1x32xf32>
  %2 = lpx_graph.relu %x {lpx_part.node = 0 : i64} : tensor<1x32xf32>
  %3 = lpx_graph.add %1, %2 {lpx_part.node = 0 : i64} : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
  return %3 : tensor<1x32xf32>
}
}
