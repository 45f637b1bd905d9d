// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-partition="nodes=6 tp=2" -split-input-file --mlir-print-op-on-diagnostic=false | FileCheck %s
// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-partition="nodes=6 tp=2" -split-input-file --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

// A mixture-of-experts block whose experts' weights pass what one stage
// keeps for weights is spread over stages of its own (PartitionStages.cpp),
// its experts over all of their chips. The test chip has 4096 bytes of
// SRAM, a quarter kept for temporaries: a stage of tp 2 keeps 6144 bytes
// of weights. Expert e's weights are splats of e + 1 (gate), e + 1.5 (up),
// e + 1.25 (down), as in partition-experts.mlir.

// Four experts of 8x24, 8x24 and 24x8 f32 weights (2304 bytes each, 9216
// in all): two stages, 4 chips, one expert on each (one stage of 2 chips
// would hold 4608 bytes per chip, more than its 4096). The block is the
// first thing placed, so its stages are 0 and 1 (nodes 0-3); x goes to
// the chips of experts 1-3 and to the residual add, on stage 2 (node 4),
// the next after the block's; the tree adds 1 into 0 and 3 into 2 on the
// chips of the block's two stages, then 2 into 0.

// (Node 5, the second chip of stage 2, holds no work.)
// REMARK: remark: placement: tp 2 x pp 3 on 5 of 6 nodes: MatMuls split over 2 chips, 3 pipeline stages of consecutive layers
// REMARK: remark: experts in parallel: 4 per layer, each on its own chip, on 4 chips over 2 stages of their own (the 9216 bytes of a layer's experts pass the 6144 a stage of 2 keeps for weights), the token sent to each and the weighted outputs added by a tree
// CHECK-LABEL: func.func @moe4_spread(
// CHECK-DAG: %[[X1:.*]] = lpx_part.transfer %arg0 {from = 0 : i64, lpx_part.node = 1 : i64, to = 1 : i64}
// CHECK-DAG: %[[X2:.*]] = lpx_part.transfer %arg0 {from = 0 : i64, lpx_part.node = 2 : i64, to = 2 : i64}
// CHECK-DAG: %[[X3:.*]] = lpx_part.transfer %arg0 {from = 0 : i64, lpx_part.node = 3 : i64, to = 3 : i64}
// CHECK-DAG: %[[X4:.*]] = lpx_part.transfer %arg0 {from = 0 : i64, lpx_part.node = 4 : i64, to = 4 : i64}
// CHECK-DAG: %[[G2:.*]] = lpx_graph.constant {lpx_part.node = 2 : i64} dense<3.000000e+00> : tensor<8x24xf32>
// CHECK-DAG: %[[D3:.*]] = lpx_graph.constant {lpx_part.node = 3 : i64} dense<4.250000e+00> : tensor<24x8xf32>
// CHECK-DAG: lpx_graph.matmul %[[X2]], %[[G2]] {lpx_part.node = 2 : i64} : (tensor<1x1x8xf32>, tensor<8x24xf32>) -> tensor<1x1x24xf32>
// CHECK-DAG: lpx_graph.matmul %{{.*}}, %[[D3]] {lpx_part.node = 3 : i64} : (tensor<1x1x24xf32>, tensor<24x8xf32>) -> tensor<1x1x8xf32>
// CHECK-DAG: %[[T1:.*]] = lpx_graph.mul %{{.*}}, %arg2 {lpx_part.node = 1 : i64}
// CHECK-DAG: %[[S1:.*]] = lpx_part.transfer %[[T1]] {from = 1 : i64, lpx_part.node = 0 : i64, to = 0 : i64}
// CHECK-DAG: %[[T3:.*]] = lpx_graph.mul %{{.*}}, %arg4 {lpx_part.node = 3 : i64}
// CHECK-DAG: %[[S3:.*]] = lpx_part.transfer %[[T3]] {from = 3 : i64, lpx_part.node = 2 : i64, to = 2 : i64}
// CHECK: %[[A01:.*]] = lpx_graph.add %{{.*}}, %[[S1]] {lpx_part.node = 0 : i64}
// CHECK: %[[A23:.*]] = lpx_graph.add %{{.*}}, %[[S3]] {lpx_part.node = 2 : i64}
// CHECK: %[[S23:.*]] = lpx_part.transfer %[[A23]] {from = 2 : i64, lpx_part.node = 0 : i64, to = 0 : i64}
// CHECK: %[[SUM:.*]] = lpx_graph.add %[[A01]], %[[S23]] {lpx_part.node = 0 : i64}
// CHECK: %[[ON4:.*]] = lpx_part.transfer %[[SUM]] {from = 0 : i64, lpx_part.node = 4 : i64, to = 4 : i64}
// CHECK: lpx_graph.add %[[X4]], %[[ON4]] {lpx_part.node = 4 : i64}

