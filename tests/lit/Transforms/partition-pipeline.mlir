// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-partition-mesh="nodes=4 tp=2 pp=2" -split-input-file | FileCheck %s --check-prefix=MESH
// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-partition-mesh="nodes=4 tp=2 pp=2" --lpx-partition-stages -split-input-file | FileCheck %s --check-prefix=STAGES
// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-partition-mesh="nodes=4 tp=2 pp=2" --lpx-partition-stages --lpx-partition-shard -split-input-file | FileCheck %s --check-prefix=SHARD
// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-partition-mesh="nodes=4 tp=2 pp=2" --lpx-partition-stages --lpx-partition-shard --lpx-partition-rewrite -split-input-file --mlir-print-op-on-diagnostic=false 2>/dev/null | FileCheck %s --check-prefix=REWRITE
// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-partition-mesh="nodes=4 tp=2 pp=2" --lpx-partition-stages --lpx-partition-shard --lpx-partition-rewrite --lpx-partition-transfers -split-input-file --mlir-print-op-on-diagnostic=false > %t.steps 2>&1
// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-partition="nodes=4 tp=2 pp=2" -split-input-file --mlir-print-op-on-diagnostic=false > %t.one 2>&1
// RUN: diff %t.steps %t.one
// RUN: FileCheck %s --check-prefix=TRANSFERS < %t.one
// RUN: lpx-opt %s --lpx-attach-chip="chip=tsp-v1" --lpx-partition-mesh="nodes=4 tp=2 pp=2 replicate-bytes=32" --lpx-partition-stages --lpx-partition-shard | FileCheck %s --check-prefix=REPL-SHARD
// RUN: lpx-opt %s --lpx-attach-chip="chip=tsp-v1" --lpx-partition="nodes=4 tp=2 pp=2 replicate-bytes=32" --mlir-print-op-on-diagnostic=false 2>/dev/null | FileCheck %s --check-prefix=REPL

// The partition pipeline (Partition.cpp), one pass at a time, on two MLP
// layers with residual adds placed as tp 2 x pp 2. Each pass's decision is
// an attribute the next reads; run one after another they give what
// lpx-partition gives (the diff above).

// The mesh: 2 chips per group, 2 stages, cut for 2; one stage of 2 chips
// would hold the weights (needed = 1); a quarter of the 4096-byte SRAM for
// temporaries.
// MESH: module attributes {{{.*}}lpx_part.mesh = #lpx_part.mesh<nodes = 4, tp = 2, pp = 2, cut = 2, needed = 1, temporaries = 1024, replicate = 0, why = "MatMuls split over 2 chips, 2 pipeline stages of consecutive layers">, lpx_part.placement = array<i64: 2, 2>

// The stages: half the weight bytes each, cut after the first residual add.
// STAGES: lpx_graph.matmul %arg0, %{{.*}} {lpx_part.stage = array<i64: 0, 1>}
// STAGES: lpx_graph.add %arg0, %{{.*}} {lpx_part.stage = array<i64: 0, 1>}
// STAGES: lpx_graph.matmul %{{.*}}, %{{.*}} {lpx_part.stage = array<i64: 1, 1>}
// STAGES: lpx_graph.add %{{.*}}, %{{.*}} {lpx_part.stage = array<i64: 1, 1>}

