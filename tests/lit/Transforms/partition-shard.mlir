// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-partition="nodes=2" -split-input-file --mlir-print-op-on-diagnostic=false | FileCheck %s --check-prefix=ATTN
// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-partition="nodes=4 tp=4" -split-input-file --mlir-print-op-on-diagnostic=false | FileCheck %s --check-prefix=TP4
// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-partition="nodes=4 tp=2 pp=2" -split-input-file --mlir-print-op-on-diagnostic=false | FileCheck %s --check-prefix=PP2
// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-partition="nodes=2" -split-input-file --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=ATTN-R
// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-partition="nodes=4 tp=4" -split-input-file --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=TP4-R
// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-partition="nodes=4 tp=2 pp=2" -split-input-file --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=PP2-R

// Sharding propagation (PartitionShard.cpp). Grouped-query attention with
// 4 query heads and 2 KV heads of 2 elements: on 2 nodes each node owns one
// KV head and the 2 query heads that share it. The projections are cut by
// columns on head boundaries, reshape / transpose / the KV cache concat /
// the repeat_kv broadcast / the attention matmuls / softmax run per node on
// their heads, the output projection is cut by rows and its partial sums
// added; the KV cache input and output are bound in pieces by head.

// ATTN-R: remark: placement: tp 2 x pp 1 on 2 of 2 nodes: attention split by KV head over 2 chips (2 nodes; the model has 2 KV heads)
// The chosen mesh is recorded on the module for emission (Program.tp/pp).
// ATTN: module attributes {{.*}}lpx_part.placement = array<i64: 2, 1>
// ATTN-LABEL: func.func @attention(%arg0
// ATTN-SAME: %[[PAST0:.*]]: tensor<1x1x3x2xf32> {lpx_part.node = 0 : i64, lpx_part.offsets = array<i64: 0, 0, 0, 0>}
// ATTN-SAME: %[[PAST1:.*]]: tensor<1x1x3x2xf32> {lpx_part.node = 1 : i64, lpx_part.offsets = array<i64: 0, 1, 0, 0>}
// ATTN-SAME: -> (tensor<1x1x8xf32>, tensor<1x1x4x2xf32> {lpx_part.node = 0 : i64, lpx_part.offsets = array<i64: 0, 0, 0, 0>}, tensor<1x1x4x2xf32> {lpx_part.node = 1 : i64, lpx_part.offsets = array<i64: 0, 1, 0, 0>})
// Query heads 0-1 and 2-3, K head 0 and 1: column blocks of the weights.
// ATTN-DAG: lpx_graph.constant {lpx_part.node = 0 : i64} dense<1.000000e+00> : tensor<8x4xf32>
// ATTN-DAG: lpx_graph.constant {lpx_part.node = 1 : i64} dense<1.000000e+00> : tensor<8x4xf32>
// ATTN-DAG: lpx_graph.constant {lpx_part.node = 0 : i64} dense<2.000000e+00> : tensor<8x2xf32>
// ATTN-DAG: lpx_graph.constant {lpx_part.node = 1 : i64} dense<2.000000e+00> : tensor<8x2xf32>
// Rows of the output projection.
// ATTN-DAG: lpx_graph.constant {lpx_part.node = 0 : i64} dense<3.000000e+00> : tensor<4x8xf32>
// ATTN-DAG: lpx_graph.constant {lpx_part.node = 1 : i64} dense<3.000000e+00> : tensor<4x8xf32>
// ATTN: %[[K0:.*]] = lpx_graph.concat %[[PAST0]], %{{.*}} {axis = 2 : i64, lpx_part.node = 0 : i64} : (tensor<1x1x3x2xf32>, tensor<1x1x1x2xf32>) -> tensor<1x1x4x2xf32>
// ATTN: %[[K1:.*]] = lpx_graph.concat %[[PAST1]], %{{.*}} {axis = 2 : i64, lpx_part.node = 1 : i64}
// ATTN: lpx_graph.broadcast %{{.*}} {lpx_part.node = 0 : i64} : (tensor<1x1x1x4x2xf32>) -> tensor<1x1x2x4x2xf32>
// ATTN: lpx_graph.broadcast %{{.*}} {lpx_part.node = 1 : i64} : (tensor<1x1x1x4x2xf32>) -> tensor<1x1x2x4x2xf32>
// ATTN: lpx_graph.matmul %{{.*}}, %{{.*}} {lpx_part.node = 0 : i64} : (tensor<1x2x1x2xf32>, tensor<1x2x2x4xf32>) -> tensor<1x2x1x4xf32>
// ATTN: lpx_graph.matmul %{{.*}}, %{{.*}} {lpx_part.node = 1 : i64} : (tensor<1x2x1x2xf32>, tensor<1x2x2x4xf32>) -> tensor<1x2x1x4xf32>
// ATTN: lpx_graph.softmax %{{.*}} {axis = 3 : i64, lpx_part.node = 0 : i64} : tensor<1x2x1x4xf32>
// ATTN: lpx_graph.softmax %{{.*}} {axis = 3 : i64, lpx_part.node = 1 : i64} : tensor<1x2x1x4xf32>
// ATTN: %[[P0:.*]] = lpx_graph.matmul %{{.*}}, %{{.*}} {lpx_part.node = 0 : i64} : (tensor<1x1x4xf32>, tensor<4x8xf32>) -> tensor<1x1x8xf32>
// ATTN: %[[P1:.*]] = lpx_graph.matmul %{{.*}}, %{{.*}} {lpx_part.node = 1 : i64} : (tensor<1x1x4xf32>, tensor<4x8xf32>) -> tensor<1x1x8xf32>
// ATTN: %[[T:.*]] = lpx_part.transfer %[[P1]] {from = 1 : i64, lpx_part.node = 0 : i64, to = 0 : i64}
// ATTN: %[[SUM:.*]] = lpx_graph.add %[[P0]], %[[T]] {lpx_part.node = 0 : i64}
module {
func.func @attention(%x: tensor<1x1x8xf32>, %past: tensor<1x2x3x2xf32>) -> (tensor<1x1x8xf32>, tensor<1x2x4x2xf32>) {
  %wq = lpx_graph.constant dense<1.0> : tensor<8x8xf32>
  %wk = lpx_graph.constant dense<2.0> : tensor<8x4xf32>
  %wo = lpx_graph.constant dense<3.0> : tensor<8x8xf32>
  %q = lpx_graph.matmul %x, %wq : (tensor<1x1x8xf32>, tensor<8x8xf32>) -> tensor<1x1x8xf32>
  %q1 = lpx_graph.reshape %q : tensor<1x1x8xf32> to tensor<1x1x4x2xf32>
  %q2 = lpx_graph.transpose %q1 {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x1x4x2xf32>) -> tensor<1x4x1x2xf32>
  %k = lpx_graph.matmul %x, %wk : (tensor<1x1x8xf32>, tensor<8x4xf32>) -> tensor<1x1x4xf32>
  %k1 = lpx_graph.reshape %k : tensor<1x1x4xf32> to tensor<1x1x2x2xf32>
  %k2 = lpx_graph.transpose %k1 {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x1x2x2xf32>) -> tensor<1x2x1x2xf32>
  %kc = lpx_graph.concat %past, %k2 {axis = 2 : i64} : (tensor<1x2x3x2xf32>, tensor<1x2x1x2xf32>) -> tensor<1x2x4x2xf32>
  %k3 = lpx_graph.reshape %kc : tensor<1x2x4x2xf32> to tensor<1x2x1x4x2xf32>
  %k4 = lpx_graph.broadcast %k3 : (tensor<1x2x1x4x2xf32>) -> tensor<1x2x2x4x2xf32>
  %k5 = lpx_graph.reshape %k4 : tensor<1x2x2x4x2xf32> to tensor<1x4x4x2xf32>
  %kt = lpx_graph.transpose %k5 {perm = array<i64: 0, 1, 3, 2>} : (tensor<1x4x4x2xf32>) -> tensor<1x4x2x4xf32>
  %s = lpx_graph.matmul %q2, %kt : (tensor<1x4x1x2xf32>, tensor<1x4x2x4xf32>) -> tensor<1x4x1x4xf32>
  %p = lpx_graph.softmax %s {axis = 3 : i64} : tensor<1x4x1x4xf32>
  %o = lpx_graph.matmul %p, %k5 : (tensor<1x4x1x4xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x1x2xf32>
  %o1 = lpx_graph.transpose %o {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x4x1x2xf32>) -> tensor<1x1x4x2xf32>
  %o2 = lpx_graph.reshape %o1 : tensor<1x1x4x2xf32> to tensor<1x1x8xf32>
  %y = lpx_graph.matmul %o2, %wo : (tensor<1x1x8xf32>, tensor<8x8xf32>) -> tensor<1x1x8xf32>
  %r = lpx_graph.add %x, %y : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
  return %r, %kc : tensor<1x1x8xf32>, tensor<1x2x4x2xf32>
}
}

// -----

// An MLP (no heads: placed this way only when tp or pp is given). tp 4:
// gate and up by columns, the SiLU and the product per node, down by rows;
// the four partial sums meet in a tree (1 into 0 and 3 into 2, then 2 into
// 0), not a chain on node 0. pp 2 (tp 2): the second block, after the
// residual add, runs on the second group (nodes 2 and 3), and only the
// residual stream crosses.

// TP4-R: remark: placement: tp 4 x pp 1 on 4 of 4 nodes: MatMuls split over 4 chips
// TP4-LABEL: func.func @mlp(%arg0
// TP4-COUNT-4: lpx_graph.sigmoid %{{.*}} : tensor<1x1x4xf32>
// TP4: %[[D0:.*]] = lpx_graph.matmul %{{.*}}, %{{.*}} {lpx_part.node = 0 : i64} : (tensor<1x1x4xf32>, tensor<4x8xf32>) -> tensor<1x1x8xf32>
// TP4: %[[D1:.*]] = lpx_graph.matmul %{{.*}}, %{{.*}} {lpx_part.node = 1 : i64} : (tensor<1x1x4xf32>, tensor<4x8xf32>)
// TP4: %[[T1:.*]] = lpx_part.transfer %[[D1]] {from = 1 : i64, lpx_part.node = 0 : i64, to = 0 : i64}
// TP4: %[[D2:.*]] = lpx_graph.matmul %{{.*}}, %{{.*}} {lpx_part.node = 2 : i64} : (tensor<1x1x4xf32>, tensor<4x8xf32>)
// TP4: %[[D3:.*]] = lpx_graph.matmul %{{.*}}, %{{.*}} {lpx_part.node = 3 : i64} : (tensor<1x1x4xf32>, tensor<4x8xf32>)
// TP4: %[[T3:.*]] = lpx_part.transfer %[[D3]] {from = 3 : i64, lpx_part.node = 2 : i64, to = 2 : i64}
// TP4: %[[S01:.*]] = lpx_graph.add %[[D0]], %[[T1]] {lpx_part.node = 0 : i64}
// TP4: %[[S23:.*]] = lpx_graph.add %[[D2]], %[[T3]] {lpx_part.node = 2 : i64}
// TP4: %[[T23:.*]] = lpx_part.transfer %[[S23]] {from = 2 : i64, lpx_part.node = 0 : i64, to = 0 : i64}
// TP4: lpx_graph.add %[[S01]], %[[T23]] {lpx_part.node = 0 : i64}

// PP2-R: remark: placement: tp 2 x pp 2 on 4 of 4 nodes: MatMuls split over 2 chips, 2 pipeline stages
// PP2: module attributes {{.*}}lpx_part.placement = array<i64: 2, 2>
// PP2-LABEL: func.func @mlp(%arg0
// PP2: %[[R:.*]] = lpx_graph.add %arg0, %{{.*}} {lpx_part.node = 0 : i64}
// PP2: %[[X:.*]] = lpx_part.transfer %[[R]] {from = 0 : i64, lpx_part.node = 2 : i64, to = 2 : i64}
// PP2: %[[R2:.*]] = lpx_graph.add %[[X]], %[[X]] {lpx_part.node = 2 : i64}
// PP2-NOT: from = 0
// PP2-NOT: from = 1
// PP2: lpx_graph.matmul %[[R2]], %{{.*}} {lpx_part.node = 2 : i64} : (tensor<1x1x8xf32>, tensor<8x8xf32>)
// PP2: lpx_graph.matmul %{{.*}}, %{{.*}} {lpx_part.node = 3 : i64} : (tensor<1x1x8xf32>, tensor<8x8xf32>)
// PP2-NOT: from = 0
// PP2-NOT: from = 1
// PP2: return
module {
func.func @mlp(%x: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %wg = lpx_graph.constant dense<1.0> : tensor<8x16xf32>
  %wu = lpx_graph.constant dense<2.0> : tensor<8x16xf32>
  %wd = lpx_graph.constant dense<3.0> : tensor<16x8xf32>
  %g = lpx_graph.matmul %x, %wg : (tensor<1x1x8xf32>, tensor<8x16xf32>) -> tensor<1x1x16xf32>
  %sg = lpx_graph.sigmoid %g : tensor<1x1x16xf32>
  %a = lpx_graph.mul %g, %sg : (tensor<1x1x16xf32>, tensor<1x1x16xf32>) -> tensor<1x1x16xf32>
  %u = lpx_graph.matmul %x, %wu : (tensor<1x1x8xf32>, tensor<8x16xf32>) -> tensor<1x1x16xf32>
  %h = lpx_graph.mul %a, %u : (tensor<1x1x16xf32>, tensor<1x1x16xf32>) -> tensor<1x1x16xf32>
  %d = lpx_graph.matmul %h, %wd : (tensor<1x1x16xf32>, tensor<16x8xf32>) -> tensor<1x1x8xf32>
  %r = lpx_graph.add %x, %d : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
  %r2 = lpx_graph.add %r, %r : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
  %wg2 = lpx_graph.constant dense<4.0> : tensor<8x16xf32>
  %wd2 = lpx_graph.constant dense<5.0> : tensor<16x8xf32>
  %g2 = lpx_graph.matmul %r2, %wg2 : (tensor<1x1x8xf32>, tensor<8x16xf32>) -> tensor<1x1x16xf32>
  %d2 = lpx_graph.matmul %g2, %wd2 : (tensor<1x1x16xf32>, tensor<16x8xf32>) -> tensor<1x1x8xf32>
  %s = lpx_graph.add %r2, %d2 : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
  return %s : tensor<1x1x8xf32>
}
}

// -----

// A fused projection (GPT-2's c_attn: one MatMul and bias for Q and K, read
// through column slices reshaped into heads) becomes one MatMul and bias per
// slice, each split on its own heads: node 1 holds Q's heads 2-3 (bias
// 4..7) and K's heads 2-3 (bias 12..15).

// ATTN-R: remark: placement: tp 2 x pp 1 on 2 of 2 nodes: attention split by KV head over 2 chips (2 nodes; the model has 4 KV heads)
// ATTN-LABEL: func.func @fused(%arg0
// ATTN-DAG: lpx_graph.matmul %arg0, %{{.*}} {lpx_part.node = 0 : i64} : (tensor<1x1x8xf32>, tensor<8x4xf32>) -> tensor<1x1x4xf32>
// ATTN-DAG: lpx_graph.constant {lpx_part.node = 0 : i64} dense<[0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<4xf32>
// ATTN-DAG: lpx_graph.constant {lpx_part.node = 1 : i64} dense<[4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00]> : tensor<4xf32>
// ATTN-DAG: lpx_graph.constant {lpx_part.node = 0 : i64} dense<[8.000000e+00, 9.000000e+00, 1.000000e+01, 1.100000e+01]> : tensor<4xf32>
// ATTN-DAG: lpx_graph.constant {lpx_part.node = 1 : i64} dense<[1.200000e+01, 1.300000e+01, 1.400000e+01, 1.500000e+01]> : tensor<4xf32>
// ATTN-NOT: lpx_graph.slice
// ATTN: return
module {
func.func @fused(%x: tensor<1x1x8xf32>) -> (tensor<1x1x4x2xf32>, tensor<1x1x4x2xf32>) {
  %w = lpx_graph.constant dense<1.0> : tensor<8x16xf32>
  %b = lpx_graph.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0]> : tensor<16xf32>
  %m = lpx_graph.matmul %x, %w : (tensor<1x1x8xf32>, tensor<8x16xf32>) -> tensor<1x1x16xf32>
  %a = lpx_graph.add %m, %b : (tensor<1x1x16xf32>, tensor<16xf32>) -> tensor<1x1x16xf32>
  %q = lpx_graph.slice %a {starts = array<i64: 0, 0, 0>, steps = array<i64: 1, 1, 1>} : (tensor<1x1x16xf32>) -> tensor<1x1x8xf32>
  %k = lpx_graph.slice %a {starts = array<i64: 0, 0, 8>, steps = array<i64: 1, 1, 1>} : (tensor<1x1x16xf32>) -> tensor<1x1x8xf32>
  %q1 = lpx_graph.reshape %q : tensor<1x1x8xf32> to tensor<1x1x4x2xf32>
  %k1 = lpx_graph.reshape %k : tensor<1x1x8xf32> to tensor<1x1x4x2xf32>
  %s = lpx_graph.sigmoid %q1 : tensor<1x1x4x2xf32>
  %t = lpx_graph.sigmoid %k1 : tensor<1x1x4x2xf32>
  return %s, %t : tensor<1x1x4x2xf32>, tensor<1x1x4x2xf32>
}
}

