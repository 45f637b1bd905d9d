// RUN: lpx-opt %s --lpx-schedule="chip=%S/../Inputs/test-chip-queues.yaml" | FileCheck %s
//
// Inputs/test-chip-queues.yaml: test-chip with 2 VXM queues, each streaming
// 1 vector per cycle, latency 2 except sigmoid (7). A 1x32 f32 tensor is 2
// vectors: busy 2 for one pass, 3 passes (6) for sigmoid.
//  neg:     queue 0 free at 0: issue 0, busy 2, done 4
//  relu:    queue 0 busy until 2, queue 1 free: issue 0 on queue 1, done 4
//  sigmoid: operand ready at 4; both queues free by then, the lowest wins:
//           issue 4 on queue 0, busy 6, latency 7, done 17
//  add:     needs relu (4) and neg (4): queue 0 busy until 10, queue 1 free
//           from 2: issue 4 on queue 1, done 8
//  mul:     needs sigmoid (17) and add (8): issue 17 on queue 0 (free at 10)
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
