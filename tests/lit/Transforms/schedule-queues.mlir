// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip-queues.yaml" --lpx-schedule | FileCheck %s
//
// Inputs/test-chip-queues.yaml: test-chip with 2 VXM queues, each streaming
// 1 vector per cycle, latency 2 except sigmoid (7). A 1x32 f32 tensor is 2
// vectors: busy 2 for one pass, 3 passes (6) for sigmoid.
// Work still ahead (busy + latency to the end): neg 4 + 13 + 4 = 21,
// sigmoid 13 + 4 = 17, relu 4 + 4 + 4 = 12, add 8, mul 4; ready ops go
// longest first, each to the queue where it can start first (the lower on a
// tie).
//  neg:     issue 0 on queue 0, busy 2, done 4
//  sigmoid: operand ready at 4; both queues are free then: issue 4 on queue
//           0, busy 6, latency 7, done 17
//  relu:    queue 0 is taken for [0, 2) and [4, 10), queue 1 is free: issue
//           0 on queue 1, done 4
//  add:     needs relu (4) and neg (4): queue 0 is busy until 10, queue 1
//           free from 2: issue 4 on queue 1, done 8
//  mul:     needs sigmoid (17) and add (8): issue 17 on queue 0
// CHECK-LABEL: func.func @two_queues
// CHECK: lpx_graph.neg %arg0 {{.*}}#lpx_sched.slot<"vxm", 0, 2, 2>}
// CHECK: lpx_graph.relu %arg0 {{.*}}#lpx_sched.slot<"vxm", 0, 2, 2, queue = 1>}
// CHECK: lpx_graph.sigmoid {{.*}}#lpx_sched.slot<"vxm", 4, 6, 7>}
// CHECK: lpx_graph.add {{.*}}#lpx_sched.slot<"vxm", 4, 2, 2, queue = 1>}
// CHECK: lpx_graph.mul {{.*}}#lpx_sched.slot<"vxm", 17, 2, 2>}
module attributes {lpx_part.num_nodes = 1 : i64} {
func.func @two_queues(%x: tensor<1x32xf32>) -> tensor<1x32xf32> {
  %0 = lpx_graph.neg %x {lpx_part.node = 0 : i64} : tensor<1x32xf32>
  %1 = lpx_graph.relu %x {lpx_part.node = 0 : i64} : tensor<1x32xf32>
  %2 = lpx_graph.sigmoid %0 {lpx_part.node = 0 : i64} : tensor<1x32xf32>
  %3 = lpx_graph.add %1, %0 {lpx_part.node = 0 : i64} : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
  %4 = lpx_graph.mul %2, %3 {lpx_part.node = 0 : i64} : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
  return %4 : tensor<1x32xf32>
}
}
