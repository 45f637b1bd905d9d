// RUN: lpx-opt %s --lpx-grouped-attention -split-input-file | FileCheck %s

// Grouped-query attention without repeat_kv's copies: 4 query heads share 2
// KV heads (g = 2). The scores' MatMul reads the K^T state [1, 2, 4, 6]
// through repeat_kv (reshape, broadcast to 2 copies, reshape to 4 heads);
// the probabilities' MatMul reads V [1, 2, 6, 4] the same way. Each becomes
// one MatMul of the query heads of a KV head stacked as rows ([1, 2, 2, k])
// by the KV head itself, reshaped back to 4 heads; no broadcast is left.

// CHECK-LABEL: func.func @gqa(
// CHECK-SAME: %[[Q:[^:]*]]: tensor<1x4x1x4xf32>, %[[KT:[^:]*]]: tensor<1x2x4x6xf32>, %[[V:[^:]*]]: tensor<1x2x6x4xf32>
// CHECK-NOT: lpx_graph.broadcast
// CHECK: %[[QR:.*]] = lpx_graph.reshape %[[Q]] : tensor<1x4x1x4xf32> to tensor<1x2x2x4xf32>
// CHECK: %[[S:.*]] = lpx_graph.matmul %[[QR]], %[[KT]] : (tensor<1x2x2x4xf32>, tensor<1x2x4x6xf32>) -> tensor<1x2x2x6xf32>
// CHECK: %[[SR:.*]] = lpx_graph.reshape %[[S]] : tensor<1x2x2x6xf32> to tensor<1x4x1x6xf32>
// CHECK: %[[P:.*]] = lpx_graph.softmax %[[SR]]
// CHECK: %[[PR:.*]] = lpx_graph.reshape %[[P]] : tensor<1x4x1x6xf32> to tensor<1x2x2x6xf32>
// CHECK: %[[O:.*]] = lpx_graph.matmul %[[PR]], %[[V]] : (tensor<1x2x2x6xf32>, tensor<1x2x6x4xf32>) -> tensor<1x2x2x4xf32>
// CHECK: %[[OR:.*]] = lpx_graph.reshape %[[O]] : tensor<1x2x2x4xf32> to tensor<1x4x1x4xf32>
// CHECK: return %[[OR]]
func.func @gqa(%q: tensor<1x4x1x4xf32>, %kt: tensor<1x2x4x6xf32>, %v: tensor<1x2x6x4xf32>) -> tensor<1x4x1x4xf32> {
  %k1 = lpx_graph.reshape %kt : tensor<1x2x4x6xf32> to tensor<1x2x1x4x6xf32>
  %k2 = lpx_graph.broadcast %k1 : (tensor<1x2x1x4x6xf32>) -> tensor<1x2x2x4x6xf32>
  %k3 = lpx_graph.reshape %k2 : tensor<1x2x2x4x6xf32> to tensor<1x4x4x6xf32>
  %s = lpx_graph.matmul %q, %k3 : (tensor<1x4x1x4xf32>, tensor<1x4x4x6xf32>) -> tensor<1x4x1x6xf32>
  %p = lpx_graph.softmax %s {axis = 3 : i64} : tensor<1x4x1x6xf32>
  %v1 = lpx_graph.reshape %v : tensor<1x2x6x4xf32> to tensor<1x2x1x6x4xf32>
  %v2 = lpx_graph.broadcast %v1 : (tensor<1x2x1x6x4xf32>) -> tensor<1x2x2x6x4xf32>
  %v3 = lpx_graph.reshape %v2 : tensor<1x2x2x6x4xf32> to tensor<1x4x6x4xf32>
  %o = lpx_graph.matmul %p, %v3 : (tensor<1x4x1x6xf32>, tensor<1x4x6x4xf32>) -> tensor<1x4x1x4xf32>
  return %o : tensor<1x4x1x4xf32>
}

// -----

// K kept [1, 2, 6, 4] (a cache that is not resident state): the MatMul
// reads the transpose of the copies, so the KV head is transposed instead
// (one head's worth, not g copies).

