// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-partition="nodes=4 tp=4" -split-input-file --mlir-print-op-on-diagnostic=false | FileCheck %s --check-prefix=TP4
// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-partition="nodes=2 tp=2" -split-input-file --mlir-print-op-on-diagnostic=false | FileCheck %s --check-prefix=TP2
// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-partition="nodes=4 tp=4" -split-input-file --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=TP4-R
// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-partition="nodes=2 tp=2" -split-input-file --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=TP2-R

// Expert parallelism (PartitionExperts.cpp). A mixture-of-experts block as
// Mixtral's export writes it: every expert (SwiGLU: gate and up MatMuls,
// SiLU, product, down MatMul) reads the block's input x, its output is
// weighted by its slice of the routing row, and the weighted outputs are
// summed by a chain of adds. Expert e's weights are splats of e + 1 (gate),
// e + 1.5 (up), e + 1.25 (down), so the CHECK lines can tell them apart.

// Four experts on tp 4: each on its own chip, x sent to chips 1-3, the
// weighted outputs added by a tree (1 into 0 and 3 into 2, then 2 into 0)
// rather than a chain on chip 0. Each routing weight is a piece of the
// routing input, bound on its expert's chip. On tp 2: two experts per
// chip, the tree's first round on the chips, the last across them.

// TP4-R: remark: placement: tp 4 x pp 1 on 4 of 4 nodes: MatMuls split over 4 chips, 1 pipeline stage of consecutive layers
// TP4-R: remark: experts in parallel: 4 per layer, each on its own chip, the token sent to each and the weighted outputs added by a tree
// TP2-R: remark: placement: tp 2 x pp 1 on 2 of 2 nodes: MatMuls split over 2 chips, 1 pipeline stage of consecutive layers
// TP2-R: remark: experts in parallel: 4 per layer, 2 per chip, the token sent to each and the weighted outputs added by a tree
// TP4-LABEL: func.func @moe4(%arg0: tensor<1x1x8xf32> {lpx_part.node = 0 : i64}
// TP4-SAME: tensor<1x1x1xf32> {lpx_part.node = 3 : i64, lpx_part.offsets = array<i64: 0, 0, 3>}
// TP4-DAG: %[[X3:.*]] = lpx_part.transfer %arg0 {from = 0 : i64, lpx_part.node = 3 : i64, to = 3 : i64}
// TP4-DAG: %[[X1:.*]] = lpx_part.transfer %arg0 {from = 0 : i64, lpx_part.node = 1 : i64, to = 1 : i64}
// TP4-DAG: %[[G1:.*]] = lpx_graph.constant {lpx_part.node = 1 : i64} dense<2.000000e+00> : tensor<8x6xf32>
// TP4-DAG: %[[D3:.*]] = lpx_graph.constant {lpx_part.node = 3 : i64} dense<4.250000e+00> : tensor<6x8xf32>
// (whole weights, none cut by columns or rows)
// TP4-DAG: lpx_graph.matmul %[[X1]], %[[G1]] {lpx_part.node = 1 : i64} : (tensor<1x1x8xf32>, tensor<8x6xf32>) -> tensor<1x1x6xf32>
// TP4-DAG: lpx_graph.matmul %{{.*}}, %[[D3]] {lpx_part.node = 3 : i64} : (tensor<1x1x6xf32>, tensor<6x8xf32>) -> tensor<1x1x8xf32>
// TP4-DAG: %[[T0:.*]] = lpx_graph.mul %{{.*}}, %arg1 {lpx_part.node = 0 : i64}
// TP4-DAG: %[[T1:.*]] = lpx_graph.mul %{{.*}}, %arg2 {lpx_part.node = 1 : i64}
// TP4-DAG: %[[S1:.*]] = lpx_part.transfer %[[T1]] {from = 1 : i64, lpx_part.node = 0 : i64, to = 0 : i64}
// TP4-DAG: %[[T2:.*]] = lpx_graph.mul %{{.*}}, %arg3 {lpx_part.node = 2 : i64}
// TP4-DAG: %[[T3:.*]] = lpx_graph.mul %{{.*}}, %arg4 {lpx_part.node = 3 : i64}
// TP4-DAG: %[[S3:.*]] = lpx_part.transfer %[[T3]] {from = 3 : i64, lpx_part.node = 2 : i64, to = 2 : i64}
// TP4: %[[A01:.*]] = lpx_graph.add %[[T0]], %[[S1]] {lpx_part.node = 0 : i64}
// TP4: %[[A23:.*]] = lpx_graph.add %[[T2]], %[[S3]] {lpx_part.node = 2 : i64}
// TP4: %[[S23:.*]] = lpx_part.transfer %[[A23]] {from = 2 : i64, lpx_part.node = 0 : i64, to = 0 : i64}
// TP4: %[[SUM:.*]] = lpx_graph.add %[[A01]], %[[S23]] {lpx_part.node = 0 : i64}
// TP4: lpx_graph.add %arg0, %[[SUM]] {lpx_part.node = 0 : i64}
// TP2-LABEL: func.func @moe4(
// TP2-DAG: lpx_graph.constant {lpx_part.node = 0 : i64} dense<2.000000e+00> : tensor<8x6xf32>
// TP2-DAG: lpx_graph.constant {lpx_part.node = 1 : i64} dense<3.000000e+00> : tensor<8x6xf32>
// TP2-DAG: lpx_graph.constant {lpx_part.node = 1 : i64} dense<4.000000e+00> : tensor<8x6xf32>
// TP2: %[[A01:.*]] = lpx_graph.add %{{.*}}, %{{.*}} {lpx_part.node = 0 : i64}
// TP2: %[[A23:.*]] = lpx_graph.add %{{.*}}, %{{.*}} {lpx_part.node = 1 : i64}
// TP2: %[[S23:.*]] = lpx_part.transfer %[[A23]] {from = 1 : i64, lpx_part.node = 0 : i64, to = 0 : i64}
// TP2: lpx_graph.add %[[A01]], %[[S23]] {lpx_part.node = 0 : i64}
module {
func.func @moe4(%x: tensor<1x1x8xf32>, %route: tensor<1x1x4xf32>) -> tensor<1x1x8xf32> {
  %w1_0 = lpx_graph.constant dense<1.0> : tensor<8x6xf32>
  %w3_0 = lpx_graph.constant dense<1.5> : tensor<8x6xf32>
  %w2_0 = lpx_graph.constant dense<1.25> : tensor<6x8xf32>
  %g0 = lpx_graph.matmul %x, %w1_0 : (tensor<1x1x8xf32>, tensor<8x6xf32>) -> tensor<1x1x6xf32>
  %s0 = lpx_graph.sigmoid %g0 : tensor<1x1x6xf32>
  %a0 = lpx_graph.mul %g0, %s0 : (tensor<1x1x6xf32>, tensor<1x1x6xf32>) -> tensor<1x1x6xf32>
  %u0 = lpx_graph.matmul %x, %w3_0 : (tensor<1x1x8xf32>, tensor<8x6xf32>) -> tensor<1x1x6xf32>
  %h0 = lpx_graph.mul %a0, %u0 : (tensor<1x1x6xf32>, tensor<1x1x6xf32>) -> tensor<1x1x6xf32>
  %y0 = lpx_graph.matmul %h0, %w2_0 : (tensor<1x1x6xf32>, tensor<6x8xf32>) -> tensor<1x1x8xf32>
  %r0 = lpx_graph.slice %route {starts = array<i64: 0, 0, 0>, steps = array<i64: 1, 1, 1>} : (tensor<1x1x4xf32>) -> tensor<1x1x1xf32>
  %t0 = lpx_graph.mul %y0, %r0 : (tensor<1x1x8xf32>, tensor<1x1x1xf32>) -> tensor<1x1x8xf32>
  %w1_1 = lpx_graph.constant dense<2.0> : tensor<8x6xf32>
  %w3_1 = lpx_graph.constant dense<2.5> : tensor<8x6xf32>
  %w2_1 = lpx_graph.constant dense<2.25> : tensor<6x8xf32>
  %g1 = lpx_graph.matmul %x, %w1_1 : (tensor<1x1x8xf32>, tensor<8x6xf32>) -> tensor<1x1x6xf32>
  %s1 = lpx_graph.sigmoid %g1 : tensor<1x1x6xf32>
  %a1 = lpx_graph.mul %g1, %s1 : (tensor<1x1x6xf32>, tensor<1x1x6xf32>) -> tensor<1x1x6xf32>
  %u1 = lpx_graph.matmul %x, %w3_1 : (tensor<1x1x8xf32>, tensor<8x6xf32>) -> tensor<1x1x6xf32>
  %h1 = lpx_graph.mul %a1, %u1 : (tensor<1x1x6xf32>, tensor<1x1x6xf32>) -> tensor<1x1x6xf32>
  %y1 = lpx_graph.matmul %h1, %w2_1 : (tensor<1x1x6xf32>, tensor<6x8xf32>) -> tensor<1x1x8xf32>
  %r1 = lpx_graph.slice %route {starts = array<i64: 0, 0, 1>, steps = array<i64: 1, 1, 1>} : (tensor<1x1x4xf32>) -> tensor<1x1x1xf32>
  %t1 = lpx_graph.mul %y1, %r1 : (tensor<1x1x8xf32>, tensor<1x1x1xf32>) -> tensor<1x1x8xf32>
  %w1_2 = lpx_graph.constant dense<3.0> : tensor<8x6xf32>
  %w3_2 = lpx_graph.constant dense<3.5> : tensor<8x6xf32>
  %w2_2 = lpx_graph.constant dense<3.25> : tensor<6x8xf32>
  %g2 = lpx_graph.matmul %x, %w1_2 : (tensor<1x1x8xf32>, tensor<8x6xf32>) -> tensor<1x1x6xf32>
  %s2 = lpx_graph.sigmoid %g2 : tensor<1x1x6xf32>
  %a2 = lpx_graph.mul %g2, %s2 : (tensor<1x1x6xf32>, tensor<1x1x6xf32>) -> tensor<1x1x6xf32>
  %u2 = lpx_graph.matmul %x, %w3_2 : (tensor<1x1x8xf32>, tensor<8x6xf32>) -> tensor<1x1x6xf32>
  %h2 = lpx_graph.mul %a2, %u2 : (tensor<1x1x6xf32>, tensor<1x1x6xf32>) -> tensor<1x1x6xf32>
  %y2 = lpx_graph.matmul %h2, %w2_2 : (tensor<1x1x6xf32>, tensor<6x8xf32>) -> tensor<1x1x8xf32>
  %r2 = lpx_graph.slice %route {starts = array<i64: 0, 0, 2>, steps = array<i64: 1, 1, 1>} : (tensor<1x1x4xf32>) -> tensor<1x1x1xf32>
  %t2 = lpx_graph.mul %y2, %r2 : (tensor<1x1x8xf32>, tensor<1x1x1xf32>) -> tensor<1x1x8xf32>
  %w1_3 = lpx_graph.constant dense<4.0> : tensor<8x6xf32>
  %w3_3 = lpx_graph.constant dense<4.5> : tensor<8x6xf32>
  %w2_3 = lpx_graph.constant dense<4.25> : tensor<6x8xf32>
  %g3 = lpx_graph.matmul %x, %w1_3 : (tensor<1x1x8xf32>, tensor<8x6xf32>) -> tensor<1x1x6xf32>
  %s3 = lpx_graph.sigmoid %g3 : tensor<1x1x6xf32>
  %a3 = lpx_graph.mul %g3, %s3 : (tensor<1x1x6xf32>, tensor<1x1x6xf32>) -> tensor<1x1x6xf32>
  %u3 = lpx_graph.matmul %x, %w3_3 : (tensor<1x1x8xf32>, tensor<8x6xf32>) -> tensor<1x1x6xf32>
  %h3 = lpx_graph.mul %a3, %u3 : (tensor<1x1x6xf32>, tensor<1x1x6xf32>) -> tensor<1x1x6xf32>
  %y3 = lpx_graph.matmul %h3, %w2_3 : (tensor<1x1x6xf32>, tensor<6x8xf32>) -> tensor<1x1x8xf32>
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

// Two experts on tp 4: each on its own two chips (0-1 and 2-3), split
// there as a tensor-parallel MLP: gate and up by columns; the down
// projection's activation (K = 6 <= N = 8) is joined on both chips of the
// expert (one exchange) and its columns split; each chip weights its
// columns and the halves meet on chip 0 with the other expert's.

// TP4-R: remark: placement: tp 4 x pp 1 on 4 of 4 nodes: MatMuls split over 4 chips, 1 pipeline stage of consecutive layers
// TP4-R: remark: experts in parallel: 2 per layer, each on its own 2 chips split by columns then rows, the token sent to each and the weighted outputs added by a tree
// TP4-LABEL: func.func @moe2(
// TP4-DAG: lpx_graph.constant {lpx_part.node = 2 : i64} dense<2.000000e+00> : tensor<8x3xf32>
// TP4-DAG: lpx_graph.constant {lpx_part.node = 3 : i64} dense<2.000000e+00> : tensor<8x3xf32>
// TP4-DAG: lpx_graph.constant {lpx_part.node = 2 : i64} dense<2.250000e+00> : tensor<6x4xf32>
// TP4-DAG: lpx_graph.constant {lpx_part.node = 3 : i64} dense<2.250000e+00> : tensor<6x4xf32>
// TP4: %[[X3:.*]] = lpx_part.transfer %[[A2:[0-9]+]] {from = 2 : i64, lpx_part.node = 3 : i64, to = 3 : i64} : tensor<1x1x3xf32>
// TP4: %[[X2:.*]] = lpx_part.transfer %[[A3:[0-9]+]] {from = 3 : i64, lpx_part.node = 2 : i64, to = 2 : i64} : tensor<1x1x3xf32>
// TP4: lpx_graph.concat %[[X3]], %[[A3]] {axis = 2 : i64, lpx_part.node = 3 : i64}
// TP4: %[[J2:.*]] = lpx_graph.concat %[[A2]], %[[X2]] {axis = 2 : i64, lpx_part.node = 2 : i64}
// TP4: %[[D2:.*]] = lpx_graph.matmul %[[J2]], %{{.*}} {lpx_part.node = 2 : i64} : (tensor<1x1x6xf32>, tensor<6x4xf32>) -> tensor<1x1x4xf32>
// TP4: %[[W2:.*]] = lpx_graph.mul %[[D2]], %{{.*}} {lpx_part.node = 2 : i64}
// TP4: lpx_part.transfer %[[W2]] {from = 2 : i64, lpx_part.node = 0 : i64, to = 0 : i64}
// TP4: lpx_part.transfer %{{.*}} {from = 3 : i64, lpx_part.node = 0 : i64, to = 0 : i64}
// TP4: %[[H1:.*]] = lpx_graph.concat %{{.*}}, %{{.*}} {axis = 2 : i64, lpx_part.node = 0 : i64} : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x8xf32>
// TP4: lpx_graph.add %{{.*}}, %[[H1]] {lpx_part.node = 0 : i64}

module {
func.func @moe2(%x: tensor<1x1x8xf32>, %route: tensor<1x1x2xf32>) -> tensor<1x1x8xf32> {
  %w1_0 = lpx_graph.constant dense<1.0> : tensor<8x6xf32>
  %w3_0 = lpx_graph.constant dense<1.5> : tensor<8x6xf32>
  %w2_0 = lpx_graph.constant dense<1.25> : tensor<6x8xf32>
  %g0 = lpx_graph.matmul %x, %w1_0 : (tensor<1x1x8xf32>, tensor<8x6xf32>) -> tensor<1x1x6xf32>
  %s0 = lpx_graph.sigmoid %g0 : tensor<1x1x6xf32>
  %a0 = lpx_graph.mul %g0, %s0 : (tensor<1x1x6xf32>, tensor<1x1x6xf32>) -> tensor<1x1x6xf32>
  %u0 = lpx_graph.matmul %x, %w3_0 : (tensor<1x1x8xf32>, tensor<8x6xf32>) -> tensor<1x1x6xf32>
  %h0 = lpx_graph.mul %a0, %u0 : (tensor<1x1x6xf32>, tensor<1x1x6xf32>) -> tensor<1x1x6xf32>
  %y0 = lpx_graph.matmul %h0, %w2_0 : (tensor<1x1x6xf32>, tensor<6x8xf32>) -> tensor<1x1x8xf32>
  %r0 = lpx_graph.slice %route {starts = array<i64: 0, 0, 0>, steps = array<i64: 1, 1, 1>} : (tensor<1x1x2xf32>) -> tensor<1x1x1xf32>
  %t0 = lpx_graph.mul %y0, %r0 : (tensor<1x1x8xf32>, tensor<1x1x1xf32>) -> tensor<1x1x8xf32>
  %w1_1 = lpx_graph.constant dense<2.0> : tensor<8x6xf32>
  %w3_1 = lpx_graph.constant dense<2.5> : tensor<8x6xf32>
  %w2_1 = lpx_graph.constant dense<2.25> : tensor<6x8xf32>
  %g1 = lpx_graph.matmul %x, %w1_1 : (tensor<1x1x8xf32>, tensor<8x6xf32>) -> tensor<1x1x6xf32>
  %s1 = lpx_graph.sigmoid %g1 : tensor<1x1x6xf32>
  %a1 = lpx_graph.mul %g1, %s1 : (tensor<1x1x6xf32>, tensor<1x1x6xf32>) -> tensor<1x1x6xf32>
  %u1 = lpx_graph.matmul %x, %w3_1 : (tensor<1x1x8xf32>, tensor<8x6xf32>) -> tensor<1x1x6xf32>
  %h1 = lpx_graph.mul %a1, %u1 : (tensor<1x1x6xf32>, tensor<1x1x6xf32>) -> tensor<1x1x6xf32>
  %y1 = lpx_graph.matmul %h1, %w2_1 : (tensor<1x1x6xf32>, tensor<6x8xf32>) -> tensor<1x1x8xf32>
  %r1 = lpx_graph.slice %route {starts = array<i64: 0, 0, 1>, steps = array<i64: 1, 1, 1>} : (tensor<1x1x2xf32>) -> tensor<1x1x1xf32>
  %t1 = lpx_graph.mul %y1, %r1 : (tensor<1x1x8xf32>, tensor<1x1x1xf32>) -> tensor<1x1x8xf32>
  %sum1 = lpx_graph.add %t0, %t1 : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
  %out = lpx_graph.add %x, %sum1 : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
  return %out : tensor<1x1x8xf32>
}
}


// -----

// Not a block: the second "expert" reads another input (z), so the terms
// do not share the token. Each MLP is split over all chips as before and
// the chain of adds stays.

// TP4-R: remark: placement: tp 4 x pp 1 on 4 of 4 nodes: MatMuls split over 4 chips, 1 pipeline stage of consecutive layers
// TP4-R-NOT: remark: experts
// TP4-LABEL: func.func @two_inputs(
// TP4-DAG: lpx_graph.constant {lpx_part.node = 3 : i64} dense<1.000000e+00> : tensor<8x2xf32>
// TP4-DAG: lpx_graph.constant {lpx_part.node = 3 : i64} dense<2.000000e+00> : tensor<8x2xf32>

module {
func.func @two_inputs(%x: tensor<1x1x8xf32>, %route: tensor<1x1x2xf32>, %z: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %w1_0 = lpx_graph.constant dense<1.0> : tensor<8x6xf32>
  %w3_0 = lpx_graph.constant dense<1.5> : tensor<8x6xf32>
  %w2_0 = lpx_graph.constant dense<1.25> : tensor<6x8xf32>
  %g0 = lpx_graph.matmul %x, %w1_0 : (tensor<1x1x8xf32>, tensor<8x6xf32>) -> tensor<1x1x6xf32>
  %s0 = lpx_graph.sigmoid %g0 : tensor<1x1x6xf32>
  %a0 = lpx_graph.mul %g0, %s0 : (tensor<1x1x6xf32>, tensor<1x1x6xf32>) -> tensor<1x1x6xf32>
  %u0 = lpx_graph.matmul %x, %w3_0 : (tensor<1x1x8xf32>, tensor<8x6xf32>) -> tensor<1x1x6xf32>
  %h0 = lpx_graph.mul %a0, %u0 : (tensor<1x1x6xf32>, tensor<1x1x6xf32>) -> tensor<1x1x6xf32>
  %y0 = lpx_graph.matmul %h0, %w2_0 : (tensor<1x1x6xf32>, tensor<6x8xf32>) -> tensor<1x1x8xf32>
  %r0 = lpx_graph.slice %route {starts = array<i64: 0, 0, 0>, steps = array<i64: 1, 1, 1>} : (tensor<1x1x2xf32>) -> tensor<1x1x1xf32>
  %t0 = lpx_graph.mul %y0, %r0 : (tensor<1x1x8xf32>, tensor<1x1x1xf32>) -> tensor<1x1x8xf32>
  %w1_1 = lpx_graph.constant dense<2.0> : tensor<8x6xf32>
  %w3_1 = lpx_graph.constant dense<2.5> : tensor<8x6xf32>
  %w2_1 = lpx_graph.constant dense<2.25> : tensor<6x8xf32>
  %g1 = lpx_graph.matmul %z, %w1_1 : (tensor<1x1x8xf32>, tensor<8x6xf32>) -> tensor<1x1x6xf32>
  %s1 = lpx_graph.sigmoid %g1 : tensor<1x1x6xf32>
  %a1 = lpx_graph.mul %g1, %s1 : (tensor<1x1x6xf32>, tensor<1x1x6xf32>) -> tensor<1x1x6xf32>
  %u1 = lpx_graph.matmul %z, %w3_1 : (tensor<1x1x8xf32>, tensor<8x6xf32>) -> tensor<1x1x6xf32>
  %h1 = lpx_graph.mul %a1, %u1 : (tensor<1x1x6xf32>, tensor<1x1x6xf32>) -> tensor<1x1x6xf32>
  %y1 = lpx_graph.matmul %h1, %w2_1 : (tensor<1x1x6xf32>, tensor<6x8xf32>) -> tensor<1x1x8xf32>
  %r1 = lpx_graph.slice %route {starts = array<i64: 0, 0, 1>, steps = array<i64: 1, 1, 1>} : (tensor<1x1x2xf32>) -> tensor<1x1x1xf32>
  %t1 = lpx_graph.mul %y1, %r1 : (tensor<1x1x8xf32>, tensor<1x1x1xf32>) -> tensor<1x1x8xf32>
  %sum1 = lpx_graph.add %t0, %t1 : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
  %out = lpx_graph.add %x, %sum1 : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
  return %out : tensor<1x1x8xf32>
}
}
