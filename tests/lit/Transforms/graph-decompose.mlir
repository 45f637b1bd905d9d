// RUN: lpx-opt %s --lpx-graph-decompose -split-input-file | FileCheck %s

// Gemm with transB and alpha/beta: transpose, matmul, scale, scaled bias.
// CHECK-LABEL: func.func @gemm_all
// CHECK-DAG:  %[[BETA:.*]] = lpx_graph.constant dense<5.000000e-01> : tensor<f32>
// CHECK-DAG:  %[[ALPHA:.*]] = lpx_graph.constant dense<2.000000e+00> : tensor<f32>
// CHECK:      %[[BT:.*]] = lpx_graph.transpose %arg1 {perm = array<i64: 1, 0>} : (tensor<4x3xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: %[[MM:.*]] = lpx_graph.matmul %arg0, %[[BT]] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %[[SC:.*]] = lpx_graph.mul %[[MM]], %[[ALPHA]]
// CHECK-NEXT: %[[CB:.*]] = lpx_graph.mul %arg2, %[[BETA]]
// CHECK-NEXT: %[[R:.*]] = lpx_graph.add %[[SC]], %[[CB]]
// CHECK-NEXT: return %[[R]]
func.func @gemm_all(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>, %c: tensor<4xf32>) -> tensor<2x4xf32> {
  %r = lpx_graph.gemm %a, %b, %c {alpha = 2.0 : f32, beta = 0.5 : f32, transB = true}
      : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// -----

// Defaults: a plain matmul, no scaling and no bias.
// CHECK-LABEL: func.func @gemm_plain
// CHECK-NEXT: %[[MM:.*]] = lpx_graph.matmul %arg0, %arg1 : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: return %[[MM]]
func.func @gemm_plain(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %r = lpx_graph.gemm %a, %b : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// -----

// transA transposes the left operand; beta = 0 drops C.
// CHECK-LABEL: func.func @gemm_transa_beta0
// CHECK-NEXT: %[[AT:.*]] = lpx_graph.transpose %arg0 {perm = array<i64: 1, 0>} : (tensor<3x2xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[MM:.*]] = lpx_graph.matmul %[[AT]], %arg1
// CHECK-NOT:  lpx_graph.add
// CHECK:      return %[[MM]]
func.func @gemm_transa_beta0(%a: tensor<3x2xf32>, %b: tensor<3x4xf32>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %r = lpx_graph.gemm %a, %b, %c {beta = 0.0 : f32, transA = true}
      : (tensor<3x2xf32>, tensor<3x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// -----

// A constant weight with transB is transposed at compile time, so it stays a
// constant the partitioner can split.
// CHECK-LABEL: func.func @gemm_const_weight
// CHECK-NEXT: %[[W:.*]] = lpx_graph.constant dense<{{\[\[}}1.000000e+00, 4.000000e+00], [2.000000e+00, 5.000000e+00], [3.000000e+00, 6.000000e+00]]> : tensor<3x2xf32>
// CHECK-NEXT: %[[MM:.*]] = lpx_graph.matmul %arg0, %[[W]]
// CHECK-NOT:  lpx_graph.transpose
func.func @gemm_const_weight(%a: tensor<1x3xf32>) -> tensor<1x2xf32> {
  %w = lpx_graph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %r = lpx_graph.gemm %a, %w {transB = true} : (tensor<1x3xf32>, tensor<2x3xf32>) -> tensor<1x2xf32>
  return %r : tensor<1x2xf32>
}