// CHECK-LABEL: func.func @gqa_transposed(
// CHECK-SAME: %[[Q:[^:]*]]: tensor<1x4x1x4xf32>, %[[K:[^:]*]]: tensor<1x2x6x4xf32>
// CHECK-NOT: lpx_graph.broadcast
// CHECK-DAG: %[[KT:.*]] = lpx_graph.transpose %[[K]] {perm = array<i64: 0, 1, 3, 2>} : (tensor<1x2x6x4xf32>) -> tensor<1x2x4x6xf32>
// CHECK-DAG: %[[QR:.*]] = lpx_graph.reshape %[[Q]] : tensor<1x4x1x4xf32> to tensor<1x2x2x4xf32>
// CHECK: lpx_graph.matmul %[[QR]], %[[KT]] : (tensor<1x2x2x4xf32>, tensor<1x2x4x6xf32>) -> tensor<1x2x2x6xf32>
func.func @gqa_transposed(%q: tensor<1x4x1x4xf32>, %k: tensor<1x2x6x4xf32>) -> tensor<1x4x1x6xf32> {
  %k1 = lpx_graph.reshape %k : tensor<1x2x6x4xf32> to tensor<1x2x1x6x4xf32>
  %k2 = lpx_graph.broadcast %k1 : (tensor<1x2x1x6x4xf32>) -> tensor<1x2x2x6x4xf32>
  %k3 = lpx_graph.reshape %k2 : tensor<1x2x2x6x4xf32> to tensor<1x4x6x4xf32>
  %kt = lpx_graph.transpose %k3 {perm = array<i64: 0, 1, 3, 2>} : (tensor<1x4x6x4xf32>) -> tensor<1x4x4x6xf32>
  %s = lpx_graph.matmul %q, %kt : (tensor<1x4x1x4xf32>, tensor<1x4x4x6xf32>) -> tensor<1x4x1x6xf32>
  return %s : tensor<1x4x1x6xf32>
}

// -----

// Not repeat_kv: the copies are interleaved (broadcast along the last
// axis, then merged into the heads), so query head h does not read KV head
// h / g; and copies that another op also reads stay for it.

// CHECK-LABEL: func.func @not_repeat(
// CHECK: lpx_graph.broadcast
// CHECK: lpx_graph.matmul %{{.*}}, %{{.*}} : (tensor<1x4x1x4xf32>, tensor<1x4x4x6xf32>)
func.func @not_repeat(%q: tensor<1x4x1x4xf32>, %kt: tensor<1x2x4x6xf32>) -> tensor<1x4x1x6xf32> {
  %k1 = lpx_graph.reshape %kt : tensor<1x2x4x6xf32> to tensor<1x2x4x6x1xf32>
  %k2 = lpx_graph.broadcast %k1 : (tensor<1x2x4x6x1xf32>) -> tensor<1x2x4x6x2xf32>
  %k3 = lpx_graph.reshape %k2 : tensor<1x2x4x6x2xf32> to tensor<1x4x4x6xf32>
  %s = lpx_graph.matmul %q, %k3 : (tensor<1x4x1x4xf32>, tensor<1x4x4x6xf32>) -> tensor<1x4x1x6xf32>
  return %s : tensor<1x4x1x6xf32>
}

// CHECK-LABEL: func.func @shared_copies(
// CHECK: %[[C:.*]] = lpx_graph.reshape %{{.*}} : tensor<1x2x2x4x6xf32> to tensor<1x4x4x6xf32>
// CHECK: lpx_graph.matmul %{{.*}}, %{{.*}} : (tensor<1x2x2x4xf32>, tensor<1x2x4x6xf32>)
// CHECK: return %{{.*}}, %[[C]]
func.func @shared_copies(%q: tensor<1x4x1x4xf32>, %kt: tensor<1x2x4x6xf32>) -> (tensor<1x4x1x6xf32>, tensor<1x4x4x6xf32>) {
  %k1 = lpx_graph.reshape %kt : tensor<1x2x4x6xf32> to tensor<1x2x1x4x6xf32>
  %k2 = lpx_graph.broadcast %k1 : (tensor<1x2x1x4x6xf32>) -> tensor<1x2x2x4x6xf32>
  %k3 = lpx_graph.reshape %k2 : tensor<1x2x2x4x6xf32> to tensor<1x4x4x6xf32>
  %s = lpx_graph.matmul %q, %k3 : (tensor<1x4x1x4xf32>, tensor<1x4x4x6xf32>) -> tensor<1x4x1x6xf32>
  return %s, %k3 : tensor<1x4x1x6xf32>, tensor<1x4x4x6xf32>
}
