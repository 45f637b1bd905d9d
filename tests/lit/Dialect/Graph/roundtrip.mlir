// RUN: lpx-opt %s | lpx-opt | FileCheck %s

// CHECK-LABEL: func.func @all_ops
func.func @all_ops(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %c: tensor<2x3xi1>,
                   %i: tensor<2xi64>) -> tensor<2x3xf32> {
  // CHECK: lpx_graph.constant dense<1.000000e+00> : tensor<3x3xf32>
  %w = lpx_graph.constant dense<1.0> : tensor<3x3xf32>
  // CHECK: lpx_graph.add %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %0 = lpx_graph.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = lpx_graph.sub %0, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %2 = lpx_graph.mul %1, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %3 = lpx_graph.div %2, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %4 = lpx_graph.pow %3, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: lpx_graph.where
  %5 = lpx_graph.where %c, %4, %a : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: lpx_graph.sqrt
  %6 = lpx_graph.sqrt %5 : tensor<2x3xf32>
  %7 = lpx_graph.neg %6 : tensor<2x3xf32>
  %8 = lpx_graph.relu %7 : tensor<2x3xf32>
  %9 = lpx_graph.sigmoid %8 : tensor<2x3xf32>
  %10 = lpx_graph.tanh %9 : tensor<2x3xf32>
  // CHECK: lpx_graph.cast %{{.*}} : tensor<2x3xf32> to tensor<2x3xf16>
  %11 = lpx_graph.cast %10 : tensor<2x3xf32> to tensor<2x3xf16>
  %12 = lpx_graph.cast %11 : tensor<2x3xf16> to tensor<2x3xf32>
  // CHECK: lpx_graph.matmul
  %13 = lpx_graph.matmul %12, %w : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<2x3xf32>
  // CHECK: lpx_graph.softmax %{{.*}} {axis = 1 : i64} : tensor<2x3xf32>
  %14 = lpx_graph.softmax %13 {axis = 1 : i64} : tensor<2x3xf32>
  // CHECK: lpx_graph.reduce_mean %{{.*}} {axes = array<i64: 1>}
  %15 = lpx_graph.reduce_mean %14 {axes = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  %16 = lpx_graph.reshape %15 : tensor<2x1xf32> to tensor<2xf32>
  %17 = lpx_graph.transpose %14 {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %18 = lpx_graph.concat %17, %17 {axis = 0 : i64} : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<6x2xf32>
  // CHECK: lpx_graph.slice %{{.*}} {starts = array<i64: 5, 0>, steps = array<i64: -2, 1>}
  %19 = lpx_graph.slice %18 {starts = array<i64: 5, 0>, steps = array<i64: -2, 1>} : (tensor<6x2xf32>) -> tensor<3x2xf32>
  // CHECK: lpx_graph.gather %{{.*}}, %{{.*}} {axis = 0 : i64}
  %20 = lpx_graph.gather %19, %i {axis = 0 : i64} : (tensor<3x2xf32>, tensor<2xi64>) -> tensor<2x2xf32>
  %21 = lpx_graph.gemm %20, %w, %b : (tensor<2x2xf32>, tensor<3x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %5 : tensor<2x3xf32>
}
