// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-partition-rewrite -split-input-file -verify-diagnostics | FileCheck %s

// lpx-partition-rewrite follows the records, whoever wrote them: here by
// hand, the up projection kept whole on chip 1 (lpx-partition-shard would
// cut it by columns), so the ReLU after it runs whole there too.
// CHECK-LABEL: func.func @whole_by_hand
// CHECK: lpx_graph.matmul %arg0, %{{.*}} {lpx_part.node = 1 : i64} : (tensor<1x8xf32>, tensor<8x16xf32>) -> tensor<1x16xf32>
// CHECK: lpx_graph.relu %{{.*}} {lpx_part.node = 1 : i64} : tensor<1x16xf32>
// CHECK-NOT: lpx_part.shard
// expected-remark @+2 {{placement: tp 2 x pp 1 on 1 of 2 nodes: by hand}}
module attributes {lpx_part.mesh = #lpx_part.mesh<nodes = 2, tp = 2, pp = 1, cut = 1, needed = 1, temporaries = 1024, replicate = 0, why = "by hand">} {
func.func @whole_by_hand(%x: tensor<1x8xf32>) -> tensor<1x16xf32> {
  %w1 = lpx_graph.constant dense<1.0> : tensor<8x16xf32>
  %h = lpx_graph.matmul %x, %w1 {lpx_part.stage = array<i64: 0, 1>, lpx_part.shard = #lpx_part.shard<kind = "whole", axis = -1, lo = [], hi = [], nodes = [1]>} : (tensor<1x8xf32>, tensor<8x16xf32>) -> tensor<1x16xf32>
  %g = lpx_graph.relu %h {lpx_part.stage = array<i64: 0, 1>, lpx_part.shard = #lpx_part.shard<kind = "whole", axis = -1, lo = [], hi = [], nodes = [1]>} : tensor<1x16xf32>
  return %g : tensor<1x16xf32>
}
}

// -----

// A record that the op's rule cannot carry out is an error: the ReLU's
// operand is whole, so it has no pieces to run on.
module attributes {lpx_part.mesh = #lpx_part.mesh<nodes = 2, tp = 2, pp = 1, cut = 1, needed = 1, temporaries = 1024, replicate = 0, why = "by hand">} {
func.func @pieces_without_a_split(%x: tensor<1x8xf32>) -> tensor<1x8xf32> {
  // expected-error @+1 {{cannot be split as its lpx_part.shard 'pieces' says}}
  %g = lpx_graph.relu %x {lpx_part.stage = array<i64: 0, 1>, lpx_part.shard = #lpx_part.shard<kind = "pieces", axis = 1, lo = [0, 4], hi = [4, 8], nodes = [0, 1]>} : tensor<1x8xf32>
  return %g : tensor<1x8xf32>
}
}

// -----

// Each step needs the one before: no stage, no sharding.
module attributes {lpx_part.mesh = #lpx_part.mesh<nodes = 2, tp = 2, pp = 1, cut = 1, needed = 1, temporaries = 1024, replicate = 0, why = "by hand">} {
func.func @no_stage(%x: tensor<1x8xf32>) -> tensor<1x8xf32> {
  // expected-error @+1 {{has no lpx_part.stage; run lpx-partition-stages first}}
  %g = lpx_graph.relu %x : tensor<1x8xf32>
  return %g : tensor<1x8xf32>
}
}

// -----

// expected-error @+1 {{lpx-partition-rewrite needs the module's lpx_part.mesh; run lpx-partition-mesh first}}
module {
func.func @no_mesh(%x: tensor<1x8xf32>) -> tensor<1x8xf32> {
  %g = lpx_graph.relu %x : tensor<1x8xf32>
  return %g : tensor<1x8xf32>
}
}
