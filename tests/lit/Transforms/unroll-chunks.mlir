// RUN: lpx-opt %s --lpx-unroll-chunks=chunks=2 --lpx-verify-partitioned | FileCheck %s
// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-unroll-chunks=chunks=2 --lpx-schedule | FileCheck %s --check-prefix=SCHED
// RUN: lpx-opt %s --lpx-unroll-chunks=chunks=1 | FileCheck %s --check-prefix=ONE

// A placed chunk step of two layers on one node: layer 0 writes its entry
// into state A and reads A; layer 1 writes what it computed into state B.
// Two copies: copy 1 has inputs of its own (x.chunk1, position_ids.chunk1),
// shares the constant, and writes into what copy 0 wrote (its A write into
// %[[A0]], its B write into %[[B0]]); only copy 1's result is returned, so
// copy 0's last neg (its output) goes. Every op but the constant carries
// its index in the step, the same in both copies.
// CHECK-LABEL: func.func @chunk
// CHECK-SAME: %arg4: tensor<1x2x4xf32> {lpx_graph.name = "x.chunk1", lpx_part.node = 0 : i64}
// CHECK-SAME: %arg5: tensor<1x2xi64> {lpx_graph.name = "position_ids.chunk1", lpx_part.node = 0 : i64}
// CHECK: %[[C:.*]] = lpx_graph.constant
// CHECK-NOT: lpx_graph.constant
// CHECK: %[[A0:.*]] = lpx_graph.state_write %{{.*}}, %arg1 into %arg2
// CHECK: %[[R0:.*]] = lpx_graph.neg %[[A0]]
// CHECK: %[[B0:.*]] = lpx_graph.state_write %{{.*}}, %arg1 into %arg3
// CHECK-NEXT: %[[U1:.*]] = lpx_graph.add %arg4, %[[C]] {lpx_part.chunk_op = 1 : i64
// CHECK-NEXT: %[[A1:.*]] = lpx_graph.state_write %[[U1]], %arg5 into %[[A0]]
// CHECK-NEXT: lpx_graph.neg %[[A1]]
// CHECK-NEXT: %[[S1:.*]] = lpx_graph.slice
// CHECK-NEXT: %[[B1:.*]] = lpx_graph.state_write %[[S1]], %arg5 into %[[B0]]
// CHECK-NEXT: %[[O:.*]] = lpx_graph.neg %[[B1]]
// CHECK-NEXT: return %[[O]]
//
// Cycles by hand (test-chip: 64-byte vectors; VXM and MEM 1 vector/cycle,
// latencies 2 and 1; SXM 1 vector/cycle, latency 5). An entry is 32 bytes
// (1 vector), a state 128 (2). Each op of copy 1 waits for its copy 0
// (lpx_part.chunk_op): copy 1's add issues when copy 0's is done, 0 + 1 + 2
// = 3 (the VXM is free from 1 on), and is done at 6; its write into A also
// waits for copy 0's neg of A (issued at 5, after copy 0's write at 3 + 1
// + 1), done at 5 + 2 + 2 = 9: without that wait it would overwrite A at 6
// while copy 0 still reads it. Copy 1's slice waits for copy 0's slice
// (9 + 2 + 5 = 16), though its operand is ready at 11 + 2 + 2 = 15.
// SCHED-LABEL: func.func @chunk
// SCHED: lpx_graph.neg %{{.*}} {lpx_part.chunk_op = 3 : i64, lpx_part.node = 0 : i64, lpx_sched.slot = #lpx_sched.slot<"vxm", 5, 2, 2>}
// SCHED: lpx_graph.slice %{{.*}} {lpx_part.chunk_op = 4 : i64, lpx_part.node = 0 : i64, lpx_sched.slot = #lpx_sched.slot<"sxm", 9, 2, 5>
// SCHED: lpx_graph.add %arg4, %{{.*}} {lpx_part.chunk_op = 1 : i64, lpx_part.node = 0 : i64, lpx_sched.slot = #lpx_sched.slot<"vxm", 3, 1, 2>}
// SCHED-NEXT: lpx_graph.state_write %{{.*}}, %arg5 into %{{.*}} {axis = 1 : i64, lpx_part.chunk_op = 2 : i64, lpx_part.node = 0 : i64, lpx_sched.slot = #lpx_sched.slot<"mem", 9, 1, 1>}
// SCHED-NEXT: lpx_graph.neg %{{.*}} {lpx_part.chunk_op = 3 : i64, lpx_part.node = 0 : i64, lpx_sched.slot = #lpx_sched.slot<"vxm", 11, 2, 2>}
// SCHED-NEXT: lpx_graph.slice %{{.*}} {lpx_part.chunk_op = 4 : i64, lpx_part.node = 0 : i64, lpx_sched.slot = #lpx_sched.slot<"sxm", 16, 2, 5>
// ONE-LABEL: func.func @chunk
// ONE-NOT: chunk1
// ONE: return
module attributes {lpx_part.num_nodes = 1 : i64} {
func.func @chunk(%x: tensor<1x2x4xf32> {lpx_graph.name = "x", lpx_part.node = 0 : i64},
                 %pos: tensor<1x2xi64> {lpx_graph.name = "position_ids", lpx_part.node = 0 : i64},
                 %ka: tensor<1x8x4xf32> {lpx_graph.name = "present.0.key", lpx_graph.state, lpx_part.node = 0 : i64},
                 %kb: tensor<1x8x4xf32> {lpx_graph.name = "present.1.key", lpx_graph.state, lpx_part.node = 0 : i64})
    -> tensor<1x8x4xf32> attributes {lpx_graph.outputs = ["logits"]} {
  %c = lpx_graph.constant {lpx_part.node = 0 : i64} dense<1.0> : tensor<1x2x4xf32>
  %u = lpx_graph.add %x, %c {lpx_part.node = 0 : i64} : (tensor<1x2x4xf32>, tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %a = lpx_graph.state_write %u, %pos into %ka {axis = 1 : i64, lpx_part.node = 0 : i64} : (tensor<1x8x4xf32>, tensor<1x2x4xf32>, tensor<1x2xi64>) -> tensor<1x8x4xf32>
  %r = lpx_graph.neg %a {lpx_part.node = 0 : i64} : tensor<1x8x4xf32>
  %s = lpx_graph.slice %r {starts = array<i64: 0, 0, 0>, steps = array<i64: 1, 1, 1>, lpx_part.node = 0 : i64} : (tensor<1x8x4xf32>) -> tensor<1x2x4xf32>
  %b = lpx_graph.state_write %s, %pos into %kb {axis = 1 : i64, lpx_part.node = 0 : i64} : (tensor<1x8x4xf32>, tensor<1x2x4xf32>, tensor<1x2xi64>) -> tensor<1x8x4xf32>
  %o = lpx_graph.neg %b {lpx_part.node = 0 : i64} : tensor<1x8x4xf32>
  return %o : tensor<1x8x4xf32>
}
}

