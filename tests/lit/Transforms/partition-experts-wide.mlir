// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-partition="nodes=4 tp=4" --mlir-print-op-on-diagnostic=false | FileCheck %s --check-prefix=TP4
// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-partition="nodes=4 tp=4" --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=TP4-R

// A mixture-of-experts block (see partition-experts.mlir) whose experts
// would keep too many values live on their chips is placed like an MLP.

// Experts too wide for their chips: each of the two experts would have 2
// of the 4 chips, and three of its widest values (192 floats, 768 bytes)
// halved over them (1152 bytes) pass the quarter of the test chip's 4 KiB
// kept for temporaries, so the block stays tensor-parallel: every chip
// takes a quarter of each expert's columns (48 of 192), one expert after
// the other.

// TP4-R: remark: placement: tp 4 x pp 1 on 4 of 4 nodes: MatMuls split over 4 chips, 1 pipeline stage of consecutive layers
// TP4-R: remark: 1 mixture-of-experts block(s) split like an MLP over their chips instead: an expert's values live at once on each of its chips (1152 bytes) would pass the 1024 bytes a chip keeps for them
// TP4-LABEL: func.func @wide_experts(
// TP4-DAG: lpx_graph.constant {lpx_part.node = 3 : i64} dense<1.000000e+00> : tensor<2x48xf32>
// TP4-DAG: lpx_graph.constant {lpx_part.node = 3 : i64} dense<2.000000e+00> : tensor<2x48xf32>
module {
func.func @wide_experts(%x: tensor<1x1x2xf32>, %route: tensor<1x1x2xf32>) -> tensor<1x1x2xf32> {
  %w1_0 = lpx_graph.constant dense<1.0> : tensor<2x192xf32>
  %w3_0 = lpx_graph.constant dense<1.5> : tensor<2x192xf32>
  %w2_0 = lpx_graph.constant dense<1.25> : tensor<192x2xf32>
  %g0 = lpx_graph.matmul %x, %w1_0 : (tensor<1x1x2xf32>, tensor<2x192xf32>) -> tensor<1x1x192xf32>
  %s0 = lpx_graph.sigmoid %g0 : tensor<1x1x192xf32>
  %a0 = lpx_graph.mul %g0, %s0 : (tensor<1x1x192xf32>, tensor<1x1x192xf32>) -> tensor<1x1x192xf32>
  %u0 = lpx_graph.matmul %x, %w3_0 : (tensor<1x1x2xf32>, tensor<2x192xf32>) -> tensor<1x1x192xf32>
  %h0 = lpx_graph.mul %a0, %u0 : (tensor<1x1x192xf32>, tensor<1x1x192xf32>) -> tensor<1x1x192xf32>
  %y0 = lpx_graph.matmul %h0, %w2_0 : (tensor<1x1x192xf32>, tensor<192x2xf32>) -> tensor<1x1x2xf32>
  %r0 = lpx_graph.slice %route {starts = array<i64: 0, 0, 0>, steps = array<i64: 1, 1, 1>} : (tensor<1x1x2xf32>) -> tensor<1x1x1xf32>
  %t0 = lpx_graph.mul %y0, %r0 : (tensor<1x1x2xf32>, tensor<1x1x1xf32>) -> tensor<1x1x2xf32>
  %w1_1 = lpx_graph.constant dense<2.0> : tensor<2x192xf32>
  %w3_1 = lpx_graph.constant dense<2.5> : tensor<2x192xf32>
  %w2_1 = lpx_graph.constant dense<2.25> : tensor<192x2xf32>
  %g1 = lpx_graph.matmul %x, %w1_1 : (tensor<1x1x2xf32>, tensor<2x192xf32>) -> tensor<1x1x192xf32>
  %s1 = lpx_graph.sigmoid %g1 : tensor<1x1x192xf32>
  %a1 = lpx_graph.mul %g1, %s1 : (tensor<1x1x192xf32>, tensor<1x1x192xf32>) -> tensor<1x1x192xf32>
  %u1 = lpx_graph.matmul %x, %w3_1 : (tensor<1x1x2xf32>, tensor<2x192xf32>) -> tensor<1x1x192xf32>
  %h1 = lpx_graph.mul %a1, %u1 : (tensor<1x1x192xf32>, tensor<1x1x192xf32>) -> tensor<1x1x192xf32>
  %y1 = lpx_graph.matmul %h1, %w2_1 : (tensor<1x1x192xf32>, tensor<192x2xf32>) -> tensor<1x1x2xf32>
  %r1 = lpx_graph.slice %route {starts = array<i64: 0, 0, 1>, steps = array<i64: 1, 1, 1>} : (tensor<1x1x2xf32>) -> tensor<1x1x1xf32>
  %t1 = lpx_graph.mul %y1, %r1 : (tensor<1x1x2xf32>, tensor<1x1x1xf32>) -> tensor<1x1x2xf32>
  %sum1 = lpx_graph.add %t0, %t1 : (tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> tensor<1x1x2xf32>
  %out = lpx_graph.add %x, %sum1 : (tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> tensor<1x1x2xf32>
  return %out : tensor<1x1x2xf32>
}
}