// The shardings: up projections by columns (8 of 16 per chip), the ReLU
// on its pieces, down projections (K 16 > N 8) by their reduction axis
// with the partial sums reduce-scattered (4 columns per chip), the first
// residual add on the pieces (x sliced). Stage 1's up projection joins
// stage 0's pieces on each of its chips; the last add runs whole on chip 2.
// SHARD: lpx_graph.matmul %arg0, %{{.*}} {lpx_part.shard = #lpx_part.shard<kind = "columns", axis = 1, lo = [0, 8], hi = [8, 16], nodes = [0, 1]>
// SHARD: lpx_graph.relu %{{.*}} {lpx_part.shard = #lpx_part.shard<kind = "pieces", axis = 1, lo = [0, 8], hi = [8, 16], nodes = [0, 1]>
// SHARD: lpx_graph.matmul %{{.*}}, %{{.*}} {lpx_part.shard = #lpx_part.shard<kind = "reduce_scatter", axis = 1, lo = [0, 4], hi = [4, 8], nodes = [0, 1]>
// SHARD: lpx_graph.add %arg0, %{{.*}} {lpx_part.shard = #lpx_part.shard<kind = "pieces", axis = 1, lo = [0, 4], hi = [4, 8], nodes = [0, 1]>
// SHARD: lpx_graph.matmul %{{.*}}, %{{.*}} {lpx_part.shard = #lpx_part.shard<kind = "columns", axis = 1, lo = [0, 8], hi = [8, 16], nodes = [2, 3]>
// SHARD: lpx_graph.relu
// SHARD: lpx_graph.matmul %{{.*}}, %{{.*}} {lpx_part.shard = #lpx_part.shard<kind = "reduce_scatter", axis = 1, lo = [0, 4], hi = [4, 8], nodes = [2, 3]>
// SHARD: lpx_graph.add %{{.*}}, %{{.*}} {lpx_part.shard = #lpx_part.shard<kind = "whole", axis = -1, lo = [], hi = [], nodes = [2]>

// The rewrite: one op per piece, on its node; the records are consumed.
// REWRITE-NOT: lpx_part.shard
// REWRITE-NOT: lpx_part.stage
// REWRITE: %[[H0:.*]] = lpx_graph.matmul %arg0, %{{.*}} {lpx_part.node = 0 : i64} : (tensor<1x8xf32>, tensor<8x8xf32>) -> tensor<1x8xf32>
// REWRITE: %[[H1:.*]] = lpx_graph.matmul %arg0, %{{.*}} {lpx_part.node = 1 : i64} : (tensor<1x8xf32>, tensor<8x8xf32>) -> tensor<1x8xf32>
// REWRITE: lpx_graph.relu %[[H0]] {lpx_part.node = 0 : i64} : tensor<1x8xf32>
// REWRITE: lpx_graph.relu %[[H1]] {lpx_part.node = 1 : i64} : tensor<1x8xf32>
// REWRITE: lpx_graph.add %{{.*}}, %{{.*}} {lpx_part.node = 0 : i64} : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
// REWRITE: lpx_graph.add %{{.*}}, %{{.*}} {lpx_part.node = 1 : i64} : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
// REWRITE-NOT: lpx_part.transfer
// REWRITE: return

