// RUN: lpx-opt %s --lpx-unroll-chunks=chunks=2 --lpx-verify-partitioned | FileCheck %s
//
// The attention of a chunk step of 2 tokens into 8 positions: K^T state
// [1, 4, 8] (written along axis 2), V state [1, 8, 4] (axis 1), scores
// q K^T plus the mask's bias [1, 1, 8], softmax, times V. Chunk k's tokens
// are at positions 2k, 2k + 1 and attend to the first 2(k + 1) positions:
// copy 0 reads 2 positions of each state, copy 1 reads 4, so its scores,
// mask and probabilities are [.., 4] and the product with V sums 4
// positions; the result keeps its shape. The next layer's state (what
// the attention's result is written into: it keeps copy 0's attention
// live) is read by nothing in the copy and is not sliced.
// CHECK-LABEL: func.func @attention
// CHECK: %[[K0:.*]] = lpx_graph.state_write %arg1, %arg3 into %arg5 {axis = 2 : i64
// CHECK-NEXT: %[[K0S:.*]] = lpx_graph.slice %[[K0]] {lpx_part.node = 0 : i64, starts = array<i64: 0, 0, 0>, steps = array<i64: 1, 1, 1>} : (tensor<1x4x8xf32>) -> tensor<1x4x2xf32>
// CHECK: %[[V0:.*]] = lpx_graph.state_write %arg2, %arg3 into %arg6 {axis = 1 : i64
// CHECK-NEXT: %[[V0S:.*]] = lpx_graph.slice %[[V0]] {{.*}} : (tensor<1x8x4xf32>) -> tensor<1x2x4xf32>
// CHECK: lpx_graph.matmul %arg0, %[[K0S]] {{.*}} : (tensor<1x2x4xf32>, tensor<1x4x2xf32>) -> tensor<1x2x2xf32>
// CHECK: %[[B0:.*]] = lpx_graph.slice %arg4 {{.*}} : (tensor<1x1x8xf32>) -> tensor<1x1x2xf32>
// CHECK: lpx_graph.add %{{.*}}, %[[B0]] {{.*}} -> tensor<1x2x2xf32>
// CHECK: lpx_graph.softmax %{{.*}} : tensor<1x2x2xf32>
// CHECK: lpx_graph.state_write %{{.*}}, %arg3 into %arg7
// CHECK-NOT: lpx_graph.slice
// CHECK: %[[K1:.*]] = lpx_graph.state_write %arg9, %arg11 into %[[K0]] {axis = 2 : i64
// CHECK-NEXT: %[[K1S:.*]] = lpx_graph.slice %[[K1]] {{.*}} : (tensor<1x4x8xf32>) -> tensor<1x4x4xf32>
// CHECK: %[[V1:.*]] = lpx_graph.state_write %arg10, %arg11 into %[[V0]] {axis = 1 : i64
// CHECK-NEXT: %[[V1S:.*]] = lpx_graph.slice %[[V1]] {{.*}} : (tensor<1x8x4xf32>) -> tensor<1x4x4xf32>
// CHECK: lpx_graph.matmul %arg8, %[[K1S]] {{.*}} -> tensor<1x2x4xf32>
// CHECK: lpx_graph.slice %arg12 {{.*}} : (tensor<1x1x8xf32>) -> tensor<1x1x4xf32>
// CHECK: %[[P1:.*]] = lpx_graph.softmax %{{.*}} : tensor<1x2x4xf32>
// CHECK: %[[O:.*]] = lpx_graph.matmul %[[P1]], %[[V1S]] {{.*}} : (tensor<1x2x4xf32>, tensor<1x4x4xf32>) -> tensor<1x2x4xf32>
// CHECK: return %[[O]]
module attributes {lpx_part.num_nodes = 1 : i64} {
func.func @attention(%q: tensor<1x2x4xf32> {lpx_graph.name = "q", lpx_part.node = 0 : i64},
                     %kn: tensor<1x4x2xf32> {lpx_graph.name = "k", lpx_part.node = 0 : i64},
                     %vn: tensor<1x2x4xf32> {lpx_graph.name = "v", lpx_part.node = 0 : i64},
                     %pos: tensor<1x2xi64> {lpx_graph.name = "position_ids", lpx_part.node = 0 : i64},
                     %bias: tensor<1x1x8xf32> {lpx_graph.name = "bias", lpx_part.node = 0 : i64},
                     %ks: tensor<1x4x8xf32> {lpx_graph.name = "present.0.key", lpx_graph.state, lpx_part.node = 0 : i64},
                     %vs: tensor<1x8x4xf32> {lpx_graph.name = "present.0.value", lpx_graph.state, lpx_part.node = 0 : i64},
                     %ns: tensor<1x8x4xf32> {lpx_graph.name = "present.1.value", lpx_graph.state, lpx_part.node = 0 : i64})
    -> tensor<1x2x4xf32> attributes {lpx_graph.outputs = ["out"]} {
  %kt = lpx_graph.state_write %kn, %pos into %ks {axis = 2 : i64, lpx_part.node = 0 : i64} : (tensor<1x4x8xf32>, tensor<1x4x2xf32>, tensor<1x2xi64>) -> tensor<1x4x8xf32>
  %v = lpx_graph.state_write %vn, %pos into %vs {axis = 1 : i64, lpx_part.node = 0 : i64} : (tensor<1x8x4xf32>, tensor<1x2x4xf32>, tensor<1x2xi64>) -> tensor<1x8x4xf32>
  %s = lpx_graph.matmul %q, %kt {lpx_part.node = 0 : i64} : (tensor<1x2x4xf32>, tensor<1x4x8xf32>) -> tensor<1x2x8xf32>
  %sb = lpx_graph.add %s, %bias {lpx_part.node = 0 : i64} : (tensor<1x2x8xf32>, tensor<1x1x8xf32>) -> tensor<1x2x8xf32>
  %p = lpx_graph.softmax %sb {axis = 2 : i64, lpx_part.node = 0 : i64} : tensor<1x2x8xf32>
  %o = lpx_graph.matmul %p, %v {lpx_part.node = 0 : i64} : (tensor<1x2x8xf32>, tensor<1x8x4xf32>) -> tensor<1x2x4xf32>
  %n = lpx_graph.state_write %o, %pos into %ns {axis = 1 : i64, lpx_part.node = 0 : i64} : (tensor<1x8x4xf32>, tensor<1x2x4xf32>, tensor<1x2xi64>) -> tensor<1x8x4xf32>
  return %o : tensor<1x2x4xf32>
}
}
