// RUN: lpx-opt %s --lpx-convert-types="weights=fp8e4m3 activations=fp16" -split-input-file | FileCheck %s
// RUN: lpx-opt %s --lpx-convert-types="weights=int8 activations=fp16" -split-input-file | FileCheck %s --check-prefix=INT8

// The host converts at the boundary: the input and the result are fp16 in
// the function's type, with no cast at entry or exit (the program a model
// exported in fp16 compiles to). The MatMul weight is rounded to
// fp8 e4m3 (0.1 = 1.6 * 2^-4 -> mantissa 0.6 * 8 = 4.8 -> 5: 1.625 * 2^-4 =
// 0.1015625; 448 is e4m3's largest value; 1 and -2 are exact); the bias,
// used by an add, becomes fp16.
// The formats asked for are recorded on the function, for the program.
// CHECK-LABEL: func.func @mlp
// CHECK-SAME: (%arg0: tensor<1x2xf16>) -> tensor<1x2xf16>
// CHECK-SAME: attributes {lpx_graph.activations_format = "fp16", lpx_graph.weights_format = "fp8e4m3"}
// CHECK-DAG:  lpx_graph.constant dense<{{\[\[}}1.015630e-01, 4.480000e+02], [1.000000e+00, -2.000000e+00]]> : tensor<2x2xf8E4M3FN>
// CHECK-DAG:  lpx_graph.constant dense<[2.500000e-01, 1.000000e+00]> : tensor<2xf16>
// CHECK-NOT:  lpx_graph.cast
// CHECK:      %[[M:.*]] = lpx_graph.matmul %arg0, %{{.*}} : (tensor<1x2xf16>, tensor<2x2xf8E4M3FN>) -> tensor<1x2xf16>
// CHECK-NEXT: %[[A:.*]] = lpx_graph.add %[[M]], %{{.*}} : (tensor<1x2xf16>, tensor<2xf16>) -> tensor<1x2xf16>
// CHECK-NEXT: return %[[A]]
func.func @mlp(%x: tensor<1x2xf32>) -> tensor<1x2xf32> {
  %w = lpx_graph.constant dense<[[0.1, 448.0], [1.0, -2.0]]> : tensor<2x2xf32>
  %b = lpx_graph.constant dense<[0.25, 1.0]> : tensor<2xf32>
  %0 = lpx_graph.matmul %x, %w : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x2xf32>
  %1 = lpx_graph.add %0, %b : (tensor<1x2xf32>, tensor<2xf32>) -> tensor<1x2xf32>
  return %1 : tensor<1x2xf32>
}

// -----

// Integer values are left alone.
// CHECK-LABEL: func.func @ints
// CHECK-NEXT: lpx_graph.add %arg0, %arg0 : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
func.func @ints(%x: tensor<2xi32>) -> tensor<2xi32> {
  %0 = lpx_graph.add %x, %x : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

// int8 weights: one symmetric scale per tensor, s = max|w| / 127 = 1.27 / 127
// = 0.01, so 0.5 -> 50, -1.27 -> -127, 1.0 -> 100, 0.01 -> 1; the MatMul's
// result is multiplied by s (0.01 in fp16: 1.000210e-02).
// INT8-LABEL: func.func @int8_weights
// INT8-SAME: (%arg0: tensor<1x2xf16>) -> tensor<1x2xf16>
// INT8:      %[[W:.*]] = lpx_graph.constant dense<{{\[\[}}50, -127], [100, 1]]> : tensor<2x2xi8>
// INT8-NEXT: %[[M:.*]] = lpx_graph.matmul %arg0, %[[W]] : (tensor<1x2xf16>, tensor<2x2xi8>) -> tensor<1x2xf16>
// INT8-NEXT: %[[S:.*]] = lpx_graph.constant dense<1.000210e-02> : tensor<f16>
// INT8-NEXT: lpx_graph.mul %[[M]], %[[S]] : (tensor<1x2xf16>, tensor<f16>) -> tensor<1x2xf16>
func.func @int8_weights(%x: tensor<1x2xf32>) -> tensor<1x2xf32> {
  %w = lpx_graph.constant dense<[[0.5, -1.27], [1.0, 0.01]]> : tensor<2x2xf32>
  %0 = lpx_graph.matmul %x, %w : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x2xf32>
  return %0 : tensor<1x2xf32>
}

// -----

// The attention-mask pattern Sub(1.0, Cast(mask)): the model's own cast of
// an integer input gives the activation format like every other float op,
// so the constant and the cast meet in fp16.
// CHECK-LABEL: func.func @mask
// CHECK-DAG:  %[[ONE:.*]] = lpx_graph.constant dense<1.000000e+00> : tensor<f16>
// CHECK-DAG:  %[[M:.*]] = lpx_graph.cast %arg0 : tensor<2xi64> to tensor<2xf16>
// CHECK:      lpx_graph.sub %[[ONE]], %[[M]] : (tensor<f16>, tensor<2xf16>) -> tensor<2xf16>
func.func @mask(%mask: tensor<2xi64>) -> tensor<2xf32> {
  %one = lpx_graph.constant dense<1.0> : tensor<f32>
  %m = lpx_graph.cast %mask : tensor<2xi64> to tensor<2xf32>
  %0 = lpx_graph.sub %one, %m : (tensor<f32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// QLinear requantisation between integers (f32(acc) * scale, + zero point,
// cast to int8) keeps f32: its float format is part of an integer result.
// The float input and the activation that leaves through the return are
// converted, in the function's type too.
// CHECK-LABEL: func.func @requant
// CHECK-SAME: (%arg0: tensor<4xi32>, %arg1: tensor<4xf16>) -> (tensor<4xi8>, tensor<4xf16>)
// CHECK:      lpx_graph.cast %arg0 : tensor<4xi32> to tensor<4xf32>
// CHECK:      lpx_graph.mul %{{.*}}, %{{.*}} : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK:      lpx_graph.cast %{{.*}} : tensor<4xf32> to tensor<4xi8>
// CHECK:      lpx_graph.add %{{.*}}, %{{.*}} : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
func.func @requant(%acc: tensor<4xi32>, %x: tensor<4xf32>) -> (tensor<4xi8>, tensor<4xf32>) {
  %s = lpx_graph.constant dense<0.5> : tensor<f32>
  %f = lpx_graph.cast %acc : tensor<4xi32> to tensor<4xf32>
  %m = lpx_graph.mul %f, %s : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %q = lpx_graph.cast %m : tensor<4xf32> to tensor<4xi8>
  %y = lpx_graph.add %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %q, %y : tensor<4xi8>, tensor<4xf32>
}
