// RUN: lpx-opt %s | lpx-opt | FileCheck %s
// Value-dependent selection (top_k) and the scatters.

// CHECK-LABEL: func.func @top_k
func.func @top_k(%x: tensor<3x4xf32>) -> (tensor<3x2xi64>, tensor<1x4xi64>) {
  // CHECK: lpx_graph.top_k %{{.*}} {axis = 1 : i64, k = 2 : i64} : (tensor<3x4xf32>) -> tensor<3x2xi64>
  %0 = lpx_graph.top_k %x {axis = 1 : i64, k = 2 : i64} : (tensor<3x4xf32>) -> tensor<3x2xi64>
  // CHECK: lpx_graph.top_k %{{.*}} {axis = 0 : i64, k = 1 : i64, largest = false, sorted = false}
  %1 = lpx_graph.top_k %x {axis = 0 : i64, k = 1 : i64, largest = false, sorted = false} : (tensor<3x4xf32>) -> tensor<1x4xi64>
  return %0, %1 : tensor<3x2xi64>, tensor<1x4xi64>
}

// CHECK-LABEL: func.func @scatters
func.func @scatters(%d: tensor<4x4xf32>, %i: tensor<2x4xi64>, %u: tensor<2x4xf32>, %r: tensor<2x1xi64>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  // CHECK: lpx_graph.scatter_elements %{{.*}}, %{{.*}}, %{{.*}} {axis = 0 : i64, reduction = #lpx_graph.scatter_reduction<add>}
  %0 = lpx_graph.scatter_elements %d, %i, %u {axis = 0 : i64, reduction = #lpx_graph.scatter_reduction<add>} : (tensor<4x4xf32>, tensor<2x4xi64>, tensor<2x4xf32>) -> tensor<4x4xf32>
  // CHECK: lpx_graph.scatter_nd %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4x4xf32>, tensor<2x1xi64>, tensor<2x4xf32>) -> tensor<4x4xf32>
  %1 = lpx_graph.scatter_nd %0, %r, %u : (tensor<4x4xf32>, tensor<2x1xi64>, tensor<2x4xf32>) -> tensor<4x4xf32>
  return %0, %1 : tensor<4x4xf32>, tensor<4x4xf32>
}