module {
func.func @moe4_spread(%x: tensor<1x1x8xf32>, %route: tensor<1x1x4xf32>) -> tensor<1x1x8xf32> {
  %w1_0 = lpx_graph.constant dense<1.0> : tensor<8x24xf32>
  %w3_0 = lpx_graph.constant dense<1.5> : tensor<8x24xf32>
  %w2_0 = lpx_graph.constant dense<1.25> : tensor<24x8xf32>
  %g0 = lpx_graph.matmul %x, %w1_0 : (tensor<1x1x8xf32>, tensor<8x24xf32>) -> tensor<1x1x24xf32>
  %s0 = lpx_graph.sigmoid %g0 : tensor<1x1x24xf32>
  %a0 = lpx_graph.mul %g0, %s0 : (tensor<1x1x24xf32>, tensor<1x1x24xf32>) -> tensor<1x1x24xf32>
  %u0 = lpx_graph.matmul %x, %w3_0 : (tensor<1x1x8xf32>, tensor<8x24xf32>) -> tensor<1x1x24xf32>
  %h0 = lpx_graph.mul %a0, %u0 : (tensor<1x1x24xf32>, tensor<1x1x24xf32>) -> tensor<1x1x24xf32>
  %y0 = lpx_graph.matmul %h0, %w2_0 : (tensor<1x1x24xf32>, tensor<24x8xf32>) -> tensor<1x1x8xf32>
  %r0 = lpx_graph.slice %route {starts = array<i64: 0, 0, 0>, steps = array<i64: 1, 1, 1>} : (tensor<1x1x4xf32>) -> tensor<1x1x1xf32>
  %t0 = lpx_graph.mul %y0, %r0 : (tensor<1x1x8xf32>, tensor<1x1x1xf32>) -> tensor<1x1x8xf32>
  %w1_1 = lpx_graph.constant dense<2.0> : tensor<8x24xf32>
  %w3_1 = lpx_graph.constant dense<2.5> : tensor<8x24xf32>
  %w2_1 = lpx_graph.constant dense<2.25> : tensor<24x8xf32>
  %g1 = lpx_graph.matmul %x, %w1_1 : (tensor<1x1x8xf32>, tensor<8x24xf32>) -> tensor<1x1x24xf32>
  %s1 = lpx_graph.sigmoid %g1 : tensor<1x1x24xf32>
  %a1 = lpx_graph.mul %g1, %s1 : (tensor<1x1x24xf32>, tensor<1x1x24xf32>) -> tensor<1x1x24xf32>
  %u1 = lpx_graph.matmul %x, %w3_1 : (tensor<1x1x8xf32>, tensor<8x24xf32>) -> tensor<1x1x24xf32>
  %h1 = lpx_graph.mul %a1, %u1 : (tensor<1x1x24xf32>, tensor<1x1x24xf32>) -> tensor<1x1x24xf32>
  %y1 = lpx_graph.matmul %h1, %w2_1 : (tensor<1x1x24xf32>, tensor<24x8xf32>) -> tensor<1x1x8xf32>
  %r1 = lpx_graph.slice %route {starts = array<i64: 0, 0, 1>, steps = array<i64: 1, 1, 1>} : (tensor<1x1x4xf32>) -> tensor<1x1x1xf32>
  %t1 = lpx_graph.mul %y1, %r1 : (tensor<1x1x8xf32>, tensor<1x1x1xf32>) -> tensor<1x1x8xf32>
  %w1_2 = lpx_graph.constant dense<3.0> : tensor<8x24xf32>
  %w3_2 = lpx_graph.constant dense<3.5> : tensor<8x24xf32>
  %w2_2 = lpx_graph.constant dense<3.25> : tensor<24x8xf32>
  %g2 = lpx_graph.matmul %x, %w1_2 : (tensor<1x1x8xf32>, tensor<8x24xf32>) -> tensor<1x1x24xf32>
  %s2 = lpx_graph.sigmoid %g2 : tensor<1x1x24xf32>
  %a2 = lpx_graph.mul %g2, %s2 : (tensor<1x1x24xf32>, tensor<1x1x24xf32>) -> tensor<1x1x24xf32>
  %u2 = lpx_graph.matmul %x, %w3_2 : (tensor<1x1x8xf32>, tensor<8x24xf32>) -> tensor<1x1x24xf32>
  %h2 = lpx_graph.mul %a2, %u2 : (tensor<1x1x24xf32>, tensor<1x1x24xf32>) -> tensor<1x1x24xf32>
  %y2 = lpx_graph.matmul %h2, %w2_2 : (tensor<1x1x24xf32>, tensor<24x8xf32>) -> tensor<1x1x8xf32>
  %r2 = lpx_graph.slice %route {starts = array<i64: 0, 0, 2>, steps = array<i64: 1, 1, 1>} : (tensor<1x1x4xf32>) -> tensor<1x1x1xf32>
  %t2 = lpx_graph.mul %y2, %r2 : (tensor<1x1x8xf32>, tensor<1x1x1xf32>) -> tensor<1x1x8xf32>
  %w1_3 = lpx_graph.constant dense<4.0> : tensor<8x24xf32>
  %w3_3 = lpx_graph.constant dense<4.5> : tensor<8x24xf32>
  %w2_3 = lpx_graph.constant dense<4.25> : tensor<24x8xf32>
  %g3 = lpx_graph.matmul %x, %w1_3 : (tensor<1x1x8xf32>, tensor<8x24xf32>) -> tensor<1x1x24xf32>
  %s3 = lpx_graph.sigmoid %g3 : tensor<1x1x24xf32>
  %a3 = lpx_graph.mul %g3, %s3 : (tensor<1x1x24xf32>, tensor<1x1x24xf32>) -> tensor<1x1x24xf32>
  %u3 = lpx_graph.matmul %x, %w3_3 : (tensor<1x1x8xf32>, tensor<8x24xf32>) -> tensor<1x1x24xf32>
  %h3 = lpx_graph.mul %a3, %u3 : (tensor<1x1x24xf32>, tensor<1x1x24xf32>) -> tensor<1x1x24xf32>
  %y3 = lpx_graph.matmul %h3, %w2_3 : (tensor<1x1x24xf32>, tensor<24x8xf32>) -> tensor<1x1x8xf32>
  %r3 = lpx_graph.slice %route {starts = array<i64: 0, 0, 3>, steps = array<i64: 1, 1, 1>} : (tensor<1x1x4xf32>) -> tensor<1x1x1xf32>
  %t3 = lpx_graph.mul %y3, %r3 : (tensor<1x1x8xf32>, tensor<1x1x1xf32>) -> tensor<1x1x8xf32>
  %sum1 = lpx_graph.add %t0, %t1 : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
  %sum2 = lpx_graph.add %sum1, %t2 : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
  %sum3 = lpx_graph.add %sum2, %t3 : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
  %out = lpx_graph.add %x, %sum3 : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
  return %out : tensor<1x1x8xf32>
}
}