// The transfers: stage 0's residual pieces reach stage 1's chips.
// TRANSFERS: remark: placement: tp 2 x pp 2 on 4 of 4 nodes
// TRANSFERS: module attributes {{{.*}}lpx_part.num_nodes = 4 : i64
// TRANSFERS: lpx_part.transfer %{{.*}} {from = 0 : i64, lpx_part.node = 2 : i64, to = 2 : i64}
// TRANSFERS: lpx_part.transfer %{{.*}} {from = 1 : i64, lpx_part.node = 2 : i64, to = 2 : i64}
// The replicated residual stream (replicate-bytes=32: the 1x8 f32 rows,
// 32 bytes, are replicated; the 1x16 hidden, 64 bytes, is not; on tsp-v1,
// whose SRAM does not cap it as the test chip's 4096 bytes would): each down
// projection's partial sums are all-reduced, so both chips of a stage hold
// the whole residual; the residual adds run on both; stage 1's chips cut
// their up projection by columns from their own copies, chip 2 taking
// chip 0's and chip 3 chip 1's over two links at once.
// REPL-SHARD: lpx_part.mesh = #lpx_part.mesh<{{.*}}replicate = 32
// REPL-SHARD: lpx_graph.matmul %{{.*}}, %{{.*}} {lpx_part.shard = #lpx_part.shard<kind = "all_reduce", axis = -1, lo = [], hi = [], nodes = [0, 1]>
// REPL-SHARD: lpx_graph.add %arg0, %{{.*}} {lpx_part.shard = #lpx_part.shard<kind = "replicated", axis = -1, lo = [], hi = [], nodes = [0, 1]>
// REPL-SHARD: lpx_graph.matmul %{{.*}}, %{{.*}} {lpx_part.shard = #lpx_part.shard<kind = "columns", axis = 1, lo = [0, 8], hi = [8, 16], nodes = [2, 3]>
// REPL-SHARD: lpx_graph.matmul %{{.*}}, %{{.*}} {lpx_part.shard = #lpx_part.shard<kind = "all_reduce", axis = -1, lo = [], hi = [], nodes = [2, 3]>
// REPL-SHARD: lpx_graph.add %{{.*}}, %{{.*}} {lpx_part.shard = #lpx_part.shard<kind = "replicated", axis = -1, lo = [], hi = [], nodes = [2, 3]>
// The all-reduce: each chip's whole partial to the other, added on both.
// REPL: lpx_graph.relu %{{.*}} {lpx_part.node = 1 : i64}
// REPL: %[[P0:.*]] = lpx_graph.matmul %{{.*}}, %{{.*}} {lpx_part.node = 0 : i64} : (tensor<1x8xf32>, tensor<8x8xf32>) -> tensor<1x8xf32>
// REPL: %[[T0:.*]] = lpx_part.transfer %[[P0]] {from = 0 : i64, lpx_part.node = 1 : i64, to = 1 : i64} : tensor<1x8xf32>
// REPL: %[[P1:.*]] = lpx_graph.matmul %{{.*}}, %{{.*}} {lpx_part.node = 1 : i64} : (tensor<1x8xf32>, tensor<8x8xf32>) -> tensor<1x8xf32>
// REPL: %[[T1:.*]] = lpx_part.transfer %[[P1]] {from = 1 : i64, lpx_part.node = 0 : i64, to = 0 : i64} : tensor<1x8xf32>
// REPL: %[[S0:.*]] = lpx_graph.add %[[P0]], %[[T1]] {lpx_part.node = 0 : i64} : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
// REPL: %[[S1:.*]] = lpx_graph.add %[[P1]], %[[T0]] {lpx_part.node = 1 : i64} : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
// REPL: %[[R0:.*]] = lpx_graph.add %arg0, %[[S0]] {lpx_part.node = 0 : i64}
// REPL: lpx_part.transfer %[[R0]] {from = 0 : i64, lpx_part.node = 2 : i64, to = 2 : i64}
// REPL: %[[R1:.*]] = lpx_graph.add %{{.*}}, %[[S1]] {lpx_part.node = 1 : i64}
// REPL: lpx_part.transfer %[[R1]] {from = 1 : i64, lpx_part.node = 3 : i64, to = 3 : i64}
// The copies nobody reads are gone: only chip 2's last residual is
// returned, so chip 3 sends its partial and adds nothing.
// REPL: lpx_part.transfer %{{.*}} {from = 3 : i64, lpx_part.node = 2 : i64, to = 2 : i64}
// REPL-NOT: lpx_graph.add {{.*}}lpx_part.node = 3
// REPL: return
module {
func.func @mlp(%x: tensor<1x8xf32>) -> tensor<1x8xf32> {
  %w1 = lpx_graph.constant dense<1.0> : tensor<8x16xf32>
  %w2 = lpx_graph.constant dense<2.0> : tensor<16x8xf32>
  %w3 = lpx_graph.constant dense<3.0> : tensor<8x16xf32>
  %w4 = lpx_graph.constant dense<4.0> : tensor<16x8xf32>
  %h = lpx_graph.matmul %x, %w1 : (tensor<1x8xf32>, tensor<8x16xf32>) -> tensor<1x16xf32>
  %g = lpx_graph.relu %h : tensor<1x16xf32>
  %y = lpx_graph.matmul %g, %w2 : (tensor<1x16xf32>, tensor<16x8xf32>) -> tensor<1x8xf32>
  %r = lpx_graph.add %x, %y : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
  %h2 = lpx_graph.matmul %r, %w3 : (tensor<1x8xf32>, tensor<8x16xf32>) -> tensor<1x16xf32>
  %g2 = lpx_graph.relu %h2 : tensor<1x16xf32>
  %y2 = lpx_graph.matmul %g2, %w4 : (tensor<1x16xf32>, tensor<16x8xf32>) -> tensor<1x8xf32>
  %r2 = lpx_graph.add %r, %y2 : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
  return %r2 : tensor<1x8xf32>
}
}
