// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-partition="nodes=2" | FileCheck %s

// Layer spreading: the input, each bias and each temporary are 120 f32 =
// 480 bytes; test-chip nodes hold 4096 bytes, of which the planner fills
// half (the rest is the schedule's working set). Input, first bias and first
// sum fill node 0, so the second add (and everything after it) moves to
// node 1, and its input is transferred there.
// CHECK-LABEL: func.func @spread
// CHECK:      %[[B0:.*]] = lpx_graph.constant {lpx_part.node = 0 : i64} {{.*}} : tensor<120xf32>
// CHECK:      %[[B1:.*]] = lpx_graph.constant {lpx_part.node = 1 : i64} {{.*}} : tensor<120xf32>
// CHECK:      %[[A0:.*]] = lpx_graph.add %arg0, %[[B0]] {lpx_part.node = 0 : i64}
// CHECK-NEXT: %[[T:.*]] = lpx_part.transfer %[[A0]] {from = 0 : i64, lpx_part.node = 1 : i64, to = 1 : i64}
// CHECK-NEXT: %[[A1:.*]] = lpx_graph.add %[[T]], %[[B1]] {lpx_part.node = 1 : i64}
// CHECK-NEXT: lpx_graph.relu %[[A1]] {lpx_part.node = 1 : i64}
func.func @spread(%x: tensor<120xf32>) -> tensor<120xf32> {
  %b0 = lpx_graph.constant dense<1.0> : tensor<120xf32>
  %b1 = lpx_graph.constant dense<2.0> : tensor<120xf32>
  %0 = lpx_graph.add %x, %b0 : (tensor<120xf32>, tensor<120xf32>) -> tensor<120xf32>
  %1 = lpx_graph.add %0, %b1 : (tensor<120xf32>, tensor<120xf32>) -> tensor<120xf32>
  %2 = lpx_graph.relu %1 : tensor<120xf32>
  return %2 : tensor<120xf32>
}
