// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-share-transfers --lpx-verify-partitioned | FileCheck %s
// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-share-transfers --lpx-schedule | FileCheck %s --check-prefix=SCHED
//
// A value on node 0 read on nodes 8, 9 and 10 (test-chip: groups of 8, so
// the second group) and on node 1 (its own group). The three transfers
// into the second group become one to node 8, the chip the route reaches
// in one hop (node 0's global link 7 ends there), moved before the others,
// and local transfers from node 8 to 9 and 10; the transfer to node 1
// stays as it is.
// CHECK-LABEL: func.func @fan
// CHECK: %[[R:.*]] = lpx_part.transfer %arg0 {from = 0 : i64, lpx_part.node = 8 : i64, to = 8 : i64}
// CHECK-NEXT: lpx_part.transfer %[[R]] {from = 8 : i64, lpx_part.node = 9 : i64, to = 9 : i64}
// CHECK-NEXT: lpx_part.transfer %[[R]] {from = 8 : i64, lpx_part.node = 10 : i64, to = 10 : i64}
// CHECK-NEXT: lpx_part.transfer %arg0 {from = 0 : i64, lpx_part.node = 1 : i64, to = 1 : i64}
//
// By hand: 128 bytes are 2 flits of 72 wire bytes, 144; the global link
// (1 lane of 8 bytes a cycle) is busy 18 cycles, latency 200: the value
// crosses once, arriving at 218 (without the pass it crossed three times,
// departing at 0, 18 and 36). Node 8's transfers to 9 and 10 leave once it
// has the value, at 218, on two local links (2 lanes of 8 bytes: 9
// cycles, latency 100), arriving at 327.
// SCHED-LABEL: func.func @fan
// SCHED: lpx_sched.send %arg0 {arrive = 218 : i64, depart = 0 : i64, from = 0 : i64, link = 7 : i64
// SCHED-NOT: link = 7
// SCHED: lpx_sched.send %{{.*}} {arrive = 327 : i64, depart = 218 : i64, from = 8 : i64, link = 0 : i64
// SCHED-NOT: link = 7
// SCHED: lpx_sched.send %{{.*}} {arrive = 327 : i64, depart = 218 : i64, from = 8 : i64, link = 1 : i64
// SCHED-NOT: link = 7
// SCHED: return
module attributes {lpx_part.num_nodes = 16 : i64} {
func.func @fan(%x: tensor<1x32xf32> {lpx_graph.name = "x", lpx_part.node = 0 : i64}) -> (tensor<1x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>) {
  %a = lpx_part.transfer %x {from = 0 : i64, to = 9 : i64, lpx_part.node = 9 : i64} : tensor<1x32xf32>
  %b = lpx_part.transfer %x {from = 0 : i64, to = 8 : i64, lpx_part.node = 8 : i64} : tensor<1x32xf32>
  %c = lpx_part.transfer %x {from = 0 : i64, to = 10 : i64, lpx_part.node = 10 : i64} : tensor<1x32xf32>
  %d = lpx_part.transfer %x {from = 0 : i64, to = 1 : i64, lpx_part.node = 1 : i64} : tensor<1x32xf32>
  %na = lpx_graph.neg %a {lpx_part.node = 9 : i64} : tensor<1x32xf32>
  %nb = lpx_graph.neg %b {lpx_part.node = 8 : i64} : tensor<1x32xf32>
  %nc = lpx_graph.neg %c {lpx_part.node = 10 : i64} : tensor<1x32xf32>
  %nd = lpx_graph.neg %d {lpx_part.node = 1 : i64} : tensor<1x32xf32>
  return %na, %nb, %nc, %nd : tensor<1x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>
}
}
