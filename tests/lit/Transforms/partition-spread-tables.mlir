// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-partition="nodes=16 tp=2 pp=8" --mlir-print-op-on-diagnostic=false 2>/dev/null | FileCheck %s
// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-partition="nodes=16 tp=2 pp=8" --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: not lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-partition="nodes=8 tp=2 pp=4" --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=SHORT

// Tables larger than one pipeline stage holds (PartitionStages.cpp). A
// stage of tp 2 test chips holds 2 x 3072 bytes (a quarter of each 4 KiB
// chip kept for temporaries). The 200 x 12 f32 embedding (9600 bytes) and
// the 12 x 224 f32 LM head (10752 bytes, and the 448 bytes of f16 logits it
// returns through a cast) each get two stages of their own and are cut by
// columns over their 4 chips; the layer between them gets the stage after
// the embedding; the cast runs on the LM head's pieces and the logits stay
// in pieces on its chips.

// CHECK-LABEL: func.func @lm
// CHECK-SAME: -> (tensor<1x1x56xf16> {lpx_part.node = 6 : i64, lpx_part.offsets = array<i64: 0, 0, 0>}, tensor<1x1x56xf16> {lpx_part.node = 7 : i64, lpx_part.offsets = array<i64: 0, 0, 56>}, tensor<1x1x56xf16> {lpx_part.node = 8 : i64, lpx_part.offsets = array<i64: 0, 0, 112>}, tensor<1x1x56xf16> {lpx_part.node = 9 : i64, lpx_part.offsets = array<i64: 0, 0, 168>})
// CHECK-DAG: %[[E0:.*]] = lpx_graph.constant {lpx_part.node = 0 : i64} dense<1.000000e+00> : tensor<200x3xf32>
// CHECK-DAG: %[[E3:.*]] = lpx_graph.constant {lpx_part.node = 3 : i64} dense<1.000000e+00> : tensor<200x3xf32>
// CHECK-DAG: lpx_graph.constant {lpx_part.node = 4 : i64} dense<2.000000e+00> : tensor<12x6xf32>
// CHECK-DAG: lpx_graph.constant {lpx_part.node = 5 : i64} dense<2.000000e+00> : tensor<12x6xf32>
// CHECK-DAG: %[[H0:.*]] = lpx_graph.constant {lpx_part.node = 6 : i64} dense<3.000000e+00> : tensor<12x56xf32>
// CHECK-DAG: %[[H3:.*]] = lpx_graph.constant {lpx_part.node = 9 : i64} dense<3.000000e+00> : tensor<12x56xf32>
// Each chip of the embedding's stages gathers its columns of the looked-up
// row; they are joined on the first at once.
// CHECK: lpx_graph.gather %[[E0]], %arg0 {axis = 0 : i64, lpx_part.node = 0 : i64} : (tensor<200x3xf32>, tensor<1x1xi64>) -> tensor<1x1x3xf32>
// CHECK: %[[ROW3:.*]] = lpx_graph.gather %[[E3]], %{{.*}} {axis = 0 : i64, lpx_part.node = 3 : i64}
// CHECK: %[[T3:.*]] = lpx_part.transfer %[[ROW3]] {from = 3 : i64, lpx_part.node = 0 : i64, to = 0 : i64}
// CHECK: lpx_graph.concat %{{.*}}, %{{.*}}, %{{.*}}, %[[T3]] {axis = 2 : i64, lpx_part.node = 0 : i64}
// The 8 stages asked for are 5 filled (no stage without layers: 10 of the
// 16 chips hold work). The cut stays the one for 8 stages, its empty
// stages dropped: the softmax, after the layer's stage, runs on the LM
// head's first chip.
// REMARK: remark: placement: tp 2 x pp 5 on 10 of 16 nodes: MatMuls split over 2 chips, 5 pipeline stages of consecutive layers (of 8: the layers fill 5)
// CHECK: %[[N:.*]] = lpx_graph.softmax %{{.*}} {axis = 2 : i64, lpx_part.node = 6 : i64}
// CHECK: %[[NT:.*]] = lpx_part.transfer %[[N]] {from = 6 : i64, lpx_part.node = 9 : i64, to = 9 : i64}
// CHECK: %[[Y0:.*]] = lpx_graph.matmul %[[N]], %[[H0]] {lpx_part.node = 6 : i64} : (tensor<1x1x12xf32>, tensor<12x56xf32>) -> tensor<1x1x56xf32>
// CHECK: %[[Y3:.*]] = lpx_graph.matmul %[[NT]], %[[H3]] {lpx_part.node = 9 : i64} : (tensor<1x1x12xf32>, tensor<12x56xf32>) -> tensor<1x1x56xf32>
// CHECK: %[[Z0:.*]] = lpx_graph.cast %[[Y0]] {lpx_part.node = 6 : i64}
// CHECK: %[[Z3:.*]] = lpx_graph.cast %[[Y3]] {lpx_part.node = 9 : i64}
// CHECK: return %[[Z0]], %{{.*}}, %{{.*}}, %[[Z3]]

// With 4 stages the LM head gets the one left after the layer: its chips
// cannot hold it, and the error asks for the stages that do.
// SHORT: error: model does not fit on 8 nodes of 'test-chip' as tp 2 x pp 4: node 6 would hold 5376 bytes of weights and 224 bytes of program inputs and outputs in 4096 bytes of SRAM (in all {{[0-9]+}} bytes); 10 nodes would hold them (tp 2 x pp 5)

module {
func.func @lm(%ids: tensor<1x1xi64>) -> tensor<1x1x224xf16> {
  %emb = lpx_graph.constant dense<1.0> : tensor<200x12xf32>
  %w = lpx_graph.constant dense<2.0> : tensor<12x12xf32>
  %head = lpx_graph.constant dense<3.0> : tensor<12x224xf32>
  %x = lpx_graph.gather %emb, %ids {axis = 0 : i64} : (tensor<200x12xf32>, tensor<1x1xi64>) -> tensor<1x1x12xf32>
  %h = lpx_graph.matmul %x, %w : (tensor<1x1x12xf32>, tensor<12x12xf32>) -> tensor<1x1x12xf32>
  %r = lpx_graph.add %x, %h : (tensor<1x1x12xf32>, tensor<1x1x12xf32>) -> tensor<1x1x12xf32>
  %n = lpx_graph.softmax %r {axis = 2 : i64} : tensor<1x1x12xf32>
  %y = lpx_graph.matmul %n, %head : (tensor<1x1x12xf32>, tensor<12x224xf32>) -> tensor<1x1x224xf32>
  %z = lpx_graph.cast %y : tensor<1x1x224xf32> to tensor<1x1x224xf16>
  return %z : tensor<1x1x224xf16>
}
}
