// RUN: lpx-opt %s --lpx-compile="resident-kv=true chip=%S/../Inputs/test-chip.yaml" | lpx-translate --emit-program-text | FileCheck %s
//
// A K cache through the whole pipeline with lpx-resident-kv: the past input
// becomes a state buffer of every position (1x2x4x4xf32, 128 bytes), named
// as the present output it replaces, not bound to the host but bound as
// state (format 3.2); the concat becomes a state_write on MEM whose result
// is that buffer and whose operands are the entry and the position; the
// negation reads the state. test-chip: 64-byte vectors, MEM one vector per
// cycle: the 32-byte entry is 1 vector, so busy 1 (the whole state would
// be 2). The only other buffers are the position, the entry and the
// output; present is gone.
// CHECK: buffers:
// CHECK-NEXT: %0 node 0 @{{[0-9]+}} input 1x1xi64 position_ids
// CHECK-NEXT: %1 node 0 @[[S:[0-9]+]] state 1x2x4x4xf32 present.0.key
// CHECK-NEXT: %2 node 0 @{{[0-9]+}} input 1x2x1x4xf32 k
// CHECK-NEXT: %3 node 0 @{{[0-9]+}} output 1x2x4x4xf32 logits
// CHECK-NEXT: node 0:
// CHECK-NEXT: 0 mem state_write %1 <- %2 %0 {axis { axis: 2 }} busy 1
// CHECK-NEXT: vxm neg %3 <- %1
func.func @k_cache(%pos: tensor<1x1xi64> {lpx_graph.name = "position_ids"},
                   %past: tensor<1x2x3x4xf32> {lpx_graph.name = "past_key_values.0.key"},
                   %k: tensor<1x2x1x4xf32> {lpx_graph.name = "k"})
    -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>)
    attributes {lpx_graph.outputs = ["logits", "present.0.key"]} {
  %0 = lpx_graph.concat %past, %k {axis = 2 : i64} : (tensor<1x2x3x4xf32>, tensor<1x2x1x4xf32>) -> tensor<1x2x4x4xf32>
  %1 = lpx_graph.neg %0 : tensor<1x2x4x4xf32>
  return %1, %0 : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}
