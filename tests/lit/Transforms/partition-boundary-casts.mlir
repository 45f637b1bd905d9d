// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-partition="nodes=2" -split-input-file | FileCheck %s

// lpx-convert-types' boundary casts do not change the placement. An input
// cast before a reduction split: each node casts its own piece of the input
// (bound in pieces, as an f16 input is), not the whole input on one node.
// CHECK-LABEL: func.func @input_cast(%arg0: tensor<1x2xf32> {lpx_part.node = 0 : i64, lpx_part.offsets = array<i64: 0, 0>}, %arg1: tensor<1x2xf32> {lpx_part.node = 1 : i64, lpx_part.offsets = array<i64: 0, 2>})
// CHECK:      %[[C0:.*]] = lpx_graph.cast %arg0 {lpx_part.node = 0 : i64} : tensor<1x2xf32> to tensor<1x2xf16>
// CHECK:      lpx_graph.matmul %[[C0]], %{{.*}} {lpx_part.node = 0 : i64}
// CHECK:      %[[C1:.*]] = lpx_graph.cast %arg1 {lpx_part.node = 1 : i64} : tensor<1x2xf32> to tensor<1x2xf16>
// CHECK:      lpx_graph.matmul %[[C1]], %{{.*}} {lpx_part.node = 1 : i64}
module @input_cast {
func.func @input_cast(%x: tensor<1x4xf32>) -> tensor<1x2xf16> {
  %h = lpx_graph.cast %x : tensor<1x4xf32> to tensor<1x4xf16>
  %w = lpx_graph.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf16>
  %0 = lpx_graph.matmul %h, %w : (tensor<1x4xf16>, tensor<4x2xf16>) -> tensor<1x2xf16>
  return %0 : tensor<1x2xf16>
}
}

// -----

// A result cast after a column split: each node casts its own block, and
// the output stays in pieces where they were computed.
// CHECK-LABEL: func.func @output_cast
// CHECK-SAME:  -> (tensor<1x1xf32> {lpx_part.node = 0 : i64, lpx_part.offsets = array<i64: 0, 0>}, tensor<1x1xf32> {lpx_part.node = 1 : i64, lpx_part.offsets = array<i64: 0, 1>})
// CHECK:      %[[M0:.*]] = lpx_graph.matmul %{{.*}} {lpx_part.node = 0 : i64}
// CHECK:      %[[C0:.*]] = lpx_graph.cast %[[M0]] {lpx_part.node = 0 : i64} : tensor<1x1xf16> to tensor<1x1xf32>
// CHECK:      %[[M1:.*]] = lpx_graph.matmul %{{.*}} {lpx_part.node = 1 : i64}
// CHECK:      %[[C1:.*]] = lpx_graph.cast %[[M1]] {lpx_part.node = 1 : i64} : tensor<1x1xf16> to tensor<1x1xf32>
// CHECK-NOT:  lpx_graph.concat
// CHECK:      return %[[C0]], %[[C1]]
module @output_cast {
func.func @output_cast(%x: tensor<1x2xf16>) -> tensor<1x2xf32> {
  %w = lpx_graph.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf16>
  %0 = lpx_graph.matmul %x, %w : (tensor<1x2xf16>, tensor<2x2xf16>) -> tensor<1x2xf16>
  %1 = lpx_graph.cast %0 : tensor<1x2xf16> to tensor<1x2xf32>
  return %1 : tensor<1x2xf32>
}
}