// -----

// Two experts of 8x48, 8x48 and 48x8 weights (4608 bytes each): two
// stages of their own after the stage of x's projection (stages 1-2,
// nodes 2-5), each expert on its own 2 chips split by columns then rows.
// x arrives split by columns over stage 0 (nodes 0-1): every chip of
// both experts joins it from both pieces (an all-gather into another
// group's chips) and multiplies it by its column block of the gate and up
// weights, rather than the whole expert running on its first chip.

// REMARK: remark: placement: tp 2 x pp 3 on 6 of 6 nodes: MatMuls split over 2 chips, 3 pipeline stages of consecutive layers
// REMARK: remark: experts in parallel: 2 per layer, each on its own 2 chips split by columns then rows, on 4 chips over 2 stages of their own (the 9216 bytes of a layer's experts pass the 6144 a stage of 2 keeps for weights), the token sent to each and the weighted outputs added by a tree
// CHECK-LABEL: func.func @moe2_split_input(
// CHECK-DAG: %[[P0:.*]] = lpx_graph.matmul %arg0, %{{.*}} {lpx_part.node = 0 : i64} : (tensor<1x1x8xf32>, tensor<8x4xf32>) -> tensor<1x1x4xf32>
// CHECK-DAG: %[[P1:.*]] = lpx_graph.matmul %{{.*}}, %{{.*}} {lpx_part.node = 1 : i64} : (tensor<1x1x8xf32>, tensor<8x4xf32>) -> tensor<1x1x4xf32>
// CHECK-DAG: %[[P0ON5:.*]] = lpx_part.transfer %[[P0]] {from = 0 : i64, lpx_part.node = 5 : i64, to = 5 : i64}
// CHECK-DAG: %[[P1ON5:.*]] = lpx_part.transfer %[[P1]] {from = 1 : i64, lpx_part.node = 5 : i64, to = 5 : i64}
// CHECK-DAG: %[[XON5:.*]] = lpx_graph.concat %[[P0ON5]], %[[P1ON5]] {axis = 2 : i64, lpx_part.node = 5 : i64}
// CHECK-DAG: %[[G1ON5:.*]] = lpx_graph.constant {lpx_part.node = 5 : i64} dense<2.000000e+00> : tensor<8x24xf32>
// CHECK-DAG: lpx_graph.matmul %[[XON5]], %[[G1ON5]] {lpx_part.node = 5 : i64} : (tensor<1x1x8xf32>, tensor<8x24xf32>) -> tensor<1x1x24xf32>
// CHECK-DAG: %[[G0ON3:.*]] = lpx_graph.constant {lpx_part.node = 3 : i64} dense<1.000000e+00> : tensor<8x24xf32>
// CHECK-DAG: lpx_graph.matmul %{{.*}}, %[[G0ON3]] {lpx_part.node = 3 : i64} : (tensor<1x1x8xf32>, tensor<8x24xf32>) -> tensor<1x1x24xf32>
// CHECK-NOT: tensor<8x48xf32>

