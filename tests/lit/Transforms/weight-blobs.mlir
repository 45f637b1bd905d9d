// RUN: lpx-opt %s --lpx-graph-decompose --lpx-convert-types="weights=fp16" --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" --lpx-partition="nodes=2" | FileCheck %s
// RUN: lpx-opt %s --lpx-graph-decompose --lpx-convert-types="weights=fp16" | lpx-opt | FileCheck %s --check-prefix=ROUND
// RUN: lpx-opt %s --lpx-graph-decompose --lpx-convert-types="weights=int8" | FileCheck %s --check-prefix=INT8

// Weights with data held in blobs (dense_resource with bytes in the
// dialect_resources section, WeightBlobs.h) go through the passes that
// derive constants from constants: the Gemm's transpose, the fp16
// conversion and each node's column slice make new blobs, and the blobs
// they replace are freed, so only the slices are printed. The expected
// bytes are worked by hand: w = [[1,2],[3,4],[5,6],[7,8]] in f32; its
// transpose [[1,3,5,7],[2,4,6,8]] in f16 is 3C00 4200 4500 4700 / 4000 4400
// 4600 4800; node 0 holds columns 0-1, node 1 columns 2-3 (each blob
// starts with its alignment, 64, as a 4-byte little-endian word).
// CHECK-LABEL: func.func @gemm
// CHECK-DAG: lpx_graph.constant {lpx_part.node = 0 : i64} dense_resource<w.T.f16.part0> : tensor<2x2xf16>
// CHECK-DAG: lpx_graph.constant {lpx_part.node = 1 : i64} dense_resource<w.T.f16.part1> : tensor<2x2xf16>
// CHECK: dialect_resources
// CHECK-NOT: w:
// CHECK-NOT: w.T:
// CHECK-DAG: w.T.f16.part0: "0x40000000003C004200400044"
// CHECK-DAG: w.T.f16.part1: "0x400000000045004700460048"

// The printed resources parse back to the same bytes.
// ROUND: dense_resource<w.T.f16> : tensor<2x4xf16>
// ROUND: w.T.f16: "0x40000000003C0042004500470040004400460048"

// int8: scale 8/127, q = round(w * 127 / 8) = 16 48 79 111 / 32 64 95 127.
// INT8: lpx_graph.constant dense_resource<w.T.i8> : tensor<2x4xi8>
// INT8: w.T.i8: "0x4000000010304F6F20405F7F"
func.func @gemm(%x: tensor<1x2xf32>) -> tensor<1x4xf32> {
  %w = lpx_graph.constant dense_resource<w> : tensor<4x2xf32>
  %0 = lpx_graph.gemm %x, %w {transB = true} : (tensor<1x2xf32>, tensor<4x2xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

{-#
  dialect_resources: {
    builtin: {
      w: "0x040000000000803F0000004000004040000080400000A0400000C0400000E04000000041"
    }
  }
#-}