// -----

// Resident KV state (lpx-resident-kv's output: K kept as K^T [B, kv, hd, L],
// V as [B, kv, L, hd]) is split by KV head like the entries written into
// it: each node holds its head's slice of each cache as a state argument of
// its own (its node and its offsets in the whole cache) and appends to it
// in place, so scores, softmax and the weighted sum run per node on their
// heads and no cache is gathered. Only the position crosses, to node 1.

// ATTN-LABEL: func.func @resident(%arg0
// ATTN-SAME: %[[POS:arg1]]: tensor<1x1xi64> {lpx_part.node = 0 : i64}
// ATTN-SAME: %[[K0:arg2]]: tensor<1x1x2x4xf32> {lpx_graph.name = "past_key_values.0.key", lpx_graph.state, lpx_part.node = 0 : i64, lpx_part.offsets = array<i64: 0, 0, 0, 0>}
// ATTN-SAME: %[[K1:arg3]]: tensor<1x1x2x4xf32> {lpx_graph.name = "past_key_values.0.key", lpx_graph.state, lpx_part.node = 1 : i64, lpx_part.offsets = array<i64: 0, 1, 0, 0>}
// ATTN-SAME: %[[V0:arg4]]: tensor<1x1x4x2xf32> {lpx_graph.name = "past_key_values.0.value", lpx_graph.state, lpx_part.node = 0 : i64, lpx_part.offsets = array<i64: 0, 0, 0, 0>}
// ATTN-SAME: %[[V1:arg5]]: tensor<1x1x4x2xf32> {lpx_graph.name = "past_key_values.0.value", lpx_graph.state, lpx_part.node = 1 : i64, lpx_part.offsets = array<i64: 0, 1, 0, 0>})
// ATTN-NOT: tensor<1x2x2x4xf32>
// ATTN-NOT: tensor<1x2x4x2xf32>
// ATTN: %[[P1:.*]] = lpx_part.transfer %[[POS]] {from = 0 : i64, lpx_part.node = 1 : i64, to = 1 : i64} : tensor<1x1xi64>
// ATTN: %[[KS0:.*]] = lpx_graph.state_write %{{.*}}, %[[POS]] into %[[K0]] {axis = 3 : i64, lpx_part.node = 0 : i64} : (tensor<1x1x2x4xf32>, tensor<1x1x2x1xf32>, tensor<1x1xi64>) -> tensor<1x1x2x4xf32>
// ATTN: %[[KS1:.*]] = lpx_graph.state_write %{{.*}}, %[[P1]] into %[[K1]] {axis = 3 : i64, lpx_part.node = 1 : i64}
// ATTN: lpx_graph.reshape %[[KS0]] {lpx_part.node = 0 : i64}
// ATTN: lpx_graph.reshape %[[KS1]] {lpx_part.node = 1 : i64}
// ATTN: lpx_graph.matmul %{{.*}}, %{{.*}} {lpx_part.node = 0 : i64} : (tensor<1x2x1x2xf32>, tensor<1x2x2x4xf32>) -> tensor<1x2x1x4xf32>
// ATTN: lpx_graph.matmul %{{.*}}, %{{.*}} {lpx_part.node = 1 : i64} : (tensor<1x2x1x2xf32>, tensor<1x2x2x4xf32>) -> tensor<1x2x1x4xf32>
// ATTN: lpx_graph.softmax %{{.*}} {axis = 3 : i64, lpx_part.node = 0 : i64} : tensor<1x2x1x4xf32>
// ATTN: lpx_graph.softmax %{{.*}} {axis = 3 : i64, lpx_part.node = 1 : i64} : tensor<1x2x1x4xf32>
// ATTN: lpx_graph.state_write %{{.*}}, %[[POS]] into %[[V0]] {axis = 2 : i64, lpx_part.node = 0 : i64}
// ATTN: lpx_graph.state_write %{{.*}}, %[[P1]] into %[[V1]] {axis = 2 : i64, lpx_part.node = 1 : i64}
// ATTN: lpx_graph.matmul %{{.*}}, %{{.*}} {lpx_part.node = 0 : i64} : (tensor<1x2x1x4xf32>, tensor<1x2x4x2xf32>) -> tensor<1x2x1x2xf32>
// ATTN: lpx_graph.matmul %{{.*}}, %{{.*}} {lpx_part.node = 1 : i64} : (tensor<1x2x1x4xf32>, tensor<1x2x4x2xf32>) -> tensor<1x2x1x2xf32>
// ATTN-NOT: lpx_graph.concat
// ATTN: return
module {
func.func @resident(%x: tensor<1x1x8xf32>, %pos: tensor<1x1xi64>, %kc: tensor<1x2x2x4xf32> {lpx_graph.name = "past_key_values.0.key", lpx_graph.state}, %vc: tensor<1x2x4x2xf32> {lpx_graph.name = "past_key_values.0.value", lpx_graph.state}) -> tensor<1x1x8xf32> {
  %wq = lpx_graph.constant dense<1.0> : tensor<8x8xf32>
  %wk = lpx_graph.constant dense<2.0> : tensor<8x4xf32>
  %wv = lpx_graph.constant dense<4.0> : tensor<8x4xf32>
  %wo = lpx_graph.constant dense<3.0> : tensor<8x8xf32>
  %q = lpx_graph.matmul %x, %wq : (tensor<1x1x8xf32>, tensor<8x8xf32>) -> tensor<1x1x8xf32>
  %q1 = lpx_graph.reshape %q : tensor<1x1x8xf32> to tensor<1x1x4x2xf32>
  %q2 = lpx_graph.transpose %q1 {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x1x4x2xf32>) -> tensor<1x4x1x2xf32>
  %k = lpx_graph.matmul %x, %wk : (tensor<1x1x8xf32>, tensor<8x4xf32>) -> tensor<1x1x4xf32>
  %k1 = lpx_graph.reshape %k : tensor<1x1x4xf32> to tensor<1x1x2x2xf32>
  %k2 = lpx_graph.transpose %k1 {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x1x2x2xf32>) -> tensor<1x2x1x2xf32>
  %k3 = lpx_graph.reshape %k2 : tensor<1x2x1x2xf32> to tensor<1x2x2x1xf32>
  %ks = lpx_graph.state_write %k3, %pos into %kc {axis = 3 : i64} : (tensor<1x2x2x4xf32>, tensor<1x2x2x1xf32>, tensor<1x1xi64>) -> tensor<1x2x2x4xf32>
  %k4 = lpx_graph.reshape %ks : tensor<1x2x2x4xf32> to tensor<1x2x1x2x4xf32>
  %k5 = lpx_graph.broadcast %k4 : (tensor<1x2x1x2x4xf32>) -> tensor<1x2x2x2x4xf32>
  %k6 = lpx_graph.reshape %k5 : tensor<1x2x2x2x4xf32> to tensor<1x4x2x4xf32>
  %s = lpx_graph.matmul %q2, %k6 : (tensor<1x4x1x2xf32>, tensor<1x4x2x4xf32>) -> tensor<1x4x1x4xf32>
  %p = lpx_graph.softmax %s {axis = 3 : i64} : tensor<1x4x1x4xf32>
  %v = lpx_graph.matmul %x, %wv : (tensor<1x1x8xf32>, tensor<8x4xf32>) -> tensor<1x1x4xf32>
  %v1 = lpx_graph.reshape %v : tensor<1x1x4xf32> to tensor<1x1x2x2xf32>
  %v2 = lpx_graph.transpose %v1 {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x1x2x2xf32>) -> tensor<1x2x1x2xf32>
  %vs = lpx_graph.state_write %v2, %pos into %vc {axis = 2 : i64} : (tensor<1x2x4x2xf32>, tensor<1x2x1x2xf32>, tensor<1x1xi64>) -> tensor<1x2x4x2xf32>
  %v3 = lpx_graph.reshape %vs : tensor<1x2x4x2xf32> to tensor<1x2x1x4x2xf32>
  %v4 = lpx_graph.broadcast %v3 : (tensor<1x2x1x4x2xf32>) -> tensor<1x2x2x4x2xf32>
  %v5 = lpx_graph.reshape %v4 : tensor<1x2x2x4x2xf32> to tensor<1x4x4x2xf32>
  %o = lpx_graph.matmul %p, %v5 : (tensor<1x4x1x4xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x1x2xf32>
  %o1 = lpx_graph.transpose %o {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x4x1x2xf32>) -> tensor<1x1x4x2xf32>
  %o2 = lpx_graph.reshape %o1 : tensor<1x1x4x2xf32> to tensor<1x1x8xf32>
  %y = lpx_graph.matmul %o2, %wo : (tensor<1x1x8xf32>, tensor<8x8xf32>) -> tensor<1x1x8xf32>
  %r = lpx_graph.add %x, %y : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
  return %r : tensor<1x1x8xf32>
}
}

// -----

// A state whose update is not split (here the input itself) stays whole on
// the stage's first node, and what reads it runs there with it.

// TP4-LABEL: func.func @whole_state(%arg0
// TP4-SAME: %[[C:arg2]]: tensor<1x4x8xf32> {lpx_graph.name = "cache", lpx_graph.state, lpx_part.node = 0 : i64})
// TP4: %[[S:.*]] = lpx_graph.state_write %arg0, %arg1 into %[[C]] {axis = 1 : i64, lpx_part.node = 0 : i64}
// TP4: lpx_graph.reduce_mean %[[S]] {{.*}}lpx_part.node = 0 : i64
module {
func.func @whole_state(%x: tensor<1x1x8xf32>, %pos: tensor<1xi64>, %c: tensor<1x4x8xf32> {lpx_graph.name = "cache", lpx_graph.state}) -> tensor<1x1x8xf32> {
  %s = lpx_graph.state_write %x, %pos into %c {axis = 1 : i64} : (tensor<1x4x8xf32>, tensor<1x1x8xf32>, tensor<1xi64>) -> tensor<1x4x8xf32>
  %m = lpx_graph.reduce_mean %s {axes = array<i64: 1>} : (tensor<1x4x8xf32>) -> tensor<1x1x8xf32>
  return %m : tensor<1x1x8xf32>
}
}