module {
func.func @moe2_split_input(%in: tensor<1x1x8xf32>, %route: tensor<1x1x2xf32>) -> tensor<1x1x8xf32> {
  %wx = lpx_graph.constant dense<0.5> : tensor<8x8xf32>
  %x = lpx_graph.matmul %in, %wx : (tensor<1x1x8xf32>, tensor<8x8xf32>) -> tensor<1x1x8xf32>
  %w1_0 = lpx_graph.constant dense<1.0> : tensor<8x48xf32>
  %w3_0 = lpx_graph.constant dense<1.5> : tensor<8x48xf32>
  %w2_0 = lpx_graph.constant dense<1.25> : tensor<48x8xf32>
  %g0 = lpx_graph.matmul %x, %w1_0 : (tensor<1x1x8xf32>, tensor<8x48xf32>) -> tensor<1x1x48xf32>
  %s0 = lpx_graph.sigmoid %g0 : tensor<1x1x48xf32>
  %a0 = lpx_graph.mul %g0, %s0 : (tensor<1x1x48xf32>, tensor<1x1x48xf32>) -> tensor<1x1x48xf32>
  %u0 = lpx_graph.matmul %x, %w3_0 : (tensor<1x1x8xf32>, tensor<8x48xf32>) -> tensor<1x1x48xf32>
  %h0 = lpx_graph.mul %a0, %u0 : (tensor<1x1x48xf32>, tensor<1x1x48xf32>) -> tensor<1x1x48xf32>
  %y0 = lpx_graph.matmul %h0, %w2_0 : (tensor<1x1x48xf32>, tensor<48x8xf32>) -> tensor<1x1x8xf32>
  %r0 = lpx_graph.slice %route {starts = array<i64: 0, 0, 0>, steps = array<i64: 1, 1, 1>} : (tensor<1x1x2xf32>) -> tensor<1x1x1xf32>
  %t0 = lpx_graph.mul %y0, %r0 : (tensor<1x1x8xf32>, tensor<1x1x1xf32>) -> tensor<1x1x8xf32>
  %w1_1 = lpx_graph.constant dense<2.0> : tensor<8x48xf32>
  %w3_1 = lpx_graph.constant dense<2.5> : tensor<8x48xf32>
  %w2_1 = lpx_graph.constant dense<2.25> : tensor<48x8xf32>
  %g1 = lpx_graph.matmul %x, %w1_1 : (tensor<1x1x8xf32>, tensor<8x48xf32>) -> tensor<1x1x48xf32>
  %s1 = lpx_graph.sigmoid %g1 : tensor<1x1x48xf32>
  %a1 = lpx_graph.mul %g1, %s1 : (tensor<1x1x48xf32>, tensor<1x1x48xf32>) -> tensor<1x1x48xf32>
  %u1 = lpx_graph.matmul %x, %w3_1 : (tensor<1x1x8xf32>, tensor<8x48xf32>) -> tensor<1x1x48xf32>
  %h1 = lpx_graph.mul %a1, %u1 : (tensor<1x1x48xf32>, tensor<1x1x48xf32>) -> tensor<1x1x48xf32>
  %y1 = lpx_graph.matmul %h1, %w2_1 : (tensor<1x1x48xf32>, tensor<48x8xf32>) -> tensor<1x1x8xf32>
  %r1 = lpx_graph.slice %route {starts = array<i64: 0, 0, 1>, steps = array<i64: 1, 1, 1>} : (tensor<1x1x2xf32>) -> tensor<1x1x1xf32>
  %t1 = lpx_graph.mul %y1, %r1 : (tensor<1x1x8xf32>, tensor<1x1x1xf32>) -> tensor<1x1x8xf32>
  %sum1 = lpx_graph.add %t0, %t1 : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
  %out = lpx_graph.add %x, %sum1 : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
  return %out : tensor<1x1x8xf32>
}
}
