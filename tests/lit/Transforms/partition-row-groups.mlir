// RUN: lpx-opt %s --lpx-attach-chip="chip=tsp-v1" --lpx-partition="nodes=16" | FileCheck %s
// RUN: lpx-opt %s --lpx-attach-chip="chip=tsp-v1" --lpx-partition="nodes=16" | FileCheck %s --check-prefix=CROSS
// RUN: lpx-opt %s --lpx-attach-chip="chip=tsp-v1" --lpx-partition="nodes=8" | FileCheck %s --check-prefix=ONE

// A reduction split across groups (PartitionGroups.cpp). [64 x 16384] x
// [16384 x 8192] f16: the reduction is the larger dimension and the 1 MiB
// partial products call for a reduce-scatter. On 16 tsp-v1 chips (two
// groups of 8, joined by one global link) each group takes 32 of the rows
// and holds the whole weight, cut by the reduction over its 8 chips (2048
// rows of it each, as 8 blocks of 1024 columns, 4 MiB per chip); it sums
// its rows over its own links. The input and the output are bound as grids
// of 2 x 8 pieces, and no value crosses groups.

// CHECK-LABEL: func.func @gemm
// CHECK-SAME: %arg0: tensor<32x2048xf16> {lpx_part.node = 0 : i64, lpx_part.offsets = array<i64: 0, 0>}
// CHECK-SAME: %arg7: tensor<32x2048xf16> {lpx_part.node = 7 : i64, lpx_part.offsets = array<i64: 0, 14336>}
// CHECK-SAME: %arg8: tensor<32x2048xf16> {lpx_part.node = 8 : i64, lpx_part.offsets = array<i64: 32, 0>}
// CHECK-SAME: %arg15: tensor<32x2048xf16> {lpx_part.node = 15 : i64, lpx_part.offsets = array<i64: 32, 14336>}
// CHECK-SAME: -> (tensor<32x1024xf16> {lpx_part.node = 0 : i64, lpx_part.offsets = array<i64: 0, 0>}
// CHECK-SAME: tensor<32x1024xf16> {lpx_part.node = 8 : i64, lpx_part.offsets = array<i64: 32, 0>}
// CHECK-SAME: tensor<32x1024xf16> {lpx_part.node = 15 : i64, lpx_part.offsets = array<i64: 32, 7168>})
// Chip 9 (group 1, second chip): its 2048 rows of the weight, every column
// block, times its piece of the input.
// CHECK-DAG: %[[W9:.*]] = lpx_graph.constant {lpx_part.node = 9 : i64} dense<1.000000e+00> : tensor<2048x1024xf16>
// CHECK-DAG: lpx_graph.matmul %arg9, %[[W9]] {lpx_part.node = 9 : i64} : (tensor<32x2048xf16>, tensor<2048x1024xf16>) -> tensor<32x1024xf16>
// Column block 1 of group 1 is summed on chip 9, its owner.
// CHECK-DAG: lpx_part.transfer %{{.*}} {from = 8 : i64, lpx_part.node = 9 : i64, to = 9 : i64} : tensor<32x1024xf16>
// CHECK-DAG: lpx_graph.add %{{.*}}, %{{.*}} {lpx_part.node = 9 : i64} : (tensor<32x1024xf16>, tensor<32x1024xf16>) -> tensor<32x1024xf16>

// CROSS-NOT: from = {{[0-7]}} : i64, lpx_part.node = {{[0-9]+}} : i64, to = {{8|9|1[0-5]}} :
// CROSS-NOT: from = {{8|9|1[0-5]}} : i64, lpx_part.node = {{[0-9]+}} : i64, to = {{[0-7]}} :
// CROSS: return

// One group: the reduction over all 8 chips, all 64 rows on each.
// ONE-LABEL: func.func @gemm
// ONE-SAME: %arg0: tensor<64x2048xf16> {lpx_part.node = 0 : i64, lpx_part.offsets = array<i64: 0, 0>}
// ONE: lpx_graph.matmul %arg0, %{{.*}} {lpx_part.node = 0 : i64} : (tensor<64x2048xf16>, tensor<2048x1024xf16>) -> tensor<64x1024xf16>

module {
func.func @gemm(%a: tensor<64x16384xf16>) -> tensor<64x8192xf16> {
  %w = lpx_graph.constant dense<1.0> : tensor<16384x8192xf16>
  %y = lpx_graph.matmul %a, %w : (tensor<64x16384xf16>, tensor<16384x8192xf16>) -> tensor<64x8192xf16>
  return %y : tensor<64x8192xf16>
}
}
