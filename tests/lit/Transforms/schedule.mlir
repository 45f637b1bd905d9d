// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-schedule -split-input-file | FileCheck %s
//
// Cycles derived by hand from Inputs/test-chip.yaml: vectors of 64 bytes;
// VXM 1 vector/cycle, latency 2, transcendental ops take 3 passes; MXM one
// plane of 4x4, 10 cycles per weight tile per weight byte, 4 cycles per
// vector for 32-bit operands, latency 3; links 2 lanes x 8 = 16 bytes/cycle, 64-byte
// payload in 72-byte flits, latency 100.

// A 1x32 f32 tensor is 128 bytes = 2 vectors. Work still ahead of each op
// (busy + latency down to the end): neg 4 + 8 + 4 = 16, sigmoid 8 + 4 = 12,
// relu 4 + 4 = 8, add 4. Ready ops go longest-tail first:
//  neg:     issue 0, busy 2, done 0+2+2 = 4
//  sigmoid: (ready before relu, 12 > 8) needs neg (4): issue 4, busy 2*3 = 6,
//           done 4+6+2 = 12; the VXM is taken for [0, 2) and [4, 10)
//  relu:    operands ready at 0; the first 2 free cycles are [2, 4): issue
//           2, done 6
//  add:     needs sigmoid (12) and relu (6): issue 12
// CHECK-LABEL: func.func @vxm_chain
// CHECK: lpx_graph.neg %arg0 {lpx_part.node = 0 : i64, lpx_sched.slot = #lpx_sched.slot<"vxm", 0, 2, 2>}
// CHECK: lpx_graph.sigmoid %{{.*}} {lpx_part.node = 0 : i64, lpx_sched.slot = #lpx_sched.slot<"vxm", 4, 6, 2>}
// CHECK: lpx_graph.relu %arg0 {lpx_part.node = 0 : i64, lpx_sched.slot = #lpx_sched.slot<"vxm", 2, 2, 2>}
// CHECK: lpx_graph.add %{{.*}}, %{{.*}} {lpx_part.node = 0 : i64, lpx_sched.slot = #lpx_sched.slot<"vxm", 12, 2, 2>}
module attributes {lpx_part.num_nodes = 1 : i64} {
func.func @vxm_chain(%x: tensor<1x32xf32>) -> tensor<1x32xf32> {
  %0 = lpx_graph.neg %x {lpx_part.node = 0 : i64} : tensor<1x32xf32>
  %1 = lpx_graph.sigmoid %0 {lpx_part.node = 0 : i64} : tensor<1x32xf32>
  %2 = lpx_graph.relu %x {lpx_part.node = 0 : i64} : tensor<1x32xf32>
  %3 = lpx_graph.add %1, %2 {lpx_part.node = 0 : i64} : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
  return %3 : tensor<1x32xf32>
}
}

// -----

// 128 bytes = 2 flits = 144 wire bytes = 9 link cycles, then 100 of flight:
// departs at 0 on link 0 of node 0 (its first peer), arrives at 109; the neg
// on node 1 issues then.
// CHECK-LABEL: func.func @transfer
// CHECK: %[[S:.*]] = lpx_sched.send %arg0 {arrive = 109 : i64, depart = 0 : i64, from = 0 : i64, link = 0 : i64, lpx_part.node = 1 : i64, lpx_sched.slot = #lpx_sched.slot<"c2c", 0, 9, 100>, to = 1 : i64}
// CHECK: lpx_graph.neg %[[S]] {lpx_part.node = 1 : i64, lpx_sched.slot = #lpx_sched.slot<"vxm", 109, 2, 2>}
module attributes {lpx_part.num_nodes = 2 : i64} {
func.func @transfer(%x: tensor<1x32xf32>) -> tensor<1x32xf32> {
  %t = lpx_part.transfer %x {from = 0 : i64, to = 1 : i64, lpx_part.node = 1 : i64} : tensor<1x32xf32>
  %0 = lpx_graph.neg %t {lpx_part.node = 1 : i64} : tensor<1x32xf32>
  return %0 : tensor<1x32xf32>
}
}

// -----

