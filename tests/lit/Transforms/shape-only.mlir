// RUN: lpx-opt %s --lpx-graph-decompose --lpx-convert-types="weights=fp16" --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-partition="nodes=2" | FileCheck %s
// RUN: lpx-opt %s --lpx-convert-types="weights=int8" | FileCheck %s --check-prefix=INT8

// Shape-only weights (dense_resource without a blob) go through the passes
// that derive constants from constants and stay shape-only: the Gemm's
// transposed weight, its fp16 conversion and each node's column slice carry
// types and no values, exactly where a weight with values would be placed.
// CHECK-LABEL: func.func @gemm
// CHECK-DAG: lpx_graph.constant {lpx_part.node = 0 : i64} dense_resource<w.T.f16.part0> : tensor<16x16xf16>
// CHECK-DAG: lpx_graph.constant {lpx_part.node = 1 : i64} dense_resource<w.T.f16.part1> : tensor<16x16xf16>
// CHECK-NOT: dense<
// The output stays in its two column pieces, one per node.
// CHECK: return %{{.*}}, %{{.*}} : tensor<1x16xf32>, tensor<1x16xf32>
// CHECK-NOT: dialect_resources
func.func @gemm(%x: tensor<1x16xf32>) -> tensor<1x32xf32> {
  %w = lpx_graph.constant dense_resource<w> : tensor<32x16xf32>
  %0 = lpx_graph.gemm %x, %w {transB = true} : (tensor<1x16xf32>, tensor<32x16xf32>) -> tensor<1x32xf32>
  return %0 : tensor<1x32xf32>
}

// int8 weights: the values and the scale derived from them are both
// shape-only.
// INT8-LABEL: func.func @matmul
// INT8-DAG: lpx_graph.constant dense_resource<v.i8> : tensor<64x16xi8>
// INT8-DAG: lpx_graph.constant dense_resource<v.scale> : tensor<f32>
func.func @matmul(%x: tensor<1x64xf32>) -> tensor<1x16xf32> {
  %w = lpx_graph.constant dense_resource<v> : tensor<64x16xf32>
  %0 = lpx_graph.matmul %x, %w : (tensor<1x64xf32>, tensor<64x16xf32>) -> tensor<1x16xf32>
  return %0 : tensor<1x16xf32>
}
