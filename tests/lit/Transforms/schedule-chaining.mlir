// RUN: sed 's/^clock_mhz: 1000$/clock_mhz: 1000\nstream:\n  transport_cycles: 0\n  chaining: true/' %S/../Inputs/test-chip.yaml > %t.chaining.yaml
// RUN: lpx-opt %s --lpx-attach-chip="chip=%t.chaining.yaml" --lpx-schedule -split-input-file | FileCheck %s --check-prefix=CHAIN
// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-schedule -split-input-file | FileCheck %s --check-prefix=WHOLE
// RUN: sed 's/^vxm:$/vxm:\n  alus_per_lane: 2/' %t.chaining.yaml > %t.mesh.yaml
// RUN: lpx-opt %s --lpx-attach-chip="chip=%t.mesh.yaml" --lpx-schedule -split-input-file | FileCheck %s --check-prefix=MESH
//
// stream.chaining (docs/simulator.md, "Chaining"): a streaming consumer may
// issue once every vector it reads is available, vector i of a result at
// issue + latency + fill + (i + 1) S / V (S = busy - fill), vector j read at
// issue + fill + j S / V. Cycles derived by hand from Inputs/test-chip.yaml
// (vectors of 64 bytes, 16 lanes; VXM 1 vector/cycle, latency 2, 3 passes
// for transcendental ops; MEM 1 vector/cycle, latency 1; MXM one plane of
// 4x4, 10 cycles per tile per weight byte, 4 cycles per f32 vector, latency
// 3), with transport 0. The second prefix checks the same chip without
// chaining (whole tensors), the third the chaining chip with 2 ALUs per lane.

// [64,4] x [4,4] f32: one weight tile (installed in 40 cycles), the 64 rows
// stream at 4 cycles each: busy 40 + max(40, 256) = 296, fill 40, S = 256,
// latency 3 (activations stationary: 16 tiles of x^T, 40 + 16 x 40 = 680).
// The result is 1024 bytes = 16 vectors. The relu: 256 f32 elements = 16
// lane-vectors, busy 16, latency 2. It is faster (16 < 256), so the last
// vector decides: available at 3 + 40 + 256 = 299, read at issue + 15 x
// 16 / 16 -> issue 284 (whole tensors: 296 + 3 = 299).
// CHAIN-LABEL: func.func @mxm_then_relu
// CHAIN: lpx_graph.matmul {{.*}}lpx_sched.slot = #lpx_sched.slot<"mxm", 0, 296, 3>
// CHAIN: lpx_graph.relu {{.*}}lpx_sched.slot = #lpx_sched.slot<"vxm", 284, 16, 2>
// WHOLE-LABEL: func.func @mxm_then_relu
// WHOLE: lpx_graph.relu {{.*}}lpx_sched.slot = #lpx_sched.slot<"vxm", 299, 16, 2>
module attributes {lpx_part.num_nodes = 1 : i64} {
func.func @mxm_then_relu(%x: tensor<64x4xf32>) -> tensor<64x4xf32> {
  %w = lpx_graph.constant {lpx_part.node = 0 : i64} dense<1.0> : tensor<4x4xf32>
  %0 = lpx_graph.matmul %x, %w {lpx_part.node = 0 : i64} : (tensor<64x4xf32>, tensor<4x4xf32>) -> tensor<64x4xf32>
  %1 = lpx_graph.relu %0 {lpx_part.node = 0 : i64} : tensor<64x4xf32>
  return %1 : tensor<64x4xf32>
}
}

// -----

// A reshape is a MEM copy: 16 vectors, busy 16, latency 1. The sigmoid (3
// passes over 16 lane-vectors) is busy 48 and slower, so the first vector
// decides: available at 0 + 1 + 16 / 16 = 2 -> issue 2 (whole: 17). The add
// streams the sigmoid's result and reads the [4] bias whole (broadcast; an
// input, complete at 0). It is faster (16 < 48): the sigmoid's last vector,
// available at 2 + 2 + 48 = 52, is read at issue + 15, so it could issue at
// 37, but the one VXM queue is busy with the sigmoid until 50 (whole: 17 +
// 48 + 2 = 67).
// CHAIN-LABEL: func.func @copy_sigmoid_add
// CHAIN: lpx_graph.reshape {{.*}}lpx_sched.slot = #lpx_sched.slot<"mem", 0, 16, 1>
// CHAIN: lpx_graph.sigmoid {{.*}}lpx_sched.slot = #lpx_sched.slot<"vxm", 2, 48, 2>
// CHAIN: lpx_graph.add {{.*}}lpx_sched.slot = #lpx_sched.slot<"vxm", 50, 16, 2>
// WHOLE-LABEL: func.func @copy_sigmoid_add
// WHOLE: lpx_graph.sigmoid {{.*}}lpx_sched.slot = #lpx_sched.slot<"vxm", 17, 48, 2>
// WHOLE: lpx_graph.add {{.*}}lpx_sched.slot = #lpx_sched.slot<"vxm", 67, 16, 2>
module attributes {lpx_part.num_nodes = 1 : i64} {
func.func @copy_sigmoid_add(%x: tensor<256xf32>, %b: tensor<4xf32>) -> tensor<64x4xf32> {
  %0 = lpx_graph.reshape %x {lpx_part.node = 0 : i64} : tensor<256xf32> to tensor<64x4xf32>
  %1 = lpx_graph.sigmoid %0 {lpx_part.node = 0 : i64} : tensor<64x4xf32>
  %2 = lpx_graph.add %1, %b {lpx_part.node = 0 : i64} : (tensor<64x4xf32>, tensor<4xf32>) -> tensor<64x4xf32>
  return %2 : tensor<64x4xf32>
}
}

// -----

// Two vector operations in the ALU mesh (item 6). relu then neg over
// [64,4] f32 (16 lane-vectors: busy 16, one pass each, latency 2). Equal
// rates: the neg may read the relu's first vector at 0 + 2 + 16/16 = 3.
// With 2 ALUs per lane both fit, (1 + 1) x 1 <= 2, and the neg issues at 3
// while the relu still holds the queue (the queue is then busy until 19);
// with 1 ALU they do not, and the neg waits for the queue at 16; whole
// tensors, for the relu's result at 18.
// MESH-LABEL: func.func @mesh_pair
// MESH: lpx_graph.relu {{.*}}lpx_sched.slot = #lpx_sched.slot<"vxm", 0, 16, 2>
// MESH: lpx_graph.neg {{.*}}lpx_sched.slot = #lpx_sched.slot<"vxm", 3, 16, 2>
// CHAIN-LABEL: func.func @mesh_pair
// CHAIN: lpx_graph.neg {{.*}}lpx_sched.slot = #lpx_sched.slot<"vxm", 16, 16, 2>
// WHOLE-LABEL: func.func @mesh_pair
// WHOLE: lpx_graph.neg {{.*}}lpx_sched.slot = #lpx_sched.slot<"vxm", 18, 16, 2>
module attributes {lpx_part.num_nodes = 1 : i64} {
func.func @mesh_pair(%x: tensor<64x4xf32>) -> tensor<64x4xf32> {
  %0 = lpx_graph.relu %x {lpx_part.node = 0 : i64} : tensor<64x4xf32>
  %1 = lpx_graph.neg %0 {lpx_part.node = 0 : i64} : tensor<64x4xf32>
  return %1 : tensor<64x4xf32>
}
}
