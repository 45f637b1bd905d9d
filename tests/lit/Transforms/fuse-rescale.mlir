// RUN: lpx-opt %s --lpx-fuse-rescale -split-input-file -verify-diagnostics | FileCheck %s

// QuantizeLinear (div, round, add, clip, cast) of an f32 tensor: one
// quantize, pre 1, the zero point 3 kept.
// CHECK-LABEL: func.func @quantize
// CHECK-NEXT:  %[[Q:.*]] = lpx_graph.rescale "quantize" %arg0 {params = array<f64: 1.000000e+00, 5.000000e-01, 3.000000e+00, -1.280000e+02, 1.270000e+02>} : tensor<4xf32> to tensor<4xi8>
// CHECK-NEXT:  return %[[Q]]
func.func @quantize(%x: tensor<4xf32>) -> tensor<4xi8> {
  %s = lpx_graph.constant dense<0.5> : tensor<f32>
  %z = lpx_graph.constant dense<3.0> : tensor<f32>
  %d = lpx_graph.div %x, %s : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %r = lpx_graph.unary "round" %d : (tensor<4xf32>) -> tensor<4xf32>
  %a = lpx_graph.add %r, %z : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %c = lpx_graph.unary "clip" %a {params = array<f64: -128.0, 127.0>} : (tensor<4xf32>) -> tensor<4xf32>
  %q = lpx_graph.cast %c : tensor<4xf32> to tensor<4xi8>
  return %q : tensor<4xi8>
}

// -----

// The requantise between two int8 products: the int32 accumulator's cast,
// its scale (pre), the Relu (the floor rises to the zero point 2) and the
// quantize are one op on the accumulator. The last product's dequantising
// cast and mul are one dequantize.
// CHECK-LABEL: func.func @requantize
// CHECK:       %[[A:.*]] = lpx_graph.matmul
// CHECK-NEXT:  %[[Q:.*]] = lpx_graph.rescale "quantize" %[[A]] {params = array<f64: 2.500000e-01, 5.000000e-01, 2.000000e+00, 2.000000e+00, 1.270000e+02>} : tensor<2x4xi32> to tensor<2x4xi8>
// CHECK-NEXT:  %[[B:.*]] = lpx_graph.matmul %[[Q]]
// CHECK-NEXT:  %[[D:.*]] = lpx_graph.rescale "dequantize" %[[B]] {params = array<f64: 1.250000e-01, 0.000000e+00>} : tensor<2x4xi32> to tensor<2x4xf32>
// CHECK-NEXT:  return %[[D]]
func.func @requantize(%x: tensor<2x4xi8>, %w: tensor<4x4xi8>) -> tensor<2x4xf32> {
  %p = lpx_graph.constant dense<0.25> : tensor<f32>
  %s = lpx_graph.constant dense<0.5> : tensor<f32>
  %z = lpx_graph.constant dense<2.0> : tensor<f32>
  %o = lpx_graph.constant dense<0.125> : tensor<f32>
  %acc = lpx_graph.matmul %x, %w : (tensor<2x4xi8>, tensor<4x4xi8>) -> tensor<2x4xi32>
  %f = lpx_graph.cast %acc : tensor<2x4xi32> to tensor<2x4xf32>
  %m = lpx_graph.mul %f, %p : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
  %u = lpx_graph.relu %m : tensor<2x4xf32>
  %d = lpx_graph.div %u, %s : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
  %r = lpx_graph.unary "round" %d : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %a = lpx_graph.add %r, %z : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
  %c = lpx_graph.unary "clip" %a {params = array<f64: -128.0, 127.0>} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %q = lpx_graph.cast %c : tensor<2x4xf32> to tensor<2x4xi8>
  %acc2 = lpx_graph.matmul %q, %w : (tensor<2x4xi8>, tensor<4x4xi8>) -> tensor<2x4xi32>
  %f2 = lpx_graph.cast %acc2 : tensor<2x4xi32> to tensor<2x4xf32>
  %y = lpx_graph.mul %f2, %o : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

// -----

// Per-channel scales and a value read twice are left as they are.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:   rescale
// CHECK:       return
func.func @left_alone(%x: tensor<2x4xf32>, %i: tensor<2x4xi32>) -> (tensor<2x4xi8>, tensor<2x4xf32>, tensor<2x4xf32>) {
  %s = lpx_graph.constant dense<[0.5, 0.25, 1.0, 2.0]> : tensor<4xf32>
  %d = lpx_graph.div %x, %s : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %r = lpx_graph.unary "round" %d : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %c = lpx_graph.unary "clip" %r {params = array<f64: -128.0, 127.0>} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %q = lpx_graph.cast %c : tensor<2x4xf32> to tensor<2x4xi8>
  %k = lpx_graph.constant dense<0.5> : tensor<f32>
  %f = lpx_graph.cast %i : tensor<2x4xi32> to tensor<2x4xf32>
  %m = lpx_graph.mul %f, %k : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
  return %q, %m, %f : tensor<2x4xi8>, tensor<2x4xf32>, tensor<2x4xf32>
}

// -----

// A rescale that changes nothing's type is refused.
func.func @bad(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'quantize' cannot give element type 'f32'}}
  %q = lpx_graph.rescale "quantize" %x {params = array<f64: 1.0, 0.5, 0.0, -128.0, 127.0>} : tensor<4xf32> to tensor<4xf32>
  return %q : tensor<4xf32>
}
