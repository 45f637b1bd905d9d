// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-partition="nodes=2" -split-input-file | FileCheck %s

// A 4x2 weight (K = 4 > N = 2): split by the reduction dimension. The
// input is bound in two pieces, each written by the host into the node
// that reads it; the partial product comes back and is summed.
// CHECK-LABEL: module @reduction_split attributes {lpx_part.chip = #lpx_part.chip<"{{.*}}">, lpx_part.num_nodes = 2 : i64}
// CHECK:      func.func @reduction_split(%arg0: tensor<1x2xf32> {lpx_part.node = 0 : i64, lpx_part.offsets = array<i64: 0, 0>}, %arg1: tensor<1x2xf32> {lpx_part.node = 1 : i64, lpx_part.offsets = array<i64: 0, 2>})
// CHECK:      %[[W0:.*]] = lpx_graph.constant {lpx_part.node = 0 : i64} dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
// CHECK:      %[[M0:.*]] = lpx_graph.matmul %arg0, %[[W0]] {lpx_part.node = 0 : i64}
// CHECK:      %[[W1:.*]] = lpx_graph.constant {lpx_part.node = 1 : i64} dense<{{\[\[}}5.000000e+00, 6.000000e+00], [7.000000e+00, 8.000000e+00]]>
// CHECK:      %[[M1:.*]] = lpx_graph.matmul %arg1, %[[W1]] {lpx_part.node = 1 : i64}
// CHECK:      %[[B1:.*]] = lpx_part.transfer %[[M1]] {from = 1 : i64, lpx_part.node = 0 : i64, to = 0 : i64}
// CHECK:      %[[SUM:.*]] = lpx_graph.add %[[M0]], %[[B1]] {lpx_part.node = 0 : i64}
// CHECK:      return %[[SUM]]
module @reduction_split {
func.func @reduction_split(%x: tensor<1x4xf32>) -> tensor<1x2xf32> {
  %w = lpx_graph.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>
  %0 = lpx_graph.matmul %x, %w : (tensor<1x4xf32>, tensor<4x2xf32>) -> tensor<1x2xf32>
  return %0 : tensor<1x2xf32>
}
}

// -----

// A 2x4 weight (N = 4 > K = 2): split by output columns. The activation is
// sent to node 1, the column halves are concatenated on the home node.
// CHECK-LABEL: func.func @column_split
// CHECK:      %[[T:.*]] = lpx_part.transfer %arg0 {from = 0 : i64, lpx_part.node = 1 : i64, to = 1 : i64} : tensor<1x2xf32>
// CHECK:      %[[W0:.*]] = lpx_graph.constant {lpx_part.node = 0 : i64} dense<{{\[\[}}1.000000e+00, 2.000000e+00], [5.000000e+00, 6.000000e+00]]>
// CHECK:      %[[M0:.*]] = lpx_graph.matmul %arg0, %[[W0]] {lpx_part.node = 0 : i64}
// CHECK:      %[[W1:.*]] = lpx_graph.constant {lpx_part.node = 1 : i64} dense<{{\[\[}}3.000000e+00, 4.000000e+00], [7.000000e+00, 8.000000e+00]]>
// CHECK:      %[[M1:.*]] = lpx_graph.matmul %[[T]], %[[W1]] {lpx_part.node = 1 : i64}
// CHECK:      %[[B:.*]] = lpx_part.transfer %[[M1]] {from = 1 : i64, lpx_part.node = 0 : i64, to = 0 : i64}
// CHECK:      %[[C:.*]] = lpx_graph.concat %[[M0]], %[[B]] {axis = 1 : i64, lpx_part.node = 0 : i64}
// CHECK:      lpx_graph.relu %[[C]] {lpx_part.node = 0 : i64}
module @column_split {
func.func @column_split(%x: tensor<1x2xf32>) -> tensor<1x4xf32> {
  %w = lpx_graph.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>
  %0 = lpx_graph.matmul %x, %w : (tensor<1x2xf32>, tensor<2x4xf32>) -> tensor<1x4xf32>
  %1 = lpx_graph.relu %0 : tensor<1x4xf32>
  return %1 : tensor<1x4xf32>
}
}

// -----

// An input returned directly, and a value returned twice, get copies so
// that every output has a buffer of its own.
// CHECK-LABEL: func.func @outputs
// CHECK:      %[[N:.*]] = lpx_graph.neg %arg0 {lpx_part.node = 0 : i64}
// CHECK:      %[[C0:.*]] = lpx_graph.reshape %arg0 {lpx_part.node = 0 : i64}
// CHECK:      %[[C1:.*]] = lpx_graph.reshape %[[N]] {lpx_part.node = 0 : i64}
// CHECK:      return %[[C0]], %[[N]], %[[C1]]
module @outputs {
func.func @outputs(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %0 = lpx_graph.neg %x : tensor<2xf32>
  return %x, %0, %0 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}
}