// [1,8] x [8,4] f32: ceil(8/4) * ceil(4/4) = 2 weight tiles on one plane;
// loading a tile takes 10 * 4 bytes = 40 cycles, streaming the one row takes
// 4; busy = 40 (first load) + max(40, 4) (the second installs while the
// first streams) + 4 (the last streams alone) = 84, latency 3.
// CHECK-LABEL: func.func @matmul
// CHECK: lpx_graph.matmul %arg0, %{{.*}} {lpx_part.node = 0 : i64, lpx_sched.slot = #lpx_sched.slot<"mxm", 0, 84, 3>}
module attributes {lpx_part.num_nodes = 1 : i64} {
func.func @matmul(%x: tensor<1x8xf32>) -> tensor<1x4xf32> {
  %w = lpx_graph.constant {lpx_part.node = 0 : i64} dense<1.0> : tensor<8x4xf32>
  %0 = lpx_graph.matmul %x, %w {lpx_part.node = 0 : i64} : (tensor<1x8xf32>, tensor<8x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}
}

// -----

// 16 chips = two groups of 8 with one global link per chip: a group's 8
// ports all go to the other group (8 links a pair, topology.bundle_global_links),
// port q on chip q, each pair of chips joined once. Node 1 (group 0) to node
// 10 (group 1) takes copy (1 + 10) mod 8 = 3: group 0's port 3 on chip 3,
// group 1's port 3 on chip 11. Route: 1 -> 3 on local link 2, 3 -> 11 on
// global link 7 (the first after the 7 local ones), 11 -> 10 on local link 2.
// 128 bytes = 2 flits = 144 wire bytes: local hops take 9 cycles + 100
// latency, the global hop 144 / 8 = 18 cycles + 200. Intermediate chips
// forward flit by flit (link.cut_through, on by default): flit j of F leaves
// a hop at depart + j*busy/F and must have arrived over the previous one, at
// depart' + (j+1)*busy'/F + latency'. Hop 2 (9 cycles/flit in, 18 out): flit
// 0 decides, 0 + 4.5 + 100 -> 105; arrives 105 + 18 + 200 = 323. Hop 3 (18
// in, 4.5 out) catches up with the slower hop, so the last flit decides:
// 105 + 18 + 200 - 4.5 -> 319 (flit 0 would allow 314); arrives 319 + 9 +
// 100 = 428, where the neg on node 10 issues. Store and forward: 436.
// CHECK-LABEL: func.func @three_hops
// CHECK: %[[H1:.*]] = lpx_sched.send %arg0 {arrive = 109 : i64, depart = 0 : i64, from = 1 : i64, link = 2 : i64, lpx_part.node = 3 : i64
// CHECK: %[[H2:.*]] = lpx_sched.send %[[H1]] {arrive = 323 : i64, depart = 105 : i64, from = 3 : i64, link = 7 : i64, lpx_part.node = 11 : i64, lpx_sched.slot = #lpx_sched.slot<"c2c", 105, 18, 200>, to = 11 : i64}
// CHECK: %[[H3:.*]] = lpx_sched.send %[[H2]] {arrive = 428 : i64, depart = 319 : i64, from = 11 : i64, link = 2 : i64, lpx_part.node = 10 : i64
// CHECK: lpx_graph.neg %[[H3]] {lpx_part.node = 10 : i64, lpx_sched.slot = #lpx_sched.slot<"vxm", 428, 2, 2>}
module attributes {lpx_part.num_nodes = 16 : i64} {
func.func @three_hops(%x: tensor<1x32xf32>) -> tensor<1x32xf32> {
  %t = lpx_part.transfer %x {from = 1 : i64, to = 10 : i64, lpx_part.node = 10 : i64} : tensor<1x32xf32>
  %0 = lpx_graph.neg %t {lpx_part.node = 10 : i64} : tensor<1x32xf32>
  return %0 : tensor<1x32xf32>
}
}

// -----

// Two prefill chunks (lpx-unroll-chunks' copies carry lpx_part.chunk_op):
// each a sigmoid (2 vectors x 3 passes: busy 6, latency 2) then a neg (busy
// 2). Each op's copy waits for the chunk before's (a1 issues after a0 is
// done, b1 after b0). a0: [0, 6), done 8. At 8 both b0 (its operand done)
// and a1 (a0 done) are ready; the earlier chunk goes first, so chunk 0
// leaves the VXM at 12 instead of waiting behind chunk 1's sigmoid (the
// longer tail, 8 + 4 against 4, would have taken the VXM first):
//   b0: issue 8, done 12;  a1: the VXM is free at 10, done 10 + 6 + 2 = 18;
//   b1: after a1 (18) and b0 (12): issue 18.
// CHECK-LABEL: func.func @chunks_in_order
// CHECK: lpx_graph.sigmoid %arg0 {lpx_part.chunk_op = 0 : i64, lpx_part.node = 0 : i64, lpx_sched.slot = #lpx_sched.slot<"vxm", 0, 6, 2>}
// CHECK: lpx_graph.neg %{{.*}} {lpx_part.chunk_op = 1 : i64, lpx_part.node = 0 : i64, lpx_sched.slot = #lpx_sched.slot<"vxm", 8, 2, 2>}
// CHECK: lpx_graph.sigmoid %arg1 {lpx_part.chunk_op = 0 : i64, lpx_part.node = 0 : i64, lpx_sched.slot = #lpx_sched.slot<"vxm", 10, 6, 2>}
// CHECK: lpx_graph.neg %{{.*}} {lpx_part.chunk_op = 1 : i64, lpx_part.node = 0 : i64, lpx_sched.slot = #lpx_sched.slot<"vxm", 18, 2, 2>}
module attributes {lpx_part.num_nodes = 1 : i64} {
func.func @chunks_in_order(%x0: tensor<1x32xf32>, %x1: tensor<1x32xf32>) -> (tensor<1x32xf32>, tensor<1x32xf32>) {
  %a0 = lpx_graph.sigmoid %x0 {lpx_part.chunk_op = 0 : i64, lpx_part.node = 0 : i64} : tensor<1x32xf32>
  %b0 = lpx_graph.neg %a0 {lpx_part.chunk_op = 1 : i64, lpx_part.node = 0 : i64} : tensor<1x32xf32>
  %a1 = lpx_graph.sigmoid %x1 {lpx_part.chunk_op = 0 : i64, lpx_part.node = 0 : i64} : tensor<1x32xf32>
  %b1 = lpx_graph.neg %a1 {lpx_part.chunk_op = 1 : i64, lpx_part.node = 0 : i64} : tensor<1x32xf32>
  return %b0, %b1 : tensor<1x32xf32>, tensor<1x32xf32>
}
}
