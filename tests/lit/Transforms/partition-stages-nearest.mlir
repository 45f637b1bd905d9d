// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-partition-mesh="nodes=2 tp=1 pp=2" --lpx-partition-stages | FileCheck %s

// Stages are cut two ways and the cut whose fullest stage holds fewer
// weight bytes is kept (PartitionStages.cpp). Three blocks of 192, 256 and
// 64 weight bytes (512 in all, 256 a stage): after the first block's add the
// weights so far are 192, and 448 after the second. Ending a stage at the
// add where its weights are nearest its share (192 is nearer 256 than 448
// is) gives 192 | 320 bytes; ending it at the first add past its share
// gives 448 | 64. The first is kept: stage 0 holds the first block alone.
// CHECK: lpx_graph.matmul %arg0, %{{.*}} {lpx_part.stage = array<i64: 0, 1>}
// CHECK: lpx_graph.matmul %{{.*}}, %{{.*}} {lpx_part.stage = array<i64: 0, 1>}
// CHECK: lpx_graph.add %arg0, %{{.*}} {lpx_part.stage = array<i64: 0, 1>}
// CHECK: lpx_graph.matmul %{{.*}}, %{{.*}} {lpx_part.stage = array<i64: 1, 1>}
// CHECK: lpx_graph.matmul %{{.*}}, %{{.*}} {lpx_part.stage = array<i64: 1, 1>}
// CHECK: lpx_graph.add %{{.*}}, %{{.*}} {lpx_part.stage = array<i64: 1, 1>}
// CHECK: lpx_graph.matmul %{{.*}}, %{{.*}} {lpx_part.stage = array<i64: 1, 1>}
// CHECK: lpx_graph.matmul %{{.*}}, %{{.*}} {lpx_part.stage = array<i64: 1, 1>}
// CHECK: lpx_graph.add %{{.*}}, %{{.*}} {lpx_part.stage = array<i64: 1, 1>}
module {
func.func @blocks(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %u1 = lpx_graph.constant dense<1.0> : tensor<4x6xf32>
  %d1 = lpx_graph.constant dense<1.0> : tensor<6x4xf32>
  %u2 = lpx_graph.constant dense<1.0> : tensor<4x8xf32>
  %d2 = lpx_graph.constant dense<1.0> : tensor<8x4xf32>
  %u3 = lpx_graph.constant dense<1.0> : tensor<4x2xf32>
  %d3 = lpx_graph.constant dense<1.0> : tensor<2x4xf32>
  %h1 = lpx_graph.matmul %x, %u1 : (tensor<1x4xf32>, tensor<4x6xf32>) -> tensor<1x6xf32>
  %y1 = lpx_graph.matmul %h1, %d1 : (tensor<1x6xf32>, tensor<6x4xf32>) -> tensor<1x4xf32>
  %r1 = lpx_graph.add %x, %y1 : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %h2 = lpx_graph.matmul %r1, %u2 : (tensor<1x4xf32>, tensor<4x8xf32>) -> tensor<1x8xf32>
  %y2 = lpx_graph.matmul %h2, %d2 : (tensor<1x8xf32>, tensor<8x4xf32>) -> tensor<1x4xf32>
  %r2 = lpx_graph.add %r1, %y2 : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %h3 = lpx_graph.matmul %r2, %u3 : (tensor<1x4xf32>, tensor<4x2xf32>) -> tensor<1x2xf32>
  %y3 = lpx_graph.matmul %h3, %d3 : (tensor<1x2xf32>, tensor<2x4xf32>) -> tensor<1x4xf32>
  %r3 = lpx_graph.add %r2, %y3 : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  return %r3 : tensor<1x4xf32>
}
}
