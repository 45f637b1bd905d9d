// RUN: lpx-opt %s | lpx-opt | FileCheck %s

// CHECK-LABEL: module attributes {lpx_part.num_nodes = 2 : i64}
// CHECK: lpx_part.transfer %arg0 {from = 0 : i64, lpx_part.node = 1 : i64, to = 1 : i64} : tensor<4xf32>
module attributes {lpx_part.num_nodes = 2 : i64} {
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = lpx_part.transfer %x {from = 0 : i64, to = 1 : i64, lpx_part.node = 1 : i64} : tensor<4xf32>
  %1 = lpx_graph.neg %0 {lpx_part.node = 1 : i64} : tensor<4xf32>
  return %1 : tensor<4xf32>
}
}
